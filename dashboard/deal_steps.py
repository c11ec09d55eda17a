"""One deal, step by step: the rules engine run on a deal's stored rows.

The warehouse keeps every line of a complete deal in ``events`` and the raw lines of a
deal that could not be replayed in ``quarantine``; both are turned back into the engine's
typed events and replayed through :func:`ingest.replay.session_replay.replay_one`, whose ``on_step``
hook copies the state after every event (hands, melds, discards, the wall, new payments
and new findings). No Streamlit here, so the tests can check the steps directly. A
session re-scored under other rules (``dashboard/rescore.py``) is built on the same rows.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd  # type: ignore[import-untyped]

from engine.deal import WALL_SIZE, Deal
from engine.events import (
    DealEnd,
    DealStart,
    Discard,
    Draw,
    Exchange,
    Finding,
    Hu,
    Kong,
    PlayEvent,
    Pong,
    Void,
)
from engine.replay import FindingSink, ReplayOptions
from engine.rules import Rules, RulesError, rules_from_name
from engine.table import table_of
from engine.tiles import SUITS, WILD
from ingest.logs.reader import read_lines
from ingest.replay.session_replay import replay_one
from ingest.warehouse.rows_decode import events_from_rows, stored_int, stored_strs, stored_text


# ------------------------------------------------------------------------- steps
@dataclass(frozen=True)
class Payment:
    reason: str
    payer: int
    payee: int
    amount: int
    line: int


@dataclass(frozen=True)
class StepFinding:
    code: str
    line: int | None
    seat: int | None
    message: str
    rule: str | None
    message_zh: str | None = None  # the engine's explanation in Chinese, where it has one
    message_key: str | None = None  # its template and values, rendered with the players' names
    message_values: Any = None


@dataclass(frozen=True)
class WinNote:
    seat: int
    fan: int
    patterns: tuple[str, ...]
    kind: str
    from_seat: int | None


@dataclass(frozen=True)
class Step:
    """The table after one line of the deal (step 0: the deal line)."""

    index: int
    line: int
    kind: str  # deal, exchange, void, draw, discard, pong, kong, hu, deal_end
    seat: int | None
    tile: int | None
    from_seat: int | None
    detail: str | None  # kong kind, void suit, exchange direction, end reason
    hands: tuple[tuple[int, ...], ...]
    melds: tuple[tuple[tuple[str, int], ...], ...]
    discards: tuple[tuple[int, ...], ...]
    wall_left: int
    won: tuple[bool, ...]
    void: tuple[int | None, ...]
    payments: tuple[Payment, ...]
    scores: tuple[int, ...]  # one a seat
    findings: tuple[StepFinding, ...]
    wins: tuple[WinNote, ...]
    # 血流成河: each seat's winning tiles laid aside (the seat plays on and may win again)
    # (the tile of a 一炮多响 goes to its first winner only: the others lay nothing aside)
    laid: tuple[tuple[int, ...], ...] = ((), (), (), ())
    win_counts: tuple[int, ...] = (0, 0, 0, 0)  # each seat's wins so far (血流成河: may be > 1)


@dataclass(frozen=True)
class DealReplay:
    deal_id: str
    session_id: str | None
    players: tuple[str, ...]
    rules: str
    base: int
    dealer: int
    status: str
    steps: tuple[Step, ...]
    findings: tuple[StepFinding, ...]
    scores: tuple[int, ...]  # one a seat
    error: str | None = None  # why the deal could not be replayed at all
    record: str = "tiles"  # "sheet": a score-sheet deal (its seats counted 1-4 when named)

    def finding_steps(self) -> list[int]:
        return [step.index for step in self.steps if step.findings]


def _finding(f: Finding) -> StepFinding:
    zh = getattr(f, "message_zh", None)  # an engine that explains in Chinese too
    return StepFinding(
        f.code, f.line, f.seat, f.message, f.rule, zh if isinstance(zh, str) else None,
        f.message_key or None, f.message_values,
    )  # fmt: skip


def _tiles(counts: Sequence[int]) -> tuple[int, ...]:
    return tuple(tile for tile, count in enumerate(counts) for _ in range(count))


def _event_fields(event: PlayEvent | DealEnd) -> tuple[int | None, int | None, int | None, str | None]:
    """(seat, tile, from_seat, detail) of an event."""
    if isinstance(event, Draw | Discard | Pong):
        return event.seat, event.tile, None, None
    if isinstance(event, Kong):
        return event.seat, event.tile, None, event.kind
    if isinstance(event, Hu):
        return event.seat, event.tile, event.from_seat, None
    if isinstance(event, Void):
        return event.seat, None, None, SUITS[event.suit]
    if isinstance(event, Exchange):
        return None, None, None, event.direction
    return None, None, None, event.reason


class _Recorder:
    """The ``on_step`` hook: copies the table after every event."""

    def __init__(self, start: DealStart, wall: int = WALL_SIZE) -> None:
        self.steps: list[Step] = []
        self.ledger_seen = 0
        self.findings_seen = 0
        self.wins_seen = 0
        # the seats of the deal line (three at a three-seat table: no empty fourth row)
        self.seats = seats = len(start.hands) if 2 <= len(start.hands) <= 4 else 4
        self.scores = [0] * seats
        hands = tuple(tuple(sorted(hand)) for hand in start.hands)
        empty: tuple[tuple[Any, ...], ...] = ((),) * seats
        self.first = Step(
            0, start.line, "deal", start.dealer, None, None, None, hands, empty, empty,
            wall, (False,) * seats, (None,) * seats, (), (0,) * seats, (), (),
        )  # fmt: skip

    def new_findings(self, sink: FindingSink) -> tuple[StepFinding, ...]:
        found = tuple(_finding(f) for f in sink.findings[self.findings_seen :])
        self.findings_seen = len(sink.findings)
        return found

    def __call__(self, event: PlayEvent | DealEnd, deal: Deal, sink: FindingSink) -> None:
        payments = tuple(
            Payment(t.reason, t.payer, t.payee, t.amount, t.line) for t in deal.ledger[self.ledger_seen :]
        )
        self.ledger_seen = len(deal.ledger)
        for payment in payments:
            self.scores[payment.payer] -= payment.amount
            self.scores[payment.payee] += payment.amount
        wins = tuple(
            WinNote(w.seat, w.result.fan, tuple(w.result.patterns), w.kind, w.from_seat)
            for w in deal.wins[self.wins_seen :]
        )
        self.wins_seen = len(deal.wins)
        seat, tile, from_seat, detail = _event_fields(event)
        seats = range(self.seats)
        self.steps.append(
            Step(
                index=len(self.steps) + 1,
                line=event.line,
                kind=event.type,
                seat=seat,
                tile=tile,
                from_seat=from_seat,
                detail=detail,
                hands=tuple((*_tiles(deal.hands[i]), *(WILD,) * deal.wilds[i]) for i in seats),  # 红中 last
                melds=tuple(tuple((m.kind, m.tile) for m in deal.melds[i]) for i in seats),
                discards=tuple(tuple(deal.discards[i]) for i in seats),
                wall_left=deal.wall_left,
                won=tuple(deal.won[i] for i in seats),
                void=tuple(deal.void[i] for i in seats),
                payments=payments,
                scores=tuple(self.scores),
                findings=self.new_findings(sink),
                wins=wins,
                laid=tuple(tuple(deal.laid[i]) for i in seats),
                win_counts=tuple(sum(1 for w in deal.wins if w.seat == i) for i in seats),
            )
        )


def replay_steps(
    start: DealStart,
    events: Sequence[PlayEvent],
    end: DealEnd | None,
    rules: Rules,
    *,
    base: int = 1,
    read_findings: Sequence[Finding] = (),
) -> tuple[list[Step], list[StepFinding], tuple[int, ...]]:
    """Every step of a deal, every finding (each at the step that raised it: the reader's
    at the deal line, a missing deal_end at the last step), and the computed net per seat."""
    recorder = _Recorder(start, table_of(rules).wall_size)
    sink = FindingSink()
    read = sum(1 for f in read_findings if f.severity != "warning")  # the sink takes these first
    recorder.findings_seen = read
    options = ReplayOptions(base=base, read_findings=read_findings, on_step=recorder)
    report = replay_one(start, events, end, rules, options, sink)
    if recorder.steps:
        opening = tuple(_finding(f) for f in sink.findings[:read])
        late = recorder.new_findings(sink)  # raised after the last step (e.g. no deal_end)
    else:  # the deal line itself could not be used: everything belongs to it
        opening, late = tuple(_finding(f) for f in sink.findings), ()
    steps = [replace(recorder.first, findings=opening), *recorder.steps]
    if late:
        steps[-1] = replace(steps[-1], findings=steps[-1].findings + late)
    return steps, [_finding(f) for f in report.findings], report.scores


def seat_names(value: Any) -> tuple[str, ...]:
    """The stored names, one a seat of the table (two to four), else four placeholders."""
    names = stored_strs(value)
    return tuple(names) if 2 <= len(names) <= 4 else ("seat 0", "seat 1", "seat 2", "seat 3")


def replay_from_rows(
    deal: Mapping[str, Any], events: pd.DataFrame, raw: pd.DataFrame, stored: pd.DataFrame | None = None
) -> DealReplay:
    """Replay one deal from its warehouse rows: ``events`` for a complete deal, ``raw``
    (quarantined lines) for an invalid one. ``stored`` findings that the replay does not
    raise again (the reader's, about lines the events table does not keep) are placed at
    the last step at or before their line."""
    players = seat_names(deal.get("players"))
    rules_name = str(deal.get("rules") or "?")
    base = stored_int(deal.get("base")) or 1
    common: dict[str, Any] = {
        "deal_id": str(deal["deal_id"]),
        "session_id": stored_text(deal.get("session_id")),
        "players": players,
        "rules": rules_name,
        "base": base,
        "dealer": stored_int(deal.get("dealer")) or 0,
        "status": str(deal.get("status")),
        "record": stored_text(deal.get("record")) or "tiles",
    }
    try:
        rules = rules_from_name(rules_name)
    except RulesError as error:
        return DealReplay(**common, steps=(), findings=(), scores=(0, 0, 0, 0), error=str(error))
    read_findings: list[Finding] = []
    try:
        if not raw.empty:
            start, play, end, read_findings = _from_raw(deal, players, raw)
        else:
            start, play, end = events_from_rows(events.to_dict(orient="records"))
    except (ValueError, LookupError) as error:
        return DealReplay(**common, steps=(), findings=(), scores=(0, 0, 0, 0), error=str(error))
    steps, findings, scores = replay_steps(start, play, end, rules, base=base, read_findings=read_findings)
    if stored is not None and not stored.empty:
        steps, findings = _merge_stored(steps, findings, stored)
    return DealReplay(**common, steps=tuple(steps), findings=tuple(findings), scores=scores)


def _merge_stored(
    steps: list[Step], findings: list[StepFinding], stored: pd.DataFrame
) -> tuple[list[Step], list[StepFinding]]:
    seen = [(f.line, f.code) for step in steps for f in step.findings]
    for row in stored.to_dict(orient="records"):
        line, code = stored_int(row["line"]), str(row["code"])
        if (line, code) in seen:
            seen.remove((line, code))
            continue
        extra = StepFinding(
            code,
            line,
            stored_int(row["seat"]),
            str(row["message"]),
            stored_text(row["rule"]),
            stored_text(row.get("message_zh")),
            stored_text(row.get("message_key")),
            stored_text(row.get("message_values")),
        )
        where = max((i for i, step in enumerate(steps) if line is None or step.line <= line), default=0)
        steps[where] = replace(steps[where], findings=(*steps[where].findings, extra))
        findings.append(extra)
    return steps, findings


def _from_raw(
    deal: Mapping[str, Any], players: tuple[str, ...], raw: pd.DataFrame
) -> tuple[DealStart, list[PlayEvent], DealEnd | None, list[Finding]]:
    """Read the quarantined lines again, each at its own line number, after a session line
    made from the stored header (so the reader sees a deal inside its session)."""
    numbered = {int(row["line"]): str(row["raw"]) for row in raw.to_dict(orient="records")}
    first = min(numbered)
    lines = [""] * max(numbered)
    if first > 1:
        header = {"type": "session", "session_id": deal.get("session_id") or "?", "players": list(players)}
        header["base"] = stored_int(deal.get("base")) or 1
        lines[first - 2] = json.dumps(header, ensure_ascii=False)
    for number, text in numbered.items():
        lines[number - 1] = text
    log = read_lines(lines, str(deal.get("file") or "warehouse"))
    for _, deal_log in log.iter_deals():
        if deal_log.deal.deal_id == deal["deal_id"]:
            return deal_log.deal, deal_log.events, deal_log.end, deal_log.findings
    raise LookupError("its raw lines hold no readable deal line")
