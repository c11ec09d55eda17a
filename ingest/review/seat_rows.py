"""复盘 at ingest: one deal's review as one row a seat (the warehouse's ``reviews`` table),
the sums :class:`ingest.review.PlayerTally` keeps, so the pages and the API read each
player's figures from the marts and never replay a deal for them.

A seat's row holds its counts (discards, among the best, loss, backward, 定缺, deal-ins,
wins passed), its shanten as dealt, its costliest discard and its points by source. A
score sheet's deal has no tiles: its rows hold the points only, ``tiles`` false and
``why`` ``"score_sheet"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from engine.events import DealStart
from engine.rules import Rules
from ingest.review.deal_review import MONEY_KEYS, DealReview

#: why a deal has no decisions to review (the ``why`` of a deal and of its ``reviews`` rows)
SCORE_SHEET: Final = "score_sheet"


def dealt_shanten(start: DealStart, rules: Rules) -> list[int]:
    """The luck of the deal: each seat's shanten as dealt (before 换三张 and 定缺)."""
    from ingest.review.deal_review import dealt_shantens

    return dealt_shantens(start.hands, rules)


def _worst(rows: Sequence[dict[str, Any]]) -> tuple[int | None, str | None, list[str] | None, int | None]:
    """The first discard of the highest loss above 0: (line, tile, best, loss), or nulls."""
    worst: dict[str, Any] | None = None
    for row in rows:
        if row["kind"] == "discard" and row["loss"] > 0 and (worst is None or row["loss"] > worst["loss"]):
            worst = row
    if worst is None:
        return None, None, None, None
    return worst["line"], worst["tile"], list(worst["best"]), worst["loss"]


def seat_rows(
    review: DealReview, start: DealStart | None, rules: Rules | None, seats: int
) -> list[tuple[Any, ...]]:
    """One tuple a seat: the ``reviews`` columns from ``tiles`` on (``deal_id``, ``month``,
    ``seat`` and ``player`` are the caller's). ``start`` and ``rules``: a tile deal replayed
    to its end (its dealt shanten); None for a score sheet."""
    from ingest.review import PlayerTally

    tallies = [PlayerTally() for _ in range(seats)]
    by_seat: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
    for row in review.rows:
        seat = row["seat"]
        if 0 <= seat < seats:
            tallies[seat].count(row)
            by_seat[seat].append(row)
    dealt: list[int | None] = [None] * seats
    if review.tiles and start is not None and rules is not None:
        dealt = list(dealt_shanten(start, rules)[:seats]) + [None] * max(seats - len(start.hands), 0)
    why = None if review.tiles else (review.why_no_tiles or SCORE_SHEET)
    out = []
    for seat, t in enumerate(tallies):
        money = review.money[seat] if seat < len(review.money) else dict.fromkeys(MONEY_KEYS, 0)
        out.append(
            (
                review.tiles, why, t.discards, t.best, t.loss, t.backward, t.voids, t.void_agree, dealt[seat],
                t.deal_ins, t.deal_ins_not_ready, t.forced_deal_ins, t.passes, t.passed_fan,
                t.passed_then_won, t.passed_then_won_fan, *_worst(by_seat[seat]),
                *(money[key] for key in MONEY_KEYS),
            )
        )  # fmt: skip
    return out
