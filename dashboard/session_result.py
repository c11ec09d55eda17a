"""The evening's result (本场结算) of one session, from its warehouse rows: each player's
total, each deal's payments with their reasons, and who pays whom with the fewest
transfers. No Streamlit here: the page, the CSV files and the PNG image all read the same
:class:`SessionResult`, so what a club downloads is what it saw.

With money settings (a closing record's, or the page's), :class:`SessionMoney` is the
one money every output shows: the page, the chat text, the CSV files, the PNG and the
API's session result carry the same 元 after the fee, the transfers between players
only and the fee as each player's own line.

Totals are the computed nets (the rules engine's, summed over the session's deals; an
invalid deal counts zero, as it does everywhere); the recorded totals of a
``session_end`` line are shown beside them when the log has one.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

import pandas as pd  # type: ignore[import-untyped]

from dashboard.i18n import LABELS, Lang, label
from dashboard.term_labels import reason_label
from engine.money import MoneyResult, MoneyRule, settle_money, yuan
from engine.settle_up import Payoff, fewest_transfers


@dataclass(frozen=True)
class SessionResult:
    session_id: str
    club: str | None
    table: str | None
    played_at: str | None  # YYYY-MM-DD HH:MM, or None
    rules: str
    base: int
    players: tuple[str, ...]
    totals: tuple[int, ...]  # computed net per seat over the session
    recorded: tuple[int, ...] | None  # the session_end line's totals
    deals: pd.DataFrame  # deal_id, status, findings, one column per seat's net (net_0..)
    payments: pd.DataFrame  # deal_id, seq, line, reason, payer, payee, amount (names)
    transfers: tuple[Payoff, ...]
    problem: str | None = None  # why no settlement could be worked out

    @property
    def invalid_deals(self) -> int:
        return int((self.deals["status"] == "invalid").sum()) if not self.deals.empty else 0

    def ranking(self) -> list[int]:
        """Seats from the biggest winner down (ties in seat order)."""
        return sorted(range(len(self.players)), key=lambda s: (-self.totals[s], s))


def _ints(value: Any) -> tuple[int, ...] | None:
    if value is None or isinstance(value, float):
        return None
    return tuple(int(v) for v in value)


def _names(value: Any) -> tuple[str, ...]:
    """The stored names, one a seat of the table (two to four); placeholders for four
    where none are stored."""
    names = tuple(str(v) for v in value) if value is not None and not isinstance(value, float) else ()
    return names if 2 <= len(names) <= 4 else ("seat 0", "seat 1", "seat 2", "seat 3")


def _when(value: Any) -> str | None:
    if value is None or value is pd.NaT or (isinstance(value, float) and value != value):
        return None
    return str(pd.Timestamp(value).strftime("%Y-%m-%d %H:%M"))


def session_players(
    header: tuple[str, ...], rows: list[dict[str, Any]]
) -> tuple[tuple[str, ...], list[tuple[int, ...]]]:
    """The session's players, per player and not per seat: the header's (one a seat), then each
    substitute who took a seat between deals (a deal's own ``players``), and for each deal
    the index of the player in each of its seats. Unchanged seats: the header's four; a
    deal whose names share none with the header's (a header renamed, placeholders) is read
    by seat, as before seats could change."""
    players = list(header)
    seated = []
    for row in rows:
        own = _names(row.get("players")) if row.get("players") is not None else header
        own = own if set(own) & set(header) else header
        for name in own:
            if name not in players:
                players.append(name)
        seated.append(tuple(players.index(name) for name in own))
    return tuple(players), seated


def build_result(header: Mapping[str, Any], deals: pd.DataFrame, ledger: pd.DataFrame) -> SessionResult:
    """One session from ``session_header.sql``'s row, ``session_deals.sql`` and
    ``session_ledger.sql``."""
    rows = deals.to_dict(orient="records")
    players, seated = session_players(_names(header.get("players")), rows)
    totals = [0] * len(players)
    nets: dict[int, list[int]] = {index: [] for index in range(len(players))}
    for row, seats in zip(rows, seated, strict=True):
        scores = _ints(row.get("scores")) or (0,) * len(seats)
        points = dict.fromkeys(range(len(players)), 0)
        for index, score in zip(seats, scores, strict=False):
            points[index] += score
        for index, score in points.items():
            totals[index] += score
            nets[index].append(score)
    table = pd.DataFrame(
        {
            "deal_id": [str(d) for d in deals["deal_id"]] if not deals.empty else [],
            "status": [str(s) for s in deals["status"]] if not deals.empty else [],
            "findings": [int(f) for f in deals["findings"]] if not deals.empty else [],
            **{f"net_{seat}": nets[seat] for seat in range(len(players))},
        }
    )
    problem = None
    transfers: tuple[Payoff, ...] = ()
    try:
        transfers = tuple(fewest_transfers(totals))
    except ValueError as error:  # a ledger that does not balance: say so, settle nothing
        problem = str(error)
    payments = ledger[["deal_id", "seq", "line", "reason", "payer_player", "payee_player", "amount"]].copy()
    return SessionResult(
        session_id=str(header["session_id"]),
        club=None if header.get("club") is None else str(header["club"]),
        table=None if header.get("table") is None else str(header["table"]),
        played_at=_when(header.get("played_at")),
        rules=str(header.get("rules") or "?"),
        base=int(header.get("base") or 1),
        players=players,
        totals=tuple(totals),
        recorded=_ints(header.get("recorded_totals")),
        deals=table,
        payments=payments.reset_index(drop=True),
        transfers=transfers,
        problem=problem,
    )


# ----------------------------------------------------------------------- tables
@dataclass(frozen=True)
class SessionMoney:
    """A session's money: the settings it was settled with and what they make of its
    totals (:func:`engine.money.settle_money`)."""

    rule: MoneyRule
    money: MoneyResult

    def points_of(self, fen: int) -> int:
        """The points a sum in fen stands for (to the nearest point when the 元 were
        rounded to the 角 or the 元)."""
        return round(Fraction(fen, self.rule.fen_per_point))


def session_money(result: SessionResult, rule: MoneyRule | None) -> SessionMoney | None:
    """The session's money, or None: no settings, a point worth nothing, or totals that do
    not balance (nothing can be settled)."""
    if rule is None or rule.fen_per_point <= 0 or result.problem is not None:
        return None
    try:
        return SessionMoney(rule, settle_money(result.totals, rule))
    except ValueError:
        return None


def fee_lines(players: Sequence[str], fees: Sequence[int], lang: Lang) -> list[str]:
    """The table fee (台费) as its own lines, never as a transfer: "每人台费 10 元" when every
    player pays the same share, else one line per player who pays one (a winners' share)."""
    if not any(fees):
        return []
    if len(set(fees)) == 1:
        return [label("money_fee_each", lang).format(amount=yuan(fees[0]))]
    text = label("money_fee_player", lang)
    return [
        text.format(player=name, amount=yuan(fee)) for name, fee in zip(players, fees, strict=True) if fee
    ]


#: each CSV column id -> its label (``csv_<id>``); the 中文 page's downloads head their
#: columns with these, the English ones and the API/CLI keep the ids (a contract)
CSV_COLUMNS: Final = (
    "place", "seat", "player", "total", "recorded", "yuan", "fee", "yuan_before_fee", "payer", "payee",
    "amount", "deal_id", "seq", "line", "reason", "reason_label", "session_id", "points",
)  # fmt: skip


def localised(frame: pd.DataFrame, lang: Lang) -> pd.DataFrame:
    """The frame with its headers in ``lang`` for a 中文 page's download; English keeps the
    column ids scripts read."""
    if lang != "zh":
        return frame
    return frame.rename(columns={c: label(f"csv_{c}", lang) for c in CSV_COLUMNS if c in frame.columns})


def totals_frame(result: SessionResult, lang: Lang, money: SessionMoney | None = None) -> pd.DataFrame:
    """Place, seat, player, computed total (and the recorded one when logged); with money,
    (added columns) ``yuan`` after the fee, the player's ``fee`` and ``yuan_before_fee``."""
    rows = []
    for place, seat in enumerate(result.ranking(), start=1):
        row: dict[str, Any] = {
            "place": place,
            "seat": seat,
            "player": result.players[seat],
            "total": result.totals[seat],
        }
        if result.recorded is not None and len(result.recorded) == len(result.players):
            row["recorded"] = result.recorded[seat]
        if money is not None:
            row["yuan"] = money.money.amounts[seat] / 100
            row["fee"] = money.money.fees[seat] / 100
            row["yuan_before_fee"] = money.money.gross[seat] / 100
        rows.append(row)
    return pd.DataFrame(rows)


def payments_frame(result: SessionResult, lang: Lang) -> pd.DataFrame:
    """Every computed payment, deal by deal, with its reason as players name it."""
    frame = result.payments.rename(columns={"payer_player": "payer", "payee_player": "payee"})
    frame.insert(4, "reason_label", [reason_label(str(r), lang) for r in frame["reason"]])
    return frame


def transfers_frame(result: SessionResult, money: SessionMoney | None = None) -> pd.DataFrame:
    """Who pays whom: in points; with money, the transfers in 元 (between players, before
    the fee: each pays their fee apart), ``amount`` the points each stands for and ``yuan``
    (an added column) the 元."""
    if money is not None:
        moved = money.money.transfers
        return pd.DataFrame(
            {
                "payer": [result.players[t.payer] for t in moved],
                "payee": [result.players[t.payee] for t in moved],
                "amount": [money.points_of(t.amount) for t in moved],
                "yuan": [t.amount / 100 for t in moved],
            },
            columns=["payer", "payee", "amount", "yuan"],
        )
    return pd.DataFrame(
        {
            "payer": [result.players[t.payer] for t in result.transfers],
            "payee": [result.players[t.payee] for t in result.transfers],
            "amount": [t.amount for t in result.transfers],
        },
        columns=["payer", "payee", "amount"],
    )


def transfer_lines(result: SessionResult, lang: Lang) -> list[str]:
    """ "Ann pays Bo 37", one line per transfer."""
    text = label("settle_pays", lang)
    return [
        text.format(payer=result.players[t.payer], payee=result.players[t.payee], amount=t.amount)
        for t in result.transfers
    ]


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """UTF-8 with a byte-order mark, so Excel and WPS open 中文 names as written."""
    buffer = io.StringIO()
    frame.to_csv(buffer, index=False)
    return buffer.getvalue().encode("utf-8-sig")


def _file_safe(text: str) -> str:
    """Letters and digits of any script (a club's Chinese name stays), ``._-``; the rest
    (slashes, spaces, quotes) become dashes."""
    return "".join(c if c.isalnum() or c in "._-" else "-" for c in text).strip("-.")


def file_stem(result: SessionResult) -> str:
    """A file name for the session's downloads: its id, after its club's name when the id
    does not already hold it (``session-川麻俱乐部-0501``)."""
    safe = _file_safe(result.session_id) or "result"
    club = _file_safe(result.club or "")
    return f"session-{club}-{safe}" if club and club not in safe else f"session-{safe}"


def money_frame(result: SessionResult, money: SessionMoney) -> pd.DataFrame:
    """Place, player, points and 元 after the fee (the ranking of :func:`totals_frame`),
    with each player's fee."""
    order = result.ranking()
    return pd.DataFrame(
        {
            "place": range(1, len(order) + 1),
            "player": [result.players[s] for s in order],
            "total": [result.totals[s] for s in order],
            "yuan": [money.money.amounts[s] / 100 for s in order],
            "fee": [money.money.fees[s] / 100 for s in order],
        }
    )


def money_lines(result: SessionResult, money: SessionMoney, lang: Lang) -> list[str]:
    """ "Ann pays Bo 12.5 元", one line per transfer between players; then the fee's
    own lines (:func:`fee_lines`)."""
    text = label("settle_pays_yuan", lang)
    pays = [
        text.format(payer=result.players[t.payer], payee=result.players[t.payee], amount=yuan(t.amount))
        for t in money.money.transfers
    ]
    return pays + fee_lines(result.players, money.money.fees, lang)


def chat_text(result: SessionResult, lang: Lang, money: SessionMoney | None = None) -> str:
    """The evening's result as a club pastes it into its WeChat/QQ group: a heading, one
    line per player (place, name, points and, with a price, 元 after the fee), then who
    pays whom and each player's fee. Plain text: no markdown, names as written."""
    where = " · ".join(str(p) for p in (result.club, result.table, result.played_at) if p)
    lines = [f"{label('session_title', lang)} {result.session_id}" + (f" ({where})" if where else "")]
    for place, seat in enumerate(result.ranking(), start=1):
        points = f"{result.totals[seat]:+d}" if result.totals[seat] else "0"
        cash = f" ({yuan(money.money.amounts[seat], sign=True)} {label('yuan_unit', lang)})" if money else ""
        lines.append(f"{place}. {result.players[seat]} {points}{cash}")
    transfers = money_lines(result, money, lang) if money else transfer_lines(result, lang)
    if result.problem is not None:
        transfers = [label("settle_unbalanced", lang)]
    if transfers:
        lines.append(f"{label('settle_title', lang)}:")
        lines += [f"- {line}" for line in transfers]
    if result.invalid_deals:
        lines.append(label("session_invalid", lang).format(n=result.invalid_deals))
    return "\n".join(lines)


def session_url(session_id: str) -> str:
    """The session page's address for a session, relative to the app's pages (for tables
    and links on other pages)."""
    from urllib.parse import quote

    return f"session?session={quote(session_id)}"


def deal_label(deal_id: str, session_id: str, lang: Lang) -> str:
    """A deal as people name it on a phone: 第 3 局 / Deal 3 (its number after the
    session's id), else the id's last part, so a long id never takes the table's width."""
    from ingest.logs.revisions import split_revision

    rest = split_revision(deal_id)[0].removeprefix(f"{session_id}-")
    number = rest.rsplit("-", 1)[-1]  # a revision's suffix and a prefix of the id left out
    if number.isdigit():
        return label("live_deal_n", lang).format(n=int(number))
    return rest


def status_label(status: str, lang: Lang) -> str:
    """A deal's status (ok, findings, invalid) in the page's language; the stored value stays."""
    return label(f"status_{status}", lang) if f"status_{status}" in LABELS else status
