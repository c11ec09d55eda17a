"""Random changes to a simulated log's deals, for differential tests (``tests/fast_diff.py``).

The tamperer (``tamper.py``) makes corruptions with a known finding at a known line; these
changes have no such promise. A line dropped, doubled, swapped or moved, a field changed, an
optional claim left out (as another recorder writes it), a tile that is no tile: the change
may break the rules or leave another legal deal. Whatever the engine says of the result,
a second checker must say the same, so the changes only need to be many and varied.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.tiles import parse_tiles, tile_name

__all__ = ["EDITS", "OPTIONAL", "mutate_session"]

Edit = Callable[[dict[str, Any], random.Random], None]
TILES = [tile_name(t) for t in range(27)]
SUIT_NAMES = ("m", "p", "s")


def _other(values: Sequence[Any], old: Any, rng: random.Random) -> Any:
    return rng.choice([v for v in values if v != old])


def _tile(obj: dict[str, Any], rng: random.Random) -> None:
    obj["tile"] = _other(TILES, obj["tile"], rng)


def _seat(obj: dict[str, Any], rng: random.Random) -> None:
    obj["seat"] = _other(range(4), obj["seat"], rng)


def _from(obj: dict[str, Any], rng: random.Random) -> None:
    obj["from"] = _other([None, 0, 1, 2, 3], obj["from"], rng)


def _kind(obj: dict[str, Any], rng: random.Random) -> None:
    obj["kind"] = _other(("exposed", "added", "concealed"), obj["kind"], rng)


def _reason(obj: dict[str, Any], rng: random.Random) -> None:
    obj["reason"] = _other(("three_won", "wall_exhausted", "first_hu"), obj["reason"], rng)


def _suit(obj: dict[str, Any], rng: random.Random) -> None:
    obj["suit"] = _other(SUIT_NAMES, obj["suit"], rng)


def _direction(obj: dict[str, Any], rng: random.Random) -> None:
    obj["direction"] = _other(("clockwise", "counterclockwise", "across"), obj["direction"], rng)


def _dealer(obj: dict[str, Any], rng: random.Random) -> None:
    obj["dealer"] = _other(range(4), obj["dealer"], rng)


def _fan(obj: dict[str, Any], rng: random.Random) -> None:
    obj["fan"] = max(0, obj["fan"] + rng.choice((-1, 1)))


def _patterns(obj: dict[str, Any], rng: random.Random) -> None:
    patterns: list[str] = obj["patterns"]
    choice = rng.randrange(3)
    if choice == 0 and patterns:
        patterns.pop(rng.randrange(len(patterns)))
    elif choice == 1:
        patterns.insert(
            rng.randrange(len(patterns) + 1), rng.choice(("gen", "qingyise", "duiduihu", "pinghu"))
        )
    else:
        rng.shuffle(patterns)


def _numbers(key: str) -> Edit:
    def edit(obj: dict[str, Any], rng: random.Random) -> None:
        values: list[int] = obj[key]
        a, b = rng.sample(range(len(values)), 2)  # a zero-sum shift, or a plain one (one a seat)
        step = rng.choice((1, 2, 4))
        values[a] += step
        if rng.random() < 0.7:
            values[b] -= step

    return edit


def _wall(obj: dict[str, Any], rng: random.Random) -> None:
    wall = [tile_name(t) for t in parse_tiles(obj["wall"], wild=True)]
    if len(wall) >= 2:
        a, b = rng.sample(range(len(wall)), 2)
        wall[a], wall[b] = wall[b], wall[a]
    obj["wall"] = wall


def _hands(obj: dict[str, Any], rng: random.Random) -> None:
    """One tile of one hand swapped with a tile of another: still the set's tiles, another deal."""
    hands = [[tile_name(t) for t in parse_tiles(h, wild=True)] for h in obj["hands"]]
    a, b = rng.sample(range(len(hands)), 2)
    i, j = rng.randrange(len(hands[a])), rng.randrange(len(hands[b]))
    hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    obj["hands"] = hands


#: field -> how to change it; a line's edit is drawn among the fields it has
EDITS: dict[str, Edit] = {
    "tile": _tile,
    "seat": _seat,
    "from": _from,
    "kind": _kind,
    "reason": _reason,
    "suit": _suit,
    "direction": _direction,
    "dealer": _dealer,
    "fan": _fan,
    "patterns": _patterns,
    "deltas": _numbers("deltas"),
    "settlement": _numbers("settlement"),
    "scores": _numbers("scores"),
    "wall": _wall,
    "hands": _hands,
}


