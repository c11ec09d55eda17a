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

from dashboard import data, ui

# the favicon is a file served by this server: no icon is fetched from the internet
st.set_page_config(page_title="chuanma", page_icon=str(ui.FAVICON), layout="wide")
ui.language_switch()
source = data.source()
ui.filter_sidebar(source)
ui.write_url()
home = st.Page(
    ui.PAGES["overview"],
    title=ui.t("page_overview"),
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
    st.Page(overview_link, title=ui.t("page_overview"), url_path="overview", visibility="hidden"),
    st.Page(ui.PAGES["players"], title=ui.t("page_players"), icon=":material/person:", url_path="players"),
    st.Page(ui.PAGES["fans"], title=ui.t("page_fans"), icon=":material/bar_chart:", url_path="fans"),
    st.Page(ui.PAGES["h2h"], title=ui.t("page_h2h"), icon=":material/swap_horiz:", url_path="head-to-head"),
    st.Page(ui.PAGES["replay"], title=ui.t("page_replay"), icon=":material/play_circle:", url_path="replay"),
    st.Page(
        ui.PAGES["session"], title=ui.t("page_session"), icon=":material/receipt_long:", url_path="session"
    ),
    st.Page(ui.PAGES["audit"], title=ui.t("page_audit"), icon=":material/search:", url_path="audit"),
    st.Page(ui.PAGES["upload"], title=ui.t("page_upload"), icon=":material/upload:", url_path="upload"),
    # issue 13: added pages
    st.Page(
        ui.PAGES["ratings"], title=ui.t("page_ratings"), icon=":material/trending_up:", url_path="ratings"
    ),
    st.Page(ui.PAGES["versus"], title=ui.t("page_versus"), icon=":material/group:", url_path="versus"),
    st.Page(
        ui.PAGES["search"], title=ui.t("page_search"), icon=":material/manage_search:", url_path="search"
    ),
    st.Page(
        ui.PAGES["patterns"], title=ui.t("page_patterns"), icon=":material/grid_view:", url_path="patterns"
    ),
    st.Page(ui.PAGES["record"], title=ui.t("page_record"), icon=":material/edit_note:", url_path="record"),
]
page = st.navigation(pages)
st.sidebar.caption(f"{ui.t('warehouse')}: `{source.path}` ({source.version})")
page.run()
