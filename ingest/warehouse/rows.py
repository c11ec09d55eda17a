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

import numpy as np
import pyarrow as pa  # type: ignore[import-untyped]

from engine.events import DealEnd, DealStart, Discard, Draw, Exchange, Hu, Kong, PlayEvent, Pong, Void
from engine.tiles import SUITS, WILD, WILD_NAMES, format_tiles, tile_name
from ingest.logs.line_parser import TILE_IDS
from ingest.logs.play_lines import FIRST_PLAY_TYPE, KIND_DISCARD, KIND_DRAW, KIND_PONG, NULL_BYTE, play_rows
from ingest.logs.records import DiscardRec, DrawRec, HuRec, KongRec, PlayRecord, PongRec, VoidRec
from ingest.warehouse.schema import EVENTS_WIRE, NO_MONTH, SCHEMAS

#: the tile column's dictionary: the 27 kinds, then the 红中 (``7z``, id 27) of a table with them
_TILE_NAMES: Final = tuple(tile_name(t) for t in range(WILD + 1))
_TILE_IDS: Final[dict[str, int]] = {**TILE_IDS, **dict.fromkeys(WILD_NAMES, WILD)}
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
        tuples, read by position (a column list per field through ``zip`` cost far more)."""
        if not self.rows:
            return self.schema.empty_table()
        rows = pa.array(self.rows, type=pa.struct(self.schema))
        return pa.Table.from_arrays(rows.flatten(), schema=self.schema)


#: the events table's ``type`` values, by code
_EVENT_TYPES: Final = ("deal", "exchange", "void", "draw", "discard", "pong", "kong", "hu", "deal_end")
_DEAL: Final = 0
_VOID: Final = 2
# a play code's kind and its events type, one numbering (ingest.logs.play_lines, _lines.c)
_DRAW: Final = FIRST_PLAY_TYPE + KIND_DRAW
_DISCARD: Final = FIRST_PLAY_TYPE + KIND_DISCARD
_PONG: Final = FIRST_PLAY_TYPE + KIND_PONG
_KONG: Final = 6
_HU: Final = 7
_DEAL_END: Final = 8
_EVENT_CODE: Final[dict[type, int]] = {
    Exchange: 1, Void: _VOID, Draw: _DRAW, Discard: _DISCARD, Pong: _PONG, Kong: _KONG, Hu: _HU
}  # fmt: skip
#: the event type of a fast-read deal's record (ingest.logs.builder.DealLog.records)
_RECORD_CODES: Final[dict[type, int]] = {
    DrawRec: _DRAW, DiscardRec: _DISCARD, PongRec: _PONG, KongRec: _KONG, HuRec: _HU, VoidRec: _VOID
}  # fmt: skip
_NULL_BYTE: Final = NULL_BYTE
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

    A row is four numbers in byte columns (line as int32, type code, seat, tile id as a
    byte each; 255 is a null seat or tile), which Arrow takes as they are; a fast-read
    deal's draws, discards and pongs are written there by one call per deal
    (:data:`ingest.logs.play_lines.play_rows`). The seven columns only the rare rows fill are
    spread over the rows in :meth:`to_arrow` by Arrow ``take``s, instead of a Python object
    per cell. ``deal_id``, ``month``, ``type`` and ``tile`` leave as dictionary columns
    (:data:`EVENTS_WIRE`): the indices are the bytes kept here, the table is half the size
    on its way to the writer, and Parquet writes them as the same strings, faster (no
    dictionary to build)."""

    def __init__(self) -> None:
        self.schema = SCHEMAS["events"]
        self.deal_ids: list[str] = []
        self.month_codes: dict[str, int] = {}
        self.deal_month: list[int] = []  # per deal: its month's code
        self.deal_rows: list[int] = []  # per closed deal: its rows
        self.line = bytearray()  # int32, little endian
        self.type = bytearray()
        self.seat = bytearray()
        self.tile = bytearray()
        self.rare_rows: list[int] = []  # rows that fill the _RARE columns
        self.rare: list[tuple[Any, ...]] = []  # their values, in _RARE order
        self._first = 0  # the open deal's first row

    def __len__(self) -> int:
        return len(self.type)

    def open_deal(self, deal_id: str, month: str) -> None:
        self.deal_ids.append(deal_id)
        self.deal_month.append(self.month_codes.setdefault(month, len(self.month_codes)))
        self._first = len(self.type)

    def close_deal(self) -> None:
        self.deal_rows.append(len(self.type) - self._first)

    def add_row(self, line: int, code: int, seat: int | None, tile: int | None) -> None:
        self.line += line.to_bytes(4, "little", signed=True)
        self.type.append(code)
        self.seat.append(_NULL_BYTE if seat is None else seat)
        self.tile.append(_NULL_BYTE if tile is None else tile)

    def add_rare(
        self, line: int, code: int, seat: int | None, tile: int | None, extra: tuple[Any, ...]
    ) -> None:
        self.rare_rows.append(len(self.type))
        self.rare.append(extra)
        self.add_row(line, code, seat, tile)

    def add_records(
        self, start: DealStart, records: list[PlayRecord], end: DealEnd | None, month: str
    ) -> bool:
        """:meth:`add_deal` from a fast-read deal's records (``ingest.logs.builder.DealLog``), with
        no event built: its play codes become rows in one call. False (and no row added)
        for a deal with a record this does not take (换三张); then the caller adds its
        events."""
        for rec in records:
            if not isinstance(rec, int) and type(rec) not in _RECORD_CODES:
                return False
        self._open_with_start(start, month)
        first_row = len(self.type)
        tile_ids = _TILE_IDS
        for index in play_rows(records, start.line + 1, self.line, self.type, self.seat, self.tile):
            rec = records[index]
            row = first_row + index
            if isinstance(rec, KongRec):
                extra: tuple[Any, ...] | None = _kong_extra(rec.kind, rec.deltas)
                seat, tile = rec.seat, tile_ids[rec.tile]
            elif isinstance(rec, HuRec):
                extra = _hu_extra(rec.from_, rec.fan, rec.patterns, rec.deltas)
                seat, tile = rec.seat, tile_ids[rec.tile]
            elif isinstance(rec, VoidRec):
                extra = _void_extra(rec.suit)
                seat, tile = rec.seat, _NULL_BYTE
            else:  # a draw, discard or pong in another form than the plain one
                assert isinstance(rec, (DrawRec, DiscardRec, PongRec))
                extra = None
                seat, tile = rec.seat, tile_ids[rec.tile]
            self.type[row] = _RECORD_CODES[type(rec)]
            self.seat[row] = seat
            self.tile[row] = tile
            if extra is not None:
                self.rare_rows.append(row)
                self.rare.append(extra)
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
        extra: tuple[Any, ...]
        codes = _EVENT_CODE
        for event in events:
            code = codes[type(event)]
            if _DRAW <= code <= _PONG:  # draw, discard, pong: most rows
                self.add_row(event.line, code, event.seat, event.tile)  # type: ignore[union-attr]
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
        rows = len(self.type)
        counts = np.array(self.deal_rows, dtype=np.int32)
        deal_of = pa.array(np.repeat(np.arange(len(counts), dtype=np.int32), counts))
        first_rows = np.repeat(np.cumsum(counts, dtype=np.int32) - counts, counts)
        spread = _Spread(np.array(self.rare_rows, dtype=np.int64), rows)
        rare_columns: list[Sequence[Any]] = (
            list(zip(*self.rare, strict=True)) if self.rare else [()] * len(_RARE)
        )
        month_of_row = pa.array(self.deal_month, type=_I32).take(deal_of)
        columns = {
            "deal_id": _dictionary(deal_of, self.deal_ids),
            "month": _dictionary(month_of_row, list(self.month_codes)),
            "seq": pa.array(np.arange(rows, dtype=np.int32) - first_rows),
            "line": pa.array(np.frombuffer(self.line, dtype="<i4").astype(np.int32)),
            "type": _dictionary(pa.array(_bytes_column(self.type)), _EVENT_TYPES),
            "seat": _nullable(self.seat),
            "tile": _dictionary(_nullable(self.tile), _TILE_NAMES),
        }
        for name, values in zip(_RARE, rare_columns, strict=True):
            field_type = self.schema.field(name).type
            columns[name] = spread(pa.array(values, type=field_type))
        return pa.Table.from_arrays([columns[name] for name in EVENTS_WIRE.names], schema=EVENTS_WIRE)


