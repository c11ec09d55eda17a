"""The table's live view link (牌桌直播): every player at the table follows the session on
their own phone, read-only, by a link the Record page shows with its QR code.

The link carries a random 32-byte token (``secrets.token_urlsafe``), kept in the session's
draft; the token is the only key: the live page passes no access gate, so it must name
one session and nothing else. It finds that session through a small index file named by
the token's SHA-256 (``<warehouse>/drafts/live/<sha256>.json``, holding the session id),
reads only that draft, and compares the token in constant time. A token of another shape,
an index naming a draft that holds another token, or none at all: no session.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
import re
import secrets
from pathlib import Path
from typing import Final
from urllib.parse import urlencode

from dashboard.record_draft import Draft, load_draft, save_draft

TOKEN_BYTES: Final = 32
#: what ``secrets.token_urlsafe(32)`` makes: 43 characters of the URL-safe alphabet
TOKEN_SHAPE: Final = re.compile(r"[A-Za-z0-9_-]{43}")
URL_TOKEN: Final = "t"
LIVE_PATH: Final = "live"


def index_path(warehouse: Path, token: str) -> Path:
    """The index file of a token: named by its hash, so the folder lists no token."""
    return warehouse / "drafts" / "live" / f"{hashlib.sha256(token.encode()).hexdigest()}.json"


def live_token(warehouse: Path, draft: Draft) -> str:
    """The draft's live token, made (and its index written, then the draft) the first time."""
    if draft.live_token is not None and index_path(warehouse, draft.live_token).is_file():
        return draft.live_token
    token = draft.live_token or secrets.token_urlsafe(TOKEN_BYTES)
    path = index_path(warehouse, token)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_suffix(f".tmp-{os.getpid()}")
    temp.write_text(
        json.dumps({"session_id": draft.session.session_id}, ensure_ascii=False), encoding="utf-8"
    )
    os.replace(temp, path)
    if draft.live_token != token:
        draft.live_token = token
        save_draft(warehouse, draft)
    return token


def live_draft(warehouse: Path, token: str | None) -> Draft | None:
    """The one session a token opens (open or closed), or None."""
    if not token or not TOKEN_SHAPE.fullmatch(token):
        return None
    try:
        session_id = json.loads(index_path(warehouse, token).read_text(encoding="utf-8"))["session_id"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    draft = load_draft(warehouse, str(session_id))
    if draft is None or draft.live_token is None:
        return None
    return draft if hmac.compare_digest(draft.live_token.encode(), token.encode()) else None


def live_url(base: str, token: str, lang: str) -> str:
    """The live view's address under the dashboard's ``base`` (scheme, host, path prefix)."""
    params = {URL_TOKEN: token, **({"lang": lang} if lang == "zh" else {})}
    return f"{base.rstrip('/')}/{LIVE_PATH}?{urlencode(params)}"


def qr_png(link: str) -> bytes:
    """The link as a QR code (PNG, black on white, a quiet zone), for a phone's camera."""
    import segno

    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="png", scale=6, border=4, dark="#000", light="#fff")
    return out.getvalue()
