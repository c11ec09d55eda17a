"""The sidebar closes on a narrow screen once a page is chosen. Streamlit closes it only
when the browser's user agent says "mobile"; a phone showing the desktop site, a small
tablet window or a narrow desktop window kept the sidebar over the page just chosen."""

from __future__ import annotations

from typing import Final

import streamlit as st

LAST_PAGE_KEY: Final = "phone_last_page"
#: below this width the sidebar lies over the page (Streamlit's own breakpoint)
NARROW: Final = "(max-width: 767.98px)"
#: runs in a same-origin iframe of the page; clicks the sidebar's own close button
_CLOSE: Final = f"""<script>
const top_ = window.parent;
if (top_.matchMedia("{NARROW}").matches) {{
  const side = top_.document.querySelector('[data-testid="stSidebar"]');
  const close = top_.document.querySelector('[data-testid="stSidebarCollapseButton"] button');
  if (side && side.getAttribute("data-collapsed") === "false" && close) close.click();
}}
</script>"""


def close_sidebar_after_navigation(page: str) -> None:
    """After a run that changed the page (not the first, not a filter's rerun), ask the
    browser to close the sidebar if the screen is narrow."""
    last = st.session_state.get(LAST_PAGE_KEY)
    st.session_state[LAST_PAGE_KEY] = page
    if last is not None and last != page:
        with st.sidebar:
            st.iframe(_CLOSE, height=1)  # an HTML string: a same-origin iframe that runs the script
