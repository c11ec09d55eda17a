"""The dashboard under club tokens (``dashboard/access.py``): once a warehouse has a token,
a visitor gives one on the page before any page shows (or opens the link holding it), and then sees its club only
(the club filter is fixed to it, a link to another club's session or deal finds nothing);
the Upload and Record pages write for a recorder's club only (``dashboard/visitor.py``
holds the grant the pages read). Without tokens nothing changes. A wrong token is slowed and logged as the upload token is
(``dashboard/token_guard.py``)."""

from __future__ import annotations

import logging

import streamlit as st

from dashboard import page_kit
from dashboard.access import AccessError, active, grant_of, load_grants
from dashboard.visitor import GRANT_KEY
from dashboard.warehouse_location import warehouse_path
from dashboard.write_access import token_accepted

TOKEN_KEY = "access_token"
#: the accepted token, kept past the field (a widget's state goes when it is not drawn)
KEPT_KEY = "access_token_kept"
#: the address's parameter holding the token: the organiser bookmarks the link, and a
#: reload or a phone's new tab opens the club without typing 55 characters again
PARAM = "token"


def gate() -> None:
    """Ask for a club's token when the warehouse has any; stop the page until one is
    accepted. Called by the app before the filters. The field is on the page itself (a
    phone's sidebar is closed); an accepted token stays in the session and in the link."""
    st.session_state.pop(GRANT_KEY, None)
    try:
        grants = load_grants(warehouse_path())
    except AccessError as error:  # a damaged file must not open what it guarded
        logging.getLogger("chuanma.dashboard").error("the access file: %s", error)
        st.error(page_kit.t("access_unreadable"), icon=":material/lock:")
        st.stop()
    if not active(grants):
        return

    def known(typed: str) -> bool:
        return grant_of(grants, typed) is not None

    given = st.session_state.get(KEPT_KEY) or st.query_params.get(PARAM) or ""
    if not given or grant_of(grants, given) is None:
        st.session_state.pop(KEPT_KEY, None)
        given = st.text_input(page_kit.t("access_token"), type="password", key=TOKEN_KEY,
                              help=page_kit.t("access_token_help"))  # fmt: skip
        if not given or not token_accepted(given, known, TOKEN_KEY):
            st.info(page_kit.t("access_needed"), icon=":material/lock:")
            st.stop()
    grant = grant_of(grants, given)
    if grant is None:  # revoked since it was judged
        st.session_state.pop(TOKEN_KEY + "_judged", None)
        st.stop()
    st.session_state[KEPT_KEY] = given
    st.query_params[PARAM] = given  # the link to bookmark (every page's run keeps it there)
    st.session_state[GRANT_KEY] = grant
    st.sidebar.caption(page_kit.t("access_as", role=page_kit.t(f"access_role_{grant.role}"), club=grant.club))
