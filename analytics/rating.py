"""A rating that moves with results: pairwise Elo over sessions of four players.

Why pairwise: a session of 血战到底 has four players and no single winner; treating it as
the six head-to-head games it contains (each pair of players, the one with the higher
session net "wins", equal nets draw) keeps Elo's familiar meaning and makes every session
zero-sum. Constants (analytics/README.md, "Rating"):

- every player starts at :data:`INITIAL` (1500) at their first session under the filters;
- for each pair (i, j) of a session, i's expected score is
  ``E = 1 / (1 + 10 ** ((R_j - R_i) / SCALE))`` with ``SCALE`` 400, and its actual score ``S``
  is 1, 0.5 or 0 as i's session net is above, equal to or below j's;
- i's change is ``K / (n - 1) * sum_j (S - E)`` with ``K`` 32 and ``n`` the players of the
  session (3 opponents: at most ±32 per session), from the ratings before the session (the
  four change at once);
- sessions are taken in time order (``played_at``, then ``session_id``: a tie-free,
  deterministic order); a session without a time comes first.

Since ``S_ij + S_ji = 1`` and ``E_ij + E_ji = 1``, the changes of a session sum to zero.
"""

from __future__ import annotations

import math
from typing import Final

import pandas as pd  # type: ignore[import-untyped]

INITIAL: Final = 1500.0
K: Final = 32.0
SCALE: Final = 400.0

HISTORY_COLUMNS: Final = ("session_id", "played_at", "played_date", "player", "placement", "net",
                          "rating_before", "change", "rating")  # fmt: skip


def _empty(*columns: str) -> pd.DataFrame:
    """No rows; names and ids typed as text, so a merge on ``player`` still works."""
    text = {"session_id", "player", "played_at", "played_date"}
    return pd.DataFrame({c: pd.Series([], dtype=object if c in text else float) for c in columns})


def expected(mine: float, theirs: float) -> float:
    """Elo's expected score of a player rated ``mine`` against one rated ``theirs``."""
    return 1.0 / (1.0 + math.pow(10.0, (theirs - mine) / SCALE))


def session_changes(ratings: list[float], nets: list[int]) -> list[float]:
    """Each seat's rating change for one session (pairwise Elo, simultaneous).

    ``E_ij = q_i / (q_i + q_j)`` with ``q = 10 ** (R / SCALE)`` is :func:`expected`
    rewritten: one power per player instead of one per pair."""
    n = len(ratings)
    if n < 2:
        return [0.0] * n
    weight = K / (n - 1)
    strength = [math.pow(10.0, r / SCALE) for r in ratings]
    changes = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            if i != j:
                actual = 1.0 if nets[i] > nets[j] else 0.5 if nets[i] == nets[j] else 0.0
                total += actual - strength[i] / (strength[i] + strength[j])
        changes.append(weight * total)
    return changes


def rate(
    sessions: list[str], players: list[str], nets: list[int], held: dict[str, float] | None = None
) -> tuple[list[float], list[float]]:
    """Each row's rating before and change, for rows in rating order (a session's rows
    together, ``sessions[i]`` its id). ``held``: the players' ratings before the first row
    (a history continued); a player not in it starts at :data:`INITIAL`.

    Plain lists, not a pandas group per session: what a refresh pays for every session
    after the one a save touched."""
    current: dict[str, float] = dict(held or {})
    before: list[float] = []
    changes: list[float] = []
    start, rows = 0, len(sessions)
    while start < rows:
        stop = start + 1
        while stop < rows and sessions[stop] == sessions[start]:
            stop += 1
        table = players[start:stop]
        ratings = [current.get(p, INITIAL) for p in table]
        moved = session_changes(ratings, nets[start:stop])
        for player, mine, change in zip(table, ratings, moved, strict=True):
            current[player] = mine + change
        before += ratings
        changes += moved
        start = stop
    return before, changes


def rating_history(placements: pd.DataFrame, held: dict[str, float] | None = None) -> pd.DataFrame:
    """One row per session and player (``session_placements`` rows of every player): the
    rating before, the change and the rating after, in the order the sessions are rated
    (:func:`rate`)."""
    if placements.empty:
        return _empty(*HISTORY_COLUMNS)
    order = placements.assign(_at=pd.to_datetime(placements["played_at"]))
    order = order.sort_values(["_at", "session_id", "placement"], na_position="first", kind="stable")
    players = order["player"].astype(str).tolist()
    nets = [int(v) for v in order["net"].tolist()]
    before, changes = rate(order["session_id"].astype(str).tolist(), players, nets, held)
    return pd.DataFrame(
        {
            "session_id": order["session_id"].to_numpy(),
            "played_at": order["played_at"].to_numpy(),
            "played_date": order["played_date"].to_numpy(),
            "player": players,
            "placement": [int(v) for v in order["placement"].tolist()],
            "net": nets,
            "rating_before": before,
            "change": changes,
            "rating": [b + c for b, c in zip(before, changes, strict=True)],
        }
    )


def current_ratings(history: pd.DataFrame) -> pd.DataFrame:
    """Each player's rating after their last session, and their peak."""
    if history.empty:
        return _empty("player", "rating", "rating_peak")
    grouped = history.groupby("player", sort=True)
    return pd.DataFrame(
        {
            "rating": grouped["rating"].last(),
            "rating_peak": grouped["rating"].max(),
        }
    ).reset_index()


def daily_ratings(history: pd.DataFrame) -> pd.DataFrame:
    """Each player's rating at the end of each day they played (the line over time)."""
    dated = history.dropna(subset=["played_date"])
    if dated.empty:
        return _empty("player", "played_date", "rating", "sessions")
    grouped = dated.groupby(["player", "played_date"], sort=True)
    return pd.DataFrame(
        {"rating": grouped["rating"].last(), "sessions": grouped["rating"].size()}
    ).reset_index()