class _Spread:
    """Spreads a column of the rare rows' values over all rows (null elsewhere) by building
    the result's buffers with numpy: an Arrow ``take`` per column with a mostly-null index
    cost more."""

    def __init__(self, rare_rows: Any, rows: int) -> None:
        self.rare_rows = rare_rows
        self.rows = rows
        before = np.zeros(rows + 1, dtype=np.int64)  # rare rows before each row
        before[rare_rows + 1] = 1
        self.before = np.cumsum(before)

    def __call__(self, values: pa.Array) -> pa.Array:
        rows = self.rows
        if len(values) == 0:
            return pa.nulls(rows, values.type)
        rare_valid = _validity(values)
        valid = np.zeros(rows, dtype=bool)
        valid[self.rare_rows] = rare_valid
        bitmap = pa.py_buffer(np.packbits(valid, bitorder="little"))
        nulls = rows - int(valid.sum())
        kind = values.type
        if pa.types.is_integer(kind):
            dtype = np.dtype(f"{'i' if pa.types.is_signed_integer(kind) else 'u'}{kind.bit_width // 8}")
            dense = np.zeros(rows, dtype=dtype)
            held = np.frombuffer(values.buffers()[1], dtype=dtype)[values.offset :][: len(values)]
            dense[self.rare_rows] = np.where(rare_valid, held, 0)  # a null's slot holds anything
            return pa.Array.from_buffers(kind, rows, [bitmap, pa.py_buffer(dense)], null_count=nulls)
        # strings and lists: the rare values' offsets, repeated over the rows between them
        offsets = np.frombuffer(values.buffers()[1], dtype=np.int32)[: len(values) + 1]
        spread = pa.py_buffer(np.ascontiguousarray(offsets[self.before]))
        children = [values.values] if pa.types.is_list(kind) else []
        data = [] if children else [values.buffers()[2]]
        return pa.Array.from_buffers(kind, rows, [bitmap, spread, *data], null_count=nulls, children=children)


