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

from dashboard import cached_queries, page_kit

# the favicon is a file served by this server: no icon is fetched from the internet
st.set_page_config(page_title="chuanma", page_icon=str(page_kit.FAVICON), layout="wide")
page_kit.language_switch()
source = cached_queries.source()
page_kit.filter_sidebar(source)
page_kit.write_url()
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


pages = [
    home,
    st.Page(overview_link, title=page_kit.t("page_overview"), url_path="overview", visibility="hidden"),
    st.Page(
        page_kit.PAGES["players"],
        title=page_kit.t("page_players"),
        icon=":material/person:",
        url_path="players",
    ),
    st.Page(
        page_kit.PAGES["fans"], title=page_kit.t("page_fans"), icon=":material/bar_chart:", url_path="fans"
    ),
    st.Page(
        page_kit.PAGES["h2h"],
        title=page_kit.t("page_h2h"),
        icon=":material/swap_horiz:",
        url_path="head-to-head",
    ),
    st.Page(
        page_kit.PAGES["replay"],
        title=page_kit.t("page_replay"),
        icon=":material/play_circle:",
        url_path="replay",
    ),
    st.Page(
        page_kit.PAGES["session"],
        title=page_kit.t("page_session"),
        icon=":material/receipt_long:",
        url_path="session",
    ),
    st.Page(
        page_kit.PAGES["audit"], title=page_kit.t("page_audit"), icon=":material/search:", url_path="audit"
    ),
    st.Page(
        page_kit.PAGES["upload"], title=page_kit.t("page_upload"), icon=":material/upload:", url_path="upload"
    ),
    # issue 13: added pages
    st.Page(
        page_kit.PAGES["ratings"],
        title=page_kit.t("page_ratings"),
        icon=":material/trending_up:",
        url_path="ratings",
    ),
    st.Page(
        page_kit.PAGES["versus"], title=page_kit.t("page_versus"), icon=":material/group:", url_path="versus"
    ),
    st.Page(
        page_kit.PAGES["search"],
        title=page_kit.t("page_search"),
        icon=":material/manage_search:",
        url_path="search",
    ),
    st.Page(
        page_kit.PAGES["patterns"],
        title=page_kit.t("page_patterns"),
        icon=":material/grid_view:",
        url_path="patterns",
    ),
]
page = st.navigation(pages)
st.sidebar.caption(f"{page_kit.t('warehouse')}: `{source.path}` ({source.version})")
page.run()
