"""A club's night (今晚结算): every session a club played on one date, settled at once per
player across the tables (players change tables during a night), so the organiser posts one
list of who pays whom instead of one per table.

Each session counts with its own money settings (its closing record, ``dashboard/closing.py``):
each player's points and 元 after the fee per session and in all; the players' money before
the fee is summed over the night and settled among the players once, with the fewest
transfers (:func:`engine.money.settle`), and each player's fees over the night are lines of
their own, as on the Session result page. A session without money settings counts in
points only: its points are in each player's points, not in the 元, it is named as such, and
the points of those sessions are settled apart, in points.

No Streamlit here: ``chuanma night`` and the Night page (``app_pages/night.py``) read the same
:class:`Night`, so the chat text, the PNG, the CSV files and the JSON agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

import pandas as pd  # type: ignore[import-untyped]

from analytics.queries import Filters
from dashboard.closing import money_of, read_closing
from dashboard.i18n import Lang, label
from dashboard.session_image import Card, card_png, cash_text
from dashboard.session_result import (
    SessionMoney,
    SessionResult,
    build_result,
    fee_lines,
    session_money,
)
from engine.money import settle, yuan

#: ``session_list`` (``analytics/sql/queries``) under filters, every session (no limit)
Lister = Callable[[Filters], pd.DataFrame]
#: a page query (``session_header``, ``session_deals``, ``session_ledger``) for a session id
Pager = Callable[[str, str], pd.DataFrame]


@dataclass(frozen=True)
class Transfer:
    """``payer`` gives ``payee`` ``amount`` (fen in :attr:`Night.transfers`, points in
    :attr:`Night.points_transfers`)."""

    payer: str
    payee: str
    amount: int


@dataclass(frozen=True)
class Night:
    club: str
    day: date
    results: tuple[SessionResult, ...]
    money: tuple[SessionMoney | None, ...]  # one per result: None counts in points only
    players: tuple[str, ...]  # the biggest winner first (元, then points)
    points: dict[str, dict[str, int]]  # player -> session id -> points (the sessions they sat in)
    cash: dict[str, dict[str, int]]  # player -> session id -> fen after the fee (money sessions)
    gross: dict[str, int]  # player -> fen before the fee, over the night's money sessions
    fees: dict[str, int]  # player -> fen of table fee over the night
    transfers: tuple[Transfer, ...]  # fen, between players, before the fee
    points_transfers: tuple[Transfer, ...]  # points, of the points-only sessions
    problem: str | None = None  # why the points-only sessions could not be settled

    @property
    def points_only(self) -> tuple[str, ...]:
        """The sessions counted in points only (no money settings, or totals that do not balance)."""
        return tuple(r.session_id for r, m in zip(self.results, self.money, strict=True) if m is None)

    def names(self) -> dict[str, str]:
        """Each session as the texts name it: its table (t1, 2号桌) when the night's tables
        have distinct names, else its id."""
        tables = [r.table for r in self.results]
        if all(tables) and len(set(tables)) == len(tables):
            return {r.session_id: str(r.table) for r in self.results}
        return {r.session_id: r.session_id for r in self.results}

    @property
    def has_money(self) -> bool:
        return any(m is not None for m in self.money)

    def points_total(self, player: str) -> int:
        return sum(self.points[player].values())

    def cash_total(self, player: str) -> int | None:
        """The player's fen after the fee over the money sessions; None when they sat in none."""
        return sum(self.cash[player].values()) if self.cash[player] else None

    @property
    def fee_total(self) -> int:
        return sum(self.fees.values())

    @property
    def deals(self) -> int:
        return sum(len(r.deals) for r in self.results)


def _transfers(nets: dict[str, int]) -> tuple[Transfer, ...]:
    names = list(nets)
    return tuple(Transfer(names[t.payer], names[t.payee], t.amount) for t in settle(list(nets.values())))


