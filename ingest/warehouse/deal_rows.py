"""Per-deal facts for the warehouse: one read file (or a piece of one) -> Arrow tables.

This is the pure part of ``chuanma ingest``: it reads nothing from disk and writes
nothing, so a Dask worker, the in-process path and the tests all run the same code and
get the same rows. Every deal is replayed with ``keep_state=True`` because the per-seat
facts (void suit, 花猪, ready at the wall's end, kongs by kind) live on the replayed
:class:`engine.deal.Deal`, not in the report.

Rows are built column-wise (lists per column, one ``pa.table`` at the end): converting
per-row dicts is the slow way at millions of event rows. The schemas here are the
warehouse's contract; ``analytics/README.md`` documents every column.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

import pyarrow as pa  # type: ignore[import-untyped]

from engine.deal import Deal, KongMade, Win
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
from engine.replay import DealReport, FindingSink
from engine.rules import Rules
from engine.settlement import Transfer
from engine.tiles import SUITS, format_tiles, tile_name
from ingest.gcpause import gc_paused
from ingest.reader import DealLog, LogFile, SessionLog
from ingest.session_replay import SessionReplay

NO_MONTH: Final = "none"  # partition of rows with no known date (stray lines, undated sessions)
STATUSES: Final = ("ok", "findings", "invalid")
#: engine win kinds -> the names players use
WIN_KIND_ZH: Final[dict[str, str]] = {
    "self_draw": "自摸",
    "discard": "点炮",
    "rob": "抢杠",
    "kong_bloom": "杠上花",
    "kong_discard": "杠上炮",
}
SETTLEMENT_REASONS: Final = frozenset({"flower_pig", "no_ting", "tax_refund"})
KONG_REASONS: Final = frozenset({"kong_exposed", "kong_added", "kong_concealed"})
_TILE_NAMES: Final = tuple(tile_name(t) for t in range(27))

_I8 = pa.int8()
_I16 = pa.int16()
_I32 = pa.int32()
_I64 = pa.int64()
_STR = pa.string()
_BOOL = pa.bool_()
_TS = pa.timestamp("s")
_STRS = pa.list_(_STR)
_I32S = pa.list_(_I32)

SCHEMAS: Final[dict[str, pa.Schema]] = {
    "sessions": pa.schema(
        [
            ("session_id", _STR),
            ("month", _STR),
            ("played_at", _TS),
            ("club", _STR),
            ("table", _STR),
            ("rules", _STR),
            ("base", _I32),
            ("players", _STRS),
            ("deals", _I32),
            ("computed_totals", _I32S),
            ("recorded_totals", _I32S),
            ("findings", _I32),
            ("file", _STR),
            ("line", _I32),
            ("source_sha256", _STR),
        ]
    ),
    "deals": pa.schema(
        [
            ("deal_id", _STR),
            ("month", _STR),
            ("session_id", _STR),
            ("played_at", _TS),
            ("club", _STR),
            ("table", _STR),
            ("rules", _STR),
            ("base", _I32),
            ("dealer", _I8),
            ("players", _STRS),
            ("status", _STR),
            ("end_reason", _STR),
            ("recorded_end_reason", _STR),
            ("events", _I32),
            ("wins", _I8),
            ("self_draws", _I8),
            ("kongs", _I8),
            ("still_in_at_end", _I8),
            ("flower_pigs", _I8),
            ("findings", _I32),
            ("warnings", _I32),
            ("finding_codes", _STRS),
            ("scores", _I32S),
            ("file", _STR),
            ("line", _I32),
            ("last_line", _I32),
            ("content_sha256", _STR),
            ("source_sha256", _STR),
            ("record", _STR),  # "tiles", or "sheet": a score sheet, no tiles (so no event rows)
        ]
    ),
    "seats": pa.schema(
        [
            ("deal_id", _STR),
            ("month", _STR),
            ("session_id", _STR),
            ("played_at", _TS),
            ("club", _STR),
            ("rules", _STR),
            ("status", _STR),
            ("seat", _I8),
            ("player", _STR),
            ("is_dealer", _BOOL),
            ("void_suit", _STR),
            ("won", _BOOL),
            ("win_order", _I8),
            ("win_turn", _I16),
            ("win_kind", _STR),
            ("win_kind_zh", _STR),
            ("win_tile", _STR),
            ("win_from_seat", _I8),
            ("fan", _I16),
            ("fan_uncapped", _I16),
            ("capped", _BOOL),
            ("base_pattern", _STR),
            ("extras", _STRS),
            ("roots", _I8),
            ("win_points", _I32),
            ("dealt_in", _I8),
            ("deal_in_points", _I32),
            ("kongs_exposed", _I8),
            ("kongs_added", _I8),
            ("kongs_concealed", _I8),
            ("kongs_robbed", _I8),
            ("kong_income", _I32),
            ("kong_paid", _I32),
            ("flower_pig", _BOOL),
            ("ready_at_end", _BOOL),
            ("ready_fan", _I16),
            ("cha_jiao_paid", _I32),
            ("cha_jiao_received", _I32),
            ("no_ting_paid", _I32),
            ("no_ting_received", _I32),
            ("net", _I32),
        ]
    ),
    "events": pa.schema(
        [
            ("deal_id", _STR),
            ("month", _STR),
            ("seq", _I32),
            ("line", _I32),
            ("type", _STR),
            ("seat", _I8),
            ("tile", _STR),
            ("from_seat", _I8),
            ("kind", _STR),
            ("tiles", _STRS),
            ("fan", _I16),
            ("patterns", _STRS),
            ("deltas", _I32S),
            ("settlement", _I32S),
        ]
    ),
    "ledger": pa.schema(
        [
            ("deal_id", _STR),
            ("month", _STR),
            ("seq", _I32),
            ("line", _I32),
            ("reason", _STR),
            ("payer", _I8),
            ("payee", _I8),
            ("amount", _I32),
            ("payer_player", _STR),
            ("payee_player", _STR),
        ]
    ),
    "findings": pa.schema(
        [
            ("scope", _STR),
            ("deal_id", _STR),
            ("session_id", _STR),
            ("month", _STR),
            ("file", _STR),
            ("line", _I32),
            ("code", _STR),
            ("severity", _STR),
            ("seat", _I8),
            ("player", _STR),
            ("message", _STR),
            ("expected", _STR),
            ("recorded", _STR),
            ("rule", _STR),
            ("extra", _STR),
        ]
    ),
    "quarantine": pa.schema(
        [
            ("month", _STR),
            ("reason", _STR),
            ("detail", _STR),
            ("deal_id", _STR),
            ("session_id", _STR),
            ("file", _STR),
            ("source_sha256", _STR),
            ("line", _I32),
            ("raw", _STR),
        ]
    ),
}
TABLES: Final = tuple(SCHEMAS)


class Columns:
    """Rows of one table; ``add`` takes a row in schema order. Rows stay tuples until
    :meth:`to_arrow` turns them into columns with one ``zip``."""

    def __init__(self, schema: pa.Schema) -> None:
        self.schema = schema
        self.rows: list[tuple[Any, ...]] = []

    def add(self, *row: Any) -> None:
        self.rows.append(row)

    def __len__(self) -> int:
        return len(self.rows)

    def to_arrow(self) -> pa.Table:
        columns: list[Sequence[Any]] = (
            list(zip(*self.rows, strict=True)) if self.rows else [()] * len(self.schema)
        )
        arrays = [pa.array(col, type=f.type) for col, f in zip(columns, self.schema, strict=True)]
        return pa.Table.from_arrays(arrays, schema=self.schema)


#: the events table's ``type`` values, by code
_EVENT_TYPES: Final = ("deal", "exchange", "void", "draw", "discard", "pong", "kong", "hu", "deal_end")
_DEAL: Final = 0
_DRAW: Final = 3
_PONG: Final = 5
_DEAL_END: Final = 8
_EVENT_CODE: Final[dict[type, int]] = {
    Exchange: 1, Void: 2, Draw: 3, Discard: 4, Pong: 5, Kong: 6, Hu: 7
}  # fmt: skip
#: the events columns that only a few rows fill (deal, exchange, void, kong, hu, deal_end)
_RARE: Final = ("from_seat", "kind", "tiles", "fan", "patterns", "deltas", "settlement")


class EventColumns:
    """The ``events`` table, built for speed: it has a row per line of every deal, so its
    cost is most of the warehouse's row building.

    A row is four ints (line, type code, seat, tile id; seat and tile may be None); the
    seven columns only the rare rows fill are spread over the rows in :meth:`to_arrow` by
    Arrow ``take``s, instead of a Python object per cell. ``deal_id``, ``month``, ``type``
    and ``tile`` leave as dictionary columns (:data:`EVENTS_WIRE`): the indices are the
    ints kept here, the table is half the size on its way to the writer, and Parquet
    writes them as the same strings, faster (no dictionary to build)."""

    def __init__(self) -> None:
        self.schema = SCHEMAS["events"]
        self.deal_ids: list[str] = []
        self.month_codes: dict[str, int] = {}
        self.deal_month: list[int] = []  # per deal: its month's code
        self.deal_of: list[int] = []  # per row: index into deal_ids
        self.seq: list[int] = []  # per row: its place in its deal
        self.line: list[int] = []
        self.type: list[int] = []
        self.seat: list[int | None] = []
        self.tile: list[int | None] = []
        self.rare_rows: list[int] = []  # rows that fill the _RARE columns
        self.rare: list[tuple[Any, ...]] = []  # their values, in _RARE order
        self._first = 0  # the open deal's first row

    def __len__(self) -> int:
        return len(self.line)

    def open_deal(self, deal_id: str, month: str) -> None:
        self.deal_ids.append(deal_id)
        self.deal_month.append(self.month_codes.setdefault(month, len(self.month_codes)))
        self._first = len(self.line)

    def close_deal(self) -> None:
        rows = len(self.line) - self._first
        self.deal_of.extend([len(self.deal_ids) - 1] * rows)
        self.seq.extend(range(rows))

    def add_rare(
        self, line: int, code: int, seat: int | None, tile: int | None, extra: tuple[Any, ...]
    ) -> None:
        self.rare_rows.append(len(self.line))
        self.rare.append(extra)
        self.line.append(line)
        self.type.append(code)
        self.seat.append(seat)
        self.tile.append(tile)

    def to_arrow(self) -> pa.Table:
        deal_of = pa.array(self.deal_of, type=_I32)
        # per row: its index into self.rare, None for the common rows
        where: list[int | None] = [None] * len(self.line)
        for index, row in enumerate(self.rare_rows):
            where[row] = index
        rare_index = pa.array(where, type=_I32)
        rare_columns: list[Sequence[Any]] = (
            list(zip(*self.rare, strict=True)) if self.rare else [()] * len(_RARE)
        )
        month_of_row = pa.array(self.deal_month, type=_I32).take(deal_of)
        columns = {
            "deal_id": _dictionary(deal_of, self.deal_ids),
            "month": _dictionary(month_of_row, list(self.month_codes)),
            "seq": pa.array(self.seq, type=_I32),
            "line": pa.array(self.line, type=_I32),
            "type": _dictionary(pa.array(self.type, type=_I8), _EVENT_TYPES),
            "seat": pa.array(self.seat, type=_I8),
            "tile": _dictionary(pa.array(self.tile, type=_I8), _TILE_NAMES),
        }
        for name, values in zip(_RARE, rare_columns, strict=True):
            field_type = self.schema.field(name).type
            columns[name] = pa.array(values, type=field_type).take(rare_index)
        return pa.Table.from_arrays([columns[name] for name in EVENTS_WIRE.names], schema=EVENTS_WIRE)


def _dictionary(indices: pa.Array, values: Sequence[str]) -> pa.DictionaryArray:
    return pa.DictionaryArray.from_arrays(indices, pa.array(values, type=_STR))


#: the events table as workers send it: SCHEMAS["events"] with four dictionary columns
EVENTS_WIRE: Final = pa.schema(
    [
        pa.field(f.name, pa.dictionary(_I8 if f.name in ("type", "tile") else _I32, _STR))
        if f.name in ("deal_id", "month", "type", "tile")
        else f
        for f in SCHEMAS["events"]
    ]
)


@dataclass
class Facts:
    """What one read file (or piece) gives: Arrow tables plus the counts of the summary.

    ``deal_keys`` lists (deal_id, content_sha256, status, first line, last line) of every
    deal read, in file order, so the writer can tell duplicates from conflicts without
    opening the tables."""

    tables: dict[str, pa.Table]
    deal_keys: list[tuple[str, str, str, int, int]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    packed_tables: dict[str, bytes] | None = None  # the tables as LZ4 Arrow IPC (see packed)

    def packed(self) -> Facts:
        """These facts with the tables as LZ4-compressed Arrow IPC streams: about a fifth
        of the bytes for a worker to send (zstd packs tighter but takes twice as long)."""
        options = pa.ipc.IpcWriteOptions(compression="lz4")
        packed = {}
        for name, table in self.tables.items():
            sink = pa.BufferOutputStream()
            with pa.ipc.new_stream(sink, table.schema, options=options) as writer:
                writer.write_table(table)
            packed[name] = sink.getvalue().to_pybytes()
        return Facts({}, self.deal_keys, self.counts, packed)

    def unpacked(self) -> Facts:
        """The inverse of :meth:`packed` (facts that are not packed come back as they are)."""
        if self.packed_tables is None:
            return self
        tables = {name: pa.ipc.open_stream(data).read_all() for name, data in self.packed_tables.items()}
        return Facts(tables, self.deal_keys, self.counts)


@dataclass(frozen=True)
class SeatFacts:
    """What the seat rows are made of, from a replayed tile deal or from a sheet deal's
    audit (``tiles`` False: no void suit, win turn or win tile to tell)."""

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
    played_at: datetime | None
    club: str | None
    table: str | None
    rules: str
    base: int
    players: tuple[str | None, str | None, str | None, str | None]
    key: str  # what a deal's content hash includes of its session


def _json(value: Any) -> str | None:
    if value is None:
        return None
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return json.dumps(repr(value))


def parse_time(text: str | None) -> datetime | None:
    """The session's ``started_at`` as a naive time (UTC when it carried an offset)."""
    if not text:
        return None
    try:
        when = datetime.fromisoformat(text)
        if when.tzinfo is not None:
            when = when.astimezone(UTC).replace(tzinfo=None)
    except (ValueError, OverflowError):  # not a time, or out of range once made UTC (year 1)
        return None
    return when.replace(microsecond=0)


