"""The events table spreads its rare columns over all rows with numpy-built buffers
(``ingest.warehouse.rows._Spread``); Arrow's ``take`` with a mostly-null index is the
reference it must equal, for every column type the table has and any layout of rows."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.warehouse.rows import _RARE, _Spread
from ingest.warehouse.schema import SCHEMAS

TYPES = {name: SCHEMAS["events"].field(name).type for name in _RARE}


def _value(kind: pa.DataType) -> st.SearchStrategy[Any]:
    if pa.types.is_list(kind):
        item = (
            st.text(max_size=4) if pa.types.is_string(kind.value_type) else st.integers(-(2**31), 2**31 - 1)
        )
        return st.none() | st.lists(item, max_size=5)
    if pa.types.is_string(kind):
        return st.none() | st.text(max_size=6)
    bits = kind.bit_width
    return st.none() | st.integers(-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)


@st.composite
def layouts(draw: st.DrawFn) -> tuple[int, list[int], str, list[Any]]:
    rows = draw(st.integers(1, 60))
    rare = sorted(draw(st.sets(st.integers(0, rows - 1), max_size=rows)))
    name = draw(st.sampled_from(_RARE))
    values = draw(st.lists(_value(TYPES[name]), min_size=len(rare), max_size=len(rare)))
    return rows, rare, name, values


@settings(max_examples=300, deadline=None)
@given(layouts())
def test_spread_equals_take(layout: tuple[int, list[int], str, list[Any]]) -> None:
    rows, rare, name, values = layout
    small = pa.array(values, type=TYPES[name])
    where = np.full(rows, -1, dtype=np.int32)
    where[np.array(rare, dtype=np.int64)] = np.arange(len(rare), dtype=np.int32)
    expected = small.take(pa.array(where, mask=where < 0))
    spread = _Spread(np.array(rare, dtype=np.int64), rows)(small)
    spread.validate(full=True)
    assert spread.type == expected.type and spread.equals(expected)
