"""The words of a recorded deal: an event (a kong, a win) and its payments, as the Record
page lists them and the table's live view (``app_pages/live.py``) shows them to every
player; in the page's language, names made safe for Markdown."""

from __future__ import annotations

from dashboard import page_kit
from dashboard.safe_text import md
from dashboard.term_labels import pattern_label, reason_label
from engine.settlement import Transfer
from ingest.sheets.record import KongFact, WinFact


def payment_lines(transfers: list[Transfer], names: tuple[str, ...]) -> list[str]:
    players = tuple(md(name) for name in names)
    return [
        page_kit.t(
            "record_pays", payer=players[t.payer], payee=players[t.payee], amount=t.amount,
            reason=reason_label(t.reason, page_kit.lang()),
        )
        for t in transfers
    ]  # fmt: skip


def event_text(fact: KongFact | WinFact, fan: int | None, names: tuple[str, ...]) -> str:
    players = tuple(md(name) for name in names)
    if isinstance(fact, KongFact):
        kind = page_kit.t(f"kong_kind_{fact.kind}")
        if fact.kind == "added" and not fact.same_turn:
            kind += page_kit.t("record_late_mark")
        if fact.kind == "exposed" and fact.from_seat is not None:
            return page_kit.t(
                "record_kong_from", who=players[fact.seat], kind=kind, source=players[fact.from_seat]
            )
        return page_kit.t("record_kong_line", who=players[fact.seat], kind=kind)
    source = (
        page_kit.t("record_win_self")
        if fact.from_seat is None
        else page_kit.t("record_win_from", source=players[fact.from_seat])
    )
    patterns = " + ".join(pattern_label(p, page_kit.lang()) for p in fact.patterns)
    return page_kit.t(
        "record_win_line", who=players[fact.seat], source=source, patterns=patterns, fan=fan or "?"
    )
