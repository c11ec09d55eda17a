"""The reader's short road for tile lists (ingest/logs/line_parser.py ``_compact`` and the
list of names) reads exactly what ``parse_tiles(..., wild=True)`` reads, 红中 included, and
leaves every error to it."""

from __future__ import annotations

import random

import pytest

from engine.tiles import TileError, parse_tiles
from ingest.logs.line_parser import _compact, _tiles

ALPHABET = "1234567777889mmppssz中 x"


def _either(fn: object, text: object) -> object:
    try:
        return ("ok", tuple(fn(text)))  # type: ignore[operator]
    except TileError as error:
        return ("error", str(error))


@pytest.mark.parametrize(
    "text", ["7z", "77z", "123m7z", "123m中中", "中123p", "1中", "z", "17z", "中z", "7z7", "", "5m"]
)
def test_compact_reads_as_parse_tiles(text: str) -> None:
    assert _either(_compact, text) == _either(lambda t: parse_tiles(t, wild=True), text)


def test_compact_reads_as_parse_tiles_on_random_text() -> None:
    rng = random.Random(45)
    for _ in range(20_000):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 16)))
        assert _either(_compact, text) == _either(lambda t: parse_tiles(t, wild=True), text), text


def test_a_wall_of_names_with_red_dragons() -> None:
    names = ["1m", "7z", "9s", "中", "5p"]
    assert _tiles(names, "wall") == tuple(parse_tiles(names, wild=True))
