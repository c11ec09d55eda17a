"""Who is at the page: the club token's grant this visitor's pages run under (the gate,
``dashboard/access_gate.py``, sets it), and whether the server may be reached from beyond
this machine. Nothing is drawn here: the page kit and the gates both read it."""

from __future__ import annotations

from typing import Final

import streamlit as st

from dashboard.access import Grant

GRANT_KEY: Final = "access_grant"
LOCAL: Final = frozenset({"localhost", "127.0.0.1", "::1"})


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


def listens_beyond_localhost() -> bool:
    address = str(st.get_option("server.address") or "")
    return address not in LOCAL  # Streamlit's default (empty) listens on every address
