"""Who may write to the warehouse from a page, by the Upload page's rule (robust): with an
upload token set (``chuanma dashboard --upload-token``, the ``CHUANMA_UPLOAD_TOKEN``
variable, or ``upload_token`` in Streamlit's secrets) the visitor must give it; without
one, writing is open only while the server listens on localhost. The Record page writes
drafts and saves deals, so it asks the same question before it shows anything."""

from __future__ import annotations

import hmac
import os
from typing import Final

import streamlit as st

from dashboard.warehouse_location import UPLOAD_TOKEN_ENV

LOCAL: Final = frozenset({"localhost", "127.0.0.1", "::1"})


def upload_token() -> str | None:
    """The token writing asks for, or None when none is set."""
    token = os.environ.get(UPLOAD_TOKEN_ENV)
    if not token:
        try:
            token = str(st.secrets.get("upload_token") or "") or None
        except Exception:  # no secrets file, or one that cannot be read: no token
            token = None
    return token or None


def listens_beyond_localhost() -> bool:
    address = str(st.get_option("server.address") or "")
    return address not in LOCAL  # Streamlit's default (empty) listens on every address


def may_write(token_label: str, token_help: str, read_only: str, key: str) -> bool:
    """Whether this visitor may write; draws the token field, or the read-only note."""
    token = upload_token()
    if token is not None:
        given = st.text_input(token_label, type="password", key=key, help=token_help)
        return bool(given) and hmac.compare_digest(given.encode(), token.encode())
    if listens_beyond_localhost():
        st.info(read_only, icon=":material/lock:")
        return False
    return True