def build_night(club: str, day: date, sessions: list[tuple[SessionResult, SessionMoney | None]]) -> Night:
    """The night from its sessions, each with its money (None: points only)."""
    points: dict[str, dict[str, int]] = {}
    cash: dict[str, dict[str, int]] = {}
    gross: dict[str, int] = {}
    fees: dict[str, int] = {}
    apart: dict[str, int] = {}  # the points of the points-only sessions
    for result, money in sessions:
        for seat, name in enumerate(result.players):
            points.setdefault(name, {})[result.session_id] = result.totals[seat]
            cash.setdefault(name, {})
            gross.setdefault(name, 0)
            fees.setdefault(name, 0)
            apart.setdefault(name, 0)
            if money is None:
                apart[name] += result.totals[seat]
            else:
                cash[name][result.session_id] = money.money.amounts[seat]
                gross[name] += money.money.gross[seat]
                fees[name] += money.money.fees[seat]
    problem = None
    points_transfers: tuple[Transfer, ...] = ()
    try:
        points_transfers = _transfers(apart)
    except ValueError as error:  # a points-only session whose totals do not balance
        problem = str(error)
    order = sorted(points, key=lambda p: (-sum(cash[p].values()), -sum(points[p].values()), p))
    return Night(
        club=club,
        day=day,
        results=tuple(r for r, _ in sessions),
        money=tuple(m for _, m in sessions),
        players=tuple(order),
        points=points,
        cash=cash,
        gross=gross,
        fees=fees,
        transfers=_transfers(gross),
        points_transfers=points_transfers,
        problem=problem,
    )


# ----------------------------------------------------------------------- reading
def night_dates(lister: Lister, club: str) -> list[date]:
    """The dates the club played a session on, the latest first."""
    listed = lister(Filters(club=club))
    days = {pd.Timestamp(p).date() for p in listed["played_at"] if p is not None and not pd.isna(p)}
    return sorted(days, reverse=True)


def _started(header: pd.DataFrame) -> date | None:
    value = header["played_at"].iloc[0]
    return None if value is None or pd.isna(value) else pd.Timestamp(value).date()


def load_night(lister: Lister, pager: Pager, warehouse: Any, club: str, day: date) -> Night | None:
    """The club's sessions that started on ``day``, each with its closing record's money;
    None when there is none (a session that ran past midnight belongs to the night it began)."""
    listed = lister(Filters(club=club, date_from=day, date_to=day))
    sessions: list[tuple[SessionResult, SessionMoney | None]] = []
    for session_id in sorted(str(s) for s in listed["session_id"]):
        header = pager("session_header", session_id)
        if header.empty or str(header["club"].iloc[0]) != club or _started(header) not in (day, None):
            continue
        result = build_result(
            header.iloc[0].to_dict(), pager("session_deals", session_id), pager("session_ledger", session_id)
        )
        closed = read_closing(warehouse, session_id)
        sessions.append((result, session_money(result, money_of(closed) if closed else None)))
    if not sessions:
        return None
    sessions.sort(key=lambda s: (s[0].played_at or "", s[0].session_id))
    return build_night(club, day, sessions)


# ----------------------------------------------------------------------- outputs
def _cash_or_none(fen: int | None) -> float | None:
    return None if fen is None else fen / 100


def players_frame(night: Night) -> pd.DataFrame:
    """One row a player, the biggest winner first: place, player, points and 元 after the fee
    in all, the fee and the 元 before it, then each session's ``points_<session>`` and
    ``yuan_<session>`` (empty where the player did not sit, or the session has no money)."""
    rows = []
    for place, name in enumerate(night.players, start=1):
        row: dict[str, Any] = {
            "place": place,
            "player": name,
            "points": night.points_total(name),
            "yuan": _cash_or_none(night.cash_total(name)),
            "fee": night.fees[name] / 100 if night.has_money else None,
            "yuan_before_fee": night.gross[name] / 100 if night.has_money else None,
        }
        for result in night.results:
            sid = result.session_id
            row[f"points_{sid}"] = night.points[name].get(sid)
            row[f"yuan_{sid}"] = _cash_or_none(night.cash[name].get(sid))
        rows.append(row)
    frame = pd.DataFrame(rows)
    for column in frame.columns:
        if column == "points" or column.startswith("points_"):
            frame[column] = frame[column].astype("Int64")
    return frame


