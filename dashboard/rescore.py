"""One session re-scored: every complete deal of a stored session replayed under another
rule set (the Audit page's "what if"), beside the scores the log recorded and the ones
computed under its own rules. No Streamlit here, so the tests can check it directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd  # type: ignore[import-untyped]

from dashboard.deal_steps import seat_names
from engine.replay import ReplayOptions
from engine.rules import RulesError, load_rules, preset_names, rules_from_name
from engine.table import table_of
from ingest.replay.session_replay import SessionReplay
from ingest.warehouse.rows_decode import events_from_rows, stored_int, stored_seat_ints


@dataclass(frozen=True)
class RescoredDeal:
    deal_id: str
    computed: tuple[int, ...]
    recorded: tuple[int, ...] | None
    rescored: tuple[int, ...] | None
    problem: str | None = None  # why it could not be re-scored
    problem_zh: str | None = None  # the same in Chinese

    def problem_in(self, lang: str) -> str | None:
        """Why it could not be re-scored, in ``lang`` ("zh" or "en")."""
        return (self.problem_zh or self.problem) if lang == "zh" else self.problem


@dataclass(frozen=True)
class Rescore:
    session_id: str
    rules: str
    players: tuple[str, ...]
    deals: tuple[RescoredDeal, ...] = field(default_factory=tuple)

    def per_player(self) -> pd.DataFrame:
        """Per player: recorded and computed totals, and the re-scored total beside the
        computed one over the same deals (deals that cannot be re-scored are left out)."""
        rows = []
        for seat, player in enumerate(self.players):
            recorded = [d.recorded[seat] for d in self.deals if d.recorded is not None]
            done = [d for d in self.deals if d.rescored is not None]
            computed_same = sum(d.computed[seat] for d in done)
            rescored = sum(d.rescored[seat] for d in done if d.rescored is not None)
            rows.append(
                {
                    "seat": seat,
                    "player": player,
                    "recorded": sum(recorded) if recorded else None,
                    "computed": sum(d.computed[seat] for d in self.deals),
                    "computed_rescored_deals": computed_same,
                    "rescored": rescored,
                    "difference": rescored - computed_same,
                }
            )
        return pd.DataFrame(rows)


#: why a deal is not re-scored: (English, 中文)
_SHEET = ("a score sheet: no tiles to re-score", "记分表：没有牌可重算")
_INVALID = ("invalid: not replayed to its end", "无效：未能回放到终局")
_STOPPED = ("the replay stopped", "回放中止")


def rescore_session(session_id: str, deals: pd.DataFrame, events: pd.DataFrame, rules: str) -> Rescore:
    """Replay every complete deal of a session under ``rules`` (a preset name or JSON)."""
    target = load_rules(rules)
    first = deals.iloc[0]
    players = seat_names(first["players"])
    driver = SessionReplay(target, session_id=session_id)
    by_deal: dict[str, list[dict[str, Any]]] = {}
    for row in events.to_dict(orient="records") if not events.empty else []:
        by_deal.setdefault(str(row["deal_id"]), []).append(row)
    out = []
    for row in deals.to_dict(orient="records"):
        deal_id = str(row["deal_id"])
        computed = stored_seat_ints(row["scores"]) or (0,) * len(players)
        rows = by_deal.get(deal_id)
        if row.get("record") == "sheet":  # its facts priced under the stored rules only
            out.append(RescoredDeal(deal_id, computed, None, None, *_SHEET))
            continue
        if row["status"] == "invalid" or not rows:
            out.append(RescoredDeal(deal_id, computed, None, None, *_INVALID))
            continue
        start, play, end = events_from_rows(rows)
        recorded = end.scores if end is not None else None
        report = driver.replay_events(
            start, play, end, options=ReplayOptions(base=stored_int(row["base"]) or 1)
        )
        if not report.complete:
            first = report.findings[0] if report.findings else None
            problem = (first.message, first.message_zh) if first is not None else _STOPPED
            out.append(RescoredDeal(deal_id, computed, recorded, None, *problem))
            continue
        out.append(RescoredDeal(deal_id, computed, recorded, report.scores))
    return Rescore(session_id, target.name, players, tuple(out))


def presets_for(session_id: str, listed: pd.DataFrame) -> list[str]:
    """The presets a session can be re-scored under: those dealing the tiles its deals were
    dealt (as many hands, of the same size and suits: a three-player sanren deal replays
    under no four-seat rule set); every preset when the session is not listed (a finding's
    session beyond the picker's rows) or its rule set cannot be read."""
    row = listed[listed["session_id"] == session_id]
    presets = preset_names()
    if row.empty:
        return presets
    try:
        played = table_of(rules_from_name(str(row["rules"].iloc[0])))
    except RulesError:
        return presets

    def deals_alike(name: str) -> bool:
        table = table_of(load_rules(name))
        return (table.players, table.hand, table.suits, table.wild_tiles) == (
            played.players, played.hand, played.suits, played.wild_tiles,
        )  # fmt: skip

    return [name for name in presets if deals_alike(name)] or presets
