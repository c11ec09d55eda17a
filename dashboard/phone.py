"""The sidebar closes on a narrow screen once a page is chosen. Streamlit closes it only
when the browser's user agent says "mobile"; a phone showing the desktop site, a small
tablet window or a narrow desktop window kept the sidebar over the page just chosen.

Streamlit also keeps the sidebar's last state in the browser (``localStorage``) and
prefers it to ``initial_sidebar_state``: a sidebar once opened on a narrow screen (to
switch the language) covered every later page load and every tab a name's link opened.
So the first run of a browser tab closes it too, and the kept state is forgotten on a
narrow screen (the next load starts as ``initial_sidebar_state="auto"`` says: closed)."""

from __future__ import annotations

from typing import Final

import streamlit as st

LAST_PAGE_KEY: Final = "phone_last_page"
#: below this width the sidebar lies over the page (Streamlit's own breakpoint)
NARROW: Final = "(max-width: 767.98px)"
#: runs in a same-origin iframe of the page; clicks the sidebar's own close button
_CLOSE: Final = f"""<script>
const top_ = window.parent;
function shut(tries) {{
  if (!top_.matchMedia("{NARROW}").matches) return;
  for (const key of Object.keys(top_.localStorage)) {{
    if (key.startsWith("stSidebarCollapsed-")) top_.localStorage.removeItem(key);
  }}
  const side = top_.document.querySelector('[data-testid="stSidebar"]');
  const close = top_.document.querySelector('[data-testid="stSidebarCollapseButton"] button');
  if (side && side.getAttribute("data-collapsed") === "false" && close) close.click();
  else if (tries > 0 && !side) setTimeout(() => shut(tries - 1), 100);
}}
shut(20);
</script>"""


def close_sidebar_after_navigation(page: str) -> None:
    """On a tab's first run and after a run that changed the page (not a filter's rerun),
    ask the browser to close the sidebar if the screen is narrow."""
    last = st.session_state.get(LAST_PAGE_KEY)
    st.session_state[LAST_PAGE_KEY] = page
    if last != page:
        with st.sidebar:
            # an HTML string: a same-origin iframe that runs the script; the page's name in it
            # makes each a new frame (the same HTML at the same place is not loaded again)
            st.iframe(f"<!-- {page} -->{_CLOSE}", height=1)
