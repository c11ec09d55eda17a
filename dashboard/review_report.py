"""复盘 of a warehouse: the same JSON as ``chuanma review`` of logs
(:meth:`ingest.review.ReviewReport.to_json`), from what ingest stored.

Each player's summary is read from the figures the review step kept
(``dashboard/stored_reviews.py``, ``chuanma review --warehouse DIR --store``;
``mart_review_seats``, ``analytics/sql/queries/player_review.sql``): never recomputed. The
deals that step has not reached yet are counted (``not_reviewed``) with the command that
reviews them. A deal's decisions are the engine's
replay of its stored events judged by :class:`ingest.review.deal_review.DealJudge`, as
``chuanma review`` judges a log's (the replay page's steps come from the same rows). A
score-sheet deal has no tiles: its points only, ``"why": "score_sheet"``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

import pandas as pd  # type: ignore[import-untyped]

from analytics.queries import Analytics, Filters
from ingest.review.deal_review import MONEY_KEYS, DealJudge, DealReview, money_of
from ingest.review.seat_rows import SCORE_SHEET

#: why a stored deal's decisions are missing (a deal's ``why``): beside ``score_sheet``,
#: a deal that could not be replayed (only its raw lines are stored)
INVALID: Final = "invalid"
NO_RULES: Final = "unknown_rules"


@dataclass(frozen=True)
class Transfer:
    """A stored ledger row, as :func:`ingest.review.deal_review.money_of` reads a transfer."""

    reason: str
    payer: int
    payee: int
    amount: int


def _value(value: Any) -> Any:
    """A frame's value as JSON takes it (NaN and NaT as null, numpy numbers as Python's)."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NaT:
        return None
    if hasattr(value, "item"):
        return value.item()
    return value


def _day(value: Any) -> str | None:
    value = _value(value)
    return None if value is None else str(value)[:10]


def summary_of(row: dict[str, Any]) -> dict[str, Any]:
    """A ``player_review`` row as the CLI's summary (``PlayerTally.summary``) plus how many
    deals have no decisions and why (``sheet_deals``: score sheets; ``not_reviewed``:
    stored before the reviews table)."""
    first, last = _day(row["first_day"]), _day(row["last_day"])
    keys = (
        "deals", "tile_deals", "discards", "best_pct", "average_loss", "backward_pct", "void_agreement_pct",
        "average_start_shanten", "deal_ins", "deal_ins_not_ready", "forced_deal_ins", "passes", "passed_fan",
        "passed_then_won", "passed_then_won_fan", "sheet_deals", "not_reviewed",
    )  # fmt: skip
    out: dict[str, Any] = {key: _value(row[key]) for key in keys}
    out["period"] = [first, last] if first and last else None
    out["money"] = {key: int(_value(row[f"money_{key}"]) or 0) for key in MONEY_KEYS}
    return out


#: the command that reviews a warehouse's deals not reviewed yet
STORE_COMMAND: Final = "chuanma review --warehouse {warehouse} --store"


def players_summary(
    analytics: Analytics, filters: Filters | None = None
) -> tuple[dict[str, Any], float | None, int]:
    """Each player's summary with ``by_period`` (month), the club's average starting
    shanten and the deals not reviewed yet, under ``filters`` (``filters.player``: one
    player's summary; the other two stay the club's)."""
    frame = analytics.player_review(filters)
    players: dict[str, Any] = {}
    club: float | None = None
    pending = 0
    for row in frame.to_dict(orient="records"):
        name = str(row["player"])
        club = _value(row["club_start_shanten"])
        pending = int(_value(row["pending_deals"]) or 0)
        month = _value(row["month"])
        if row["whole"]:
            players[name] = {**summary_of(row), "by_period": {}}
        elif month is not None:
            players[name]["by_period"][str(month)] = summary_of(row)
    return players, club, pending


def deal_review(analytics: Analytics, deal_id: str) -> dict[str, Any] | None:
    """One stored deal's decisions as ``chuanma review`` gives a log's deal; None when the
    warehouse has no such deal."""
    header = analytics.page("deal_header", deal_id=deal_id)
    if header.empty:
        return None
    deal = header.iloc[0].to_dict()
    players = [str(p) for p in (deal["players"] if deal["players"] is not None else [])]
    out: dict[str, Any] = {
        "deal_id": deal_id, "players": players, "tiles": False, "why": None,
        "status": str(deal["status"]), "rows": [], "money": [],
    }  # fmt: skip
    ledger = [
        Transfer(str(r["reason"]), int(r["payer"]), int(r["payee"]), int(r["amount"]))
        for r in analytics.deal_ledger(deal_id).to_dict(orient="records")
    ]
    out["money"] = money_of(ledger, len(players))
    if _value(deal.get("record")) == "sheet":
        out["why"] = SCORE_SHEET
        return out
    if deal["status"] == "invalid":
        out["why"] = INVALID
        return out
    return _judged(analytics, deal, out)


def _judged(analytics: Analytics, deal: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
    """A tile deal replayed from its stored events with the judge on its steps."""
    from engine.replay import FindingSink, ReplayOptions
    from engine.rules import RulesError, rules_from_name
    from ingest.replay.session_replay import replay_one
    from ingest.warehouse.rows_decode import events_from_rows, stored_int

    try:
        rules = rules_from_name(str(deal["rules"]))
    except RulesError:
        out["why"] = NO_RULES
        return out
    start, play, end = events_from_rows(analytics.deal_events(str(deal["deal_id"])).to_dict(orient="records"))
    review = DealReview(start.deal_id)
    judge = DealJudge(review)
    options = ReplayOptions(base=stored_int(deal.get("base")) or 1, keep_state=True, on_step=judge)
    report = replay_one(start, play, end, rules, options, FindingSink())
    judge.finish(report.complete)
    out["tiles"] = True
    out["rows"] = review.rows
    return out


def warehouse_review(
    analytics: Analytics, filters: Filters | None = None, *, newest: int | None = None
) -> dict[str, Any]:
    """The review of the stored deals under ``filters`` (player, club, dates, rules, table
    size): every player's summary from the marts, and the decisions of the deals (one
    player's when ``filters.player`` is given; ``newest``: only the newest that many)."""
    filters = filters or Filters()
    players, club, pending = players_summary(analytics, filters)
    ids = analytics.page(
        "review_deal_ids", club=filters.club, date_from=filters.date_from, date_to=filters.date_to,
        rules=filters.rules, seats=filters.seats, player=filters.player, newest=newest,
    )  # fmt: skip
    deals = [deal_review(analytics, str(deal_id)) for deal_id in ids["deal_id"]]
    return {
        "warehouse": str(analytics.root.name),
        "deals": [deal for deal in deals if deal is not None],
        "players": players,
        "club": {"average_start_shanten": club},
        "not_reviewed": {"deals": pending, "command": STORE_COMMAND.format(warehouse=analytics.root)},
    }
