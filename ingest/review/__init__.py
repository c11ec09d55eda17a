"""复盘 (``chuanma review``): logs read as ``chuanma validate`` reads them, every tile deal
replayed by the engine with :class:`ingest.review.deal_review.DealJudge` on its steps, and
each player's summary. The JSON (:meth:`ReviewReport.to_json`) is the contract the CLI
prints and the dashboard's page and the API will serve (docs/cli.md, ``chuanma review``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.rules import Rules
from ingest.review.deal_review import (
    MONEY_KEYS,
    ROW_SUMS,
    DealJudge,
    DealReview,
    dealt_shantens,
    money_of,
    seat_sums,
)

__all__ = ["ReviewReport", "review_paths"]


@dataclass
class PlayerTally:
    """One player's running sums over the deals reviewed."""

    deals: int = 0
    tile_deals: int = 0
    discards: int = 0
    best: int = 0
    loss: int = 0
    backward: int = 0
    voids: int = 0
    void_agree: int = 0
    start_shanten: int = 0
    starts: int = 0
    deal_ins: int = 0
    deal_ins_not_ready: int = 0
    forced_deal_ins: int = 0
    passes: int = 0
    passed_fan: int = 0
    passed_then_won: int = 0
    passed_then_won_fan: int = 0
    money: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MONEY_KEYS, 0))
    dates: set[str] = field(default_factory=set)

    def count(self, row: dict[str, Any]) -> None:
        """One decision row of this player's."""
        kind = row["kind"]
        if kind == "discard":
            self.discards += 1
            self.best += row["loss"] == 0 and row["shanten"] == row["best_shanten"]
            self.loss += row["loss"]
            self.backward += row["backward"]
        elif kind == "void":
            self.voids += 1
            self.void_agree += row["agrees"]
        elif kind == "deal_in":
            self.deal_ins += 1
            self.deal_ins_not_ready += row["ready"] is False
            self.forced_deal_ins += row["forced"]
        elif kind == "pass":
            self.passes += 1
            self.passed_fan += row["fan"]
            if row.get("won_later") is not None:
                self.passed_then_won += 1
                self.passed_then_won_fan += row["won_later"]

    def add_sums(self, sums: list[int]) -> None:
        """A deal's rows of this player's at once, as :func:`ingest.review.deal_review.seat_sums`
        adds them up (the same as :meth:`count` a row at a time)."""
        for name, value in zip(ROW_SUMS, sums, strict=True):
            setattr(self, name, getattr(self, name) + value)

    def summary(self) -> dict[str, Any]:
        def pct(part: int, whole: int) -> float | None:
            return round(100 * part / whole, 1) if whole else None

        return {
            "deals": self.deals,
            "tile_deals": self.tile_deals,
            "period": [min(self.dates), max(self.dates)] if self.dates else None,
            "discards": self.discards,
            "best_pct": pct(self.best, self.discards),
            "average_loss": round(self.loss / self.discards, 2) if self.discards else None,
            "backward_pct": pct(self.backward, self.discards),
            "void_agreement_pct": pct(self.void_agree, self.voids),
            "average_start_shanten": round(self.start_shanten / self.starts, 2) if self.starts else None,
            "deal_ins": self.deal_ins,
            "deal_ins_not_ready": self.deal_ins_not_ready,
            "forced_deal_ins": self.forced_deal_ins,
            "passes": self.passes,
            "passed_fan": self.passed_fan,
            "passed_then_won": self.passed_then_won,
            "passed_then_won_fan": self.passed_then_won_fan,
            "money": dict(self.money),
        }


