"""The rows of one read file (or a piece of one): every session and deal replayed and
turned into the warehouse's tables (:class:`FactBuilder`).

This is the pure part of ``chuanma ingest``: it reads nothing from disk and writes
nothing, so a worker process, the in-process path and the tests all run the same code and
get the same rows. Every deal is replayed with ``keep_state=True`` because the per-seat
facts (void suit, 花猪, ready at the wall's end) are not in the plain report: with it, a
report gives them as :class:`engine.report.DealFacts`, from the engine's replayed deal or
from the fast check (:mod:`ingest.replay.fast_check`) alike.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

import msgspec
import numpy as np
import pyarrow as pa  # type: ignore[import-untyped]

from engine.deal import KongMade, Win
from engine.events import DealStart, Finding
from engine.replay import DealReport, FindingSink
from engine.report import DealFacts
from engine.rules import Rules
from engine.settlement import Transfer
from engine.tiles import SUITS, tile_name
from engine.vocabulary import WIN_KINDS
from ingest.logs.builder import DealLog, LogFile, SessionLog
from ingest.logs.gcpause import gc_paused
from ingest.replay.session_replay import SessionReplay
from ingest.warehouse.rows import Columns, EventColumns, Facts, month_of, parse_time
from ingest.warehouse.schema import NO_MONTH, SCHEMAS, TABLES

#: engine win kinds -> the names players use (engine.vocabulary's 中文)
WIN_KIND_ZH: Final[dict[str, str]] = {kind: zh for kind, (zh, _) in WIN_KINDS.items()}
SETTLEMENT_REASONS: Final = frozenset({"flower_pig", "no_ting", "tax_refund"})
KONG_REASONS: Final = frozenset({"kong_exposed", "kong_added", "kong_concealed"})
_KONG_COLUMN: Final = {"exposed": 0, "added": 1, "concealed": 2}  # kongs_exposed, _added, _concealed


class SeatFacts(msgspec.Struct, frozen=True, gc=False):
    """What the seat rows are made of, from a replayed tile deal or from a sheet deal's
    audit (``tiles`` False: no void suit, win turn or win tile to tell). A Struct, as the
    engine's per-deal records are: one is built per deal, and a frozen dataclass's
    ``__init__`` stays interpreted Python in the compiled module (slower, once a deal)."""

    dealer: int
    void: Sequence[str | None]
    wins: Sequence[Win]
    kongs: Sequence[KongMade]
    ledger: Sequence[Transfer]
    settlement: Sequence[Transfer]
    pigs: AbstractSet[int]
    ready_at_end: Mapping[int, int]
    end_reason: str | None
    scores: Sequence[int]
    tiles: bool


@dataclass(frozen=True)
class SessionInfo:
    session_id: str | None
    month: str
    played_at: int | None  # seconds since 1970 of the naive time: Arrow takes them as they are
    club: str | None
    table: str | None
    rules: str
    base: int
    players: tuple[str | None, ...]  # one a seat of the table (four, three or two)
    key: str  # what a deal's content hash includes of its session


def _json(value: Any) -> str | None:
    if value is None:
        return None
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return json.dumps(repr(value))


_EPOCH: Final = datetime(1970, 1, 1)


def _seconds(when: datetime | None) -> int | None:
    """A naive time as the ``timestamp[s]`` value Arrow would make of it, computed once a
    session: Arrow converted the ``datetime`` again in every seat, deal and session row."""
    return None if when is None else (when - _EPOCH) // timedelta(seconds=1)


def _session_info(session: SessionLog, rules: Rules | None) -> SessionInfo:
    start = session.session
    played = parse_time(start.started_at) if start is not None else None
    month = month_of(played)
    players: tuple[str | None, ...] = tuple(start.players) if start is not None else (None, None, None, None)
    key = (
        json.dumps(
            [start.session_id, list(start.players), start.rules, start.base], ensure_ascii=False, default=str
        )
        if start is not None
        else "null"
    )
    return SessionInfo(
        session_id=start.session_id if start is not None else None,
        month=month,
        played_at=_seconds(played),
        club=start.club if start is not None else None,
        table=start.table if start is not None else None,
        rules=rules.name if rules is not None else "?",
        base=start.base if start is not None else 1,
        players=players,
        key=key,
    )


def deal_sha256(session_key: str, deal_log: DealLog) -> str:
    """A deal's identity for idempotence (``content_sha256``): its session's header and its
    lines' text, joined by newlines (not their numbers, so the same deal in another file is
    a duplicate, not a conflict); from the deal's bytes when it was read fast."""
    digest = hashlib.sha256(session_key.encode("utf-8", "surrogatepass") + b"\n")
    for piece in deal_log.text_pieces():
        digest.update(piece)
    return digest.hexdigest()


