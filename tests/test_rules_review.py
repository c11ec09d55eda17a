"""An adversarial review of the deal engine against spec/rules.md: small hand-made deals,
each at a corner of a rule or where two rules meet, with the expected values worked out
by hand in the comments (multiplier = 2^(fan-1)). Every test cites the rules.md line it
checks.

Short deals are played on :class:`engine.deal.Deal` directly; deals that must empty the
55-tile wall are written with the golden builder (``tests/golden/build_golden.py``, its
tsumogiri filler) and validated like a log.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from engine.deal import Deal
from engine.events import DealStart, Discard, Draw, Hu, Kong, PlayEvent, Pong
from engine.rules import load_rules
from engine.tiles import parse_tile, parse_tiles
from ingest.reader import read_lines
from ingest.validate import ValidationReport, validate_log

GOLDEN = Path(__file__).parent / "golden"


@cache
def builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_golden", GOLDEN / "build_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def validate(log: Any) -> ValidationReport:
    return validate_log(read_lines(log.text().splitlines(), "review.jsonl"))


def event(text: str, line: int) -> PlayEvent:
    """``"draw 1 5p"``, ``"discard 0 3s"``, ``"pong 2 8p"``, ``"kong 1 5s added"``,
    ``"hu 3 5p 2"`` (from seat 2) or ``"hu 3 5p -"`` (self-drawn)."""
    kind, seat_text, tile_text, *rest = text.split()
    seat, tile = int(seat_text), parse_tile(tile_text)
    if kind == "draw":
        return Draw(seat, tile, line=line)
    if kind == "discard":
        return Discard(seat, tile, line=line)
    if kind == "pong":
        return Pong(seat, tile, line=line)
    if kind == "kong":
        return Kong(seat, tile, rest[0], line=line)  # type: ignore[arg-type]
    assert kind == "hu", text
    return Hu(seat, tile, None if rest[0] == "-" else int(rest[0]), line=line)


def play(hands: Sequence[str], events: Sequence[str], rules: str | dict[str, Any] = "standard") -> Deal:
    """A deal with no recorded wall, dealer 0, the events applied in order (line 2 on)."""
    start = DealStart("review", 0, tuple(tuple(parse_tiles(hand)) for hand in hands), line=1)
    deal = Deal(start, load_rules(rules))
    for line, text in enumerate(events, 2):
        deal.apply(event(text, line))
    return deal


# ----------------------------------------------------------------------------- 海底
# Seats 0 and 1 never get ready (odd ranks in two suits, at most five pairs); seat 2
# holds 22446688m 2458p 8p (five pairs, no set: never ready) and a pair of 8p to pong;
# seat 3 (123456789m 1235p) waits on 5p alone. All four 5p are in the hands, so the
# filler never throws one, and one 8p is kept back to be the wall's last tile.
HAIDI_PONG_HANDS = ["355799p11355799s", "1335779m133779s", "22446688m24588p", "123456789m1235p"]


def test_a_discard_after_a_pong_of_the_last_tile_is_no_haidi() -> None:
    # rules.md 4, extras: "`haidi` 海底: win on the wall's last tile, drawn or discarded".
    # Seat 3 draws the last tile (8p) and throws it; seat 2 pongs it and throws 5p; seat 3
    # wins the 5p. That 5p is not the wall's last tile: 平胡 1 fan, x1 from seat 2, not
    # 平胡 + 海底 = 2 fan. The wall is empty, so 查叫 follows: seats 0, 1, 2 are neither
    # ready nor 花猪 (two suits each) and made no kong: nothing to settle.
    log = builder().Log("haidi-pong")
    log.session("review-haidi-pong", {"preset": "standard", "haidi": True})
    deal = log.deal("haidi-pong-1", HAIDI_PONG_HANDS)
    deal.discard(0, "3p")
    deal.filler([1, 2, 3, 0], 54, keep="8p")
    deal.turn(3, "8p")  # the wall's last tile, thrown
    deal.pong(2, "8p")
    deal.discard(2, "5p")
    deal.hu(3, "5p", 2, 1, ["pinghu"], [0, 0, -1, 1])
    deal.end("wall_exhausted", [0, 0, 0, 0], [0, 0, -1, 1])
    log.session_end([0, 0, -1, 1])
    report = validate(log)
    assert report.ok, [f.message for f in report.all_findings()]
