"""The rows of the warehouse's tables as they are built, column-wise (lists per column,
one ``pa.table`` at the end: converting per-row dicts is the slow way at millions of
event rows), and what one piece of a file gives: :class:`Facts`.

A deal's lines are encoded into ``events`` rows here (:meth:`EventColumns.add_deal`);
``rows_decode.py`` beside it turns them back into engine events: the pair must agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

import pyarrow as pa  # type: ignore[import-untyped]

from engine.events import DealEnd, DealStart, Discard, Draw, Exchange, Hu, Kong, PlayEvent, Pong, Void
from engine.tiles import SUITS, format_tiles, tile_name
from ingest.line_parser import TILE_IDS
from ingest.records import DiscardRec, DrawRec, HuRec, KongRec, PlayRecord, PongRec, VoidRec
from ingest.warehouse.schema import EVENTS_WIRE, NO_MONTH, SCHEMAS

_TILE_NAMES: Final = tuple(tile_name(t) for t in range(27))
_TILE_IDS: Final[dict[str, int]] = dict(TILE_IDS)
_I8 = pa.int8()
_I32 = pa.int32()
_STR = pa.string()


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
        """The rows as a table, converted by Arrow in one pass: a struct array of the
        tuples, read by position (a column list per field through ``zip`` cost 14x more)."""
        if not self.rows:
            return self.schema.empty_table()
        rows = pa.array(self.rows, type=pa.struct(self.schema))
        return pa.Table.from_arrays(rows.flatten(), schema=self.schema)


#: the events table's ``type`` values, by code
_EVENT_TYPES: Final = ("deal", "exchange", "void", "draw", "discard", "pong", "kong", "hu", "deal_end")
_DEAL: Final = 0
_VOID: Final = 2
_DRAW: Final = 3
_DISCARD: Final = 4
_PONG: Final = 5
#: the event type of a play code's kind (ingest.play_lines: draw, discard, pong)
_PLAY_TYPES: Final = (_DRAW, _DISCARD, _PONG)
_KONG: Final = 6
_HU: Final = 7
_DEAL_END: Final = 8
_EVENT_CODE: Final[dict[type, int]] = {
    Exchange: 1, Void: 2, Draw: 3, Discard: 4, Pong: 5, Kong: 6, Hu: 7
}  # fmt: skip
#: the events columns that only a few rows fill (deal, exchange, void, kong, hu, deal_end)
_RARE: Final = ("from_seat", "kind", "tiles", "fan", "patterns", "deltas", "settlement")


# The rare columns (_RARE order) of a kong, win or 定缺 row, from an event or a record alike.
def _kong_extra(kind: str, deltas: Sequence[int] | None) -> tuple[Any, ...]:
    return (None, kind, None, None, None, list(deltas) if deltas is not None else None, None)


def _hu_extra(
    from_seat: int | None, fan: int | None, patterns: Sequence[str] | None, deltas: Sequence[int] | None
) -> tuple[Any, ...]:
    listed = list(patterns) if patterns is not None else None
    return (from_seat, None, None, fan, listed, list(deltas) if deltas is not None else None, None)


def _void_extra(suit: str) -> tuple[Any, ...]:
    return (None, suit, None, None, None, None, None)


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

    def add_records(
        self, start: DealStart, records: list[PlayRecord], end: DealEnd | None, month: str
    ) -> bool:
        """:meth:`add_deal` from a fast-read deal's records (``ingest.reader.DealLog``), with
        no event built: draws, discards and pongs become rows straight away. False (and no
        row added) for a deal with a record this does not take (换三张); then the caller
        adds its events."""
        rows: list[tuple[int, int, int]] = []
        tile_ids = _TILE_IDS
        for rec in records:
            if isinstance(rec, int):
                rows.append((_PLAY_TYPES[rec & 3], (rec >> 2) & 3, rec >> 4))
            elif isinstance(rec, DrawRec):
                rows.append((_DRAW, rec.seat, tile_ids[rec.tile]))
            elif isinstance(rec, DiscardRec):
                rows.append((_DISCARD, rec.seat, tile_ids[rec.tile]))
            elif isinstance(rec, PongRec):
                rows.append((_PONG, rec.seat, tile_ids[rec.tile]))
            elif not isinstance(rec, (KongRec, HuRec, VoidRec)):
                return False
            else:
                rows.append((-1, 0, 0))
        self._open_with_start(start, month)
        lines, types, seats, tiles = self.line, self.type, self.seat, self.tile
        n = start.line
        for index, (code, seat, tile) in enumerate(rows):
            n += 1
            if code >= 0:
                lines.append(n)
                types.append(code)
                seats.append(seat)
                tiles.append(tile)
                continue
            rec = records[index]
            if isinstance(rec, KongRec):
                self.add_rare(n, _KONG, rec.seat, tile_ids[rec.tile], _kong_extra(rec.kind, rec.deltas))
            elif isinstance(rec, HuRec):
                extra = _hu_extra(rec.from_, rec.fan, rec.patterns, rec.deltas)
                self.add_rare(n, _HU, rec.seat, tile_ids[rec.tile], extra)
            elif isinstance(rec, VoidRec):
                self.add_rare(n, _VOID, rec.seat, None, _void_extra(rec.suit))
        self._close_with_end(end)
        return True

    def _open_with_start(self, start: DealStart, month: str) -> None:
        self.open_deal(start.deal_id, month)
        hands = [format_tiles(hand) for hand in start.hands]
        if start.wall is not None:
            hands.append("".join([_TILE_NAMES[t] for t in start.wall]))  # drawing order kept
        dice = list(start.dice) if start.dice is not None else None
        self.add_rare(start.line, _DEAL, start.dealer, None, (None, None, hands, None, None, dice, None))

    def _close_with_end(self, end: DealEnd | None) -> None:
        if end is not None:
            scores = list(end.scores) if end.scores is not None else None
            settlement = list(end.settlement) if end.settlement is not None else None
            extra = (None, end.reason, None, None, None, scores, settlement)
            self.add_rare(end.line, _DEAL_END, None, None, extra)
        self.close_deal()

    def add_deal(
        self, start: DealStart, events: Iterable[PlayEvent], end: DealEnd | None, month: str
    ) -> None:
        """One row per line of the deal: the deal line, every play event, the deal_end."""
        self._open_with_start(start, month)
        lines, types, seats, tiles = self.line, self.type, self.seat, self.tile
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
                extra = _kong_extra(event.kind, event.deltas)
                self.add_rare(event.line, _KONG, event.seat, event.tile, extra)
            elif isinstance(event, Hu):
                extra = _hu_extra(event.from_seat, event.fan, event.patterns, event.deltas)
                self.add_rare(event.line, _HU, event.seat, event.tile, extra)
            elif isinstance(event, Void):
                self.add_rare(event.line, _VOID, event.seat, None, _void_extra(SUITS[event.suit]))
            else:
                assert isinstance(event, Exchange)
                given = [format_tiles(passed) for passed in event.tiles]
                extra = (None, event.direction, given, None, None, None, None)
                self.add_rare(event.line, _EVENT_CODE[Exchange], None, None, extra)
        self._close_with_end(end)

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
