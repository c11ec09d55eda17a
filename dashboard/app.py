"""The dashboard's entry point (``chuanma dashboard`` runs ``streamlit run`` on it).

It draws what every page shares (the language switch, the filters, the warehouse's
name) and then the chosen page: ``st.navigation`` with one ``st.Page`` per file of
``app_pages/``. That folder is not called ``pages/``: Streamlit takes a ``pages/`` folder
beside the entry point for its older multipage mode until ``st.navigation`` has run once,
so a server whose first visitor opened a deep link (``/replay?deal=...``) ran the page
alone, without this frame. The warehouse is ``--warehouse DIR`` given after ``--``, else
the ``CHUANMA_WAREHOUSE`` variable, else ``data/warehouse``.
"""

from __future__ import annotations

import streamlit as st

from dashboard import access_gate, cached_queries, page_kit, table_size
from dashboard.phone import close_sidebar_after_navigation
from dashboard.visitor import listens_beyond_localhost
from dashboard.widget_words import put_widget_words

# the favicon is a file served by this server: no icon is fetched from the internet
# "auto": closed below Streamlit's breakpoint (768 px) whatever the user agent says; the
# state a browser kept from an earlier visit is forgotten there (dashboard/phone.py)
st.set_page_config(
    page_title="chuanma", page_icon=str(page_kit.FAVICON), layout="wide", initial_sidebar_state="auto"
)
page_kit.language_switch()
home = st.Page(
    page_kit.PAGES["overview"],
    title=page_kit.t("page_overview"),
    icon=":material/dashboard:",
    url_path="home",
    default=True,
)


def overview_link() -> None:
    """``/overview`` (a deep link people type or share): the overview, at the root, with
    the link's parameters (a default page is served at the root only)."""
    st.switch_page(home, query_params=dict(st.query_params))


#: the listed pages in the sidebar's order: (page, icon, url_path); the title is ``page_<page>``
LISTED = (
    ("players", ":material/person:", "players"),
    ("fans", ":material/bar_chart:", "fans"),
    ("h2h", ":material/swap_horiz:", "head-to-head"),
    ("replay", ":material/play_circle:", "replay"),
    ("session", ":material/receipt_long:", "session"),
    ("night", ":material/nightlife:", "night"),
    ("record", ":material/edit_note:", "record"),
    ("audit", ":material/search:", "audit"),
    ("upload", ":material/upload:", "upload"),
    ("ratings", ":material/trending_up:", "ratings"),  # the pages added after the first ones
    ("versus", ":material/group:", "versus"),
    ("search", ":material/manage_search:", "search"),
    ("patterns", ":material/grid_view:", "patterns"),
    ("review", ":material/psychology:", "review"),
)
pages = [
    home,
    st.Page(overview_link, title=page_kit.t("page_overview"), url_path="overview", visibility="hidden"),
    *(
        st.Page(page_kit.PAGES[key], title=page_kit.t(f"page_{key}"), icon=icon, url_path=path)
        for key, icon, path in LISTED
    ),
    # the table's live view: by its link only (dashboard/live_link.py), not in the sidebar
    st.Page(page_kit.PAGES["live"], title=page_kit.t("live_title"), url_path="live", visibility="hidden"),
]
page = st.navigation(pages, expanded=True)  # every page listed: no "View N more" (English on a 中文 page)
if page.url_path == "live":  # its link's token is its only key: no gate, no filters, one session
    page.run()
    st.stop()
close_sidebar_after_navigation(page.url_path)
access_gate.gate()  # with club tokens: a token first (the page chosen stays chosen), then its club only
source = cached_queries.source()
page_kit.filter_sidebar(source)
table_size.seats_picker(source)  # where the club plays at more than one table size
page_kit.write_url()
if not listens_beyond_localhost():  # where the warehouse lives: only for a visitor at this machine
    st.sidebar.caption(f"{page_kit.t('warehouse')}: `{source.path}` ({source.version})")
put_widget_words(page_kit.lang())  # Streamlit's own English ("Copy to clipboard") on a 中文 page
page.run()
