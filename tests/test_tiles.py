"""Tiles: names, the compact form, and the errors a bad tile or a fifth copy gives."""

import pytest

from engine.tiles import (
    TileCountError,
    TileError,
    format_tiles,
    parse_tile,
    parse_tiles,
    tile_name,
    to_counts,
)


def test_ids_follow_suit_then_rank() -> None:
    assert parse_tile("1m") == 0
    assert parse_tile("9m") == 8
    assert parse_tile("1p") == 9
    assert parse_tile("9s") == 26
    assert [tile_name(t) for t in range(0, 27, 13)] == ["1m", "5p", "9s"]


def test_compact_form_round_trips_sorted() -> None:
    tiles = parse_tiles("1123m456p")
    assert tiles == [0, 0, 1, 2, 12, 13, 14]
    assert format_tiles(reversed(tiles)) == "1123m456p"
    assert parse_tiles(["5p", "1m"]) == [13, 0]
    assert parse_tiles("") == []


@pytest.mark.parametrize("text", ["0m", "1x", "m", "12", "1m 2m", "１m"])
def test_bad_compact_text_names_the_problem(text: str) -> None:
    with pytest.raises(TileError):
        parse_tiles(text)


@pytest.mark.parametrize("name", ["10m", "5", "5z", "", "P5"])
def test_bad_tile_name(name: str) -> None:
    with pytest.raises(TileError, match="not a tile"):
        parse_tile(name)


def test_fifth_copy_is_a_count_error() -> None:
    with pytest.raises(TileCountError, match="5 copies of 1m"):
        to_counts(parse_tiles("11111m"))
    assert to_counts(parse_tiles("1111m"))[0] == 4
