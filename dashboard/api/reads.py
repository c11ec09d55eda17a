"""The API's reads: sessions, a session's result, a deal's replay, players and the
leaderboard, findings. Each is what the matching page shows, from the same queries
(``analytics/sql``) and the same builders (``dashboard.session_result``,
``dashboard.deal_steps``), as JSON; every text in ``lang``."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import date
from typing import Annotated, Any, Literal

import pandas as pd  # type: ignore[import-untyped]
from fastapi import APIRouter, Query, Request

from analytics.queries import Filters
from dashboard.api.errors import ApiError
from dashboard.api.who import Viewer, owned, scoped, state_of
from dashboard.closing import money_of, read_closing
from dashboard.deal_steps import DealReplay, Step, replay_from_rows
from dashboard.findings_view import finding_said, row_text, seat_base
from dashboard.i18n import Lang
from dashboard.session_result import (
    SessionMoney,
    SessionResult,
    build_result,
    chat_text,
    fee_lines,
    session_money,
)
from dashboard.term_labels import reason_label
from dashboard.upload_file import shown_name
from engine.tiles import tile_name

router = APIRouter(prefix="/v1", tags=["reads"])

LangQuery = Annotated[Literal["en", "zh"], Query(description="Language of every text: en or zh (中文).")]
Club = Annotated[str | None, Query(description="Only this club's deals.")]
DateFrom = Annotated[date | None, Query(description="First day, YYYY-MM-DD.")]
DateTo = Annotated[date | None, Query(description="Last day, YYYY-MM-DD.")]
RulesName = Annotated[str | None, Query(description="Only deals under this rule set name.")]
Seats = Annotated[
    int | None,
    Query(ge=2, le=4, description="Only tables of this size (4, 3 or 2 players): rates per table size."),
]
Mates = Annotated[list[str] | None, Query(alias="with", description="Only deals where this player sat too.")]
Limit = Annotated[int, Query(ge=1, le=10_000, description="At most this many rows.")]


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A table as JSON objects (NaN as null, days and times as ISO text, arrays as lists);
    a stored file is its name alone: the server's folders are not a club's to know."""
    rows: list[dict[str, Any]] = json.loads(
        frame.to_json(orient="records", date_format="iso", force_ascii=False)
    )
    for row in rows:
        if isinstance(row.get("file"), str):
            row["file"] = shown_name(row["file"])
    return rows


def filters(club: str | None, date_from: date | None, date_to: date | None, rules: str | None,
            mates: list[str] | None = None, player: str | None = None, seats: int | None = None) -> Filters:  # fmt: skip
    return Filters(player, club, date_from, date_to, rules, tuple(mates or ()), seats)


@router.get("/health", summary="The server and its warehouse")
def health(request: Request) -> dict[str, Any]:
    """Whether the server answers, and the warehouse's version (it changes with every write)."""
    state = state_of(request)
    with state.reading() as analytics:
        return {"status": "ok", "version": analytics.version}


@router.get("/sessions", summary="Sessions, the latest first")
def sessions(
    request: Request, grant: Viewer, club: Club = None, date_from: DateFrom = None, date_to: DateTo = None,
    rules: RulesName = None, player: Annotated[str | None, Query(description="Only sessions this player sat in.")] = None,
    limit: Limit = 100, seats: Seats = None,
) -> dict[str, Any]:  # fmt: skip
    """Each session with its deals, how many have findings and how many are invalid."""
    club = scoped(grant, club)
    with state_of(request).reading() as analytics:
        frame = analytics.query(
            "session_list", filters(club, date_from, date_to, rules, player=player, seats=seats), limit=limit
        )
    total = int(frame["listed_sessions"].iloc[0]) if len(frame) else 0
    return {"sessions": records(frame.drop(columns="listed_sessions")), "total": total}


@router.get("/sessions/{session_id}", summary="A session's result")
def session(request: Request, grant: Viewer, session_id: str, lang: LangQuery = "en") -> dict[str, Any]:
    """Totals per player, each payment with its reason, who pays whom, and the text a club
    pastes into its chat group; for a session closed with money settings (its closing
    record), each player's 元 after the fee, the fee and the transfers in 元."""
    state = state_of(request)
    with state.reading() as analytics:
        header = analytics.page("session_header", session_id=session_id)
        if header.empty:
            raise ApiError("not_found", f"no session {session_id!r}")
        owned(grant, header["club"].iloc[0], f"session {session_id!r}")
        deals = analytics.page("session_deals", session_id=session_id)
        ledger = analytics.page("session_ledger", session_id=session_id)
    result = build_result(header.iloc[0].to_dict(), deals, ledger)
    closed = read_closing(state.warehouse, session_id)
    return session_json(result, lang, session_money(result, money_of(closed) if closed else None))