def transfers_frame(night: Night) -> pd.DataFrame:
    """Who pays whom: in 元 (``yuan``, the money sessions, netted over the night) and then in
    points (``amount``, the points-only sessions)."""
    rows = [
        {"payer": t.payer, "payee": t.payee, "yuan": t.amount / 100, "amount": None} for t in night.transfers
    ]
    rows += [
        {"payer": t.payer, "payee": t.payee, "yuan": None, "amount": t.amount} for t in night.points_transfers
    ]
    frame = pd.DataFrame(rows, columns=["payer", "payee", "yuan", "amount"])
    frame["amount"] = frame["amount"].astype("Int64")
    return frame


def localised_night(frame: pd.DataFrame, lang: Lang) -> pd.DataFrame:
    """The night's CSV headers in ``lang`` for a 中文 page (``分 <场次>``, ``元 <场次>``);
    English keeps the column ids."""
    if lang != "zh":
        return frame
    names = {}
    for column in frame.columns:
        for prefix, key in (("points_", "csv_points"), ("yuan_", "csv_yuan")):
            if column.startswith(prefix) and column != "yuan_before_fee":
                names[column] = f"{label(key, lang)} {column[len(prefix) :]}"
        if column not in names:
            names[column] = label(f"csv_{column}", lang)
    return frame.rename(columns=names)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _where(night: Night, lang: Lang) -> str:
    count = label("night_sessions", lang).format(n=len(night.results))
    return f"{night.club} · {night.day.isoformat()} · {count}"


def transfer_lines(night: Night, lang: Lang) -> list[str]:
    """The 元 transfers, the fee's lines, then (points-only sessions) the points transfers."""
    pays_yuan = label("settle_pays_yuan", lang)
    pays = label("settle_pays", lang)
    lines = [pays_yuan.format(payer=t.payer, payee=t.payee, amount=yuan(t.amount)) for t in night.transfers]
    lines += fee_lines(night.players, [night.fees[p] for p in night.players], lang)
    unit = label("points_unit", lang)
    lines += [
        f"{pays.format(payer=t.payer, payee=t.payee, amount=t.amount)} {unit}" for t in night.points_transfers
    ]
    if night.problem is not None:
        lines.append(label("settle_unbalanced", lang))
    return lines


def chat_text(night: Night, lang: Lang) -> str:
    """The night as a club pastes it into its group: a heading, one line per player (points
    and 元 in all, then each session's), who pays whom once, and which sessions count in
    points only."""
    unit = label("yuan_unit", lang)
    named = night.names()
    lines = [f"{label('night_title', lang)} {_where(night, lang)}"]
    for place, name in enumerate(night.players, start=1):
        total = night.cash_total(name)
        cash = f" ({yuan(total, sign=True)} {unit})" if total is not None else ""
        parts = []
        for result in night.results:
            sid = result.session_id
            if sid in night.points[name]:
                fen = night.cash[name].get(sid)
                money = f" ({yuan(fen, sign=True)} {unit})" if fen is not None else ""
                parts.append(f"{named[sid]} {_signed(night.points[name][sid])}{money}")
        lines.append(f"{place}. {name} {_signed(night.points_total(name))}{cash} · " + " · ".join(parts))
    pays = transfer_lines(night, lang)
    lines.append(f"{label('settle_title', lang)}:")
    lines += [f"- {line}" for line in pays] if pays else [f"- {label('settle_square', lang)}"]
    if night.points_only:
        only = ", ".join(named[s] for s in night.points_only)
        lines.append(label("night_points_only", lang).format(sessions=only))
    return "\n".join(lines)


