"""The fan of any win: a plain hand is priced by :mod:`engine.fan`, a hand that holds 红中
by its best reading (:mod:`engine.wilds`). This module is the one that knows both, so
neither of them imports the other (wilds builds on fan's features and prices)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.fan import DISCARD_WIN, FanResult, WinContext, score_plain_win
from engine.rules import Rules
from engine.wilds import score_wild_win


def score_win(
    concealed: Sequence[int],
    pongs: Sequence[int],
    kongs: Sequence[int],
    rules: Rules,
    context: WinContext = DISCARD_WIN,
    win_tile: int = -1,
    concealed_kongs: int = 0,
    wilds: int = 0,
) -> FanResult | None:
    """Fan of a win (:func:`engine.fan.score_plain_win` says how it is read), ``wilds`` the
    红中 among the concealed tiles (beside the 27 counts); ``None`` when the tiles are no
    win. A hand with 红中 scores its best substitution (:func:`engine.wilds.score_wild_win`)."""
    if wilds:
        return score_wild_win(concealed, pongs, kongs, rules, context, win_tile, concealed_kongs, wilds)
    return score_plain_win(concealed, pongs, kongs, rules, context, win_tile, concealed_kongs)
