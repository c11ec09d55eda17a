"""A session being recorded at the table, kept in a file so a reload (or a phone that
locks and reloads the tab) loses nothing: ``<warehouse>/drafts/<session>.json``, written
whole after every tap (temp file + ``os.replace``). The page's URL carries the session
id (``?record=SESSION_ID``), which names the file. Saved deals stay in the draft with
their revision number, so a correction is written as the next revision. A deal under way
while a saved one is corrected is kept aside (``held``) and comes back once the correction
is saved or cancelled; a draft written before ``held`` existed reads with none, and one
written before the live view (``live_token``, ``money``) with neither.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ingest.sheets.record import DealFacts, EndFact, Fact, KongFact, SessionFacts, WinFact, log_text
from ingest.warehouse import IngestSummary, ingest


@dataclass
class Draft:
    session: SessionFacts
    saved: list[DealFacts] = field(default_factory=list)  # the latest revision of each saved deal
    current: DealFacts | None = None  # the deal being recorded (a new one, or a correction)
    held: DealFacts | None = None  # the deal under way, kept aside while a saved one is corrected
    closed_at: str | None = None  # when the session was closed (dashboard/closing.py): no more recording
    #: who sat at each saved deal, when the seats changed since (a player left, a substitute
    #: took the seat); a deal not listed was played by ``session.players``
    deal_players: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: the table's live view (dashboard/live_link.py): the unguessable token of its link,
    #: made when the Record page first shows the link; None before
    live_token: str | None = None
    #: the money settings set while recording (``engine.money.MoneyRule`` as a dict), so
    #: the live view shows 元 before the close; None: none set
    money: dict[str, Any] | None = None

    def session_for(self, deal_id: str) -> SessionFacts:
        """The session as a deal was (or is being) played: its own players (one a seat)."""
        players = self.deal_players.get(deal_id)
        return self.session if players is None else replace(self.session, players=players)

    def substitute(self, seat: int, name: str) -> None:
        """A player leaves and ``name`` takes the seat from the next deal on; the saved
        deals keep who played them. Only between deals (the deal under way has no events)."""
        name = name.strip()
        if self.current is not None and (self.current.events or self.correcting()):
            raise ValueError("the seats change between deals: save or undo the deal under way first")
        if not name or name in self.session.players:
            raise ValueError(f"{name!r} cannot take the seat: a name not already at the table is needed")
        for deal in self.saved:  # who played the saved deals stays as it was
            self.deal_players.setdefault(deal.deal_id, self.session.players)
        players = list(self.session.players)
        players[seat] = name
        self.session = replace(self.session, players=tuple(players))

    def seats_changed(self) -> bool:
        """Whether some saved deal was played by other players than the table's now."""
        return any(players != self.session.players for players in self.deal_players.values())

    def next_deal_id(self) -> str:
        return f"{self.session.session_id}-{len(self.saved) + 1:02d}"

    def fresh_deal(self) -> DealFacts:
        return DealFacts(self.next_deal_id(), self.next_dealer())

    def next_dealer(self) -> int:
        """The next dealer: the first winner of the last deal (血战到底), else the last dealer."""
        if not self.saved:
            return 0
        last = self.saved[-1]
        wins = [fact.seat for fact in last.events if isinstance(fact, WinFact)] if not last.deleted else []
        return wins[0] if wins else last.dealer

    def correcting(self) -> bool:
        """Whether the deal being recorded is a correction of a saved deal."""
        return self.current is not None and self.current.deal_id in {d.deal_id for d in self.saved}

    def resume_held(self) -> bool:
        """Bring the held deal back once its correction is over: the deal being recorded
        is then a fresh one under the held deal's id (what a save leaves). True if it did."""
        held, current = self.held, self.current
        if held is None or self.correcting():
            return False
        if current is not None and (current.deal_id != held.deal_id or current.events or current.end):
            return False
        self.current, self.held = held, None
        return True


