"""复盘 on the replay page: at each step the mover's shanten and effective tiles (the
engine's :func:`engine.shanten.analyse_shanten` on the tiles the board shows) and, for a
discard, the verdict the review gives it (the best discards and the loss:
:func:`dashboard.review_report.deal_review`, the same rows as ``chuanma review``)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import cached_queries, page_kit
from dashboard.deal_steps import DealReplay, Step
from dashboard.safe_text import md
from engine.rules import RulesError, rules_from_name
from engine.shanten import ShantenReport, analyse_shanten
from engine.tiles import COPIES, NUM_KINDS, WILD, tile_name


@st.cache_data(show_spinner=False, max_entries=128)
def _deal_rows(path: str, version: str, deal_id: str) -> list[dict[str, Any]]:
    from dashboard.review_report import deal_review

    found = deal_review(cached_queries._analytics(path), deal_id)
    return [] if found is None else list(found["rows"])


def deal_rows(deal_id: str, src: cached_queries.Source) -> list[dict[str, Any]]:
    """The deal's judged decisions (kept per warehouse version)."""
    return _deal_rows(src.path, src.version, deal_id)


def mover_view(step: Step, rules_name: str) -> ShantenReport | None:
    """The mover's shanten after this step (its effective tiles, or with 14 tiles its
    discards best first), counting as unseen what the board does not show."""
    seat = step.seat
    if seat is None or seat >= len(step.hands) or step.won[seat] or step.kind in ("hu", "deal_end"):
        return None
    try:
        rules = rules_from_name(rules_name)
    except RulesError:
        return None
    counts = [0] * NUM_KINDS
    wilds = 0
    for tile in step.hands[seat]:
        if tile == WILD:
            wilds += 1
        else:
            counts[tile] += 1
    pongs = [tile for kind, tile in step.melds[seat] if kind == "pong"]
    kongs = [tile for kind, tile in step.melds[seat] if kind != "pong"]
    seen = list(counts)
    for other in range(len(step.hands)):
        for tile in (*step.discards[other], *step.laid[other]):
            seen[tile] += tile != WILD
        for kind, tile in step.melds[other]:
            seen[tile] += 3 if kind == "pong" else 4
    left = [max(COPIES - n, 0) for n in seen]
    void = step.void[seat]
    if (sum(counts) + wilds) % 3 == 0:
        return None  # a hand between a claim and its discard has no shanten to tell
    return analyse_shanten(counts, pongs, kongs, wilds, rules, void, left)


def show_step_review(replay: DealReplay, index: int, src: cached_queries.Source) -> None:
    """The review line under the board: the mover's shanten and effective tiles, or its
    best discards; for a discard, its verdict."""
    step = replay.steps[index]
    view = mover_view(step, replay.rules)
    if view is not None and step.seat is not None:
        name = md(replay.players[step.seat])
        if view.discards:
            top = view.discards[0]
            best = [
                o
                for o in view.discards
                if (o.shanten, o.effective_count) == (top.shanten, top.effective_count)
            ]
            text = " ".join(tile_name(o.tile) for o in best)
            st.caption(page_kit.t("review_step_discards", p=name, shanten=view.shanten, best=text))
        else:
            tiles = " ".join(f"{tile_name(t)}×{n}" for t, n in view.effective) or "-"
            total = sum(n for _, n in view.effective)
            st.caption(page_kit.t("review_step", p=name, shanten=view.shanten, effective=total, tiles=tiles))
    if step.kind != "discard":
        return
    for row in deal_rows(replay.deal_id, src):
        if row["kind"] == "discard" and row["line"] == step.line and row["seat"] == step.seat:
            said = page_kit.t(
                "review_step_verdict", tile=row["tile"], shanten=row["shanten"], effective=row["effective"],
                best=" ".join(row["best"]), best_effective=row["best_effective"], loss=row["loss"],
            )  # fmt: skip
            if row["backward"]:
                said += page_kit.t("review_step_backward")
            (st.warning if row["loss"] > 0 or row["backward"] else st.success)(
                said, icon=":material/psychology:"
            )
