"""A session's closing record (散场): written when the Record page closes a session,
``<warehouse>/closings/<session>.json``: when it closed, the saved deals' totals and the
money settings it was settled with (value of a point, fee, rounding), which the Session
result page opens with. Written whole (temp file + ``os.replace``); a session is closed
once, and its draft then leaves "Continue a session" (nothing is deleted)."""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any, Final

from dashboard.record_draft import safe_name
from engine.money import MoneyError, MoneyRule

CLOSINGS: Final = "closings"
FORMAT: Final = 1


def closing_path(warehouse: str | Path, session_id: str) -> Path:
    return Path(warehouse) / CLOSINGS / f"{safe_name(session_id)}.json"


def write_closing(
    warehouse: str | Path,
    session_id: str,
    totals: tuple[int, ...],
    money: MoneyRule | None,
    closed_at: str,
    players: dict[str, int] | None = None,
) -> Path:
    """Record the close; an existing record of the session is never overwritten.
    ``players``: each player's total by name, written (an added key) when the seats
    changed during the session, so a player who left is not lost in a seat's total."""
    path = closing_path(warehouse, session_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "format": FORMAT,
        "session_id": session_id,
        "closed_at": closed_at,
        "totals": list(totals),
        "money": None if money is None else asdict(money),
    }
    if players is not None:
        record["player_totals"] = players
    temp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    temp.write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")
    try:
        os.link(temp, path)  # fails if the session was closed already: the first close stands
    finally:
        temp.unlink()
    return path


def read_closing(warehouse: str | Path, session_id: str) -> dict[str, Any] | None:
    """The session's closing record, or None (not closed, or unreadable)."""
    try:
        record = json.loads(closing_path(warehouse, session_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ok = isinstance(record, dict) and record.get("session_id") == session_id
    return record if ok else None


def money_of(record: dict[str, Any]) -> MoneyRule | None:
    """The money settings a closing record holds, or None (none set, or not usable)."""
    money = record.get("money")
    if not isinstance(money, dict):
        return None
    try:
        return MoneyRule(**money)
    except (TypeError, MoneyError):
        return None