def safe_name(session_id: str) -> str:
    """A file name from a session id: letters and digits of any script, ``.-_`` kept."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in session_id).strip(".") or "session"


def draft_path(warehouse: Path, session_id: str) -> Path:
    return warehouse / "drafts" / f"{safe_name(session_id)}.json"


def _fact_json(fact: Fact) -> dict[str, Any]:
    return {"kind_of": "kong" if isinstance(fact, KongFact) else "win", **asdict(fact)}


def _deal_json(deal: DealFacts) -> dict[str, Any]:
    return {
        "deal_id": deal.deal_id,
        "dealer": deal.dealer,
        "revision": deal.revision,
        "events": [_fact_json(fact) for fact in deal.events],
        "end": None if deal.end is None else asdict(deal.end),
        "deleted": deal.deleted,
        **({"nets": list(deal.nets)} if deal.nets is not None else {}),  # quick entry only
    }


def _deal(data: dict[str, Any]) -> DealFacts:
    events: list[Fact] = []
    for item in data["events"]:
        if item["kind_of"] == "kong":
            same_turn = bool(item.get("same_turn", True))  # drafts saved before it: true
            events.append(KongFact(int(item["seat"]), str(item["kind"]), item.get("from_seat"), same_turn))
        else:
            events.append(WinFact(int(item["seat"]), item.get("from_seat"), tuple(item["patterns"])))
    end = data.get("end")
    return DealFacts(
        str(data["deal_id"]),
        int(data.get("dealer", 0)),
        tuple(events),
        None if end is None else EndFact(tuple(end["ready"]), tuple(end["flower_pigs"])),
        int(data.get("revision", 1)),
        bool(data.get("deleted", False)),
        None if data.get("nets") is None else tuple(int(n) for n in data["nets"]),
    )


def to_json(draft: Draft) -> dict[str, Any]:
    session = asdict(draft.session)
    session["players"] = list(draft.session.players)
    return {
        "format": 1,
        "session": session,
        "saved": [_deal_json(deal) for deal in draft.saved],
        "current": None if draft.current is None else _deal_json(draft.current),
        "held": None if draft.held is None else _deal_json(draft.held),
        "closed_at": draft.closed_at,
        "deal_players": {deal_id: list(players) for deal_id, players in draft.deal_players.items()},
        "live_token": draft.live_token,
        "money": draft.money,
    }


def from_json(data: dict[str, Any]) -> Draft:
    s = data["session"]
    session = SessionFacts(
        str(s["session_id"]), tuple(s["players"]), s.get("rules", "standard"), int(s.get("base", 1)),
        s.get("club"), s.get("table"), s.get("started_at"),
    )  # fmt: skip
    current, held = data.get("current"), data.get("held")
    return Draft(
        session,
        [_deal(d) for d in data.get("saved", [])],
        None if current is None else _deal(current),
        None if held is None else _deal(held),
        None if data.get("closed_at") is None else str(data["closed_at"]),
        {str(k): tuple(str(n) for n in v) for k, v in (data.get("deal_players") or {}).items()},
        None if data.get("live_token") is None else str(data["live_token"]),
        data["money"] if isinstance(data.get("money"), dict) else None,
    )


def closed_path(warehouse: Path, session_id: str) -> Path:
    """Where a closed session's draft is kept: beside the open ones, but not a ``.json``,
    so "Continue a session" never reads the drafts of every session ever closed."""
    return draft_path(warehouse, session_id).with_suffix(".closed")


def save_draft(warehouse: Path, draft: Draft) -> Path:
    """Write the draft whole; a closed one moves to :func:`closed_path` (kept, not deleted)."""
    session_id = draft.session.session_id
    path = (
        draft_path(warehouse, session_id) if draft.closed_at is None else closed_path(warehouse, session_id)
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_suffix(f".tmp-{os.getpid()}")
    temp.write_text(json.dumps(to_json(draft), ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(temp, path)
    if draft.closed_at is not None:
        draft_path(warehouse, session_id).unlink(missing_ok=True)  # its closed copy is written
    return path


def load_draft(warehouse: Path, session_id: str) -> Draft | None:
    """The draft of ``session_id`` (open, else closed), or None when there is none (or it
    cannot be read)."""
    for path in (draft_path(warehouse, session_id), closed_path(warehouse, session_id)):
        try:
            return from_json(json.loads(path.read_text(encoding="utf-8")))
        except FileNotFoundError:
            continue
        except (OSError, ValueError, KeyError, TypeError):
            return None
    return None


def list_drafts(warehouse: Path) -> list[str]:
    """Session ids of the drafts still open, newest first (a closed draft is not a
    ``.json``; one still found here, after a crash between its two writes, is left out)."""
    folder = warehouse / "drafts"
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True):
        draft = load_draft(warehouse, path.stem)
        if draft is not None and draft.closed_at is None:
            found.append(draft.session.session_id)
    return found


def upload_path(warehouse: Path, session: SessionFacts, deal: DealFacts, text: str) -> Path:
    """Where a saved deal's log goes before the ingest (the Upload page's folder), named by
    the deal, its revision and its content, so the same save is one file."""
    import hashlib

    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    name = f"record-{safe_name(deal.deal_id)}-r{deal.revision}-{sha}.jsonl"
    return warehouse / "uploads" / name


def save_deal(warehouse: Path, session: SessionFacts, deal: DealFacts) -> tuple[Path, IngestSummary]:
    """Write the ended deal as sheet-deal lines (after its session line) under
    ``<warehouse>/uploads/`` and ingest that file: the path every log takes. The caller
    says "Saved" only when :func:`dashboard.upload_file.not_stored` finds nothing wrong."""
    from dashboard.upload_file import write_upload

    text = log_text(session, [deal])
    path = upload_path(warehouse, session, deal, text)
    write_upload(path, text.encode("utf-8"))  # temp file + rename; a torn file there is replaced
    return path, ingest([path], warehouse, workers=0)
