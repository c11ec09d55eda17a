"""Review (复盘): one player's review over the sidebar's filters, read from the figures
the review step kept (``chuanma review --warehouse DIR --store``, ``mart_review_seats``:
never recomputed here), each figure beside the club's and linked to a deal behind it,
the deals behind the figures, and the player's five costliest decisions of the period
(the season, when one is chosen). The deals the step has not reached yet are counted,
with the command that reviews them."""

from __future__ import annotations

from typing import Any

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from dashboard import cached_queries, page_kit
from dashboard.review_report import STORE_COMMAND

PLAYER_PARAM = "player"
MONEY = ("wins", "deal_ins", "self_draws", "kongs", "call_transfer", "cha_jiao", "flower_pig", "refunds")


def pick_player(frame: pd.DataFrame) -> str | None:
    """The player chosen (a link's ``player`` first)."""
    names = [str(p) for p in frame["player"]]
    asked = page_kit.asked_param(PLAYER_PARAM) or st.query_params.get(PLAYER_PARAM)
    index = names.index(asked) if asked in names else 0
    chosen = st.selectbox(page_kit.t("review_player"), names, index=index, key="review_player")
    if chosen is not None:
        st.query_params[PLAYER_PARAM] = chosen
    return chosen


def first_deal(deals: pd.DataFrame, column: str) -> str | None:
    """The newest deal behind a figure (a row of ``review_deals`` where ``column`` > 0)."""
    if column not in deals:
        return None
    behind = deals[deals[column].fillna(0) > 0]
    return page_kit.replay_url(str(behind["deal_id"].iloc[0])) if not behind.empty else None


def figures(row: dict[str, Any], club: dict[str, Any], deals: pd.DataFrame) -> pd.DataFrame:
    """The summary as rows: the figure, the player's value, the club's, a deal behind it."""
    lines = [
        ("review_best_pct", "best_pct", "off_best"),
        ("review_average_loss", "average_loss", "off_best"),
        ("review_backward_pct", "backward_pct", "backward"),
        ("review_void_pct", "void_agreement_pct", "void_off"),
        ("review_start_shanten", "average_start_shanten", "discards"),
        ("review_not_ready", "deal_ins_not_ready", "deal_ins_not_ready"),
        ("review_passes", "passes", "passes"),
    ]
    out = []
    for key, column, behind in lines:
        value = page_kit.plain(row[column])
        if column == "passes":
            value = f"{row['passes']} ({row['passed_fan']})"
        out.append(
            {
                page_kit.t("review_figure"): page_kit.t(key),
                page_kit.t("review_value"): "-" if value is None else str(value),
                page_kit.t("review_club"): "-" if club.get(column) is None else str(club[column]),
                page_kit.t("review_deal"): first_deal(deals, behind),
            }
        )
    return pd.DataFrame(out)


def club_values(frame: pd.DataFrame) -> dict[str, Any]:
    """The club's rates under the same filters (every player's sums together)."""
    whole = frame[frame["whole"]]
    discards, voids = int(whole["discards"].sum()), int(whole["voids"].sum())

    def share(column: str, of: int, scale: int = 100, digits: int = 1) -> float | None:
        return round(scale * int(whole[column].sum()) / of, digits) if of else None

    return {
        "best_pct": share("best", discards),
        "average_loss": share("loss", discards, 1, 2),
        "backward_pct": share("backward", discards),
        "void_agreement_pct": share("void_agree", voids),
        "average_start_shanten": page_kit.plain(whole["club_start_shanten"].iloc[0]) if len(whole) else None,
    }


def show_summary(row: dict[str, Any], club: dict[str, Any], deals: pd.DataFrame) -> None:
    st.caption(page_kit.t("review_tile_deals", tile_deals=row["tile_deals"], deals=row["deals"]))
    if row["sheet_deals"]:
        st.info(page_kit.t("review_sheets", sheets=row["sheet_deals"]), icon=":material/receipt_long:")
    if row["not_reviewed"]:
        st.caption(page_kit.t("review_not_reviewed", deals=row["not_reviewed"]))
    link = page_kit.t("review_deal")
    page_kit.dataframe(
        figures(row, club, deals),
        hide_index=True,
        column_config={link: st.column_config.LinkColumn(link, display_text=page_kit.REPLAY_TEXT)},
    )
    st.subheader(page_kit.t("review_money"))
    money = pd.DataFrame(
        {
            page_kit.t("review_source"): [page_kit.t(f"review_money_{key}") for key in MONEY],
            page_kit.t("review_points"): [int(row[f"money_{key}"]) for key in MONEY],
        }
    )
    page_kit.dataframe(money, hide_index=True)


def show_costliest(costly: pd.DataFrame) -> None:
    season = page_kit.chosen_season()
    st.subheader(page_kit.t("review_costliest") + (f" ({season.name})" if season is not None else ""))
    if costly.empty:
        st.caption(page_kit.t("review_costliest_none"))
        return
    table = pd.DataFrame(
        {
            page_kit.t("open_replay"): [page_kit.replay_url(str(d), line) for d, line in zip(costly["deal_id"], costly["worst_line"], strict=True)],
            page_kit.t("review_col_day"): [page_kit.day_text(d) for d in costly["played_date"]],
            page_kit.t("review_col_tile"): costly["worst_tile"],
            page_kit.t("review_col_best"): [" ".join(b) for b in costly["worst_best"]],
            page_kit.t("review_col_loss"): costly["worst_loss"],
        }
    )  # fmt: skip
    link = page_kit.t("open_replay")
    page_kit.dataframe(
        table,
        hide_index=True,
        column_config={link: st.column_config.LinkColumn(link, display_text=page_kit.REPLAY_TEXT)},
    )


def show_deals(deals: pd.DataFrame) -> None:
    st.subheader(page_kit.t("review_deals"))
    link = page_kit.t("open_replay")
    table = pd.DataFrame(
        {
            link: [page_kit.replay_url(str(d)) for d in deals["deal_id"]],
            page_kit.t("review_col_day"): [page_kit.day_text(d) for d in deals["played_date"]],
            page_kit.t("review_col_off_best"): deals["off_best"],
            page_kit.t("review_col_backward"): deals["backward"],
            page_kit.t("review_col_void_off"): deals["void_off"],
            page_kit.t("review_not_ready"): deals["deal_ins_not_ready"],
            page_kit.t("review_passes"): deals["passes"],
            page_kit.t("review_col_loss"): deals["worst_loss"],
        }
    )
    page_kit.dataframe(
        table,
        hide_index=True,
        column_config={link: st.column_config.LinkColumn(link, display_text=page_kit.REPLAY_TEXT)},
    )


st.title(page_kit.t("page_review"))
src = page_kit.page_source()
if src is not None:
    filters = page_kit.filters()
    frame = cached_queries.query("player_review", filters, src=src)
    whole = frame[frame["whole"]] if not frame.empty else frame
    pending = int(frame["pending_deals"].iloc[0]) if not frame.empty else 0
    if pending:
        command = STORE_COMMAND.format(warehouse=src.path)
        st.warning(page_kit.t("review_pending", deals=pending, command=command), icon=":material/pending:")
    if whole.empty:
        st.info(page_kit.t("review_none"))
    else:
        player = pick_player(whole)
        row = whole[whole["player"] == player].iloc[0].to_dict()
        mine = page_kit.filters(player=player)
        deals = cached_queries.query("review_deals", mine, src=src, costliest=None, limit=500)
        show_summary(row, club_values(frame), deals)
        show_costliest(cached_queries.query("review_deals", mine, src=src, costliest=True, limit=5))
        show_deals(deals)