def month_of(played: datetime | None) -> str:
    """The ``month`` partition of a session played then (NO_MONTH when undated)."""
    return f"{played.year:04d}-{played.month:02d}" if played is not None else NO_MONTH


def _session_info(session: SessionLog, rules: Rules | None) -> SessionInfo:
    start = session.session
    played = parse_time(start.started_at) if start is not None else None
    month = month_of(played)
    players: tuple[str | None, str | None, str | None, str | None] = (
        (start.players[0], start.players[1], start.players[2], start.players[3])
        if start is not None
        else (None, None, None, None)
    )
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
        played_at=played,
        club=start.club if start is not None else None,
        table=start.table if start is not None else None,
        rules=rules.name if rules is not None else "?",
        base=start.base if start is not None else 1,
        players=players,
        key=key,
    )


def content_sha256(session_key: str, texts: Sequence[str]) -> str:
    """A deal's identity for idempotence: its session's header and its lines' text (not
    their numbers, so the same deal in another file is a duplicate, not a conflict)."""
    text = "\n".join([session_key, *texts])
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


class FactBuilder:
    """Accumulates the rows of every table for one piece of a file."""

    def __init__(self, file: str, source_sha256: str) -> None:
        self.file = file
        self.sha = source_sha256
        self.cols = {name: Columns(schema) for name, schema in SCHEMAS.items() if name != "events"}
        self.events = EventColumns()
        self.deal_keys: list[tuple[str, str, str, int, int]] = []
        self.counts = {"read": 0, "ok": 0, "findings": 0, "invalid": 0, "stray_lines": 0}
        # per table, the deal (index into deal_keys) each row belongs to; -1: no deal
        self.owners: dict[str, list[int]] = {name: [] for name in SCHEMAS}

    def _tables(self) -> list[tuple[str, Columns | EventColumns]]:
        return [(name, self.events if name == "events" else self.cols[name]) for name in TABLES]

    def _own(self, deal_no: int) -> None:
        """Mark the rows added since the last call as ``deal_no``'s (-1: none)."""
        for name, cols in self._tables():
            owners = self.owners[name]
            owners.extend([deal_no] * (len(cols) - len(owners)))

    # ------------------------------------------------------------------ files
    def add_log(self, log: LogFile) -> None:
        """Validate and record every session and deal of a read file, then its stray lines."""
        for finding in log.findings:
            self._finding("file", finding, None, None, NO_MONTH, None)
        for n, text, reason in log.stray:
            self.cols["quarantine"].add(
                NO_MONTH,
                "stray",
                f"{reason.code}: {reason.message}",
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
        sha = content_sha256(info.key, deal_log.texts)
        self.deal_keys.append((start.deal_id, sha, status, start.line, deal_log.last_line))
        deal = report.deal if report.complete else None
        for finding in report.findings:
            self._finding("deal", finding, start.deal_id, info, info.month, info.players)
        for finding in report.warnings:
            self._finding("deal", finding, start.deal_id, info, info.month, info.players)
        still_in = pigs = self_draws = 0
        if deal is not None:
            still_in = len(deal.in_play) if deal.end_reason == "wall_exhausted" else 0
            pigs = len(deal.pigs)
            self_draws = sum(1 for w in deal.wins if w.kind in ("self_draw", "kong_bloom"))
        sheet = report.record == "sheet"  # a score sheet: no tiles, so no event rows
        if sheet and report.complete:  # the same counts from what its audit computed
            still_in = 4 - len(report.wins) if report.end_reason == "wall_exhausted" else 0
            pigs = len(report.pigs)
            self_draws = sum(1 for w in report.wins if w.kind in ("self_draw", "kong_bloom"))
        scores = report.scores if deal is not None or (sheet and report.complete) else (0, 0, 0, 0)
        self.cols["deals"].add(
            start.deal_id, info.month, info.session_id, info.played_at, info.club, info.table, info.rules,
            info.base, start.dealer, list(info.players), status, report.end_reason,
            deal_log.end.reason if deal_log.end is not None else None,
            len(deal_log.events) + len(deal_log.sheet_events) + 1 + (deal_log.end is not None),
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
            first = report.findings[0] if report.findings else None
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
        self._ledger(deal.ledger, start.deal_id, info)
        self._events(start, deal_log.events, deal_log.end, info.month)

    def _seats(self, deal: Deal, report: DealReport, info: SessionInfo, status: str) -> None:
        void = [SUITS[v] if v is not None else None for v in deal.void]
        self._seat_rows(
            SeatFacts(deal.dealer, void, deal.wins, deal.kongs, deal.ledger, deal.settlement,
                      deal.pigs, deal.ready_at_end, deal.end_reason, report.scores, tiles=True),
            report.deal_id, info, status,
        )  # fmt: skip

    def _sheet_seats(self, start: DealStart, report: DealReport, info: SessionInfo, status: str) -> None:
        """A sheet deal's seats from what its audit computed of the declared facts: the
        same columns as a tile deal's, with the tile-only ones (void suit, win turn, win
        tile) left empty."""
        settlement = [t for t in report.ledger if t.reason in SETTLEMENT_REASONS]
        self._seat_rows(
            SeatFacts(start.dealer, [None] * 4, report.wins, report.kongs, report.ledger, settlement,
                      report.pigs, report.ready_at_end, report.end_reason, report.scores, tiles=False),
            report.deal_id, info, status,
        )  # fmt: skip

    def _seat_rows(self, facts: SeatFacts, deal_id: str, info: SessionInfo, status: str) -> None:
        wins = {w.seat: w for w in facts.wins}
        fed = [0, 0, 0, 0]
        fed_points = [0, 0, 0, 0]
        for win in facts.wins:
            if win.from_seat is not None:
                fed[win.from_seat] += 1
                fed_points[win.from_seat] += sum(t.amount for t in win.transfers if t.payer == win.from_seat)
        kongs = [[0, 0, 0, 0] for _ in range(4)]  # exposed, added, concealed, robbed
        kind_index = {"exposed": 0, "added": 1, "concealed": 2}
        for kong in facts.kongs:
            kongs[kong.seat][3 if kong.robbed else kind_index[kong.kind]] += 1
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
        for seat in range(4):
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
                    list(result.extras), result.extras.count("gen"),
                    sum(t.amount for t in win.transfers if t.payee == seat),
                    fed[seat], fed_points[seat], *kongs[seat], kong_in[seat], kong_out[seat],
                    seat in facts.pigs, ready, ready_fan, settle_out[seat], settle_in[seat],
                    ting_out[seat], ting_in[seat], scores[seat],
                )  # fmt: skip
            else:
                add(
                    deal_id, info.month, info.session_id, info.played_at, info.club, info.rules, status,
                    seat, player, dealer, void,
                    False, None, None, None, None, None, None, None, None, None, None, None, None, None,
                    fed[seat], fed_points[seat], *kongs[seat], kong_in[seat], kong_out[seat],
                    seat in facts.pigs, ready, ready_fan, settle_out[seat], settle_in[seat],
                    ting_out[seat], ting_in[seat], scores[seat],
                )  # fmt: skip

    def _ledger(self, ledger: Sequence[Transfer], deal_id: str, info: SessionInfo) -> None:
        add = self.cols["ledger"].add
        players = info.players
        for seq, t in enumerate(ledger):
            add(deal_id, info.month, seq, t.line, t.reason, t.payer, t.payee, t.amount,
                players[t.payer], players[t.payee])  # fmt: skip

    def _events(self, start: DealStart, events: Iterable[PlayEvent], end: DealEnd | None, month: str) -> None:
        """One row per line of the deal (see :class:`EventColumns`)."""
        rows = self.events
        rows.open_deal(start.deal_id, month)
        hands = [format_tiles(hand) for hand in start.hands]
        if start.wall is not None:
            hands.append("".join([_TILE_NAMES[t] for t in start.wall]))  # drawing order kept
        dice = list(start.dice) if start.dice is not None else None
        rows.add_rare(start.line, _DEAL, start.dealer, None, (None, None, hands, None, None, dice, None))
        lines, types, seats, tiles = rows.line, rows.type, rows.seat, rows.tile
        extra: tuple[Any, ...]
        codes = _EVENT_CODE
        for event in events:
            code = codes[type(event)]
            if _DRAW <= code <= _PONG:  # draw, discard, pong: most rows
                lines.append(event.line)
                types.append(code)
                seats.append(event.seat)  # type: ignore[union-attr]
                tiles.append(event.tile)  # type: ignore[union-attr]
            elif isinstance(event, Kong):
                recorded = list(event.deltas) if event.deltas is not None else None
                extra = (None, event.kind, None, None, None, recorded, None)
                rows.add_rare(event.line, _EVENT_CODE[Kong], event.seat, event.tile, extra)
            elif isinstance(event, Hu):
                patterns = list(event.patterns) if event.patterns is not None else None
                recorded = list(event.deltas) if event.deltas is not None else None
                extra = (event.from_seat, None, None, event.fan, patterns, recorded, None)
                rows.add_rare(event.line, _EVENT_CODE[Hu], event.seat, event.tile, extra)
            elif isinstance(event, Void):
                extra = (None, SUITS[event.suit], None, None, None, None, None)
                rows.add_rare(event.line, _EVENT_CODE[Void], event.seat, None, extra)
            else:
                assert isinstance(event, Exchange)
                given = [format_tiles(passed) for passed in event.tiles]
                extra = (None, event.direction, given, None, None, None, None)
                rows.add_rare(event.line, _EVENT_CODE[Exchange], None, None, extra)
        if end is not None:
            scores = list(end.scores) if end.scores is not None else None
            settlement = list(end.settlement) if end.settlement is not None else None
            extra = (None, end.reason, None, None, None, scores, settlement)
            rows.add_rare(end.line, _DEAL_END, None, None, extra)
        rows.close_deal()

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
        seat = finding.seat if finding.seat is not None and 0 <= finding.seat <= 3 else None
        player = players[seat] if players is not None and seat is not None else None
        self.cols["findings"].add(
            scope, deal_id, info.session_id if info is not None else None, month,
            finding.file or self.file, finding.line, finding.code, finding.severity, seat, player,
            finding.message, _json(finding.expected), _json(finding.recorded), finding.rule,
            _json(finding.extra) if finding.extra else None,
        )  # fmt: skip

    def build(self) -> Facts:
        """The Arrow tables, each with a ``_deal`` column (the row's index in ``deal_keys``,
        -1 for rows of no deal) that the writer uses to drop duplicates, then removes."""
        self._own(-1)
        tables = {}
        for name, cols in self._tables():
            table = cols.to_arrow()
            tables[name] = table.append_column("_deal", pa.array(self.owners[name], type=_I32))
        return Facts(
            tables=tables,
            deal_keys=self.deal_keys,
            counts=dict(self.counts),
        )


def facts_of_log(log: LogFile, source_sha256: str) -> Facts:
    """All the rows of one read file (or piece of one)."""
    builder = FactBuilder(log.path, source_sha256)
    with gc_paused():
        builder.add_log(log)
    return builder.build()