def money_json(result: SessionResult, money: SessionMoney | None, lang: Lang) -> dict[str, Any]:
    """The money keys of a session's result (added keys; all null without money settings):
    the settings, each player's 元 after the fee, before it and their fee, the fee in all,
    who pays whom in 元 (between players only) and the fee's own lines."""
    if money is None:
        keys = ("money", "yuan", "yuan_before_fee", "fees", "fee_total", "yuan_transfers", "fee_lines")
        return dict.fromkeys(keys)
    names = result.players
    rule, done = money.rule, money.money
    return {
        "money": {
            "yuan_per_point": rule.fen_per_point / 100, "fee_kind": rule.fee_kind,
            "fee": rule.fee / 100 if rule.fee_kind == "fixed" else rule.fee, "rounding": rule.rounding,
        },
        "yuan": {names[s]: done.amounts[s] / 100 for s in range(len(names))},
        "yuan_before_fee": {names[s]: done.gross[s] / 100 for s in range(len(names))},
        "fees": {names[s]: done.fees[s] / 100 for s in range(len(names))},
        "fee_total": done.house / 100,
        "yuan_transfers": [
            {"payer": names[t.payer], "payee": names[t.payee], "yuan": t.amount / 100, "amount": money.points_of(t.amount)}
            for t in done.transfers
        ],
        "fee_lines": fee_lines(names, done.fees, lang),
    }  # fmt: skip


def session_json(result: SessionResult, lang: Lang, money: SessionMoney | None = None) -> dict[str, Any]:
    names = result.players
    payments = result.payments.assign(
        reason_label=[reason_label(str(r), lang) for r in result.payments["reason"]]
    )
    return {
        "session_id": result.session_id,
        "club": result.club,
        "table": result.table,
        "played_at": result.played_at,
        "rules": result.rules,
        "base": result.base,
        "players": list(names),
        "totals": {names[seat]: result.totals[seat] for seat in range(len(names))},
        "ranking": [names[seat] for seat in result.ranking()],
        "recorded_totals": list(result.recorded) if result.recorded is not None else None,
        "deals": [deal_json(d, names) for d in records(result.deals)],
        "payments": records(payments.rename(columns={"payer_player": "payer", "payee_player": "payee"})),
        "transfers": [
            {"payer": names[t.payer], "payee": names[t.payee], "amount": t.amount} for t in result.transfers
        ],
        "problem": result.problem,
        "chat_text": chat_text(result, lang, money),
        **money_json(result, money, lang),
    }


