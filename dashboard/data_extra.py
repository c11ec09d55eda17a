"""Cached answers for the pages added by issue 13 (placements and rating, find a deal,
the biggest hands), next to ``dashboard/data.py`` and built on it.

The rating (``analytics/rating.py``) is computed in Python from the per-session placements
of every player under the shared filters, then cached per catalog version like every query.
"""

from __future__ import annotations

from typing import Any, Final

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from analytics import rating
from analytics.queries import Filters, with_placements, without_player
from dashboard import data

#: wins listed among the club's rare hands when their base pattern or an extra is one of
#: these (天胡, 地胡, 龙七对, 清龙七对, 清七对, 清幺九, 清对, 将对, 金钩钓)
RARE_PATTERNS: Final = ("tianhu", "dihu", "qinglongqidui", "longqidui", "qingqidui", "qingdaiyao",
                        "qingdui", "jiangdui", "jingoudiao")  # fmt: skip
SEARCH_LIMIT: Final = 200


@st.cache_data(show_spinner=False, max_entries=256)
def _history(path: str, version: str, key: data.FilterKey) -> pd.DataFrame:
    src = data.Source(path, version)
    player, club, first, last, rules, mates = key
    everyone = without_player(Filters(player, club, first, last, rules, mates))
    return rating.rating_history(data.query("session_placements", everyone, src=src))


def rating_history(filters: Filters, *, src: data.Source) -> pd.DataFrame:
    """Every player's rating after each session (the player filter is ignored: a rating
    needs every player's results)."""
    return _history(src.path, src.version, data.filter_key(without_player(filters)))


def daily_ratings(filters: Filters, *, src: data.Source) -> pd.DataFrame:
    return rating.daily_ratings(rating_history(filters, src=src))


def player_table(filters: Filters, *, src: data.Source) -> pd.DataFrame:
    """The leaderboard: ``player_stats`` with placements and rating (``Analytics.player_table``)."""
    return with_placements(
        data.query("player_stats", filters, src=src),
        data.query("placements", filters, src=src),
        rating_history(filters, src=src),
    )


def search(filters: Filters, *, src: data.Source, **criteria: Any) -> pd.DataFrame:
    """Deals matching ``dashboard/sql/deal_search.sql`` (player, min_fan, pattern, code,
    min_kongs; None = any), at most :data:`SEARCH_LIMIT`."""
    params = {"player": None, "min_fan": None, "pattern": None, "code": None, "min_kongs": None}
    params.update(criteria)
    return data.sql("deal_search", src=src, limit=SEARCH_LIMIT, **params, **data.filter_params(filters))


def biggest_hands(filters: Filters, *, src: data.Source, limit: int = 25) -> pd.DataFrame:
    return data.sql("biggest_hands", src=src, limit=limit, **data.filter_params(filters))


def rare_hands(filters: Filters, *, src: data.Source, limit: int = 100) -> pd.DataFrame:
    return data.sql(
        "rare_hands", src=src, limit=limit, rare=list(RARE_PATTERNS), **data.filter_params(filters)
    )
