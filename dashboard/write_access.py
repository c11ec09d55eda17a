"""Who may write to the warehouse from a page, by the Upload page's rule (robust): with an
upload token set (``chuanma dashboard --upload-token``, the ``CHUANMA_UPLOAD_TOKEN``
variable, or ``upload_token`` in Streamlit's secrets) the visitor must give it; without
one, writing is open only while the server listens on localhost. The Record page writes
drafts and saves deals, so it asks the same question before it shows anything. Wrong
tokens are slowed down per client and logged (:mod:`dashboard.token_guard`)."""

from __future__ import annotations

import hashlib
import hmac
import math
import os
from collections.abc import Callable
from typing import Final

import streamlit as st

from dashboard.token_guard import GUARD
from dashboard.visitor import current, listens_beyond_localhost
from dashboard.warehouse_location import UPLOAD_TOKEN_ENV

#: the accepted upload token, kept past its field, and the address's parameter holding
#: it (a reload or a bookmark opens the Record page without typing it again)
KEPT_KEY: Final = "write_token_kept"
WRITE_PARAM: Final = "write"
#: the largest upload a visitor without write access may have validated (a read-only
#: server: ``chuanma dashboard`` also caps Streamlit's uploads at it)
READ_ONLY_LIMIT: Final = 4 << 20


def upload_token() -> str | None:
    """The token writing asks for, or None when none is set."""
    token = os.environ.get(UPLOAD_TOKEN_ENV)
    if not token:
        try:
            token = str(st.secrets.get("upload_token") or "") or None
        except Exception:  # no secrets file, or one that cannot be read: no token
            token = None
    return token or None


def may_write(token_label: str, token_help: str, read_only: str, key: str) -> bool:
    """Whether this visitor may write; draws the token field, or the read-only note. With
    club tokens (``dashboard/access.py``) the visitor's token decides: a recorder's writes."""
    decided = recorder_gate()
    if decided is not None:
        return decided
    token = upload_token()
    if token is not None:
        expected = token

        def right(typed: str) -> bool:
            return hmac.compare_digest(typed.encode(), expected.encode())

        kept = str(st.session_state.get(KEPT_KEY) or st.query_params.get(WRITE_PARAM) or "")
        if not (kept and right(kept)):
            kept = st.text_input(token_label, type="password", key=key, help=token_help)
            if not kept or not token_accepted(kept, right, key):
                return False
        st.session_state[KEPT_KEY] = kept  # the Upload and Record pages share it
        st.query_params[WRITE_PARAM] = kept  # the link the organiser bookmarks keeps it
        return True
    if listens_beyond_localhost():
        st.info(read_only, icon=":material/lock:")
        return False
    return True


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


def client_id() -> str:
    """Who is guessing, by what survives a reopened tab: the client's address."""
    try:
        address: object = st.context.ip_address
    except Exception:  # no request behind this run (a bare script): one shared client
        address = None
    # None at this machine; a test harness without a connection may give something else
    return address if isinstance(address, str) and address else "localhost"


def token_accepted(given: str, accepts: Callable[[str], bool], key: str) -> bool:
    """Compare a typed token, once per text typed (a rerun with the same text is not a new
    guess), and only when the client's wait after wrong tokens is over
    (:mod:`dashboard.token_guard`); says why a token is refused."""
    from dashboard import page_kit

    typed = hashlib.sha256(given.encode()).hexdigest()  # the session keeps a digest, not the text
    judged = st.session_state.get(key + "_judged")
    if judged is not None and judged[0] == typed:
        if not judged[1]:
            st.error(page_kit.t("token_refused"), icon=":material/lock:")
        return bool(judged[1])
    client = client_id()
    right = accepts(given)  # a right token always passes: a typo must not lock a club out
    if right:
        GUARD.passed(client)
    else:
        wait = GUARD.wait(client)  # a wrong one waits its turn (a guesser is held)
        if wait > 0:
            st.warning(page_kit.t("token_wait", seconds=math.ceil(wait)), icon=":material/hourglass_top:")
            return False
        GUARD.missed(client)
        st.error(page_kit.t("token_refused"), icon=":material/lock:")
    st.session_state[key + "_judged"] = (typed, right)
    return right