def deal_json(row: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """One deal of a session: its status and each player's net (by name, not by seat)."""
    nets = {names[seat]: row[f"net_{seat}"] for seat in range(len(names))}
    return {"deal_id": row["deal_id"], "status": row["status"], "findings": row["findings"], "nets": nets}


@router.get("/deals/{deal_id}", summary="A deal's replay, step by step")
def deal(request: Request, grant: Viewer, deal_id: str, lang: LangQuery = "en") -> dict[str, Any]:
    """Each line of the deal as the table after it (hands, melds, discards, the wall, each
    payment and finding), with the players' names; a deal not replayed to its end stops
    where its replay stopped."""
    with state_of(request).reading() as analytics:
        header = analytics.page("deal_header", deal_id=deal_id)
        if header.empty:
            raise ApiError("not_found", f"no deal {deal_id!r}")
        row = header.iloc[0].to_dict()
        owned(grant, row["club"], f"deal {deal_id!r}")
        raw = events = pd.DataFrame()
        if row["status"] == "invalid":
            raw = analytics.page("deal_raw_lines", deal_id=deal_id)
        else:
            events = analytics.page(
                "deal_events", month=str(row["month"]), first=deal_id, last=deal_id, deal_ids=[deal_id]
            )
        stored = analytics.page("deal_findings", deal_id=deal_id)
    return replay_json(replay_from_rows(row, events, raw, stored), lang)


def replay_json(replay: DealReplay, lang: Lang) -> dict[str, Any]:
    first = seat_base(replay.record)
    players = list(replay.players)

    def said(finding: Any) -> dict[str, Any]:
        return {**asdict(finding), "text": finding_said(finding, lang, players, first)}

    def step(s: Step) -> dict[str, Any]:
        return {
            "index": s.index, "line": s.line, "kind": s.kind, "seat": s.seat,
            "tile": tile_name(s.tile) if s.tile is not None else None, "from_seat": s.from_seat,
            "detail": s.detail, "wall_left": s.wall_left, "scores": list(s.scores),
            "hands": [[tile_name(t) for t in hand] for hand in s.hands],
            "melds": [[[kind, tile_name(t)] for kind, t in seat] for seat in s.melds],
            "discards": [[tile_name(t) for t in seat] for seat in s.discards],
            "payments": [asdict(p) for p in s.payments],
            "wins": [asdict(w) for w in s.wins],
            "findings": [said(f) for f in s.findings],
        }  # fmt: skip

    return {
        "deal_id": replay.deal_id, "session_id": replay.session_id, "players": players,
        "rules": replay.rules, "base": replay.base, "dealer": replay.dealer, "status": replay.status,
        "record": replay.record, "seats_from": first, "scores": list(replay.scores), "error": replay.error,
        "findings": [said(f) for f in replay.findings], "steps": [step(s) for s in replay.steps],
    }  # fmt: skip


@router.get("/players", summary="The leaderboard: every player's statistics")
def players(
    request: Request, grant: Viewer, club: Club = None, date_from: DateFrom = None, date_to: DateTo = None,
    rules: RulesName = None, mates: Mates = None, seats: Seats = None,
) -> dict[str, Any]:  # fmt: skip
    """One object per player (deals, 胡牌率 win rate, 自摸率, 点炮率, fan, points ...), the
    roster's guests marked ``guest`` (listed apart on the leaderboards)."""
    club = scoped(grant, club)
    with state_of(request).reading() as analytics:
        frame = analytics.player_stats(filters(club, date_from, date_to, rules, mates, seats=seats))
        guests = analytics.guests()
    return {"players": records(frame.assign(guest=frame["player"].isin(sorted(guests))))}


@router.get("/players/{player}", summary="One player's statistics")
def player(
    request: Request, grant: Viewer, player: str, club: Club = None, date_from: DateFrom = None, date_to: DateTo = None,
    rules: RulesName = None, mates: Mates = None, seats: Seats = None,
) -> dict[str, Any]:  # fmt: skip
    """The player's row of the leaderboard (the name as the pages show it)."""
    club = scoped(grant, club)
    with state_of(request).reading() as analytics:
        frame = analytics.player_stats(
            filters(club, date_from, date_to, rules, mates, player=player, seats=seats)
        )
    if frame.empty:
        raise ApiError("not_found", f"no deals of {player!r} under these filters")
    return records(frame)[0]


@router.get("/deals/{deal_id}/review", summary="A deal's review (复盘), decision by decision")
def deal_review(request: Request, grant: Viewer, deal_id: str) -> dict[str, Any]:
    """Each decision of the deal judged (as ``chuanma review --json`` gives a deal: every
    discard beside the best, 定缺, 换三张, wins passed, deal-ins, the wall's end) and each
    seat's points by source; a score sheet's deal has its points only (``why``)."""
    from dashboard.review_report import deal_review as review_of

    with state_of(request).reading() as analytics:
        header = analytics.page("deal_header", deal_id=deal_id)
        if header.empty:
            raise ApiError("not_found", f"no deal {deal_id!r}")
        owned(grant, header.iloc[0]["club"], f"deal {deal_id!r}")
        found = review_of(analytics, deal_id)
    assert found is not None
    return found


@router.get("/players/{player}/review", summary="One player's review (复盘)")
def player_review(
    request: Request, grant: Viewer, player: str, club: Club = None, date_from: DateFrom = None,
    date_to: DateTo = None, rules: RulesName = None, seats: Seats = None,
    deals: Annotated[int, Query(ge=0, le=10_000, description="The decisions of this many of the newest deals.")] = 20,
) -> dict[str, Any]:  # fmt: skip
    """The JSON of ``chuanma review --warehouse --player --json``: the player's summary
    (kept by the review step) with ``by_period``, the club's starting shanten, the decisions
    of its ``deals`` newest deals under the filters, and the deals not reviewed yet with
    the command that reviews them (``not_reviewed``: ``deals``, ``command``, ``message``
    in en and zh)."""
    from dashboard.cli.review import pending_message
    from dashboard.review_report import warehouse_review

    club = scoped(grant, club)
    with state_of(request).reading() as analytics:
        data = warehouse_review(
            analytics, filters(club, date_from, date_to, rules, player=player, seats=seats), newest=deals
        )
    if player not in data["players"]:
        raise ApiError("not_found", f"no deals of {player!r} under these filters")
    data["not_reviewed"]["message"] = pending_message(data["not_reviewed"])
    return data


@router.get("/findings", summary="Findings, the latest first")
def findings(
    request: Request, grant: Viewer, club: Club = None, date_from: DateFrom = None, date_to: DateTo = None,
    rules: RulesName = None, code: Annotated[str | None, Query(description="Only this finding code.")] = None,
    session_id: Annotated[str | None, Query(description="Only this session's.")] = None,
    player: Annotated[str | None, Query(description="Only this player's.")] = None,
    limit: Limit = 200, lang: LangQuery = "en", seats: Seats = None,
) -> dict[str, Any]:  # fmt: skip
    """Every error finding under the filters, each with its explanation in ``lang`` naming
    the players (``text``); ``total`` counts them all, ``findings`` lists at most ``limit``."""
    club = scoped(grant, club)
    with state_of(request).reading() as analytics:
        frame = analytics.page(
            "findings_list", club=club, date_from=date_from, date_to=date_to, rules=rules,
            code=code, session_id=session_id, player=player, limit=limit, seats=seats,
        )  # fmt: skip
    total = int(frame["total"].iloc[0]) if not frame.empty else 0
    texts = [row_text(row, lang, None) for row in frame.to_dict(orient="records")]
    shown = frame.drop(
        columns=["total", "deal_line", "deal_no"], errors="ignore"
    )  # the page's, not the API's
    return {"findings": records(shown.assign(text=texts)), "total": total}