class FactBuilder:
    """Accumulates the rows of every table for one piece of a file."""

    def __init__(self, file: str, source_sha256: str) -> None:
        self.file = file
        self.sha = source_sha256
        self.cols = {name: Columns(schema) for name, schema in SCHEMAS.items() if name != "events"}
        self.events = EventColumns()
        self.deal_keys: list[tuple[str, str, str, int, int]] = []
        self.counts = {"read": 0, "ok": 0, "findings": 0, "invalid": 0, "stray_lines": 0, "set_aside": 0}
        # per table, in runs: the deal (index into deal_keys, -1: no deal) that owns the
        # rows up to each end; expanded to a column of owners once, in build
        self._owned: list[tuple[str, Columns | EventColumns, list[int], list[int]]] = [
            (name, self.events if name == "events" else self.cols[name], [], []) for name in TABLES
        ]

    def _own(self, deal_no: int) -> None:
        """Mark the rows added since the last call as ``deal_no``'s (-1: none)."""
        for _, cols, ends, owners in self._owned:
            rows = len(cols)
            if rows != (ends[-1] if ends else 0):
                ends.append(rows)
                owners.append(deal_no)

    # ------------------------------------------------------------------ files
    def add_log(self, log: LogFile) -> None:
        """Validate and record every session and deal of a read file, then its stray lines."""
        for finding in log.findings:
            self._finding("file", finding, None, None, NO_MONTH, None)
        said: dict[int, str] = {}  # one text per reason: many stray lines may share one
        for n, text, reason in log.stray:
            why = said.get(id(reason))
            if why is None:
                why = said[id(reason)] = f"{reason.code}: {reason.message}"
            self.cols["quarantine"].add(
                NO_MONTH,
                "stray",
                why,
                None,
                None,
                self.file,
                self.sha,
                n,
                text,
            )
            self.counts["stray_lines"] += 1
        for session in log.sessions:
            self.add_session(session)

    def add_session(self, session: SessionLog) -> None:
        driver = SessionReplay.of_log(session, None, path=self.file)
        self.counts["set_aside"] += len(session.set_aside)  # deal lines that could not be read
        problems: list[Finding] = list(session.findings)
        if driver.rules_problem is not None:
            problems.append(driver.rules_problem)
        info = _session_info(session, driver.rules)
        if session.session is None and session.raw_lines:
            for n, text in session.raw_lines:
                self.cols["quarantine"].add(
                    info.month, "bad_session", "the session line cannot be read", None, None,
                    self.file, self.sha, n, text,
                )  # fmt: skip
        for deal_log in session.deals:
            self.add_deal(deal_log, info, driver)
        recorded = session.end.totals if session.end is not None else None
        mismatch = driver.totals_finding()
        if mismatch is not None:
            problems.append(mismatch)
        for finding in problems:
            self._finding("session", finding, None, info, info.month, None)
        if session.session is not None:
            self.cols["sessions"].add(
                info.session_id, info.month, info.played_at, info.club, info.table, info.rules, info.base,
                list(info.players), len(session.deals), driver.complete_totals,
                list(recorded) if recorded is not None else None,
                len(problems), self.file, session.line, self.sha,
            )  # fmt: skip

    # ------------------------------------------------------------------ deals
    def add_deal(self, deal_log: DealLog, info: SessionInfo, driver: SessionReplay) -> None:
        """Replay one deal through its session's ``driver`` (which adds its net to the
        session's totals) and add its rows."""
        self._own(-1)
        deal_no = len(self.deal_keys)
        try:
            report = driver.replay(deal_log, FindingSink(file=self.file), keep_state=True)
            self._add_deal(deal_log, info, report)
        finally:
            self._own(deal_no)

    def _add_deal(self, deal_log: DealLog, info: SessionInfo, report: DealReport) -> None:
        start = deal_log.deal
        status = "invalid" if not report.complete else report.status
        self.counts["read"] += 1
        self.counts[status] += 1
        sha = deal_sha256(info.key, deal_log)
        self.deal_keys.append((start.deal_id, sha, status, start.line, deal_log.last_line))
        deal = report.deal_facts()
        for finding in report.findings:
            self._finding("deal", finding, start.deal_id, info, info.month, info.players)
        for finding in report.warnings:
            self._finding("deal", finding, start.deal_id, info, info.month, info.players)
        still_in = pigs = self_draws = 0
        if deal is not None:
            still_in = deal.still_in if report.end_reason == "wall_exhausted" else 0
            pigs = len(deal.pigs)
            self_draws = sum(1 for w in report.wins if w.kind in ("self_draw", "kong_bloom"))
        sheet = report.record == "sheet"  # a score sheet: no tiles, so no event rows
        seats = len(info.players)  # the table's seats: a deal has as many seat rows
        if sheet and report.complete:  # the same counts from what its audit computed
            still_in = seats - len(report.wins) if report.end_reason == "wall_exhausted" else 0
            pigs = len(report.pigs)
            self_draws = sum(1 for w in report.wins if w.kind in ("self_draw", "kong_bloom"))
        scores = report.scores if deal is not None or (sheet and report.complete) else (0,) * seats
        self.cols["deals"].add(
            start.deal_id, info.month, info.session_id, info.played_at, info.club, info.table, info.rules,
            info.base, start.dealer, list(info.players), status, report.end_reason,
            deal_log.end.reason if deal_log.end is not None else None,
            deal_log.play_count + len(deal_log.sheet_events) + 1 + (deal_log.end is not None),
            len(report.wins), self_draws, sum(1 for k in report.kongs if not k.robbed), still_in, pigs,
            len(report.findings), len(report.warnings),
            sorted({f.code for f in report.findings}), list(scores),
            self.file, start.line, deal_log.last_line, sha, self.sha, report.record,
        )  # fmt: skip
        if sheet:
            if report.complete:
                self._sheet_seats(start, report, info, status)
            self._ledger(report.ledger, start.deal_id, info)
            return
        if deal is None:
            first = report.stopping_finding()  # the deal's, or its session's rules finding
            detail = f"{first.code}: {first.message}" if first is not None else "could not be replayed"
            for n, text in deal_log.raw_lines:
                self.cols["quarantine"].add(
                    info.month,
                    "invalid",
                    detail,
                    start.deal_id,
                    info.session_id,
                    self.file,
                    self.sha,
                    n,
                    text,
                )
            return
        self._seats(deal, report, info, status)
        self._ledger(report.ledger, start.deal_id, info)
        records = deal_log.records
        if records is None or not self.events.add_records(start, records, deal_log.end, info.month):
            self.events.add_deal(start, deal_log.events, deal_log.end, info.month)

    def _seats(self, deal: DealFacts, report: DealReport, info: SessionInfo, status: str) -> None:
        void = [SUITS[v] if v is not None else None for v in deal.void]
        self._seat_rows(
            SeatFacts(deal.dealer, void, report.wins, report.kongs, report.ledger, deal.settlement,
                      deal.pigs, deal.ready_at_end, report.end_reason, report.scores, tiles=True),
            report.deal_id, info, status,
        )  # fmt: skip

    def _sheet_seats(self, start: DealStart, report: DealReport, info: SessionInfo, status: str) -> None:
        """A sheet deal's seats from what its audit computed of the declared facts: the
        same columns as a tile deal's, with the tile-only ones (void suit, win turn, win
        tile) left empty."""
        settlement = [t for t in report.ledger if t.reason in SETTLEMENT_REASONS]
        self._seat_rows(
            SeatFacts(start.dealer, [None] * len(report.scores), report.wins, report.kongs, report.ledger, settlement,
                      report.pigs, report.ready_at_end, report.end_reason, report.scores, tiles=False),
            report.deal_id, info, status,
        )  # fmt: skip

    def _seat_rows(self, facts: SeatFacts, deal_id: str, info: SessionInfo, status: str) -> None:
        """One row a seat of the deal's table (``facts.scores`` has one entry a seat)."""
        wins: dict[int, Win] = {}  # each seat's first win (血流成河: a seat may win again)
        win_count = [0, 0, 0, 0]
        win_fans: list[list[int]] = [[], [], [], []]
        for w in facts.wins:
            wins.setdefault(w.seat, w)
            win_count[w.seat] += 1
            win_fans[w.seat].append(w.result.fan)
        fed = [0, 0, 0, 0]
        fed_points = [0, 0, 0, 0]
        for win in facts.wins:
            if win.from_seat is not None:
                fed[win.from_seat] += 1
                fed_points[win.from_seat] += sum(t.amount for t in win.transfers if t.payer == win.from_seat)
        kongs = [[0, 0, 0, 0] for _ in range(4)]  # exposed, added, concealed, robbed
        for kong in facts.kongs:
            kongs[kong.seat][3 if kong.robbed else _KONG_COLUMN[kong.kind]] += 1
        kong_in = [0, 0, 0, 0]
        kong_out = [0, 0, 0, 0]
        for t in facts.ledger:
            if t.reason in KONG_REASONS:
                kong_in[t.payee] += t.amount
                kong_out[t.payer] += t.amount
        settle_in = [0, 0, 0, 0]
        settle_out = [0, 0, 0, 0]
        ting_in = [0, 0, 0, 0]
        ting_out = [0, 0, 0, 0]
        for t in facts.settlement:
            settle_in[t.payee] += t.amount
            settle_out[t.payer] += t.amount
            if t.reason == "no_ting":
                ting_in[t.payee] += t.amount
                ting_out[t.payer] += t.amount
        cha_jiao = facts.end_reason == "wall_exhausted" and len(wins) <= 2
        tiles = facts.tiles
        scores = facts.scores
        add = self.cols["seats"].add
        for seat in range(len(scores)):
            seat_win = wins.get(seat)
            ready: bool | None = None
            ready_fan: int | None = None
            if cha_jiao and seat_win is None:
                ready = seat in facts.ready_at_end
                ready_fan = facts.ready_at_end.get(seat)
            player, dealer, void = info.players[seat], seat == facts.dealer, facts.void[seat]
            if seat_win is not None:
                win = seat_win
                result = win.result
                add(
                    deal_id, info.month, info.session_id, info.played_at, info.club, info.rules, status,
                    seat, player, dealer, void, True, win.order, win.turn if tiles else None, win.kind,
                    WIN_KIND_ZH.get(win.kind), tile_name(win.tile) if tiles else None,
                    win.from_seat, result.fan, result.uncapped, result.uncapped > result.fan, result.base,
                    [*result.also, *result.extras], result.extras.count("gen"),
                    sum(t.amount for t in win.transfers if t.payee == seat),
                    fed[seat], fed_points[seat], *kongs[seat], kong_in[seat], kong_out[seat],
                    seat in facts.pigs, ready, ready_fan, settle_out[seat], settle_in[seat],
                    ting_out[seat], ting_in[seat], scores[seat], win_count[seat], win_fans[seat],
                )  # fmt: skip
            else:
                add(
                    deal_id, info.month, info.session_id, info.played_at, info.club, info.rules, status,
                    seat, player, dealer, void,
                    False, None, None, None, None, None, None, None, None, None, None, None, None, None,
                    fed[seat], fed_points[seat], *kongs[seat], kong_in[seat], kong_out[seat],
                    seat in facts.pigs, ready, ready_fan, settle_out[seat], settle_in[seat],
                    ting_out[seat], ting_in[seat], scores[seat], 0, [],
                )  # fmt: skip

    def _ledger(self, ledger: Sequence[Transfer], deal_id: str, info: SessionInfo) -> None:
        add = self.cols["ledger"].add
        players = info.players
        for seq, t in enumerate(ledger):
            add(deal_id, info.month, seq, t.line, t.reason, t.payer, t.payee, t.amount,
                players[t.payer], players[t.payee])  # fmt: skip

    # --------------------------------------------------------------- findings
    def _finding(
        self,
        scope: str,
        finding: Finding,
        deal_id: str | None,
        info: SessionInfo | None,
        month: str,
        players: Sequence[str | None] | None,
    ) -> None:
        seats = len(players) if players is not None else 4
        seat = finding.seat if finding.seat is not None and 0 <= finding.seat < seats else None
        player = players[seat] if players is not None and seat is not None else None
        self.cols["findings"].add(
            scope, deal_id, info.session_id if info is not None else None, month,
            finding.file or self.file, finding.line, finding.code, finding.severity, seat, player,
            finding.message, _json(finding.expected), _json(finding.recorded), finding.rule,
            _json(finding.extra) if finding.extra else None, finding.message_zh or None,
            finding.message_key or None, _json(finding.message_values) if finding.message_key else None,
        )  # fmt: skip

    def build(self) -> Facts:
        """The Arrow tables, each with a ``_deal`` column (the row's index in ``deal_keys``,
        -1 for rows of no deal) that the writer uses to drop duplicates, then removes."""
        self._own(-1)
        tables = {}
        for name, cols, ends, owners in self._owned:
            bounds = np.array([0, *ends], dtype=np.int64)
            runs = bounds[1:] - bounds[:-1]
            owner = np.repeat(np.array(owners, dtype=np.int32), runs)
            tables[name] = cols.to_arrow().append_column("_deal", pa.array(owner))
        return Facts(
            tables=tables,
            deal_keys=self.deal_keys,
            counts=dict(self.counts),
        )


def facts_of_log(log: LogFile, source_sha256: str) -> Facts:
    """All the rows of one read file (or piece of one)."""
    with gc_paused():  # the rows freed before the collector is back (see chunks.validate_chunk)
        builder = FactBuilder(log.path, source_sha256)
        builder.add_log(log)
        facts = builder.build()
        del builder
    return facts
