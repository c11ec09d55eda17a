"""The dashboard under club tokens (``dashboard/access.py``): once a warehouse has a token,
a visitor gives one in the sidebar before any page shows, and then sees its club only
(the club filter is fixed to it, a link to another club's session or deal finds nothing);
the Upload and Record pages write for a recorder's club only. Without tokens nothing
changes. A wrong token is slowed and logged as the upload token is
(``dashboard/token_guard.py``)."""

from __future__ import annotations

import logging

import streamlit as st

from dashboard.access import AccessError, Grant, active, grant_of, load_grants
from dashboard.warehouse_location import warehouse_path

TOKEN_KEY = "access_token"
GRANT_KEY = "access_grant"


def gate() -> None:
    """Ask for a club's token when the warehouse has any; stop the page until one is
    accepted. Called by the app before the filters."""
    st.session_state.pop(GRANT_KEY, None)
    try:
        grants = load_grants(warehouse_path())
    except AccessError as error:  # a damaged file must not open what it guarded
        from dashboard import page_kit

        logging.getLogger("chuanma.dashboard").error("the access file: %s", error)
        st.error(page_kit.t("access_unreadable"), icon=":material/lock:")
        st.stop()
    if not active(grants):
        return
    from dashboard import page_kit
    from dashboard.write_access import token_accepted

    given = st.sidebar.text_input(page_kit.t("access_token"), type="password", key=TOKEN_KEY,
                                  help=page_kit.t("access_token_help"))  # fmt: skip
    if not given or not token_accepted(given, lambda typed: grant_of(grants, typed) is not None, TOKEN_KEY):
        st.info(page_kit.t("access_needed"), icon=":material/lock:")
        st.stop()
    grant = grant_of(grants, given)
    if grant is None:  # revoked since it was judged
        st.session_state.pop(TOKEN_KEY + "_judged", None)
        st.stop()
    st.session_state[GRANT_KEY] = grant
    st.sidebar.caption(page_kit.t("access_as", role=page_kit.t(f"access_role_{grant.role}"), club=grant.club))


def current() -> Grant | None:
    """The token this visitor's pages run under (None: no club tokens, every club)."""
    grant = st.session_state.get(GRANT_KEY)
    return grant if isinstance(grant, Grant) else None


def club() -> str | None:
    """The one club this visitor may see, or None for every club."""
    grant = current()
    return grant.club if grant is not None else None


def shows(club_of_row: object) -> bool:
    """Whether a session or deal of ``club_of_row`` may be shown to this visitor."""
    only = club()
    return only is None or club_of_row == only


def recorder_gate() -> bool | None:
    """Under club tokens, whether this visitor may write (a recorder's or an admin's token;
    a viewer is told why not); None without club tokens (the upload token's rule then)."""
    grant = current()
    if grant is None:
        return None
    if grant.allows("recorder"):
        return True
    from dashboard import page_kit

    st.info(page_kit.t("access_recorder_needed"), icon=":material/lock:")
    return False