@dataclass
class ReviewReport:
    deals: list[dict[str, Any]] = field(default_factory=list)
    players: dict[str, PlayerTally] = field(default_factory=dict)
    #: player -> month (``YYYY-MM`` of the sessions' ``started_at``) -> the same sums
    periods: dict[str, dict[str, PlayerTally]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)

    def club_start_shanten(self) -> float | None:
        total = sum(t.start_shanten for t in self.players.values())
        count = sum(t.starts for t in self.players.values())
        return round(total / count, 2) if count else None

    def to_json(self, player: str | None = None) -> dict[str, Any]:
        deals = self.deals
        if player is not None:
            deals = [d for d in deals if player in d["players"]]
        players: dict[str, Any] = {}
        for name, tally in sorted(self.players.items()):
            if player in (None, name):
                months = self.periods.get(name, {})
                players[name] = {
                    **tally.summary(),
                    "by_period": {month: months[month].summary() for month in sorted(months)},
                }
        return {
            "files": self.files,
            "deals": deals,
            "players": players,
            "club": {"average_start_shanten": self.club_start_shanten()},
        }


def review_paths(paths: Iterable[str | Path], rules: Rules | None = None) -> ReviewReport:
    """Review every deal of the logs under ``paths`` (``rules`` replaces the logs' own)."""
    from ingest.logs.gcpause import gc_paused
    from ingest.replay.files import read_log
    from ingest.replay.session_replay import SessionReplay
    from ingest.replay.validate import find_logs

    report = ReviewReport()
    with gc_paused():  # as validation does: the rows kept are many small objects, no cycles
        _review_files(find_logs(paths), rules, report, read_log, SessionReplay)
    return report


def _review_files(
    paths: list[Path], rules: Rules | None, report: ReviewReport, read_log: Any, replay: Any
) -> None:
    for path in paths:
        log = read_log(path)
        report.files.append(log.path)
        for session in log.sessions:
            driver = replay.of_log(session, rules, path=log.path)
            players = list(driver.players or ())
            start = session.session
            date = (start.started_at or "")[:10] if start is not None else ""
            for deal_log in session.deals:
                report.deals.append(_review_deal(driver, deal_log, players, date, report))


def _dealt_shanten(start: Any, rules: Rules, seat_tallies: list[list[PlayerTally]]) -> None:
    """The luck of the deal: each seat's shanten as dealt (before 换三张 and 定缺)."""
    hands = start.hands[: len(seat_tallies)]
    for seat, dealt in enumerate(dealt_shantens(hands, rules)):
        for tally in seat_tallies[seat]:
            tally.start_shanten += dealt
            tally.starts += 1


def _review_deal(
    driver: Any, deal_log: Any, players: list[str], date: str, report: ReviewReport
) -> dict[str, Any]:
    start = deal_log.deal
    review = DealReview(start.deal_id)
    judge = DealJudge(review)
    if driver.rules is None:
        return {
            "deal_id": start.deal_id,
            "players": players,
            "tiles": False,
            "why": driver.rules_error,
            "rows": [],
            "money": [],
        }
    if start.record == "sheet":
        deal_report = driver.replay(deal_log)
        review.tiles = False
        review.why_no_tiles = "score_sheet"
    else:
        deal_report = driver.replay(deal_log, keep_state=True, on_step=judge)
        judge.finish(deal_report.complete)
    seats = driver.rules.seats
    review.money = money_of(deal_report.ledger, seats)
    names = players if len(players) == seats else [f"seat {s}" for s in range(seats)]
    # each seat's player, overall and in the month of the session's date (the period)
    seat_tallies: list[list[PlayerTally]] = []
    for name in names:
        tallies = [report.players.setdefault(name, PlayerTally())]
        if date:
            by_month = report.periods.setdefault(name, {})
            tallies.append(by_month.setdefault(date[:7], PlayerTally()))
        seat_tallies.append(tallies)
    for seat, tallies in enumerate(seat_tallies):
        for tally in tallies:
            tally.deals += 1
            if date:
                tally.dates.add(date)
            for key, value in review.money[seat].items():
                tally.money[key] += value
            if review.tiles:
                tally.tile_deals += 1
    if review.tiles and deal_report.replayed:
        _dealt_shanten(start, driver.rules, seat_tallies)
    for seat, sums in enumerate(seat_sums(review.rows, len(seat_tallies))):
        for tally in seat_tallies[seat]:
            tally.add_sums(sums)
    return {
        "deal_id": start.deal_id,
        "players": names,
        "tiles": review.tiles,
        "why": review.why_no_tiles,
        "status": deal_report.status,
        "rows": review.rows,
        "money": review.money,
    }