def _load(text: str) -> dict[str, Any] | None:
    """A line's object; None for a torn line (the tamperer's broken write) or no object."""
    try:
        obj = json.loads(text)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def _edit(text: str, rng: random.Random) -> str:
    obj = _load(text)
    if obj is None:
        return text
    fields = [key for key in EDITS if obj.get(key) is not None]
    if not fields:
        return text
    EDITS[rng.choice(fields)](obj, rng)
    return _dump(obj)


def _dump(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


#: claims and facts a recorder may leave out (docs/log-format.md): a deal without them is
#: still a deal, often a clean one, that the fast path must read the same way
OPTIONAL = ("deltas", "fan", "patterns", "settlement", "scores", "wall", "dice", "t")
#: the plays that carry claims or declarations, where a changed field matters most
CLAIMS = ('{"type":"hu"', '{"type":"kong"', '{"type":"pong"', '{"type":"exchange"', '{"type":"void"')


def _omit(lines: list[str], rng: random.Random) -> None:
    """One optional field left out of every line of the deal, as another recorder writes it."""
    objs = [_load(text) for text in lines]
    present = sorted({key for obj in objs if obj is not None for key in OPTIONAL if key in obj})
    if present:
        key = rng.choice(present)
        lines[:] = [
            text if obj is None or key not in obj else _dump({k: v for k, v in obj.items() if k != key})
            for text, obj in zip(lines, objs, strict=True)
        ]


def _target(lines: list[str], rng: random.Random) -> int:
    """A line to change: the deal or deal_end line, a claim, or any play."""
    roll = rng.random()
    if roll < 0.1:
        return 0
    if roll < 0.35:
        return len(lines) - 1
    claims = [i for i in range(1, len(lines) - 1) if lines[i].startswith(CLAIMS)]
    if roll < 0.65 and claims:
        return rng.choice(claims)
    return rng.randrange(1, len(lines))


def _odd_line(text: str, rng: random.Random) -> str:
    """A line the reader explains: a tile that is no tile, or a field the format lacks."""
    obj = _load(text)
    if obj is None:
        return text
    if "tile" in obj and rng.random() < 0.7:
        obj["tile"] = rng.choice(("0p", "5z", "10m", ""))
    else:
        obj["note"] = "x"
    return _dump(obj)


def _change(lines: list[str], rng: random.Random) -> None:
    """One change to a deal's lines (its deal line first, its deal_end last)."""
    roll = rng.random()
    inner = len(lines) - 2
    if inner < 2:  # little left of the deal: a field of its deal line
        lines[0] = _edit(lines[0], rng)
    elif roll < 0.1:  # a line dropped, the deal_end too at times
        del lines[len(lines) - 1 if rng.random() < 0.2 else rng.randrange(1, len(lines))]
    elif roll < 0.17:
        at = rng.randrange(1, len(lines) - 1)
        lines.insert(at, lines[at])
    elif roll < 0.25:
        at = rng.randrange(1, len(lines) - 2)
        lines[at], lines[at + 1] = lines[at + 1], lines[at]
    elif roll < 0.32:  # a play moved elsewhere in the deal
        text = lines.pop(rng.randrange(1, len(lines) - 1))
        lines.insert(rng.randrange(1, len(lines)), text)
    elif roll < 0.42:
        _omit(lines, rng)
    elif roll < 0.47:
        at = rng.randrange(len(lines))
        lines[at] = _odd_line(lines[at], rng)
    else:  # a field changed
        at = _target(lines, rng)
        lines[at] = _edit(lines[at], rng)


def _mutate_deal(lines: list[str], rng: random.Random) -> list[str]:
    """One change to a deal, at times two or three."""
    for _ in range(1 + (rng.random() < 0.25) + (rng.random() < 0.1)):
        _change(lines, rng)
    return lines


def mutate_session(lines: list[str], rng: random.Random, rate: float) -> list[str]:
    """About ``rate`` of the session's deals get a random change or a few (which may or
    may not break the rules: the engine decides, the fast path must agree)."""
    out: list[str] = []
    deal: list[str] | None = None
    for text in lines:
        kind = _kind_of(text)
        if kind == "deal":
            deal = [text]
            continue
        if deal is None:
            out.append(text)
            continue
        deal.append(text)
        if kind == "deal_end":
            out += _mutate_deal(deal, rng) if rng.random() < rate else deal
            deal = None
    if deal is not None:
        out += deal
    return out


def _kind_of(text: str) -> str | None:
    """The ``type`` of a line as the simulator writes it (its first field), without decoding."""
    for kind in ("deal_end", "deal", "session_end", "session"):
        if text.startswith(f'{{"type":"{kind}"'):
            return kind
    return None
