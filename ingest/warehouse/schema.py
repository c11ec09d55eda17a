"""The warehouse's tables: their schemas, the contract ``analytics/`` reads (every column
is documented in ``analytics/README.md``), and how their columns are encoded on the way
from a worker to Parquet.
"""

from __future__ import annotations

from typing import Any, Final

import pyarrow as pa  # type: ignore[import-untyped]

NO_MONTH: Final = "none"  # partition of rows with no known date (stray lines, undated sessions)
STATUSES: Final = ("ok", "findings", "invalid")

_I8 = pa.int8()
_I16 = pa.int16()
_I32 = pa.int32()
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
            # 血流成河: a seat may win again; the columns above describe its first win
            ("win_count", _I8),  # every win of the seat in the deal (null in older batches)
            ("win_fans", _I32S),  # the fan of each of them, in order
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
            ("message_zh", _STR),  # the explanation in Chinese; null where none is written
            # the message's template and its values (JSON), rendered again with the players'
            # names at display time; null where the message is written out and in batches
            # written before these columns (the stored message is shown then)
            ("message_key", _STR),
            ("message_values", _STR),
        ]
    ),
    # 复盘 (ingest/review): one row a seat of a complete deal, the per-player review figures
    # counted at ingest (a score sheet's: its points only, ``tiles`` false), read by the
    # review mart (analytics/sql/20_marts.sql mart_review_seats); none in older batches
    "reviews": pa.schema(
        [
            ("deal_id", _STR),
            ("month", _STR),
            ("seat", _I8),
            ("player", _STR),
            ("tiles", _BOOL),
            ("why", _STR),  # why a deal has no decisions: "score_sheet"; null for a tile deal
            ("discards", _I16),
            ("best", _I16),  # discards among the best
            ("loss", _I32),  # the summed loss of its discards
            ("backward", _I16),
            ("voids", _I8),
            ("void_agree", _I8),
            ("start_shanten", _I8),  # the hand as dealt; null for a score sheet
            ("deal_ins", _I8),
            ("deal_ins_not_ready", _I8),
            ("forced_deal_ins", _I8),
            ("passes", _I8),
            ("passed_fan", _I16),
            ("passed_then_won", _I8),
            ("passed_then_won_fan", _I16),
            ("worst_line", _I32),  # its costliest discard (the first of the highest loss)
            ("worst_tile", _STR),
            ("worst_best", _STRS),
            ("worst_loss", _I16),
            ("money_wins", _I32),  # its points by source (ingest.review.deal_review.MONEY_KEYS)
            ("money_deal_ins", _I32),
            ("money_self_draws", _I32),
            ("money_kongs", _I32),
            ("money_call_transfer", _I32),
            ("money_cha_jiao", _I32),
            ("money_flower_pig", _I32),
            ("money_refunds", _I32),
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

#: the events table as workers send it: SCHEMAS["events"] with four dictionary columns
EVENTS_WIRE: Final = pa.schema(
    [
        pa.field(f.name, pa.dictionary(_I8 if f.name in ("type", "tile") else _I32, _STR))
        if f.name in ("deal_id", "month", "type", "tile")
        else f
        for f in SCHEMAS["events"]
    ]
)


#: line numbers rise through a file: stored as deltas they take a few bits a row (the
#: events table's files are half the size), where a dictionary of them would not pay
_DELTA_COLUMNS: Final = frozenset({"seq", "line", "last_line"})


#: the events columns whose min/max no query prunes by (a row group of a million lines
#: holds every type, seat and tile): writing their statistics cost a tenth of the table's
#: Parquet encoding for nothing; ``deal_id`` and ``month`` keep theirs (deal_events.sql)
_NO_STATISTICS: Final = frozenset(
    {"type", "seat", "tile", "from_seat", "kind", "tiles", "fan", "patterns", "deltas", "settlement"}
)


def encodings(schema: pa.Schema) -> dict[str, Any]:
    """``pq.write_table`` options: delta encoding for line numbers, dictionaries for the
    rest; no statistics for the events columns no query prunes by."""
    delta = [f.name for f in schema if f.name in _DELTA_COLUMNS]
    options: dict[str, Any] = {
        "use_dictionary": [f.name for f in schema if f.name not in _DELTA_COLUMNS],
        "column_encoding": dict.fromkeys(delta, "DELTA_BINARY_PACKED"),
    }
    if schema.equals(SCHEMAS["events"]):
        options["write_statistics"] = [f.name for f in schema if f.name not in _NO_STATISTICS]
    return options