def night_card(night: Night, lang: Lang) -> Card:
    """The words of the night's picture (drawn as a session's, :func:`card_png`)."""
    unit = label("points_unit", lang)
    players = []
    signs = []
    for place, name in enumerate(night.players, start=1):
        total = night.cash_total(name)
        players.append(
            (
                str(place),
                name,
                f"{_signed(night.points_total(name))} {unit}",
                cash_text(total, lang) if total is not None else "",
            )
        )
        signs.append(total if total is not None else night.points_total(name))
    pays = label("settle_pays_to", lang)
    rows = [
        (pays.format(payer=t.payer, payee=t.payee), cash_text(t.amount, lang, sign=False))
        for t in night.transfers
    ]
    rows += [(line, "") for line in fee_lines(night.players, [night.fees[p] for p in night.players], lang)]
    rows += [
        (pays.format(payer=t.payer, payee=t.payee), f"{t.amount} {unit}") for t in night.points_transfers
    ]
    named = night.names()
    if night.points_only:
        only = ", ".join(named[s] for s in night.points_only)
        rows.append((label("night_points_only", lang).format(sessions=only), ""))
    if night.problem is not None:
        rows.append((label("settle_unbalanced", lang), ""))
    return Card(
        title=label("night_title", lang),
        where=_where(night, lang),
        meta=" · ".join(
            named[r.session_id] + (f" {r.played_at[-5:]}" if r.played_at else "") for r in night.results
        ),
        totals_title=label("session_totals", lang),
        players=tuple(players),
        signs=tuple(signs),
        settle_title=label("settle_title", lang),
        transfers=tuple(rows or [(label("settle_square", lang), "")]),
        footer=label("night_footer", lang).format(sessions=len(night.results), deals=night.deals),
    )


def night_png(night: Night, lang: Lang) -> bytes:
    return card_png(night_card(night, lang))


def night_json(night: Night, lang: Lang) -> dict[str, Any]:
    """The night as JSON (``chuanma night --json``): money in 元, points as integers."""
    sessions = []
    for result, money in zip(night.results, night.money, strict=True):
        rule = None if money is None else money.rule
        sessions.append(
            {
                "session_id": result.session_id,
                "table": result.table,
                "played_at": result.played_at,
                "deals": len(result.deals),
                "points_only": money is None,
                "money": None
                if rule is None
                else {
                    "yuan_per_point": rule.fen_per_point / 100,
                    "fee_kind": rule.fee_kind,
                    "fee": rule.fee / 100 if rule.fee_kind == "fixed" else rule.fee,
                    "rounding": rule.rounding,
                },
            }
        )
    players = []
    for name in night.players:
        total = night.cash_total(name)
        players.append(
            {
                "player": name,
                "points": night.points_total(name),
                "yuan": _cash_or_none(total),
                "fee": night.fees[name] / 100,
                "yuan_before_fee": night.gross[name] / 100,
                "sessions": {
                    sid: {"points": pts, "yuan": _cash_or_none(night.cash[name].get(sid))}
                    for sid, pts in night.points[name].items()
                },
            }
        )
    return {
        "club": night.club,
        "date": night.day.isoformat(),
        "sessions": sessions,
        "points_only_sessions": list(night.points_only),
        "players": players,
        "transfers": [{"payer": t.payer, "payee": t.payee, "yuan": t.amount / 100} for t in night.transfers],
        "points_transfers": [
            {"payer": t.payer, "payee": t.payee, "amount": t.amount} for t in night.points_transfers
        ],
        "fee_lines": fee_lines(night.players, [night.fees[p] for p in night.players], lang),
        "fee_total": night.fee_total / 100,
        "problem": night.problem,
        "chat_text": chat_text(night, lang),
    }