def _validity(values: pa.Array) -> Any:
    """Which values are not null, read from the validity bitmap: quicker than
    ``Array.to_numpy``, which also imports pandas (CPU and memory in every process)."""
    bitmap = values.buffers()[0]
    if bitmap is None:
        return np.ones(len(values), dtype=bool)
    bits = np.unpackbits(np.frombuffer(bitmap, dtype=np.uint8), bitorder="little")
    return bits[values.offset : values.offset + len(values)].astype(bool)


def _bytes_column(column: bytearray) -> Any:
    """A byte column as int8 values (a copy: the bytearray may still grow)."""
    return np.frombuffer(column, dtype=np.uint8).astype(np.int8)


def _nullable(column: bytearray) -> pa.Array:
    values = np.frombuffer(column, dtype=np.uint8)
    return pa.array(values.astype(np.int8), mask=values == _NULL_BYTE)


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
    packed_tables: dict[str, bytes] | None = None  # the tables as Arrow IPC (see packed)

    def packed(self, compression: str | None = "lz4") -> Facts:
        """These facts with the tables as Arrow IPC streams, LZ4-compressed by default:
        about a fifth of the bytes, for a worker across a network (zstd packs tighter but
        takes longer). A local worker sends them uncompressed (``None``): over a
        pipe the bytes cost less than LZ4, which compresses every column buffer of a
        chunk's tables as a frame of its own."""
        options = pa.ipc.IpcWriteOptions(compression=compression)
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
