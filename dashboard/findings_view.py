"""A finding as a person reads it: its explanation rendered with the players' names
(the seat beside the name, counted as the source counts it) and its expected and
recorded payments per player, as a table reads them ("张三 −4, 李四 +4"), instead of the
bare lists the engine stores ("[-4, 4, 0, 0]")."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dashboard.i18n import Lang, label
from dashboard.term_labels import sentence_rules
from dashboard.tiles_view import SUIT_CHARS
from engine.events import Finding
from engine.messages import TEMPLATES, render
from engine.read_templates import json_error
from engine.voice import NO_PAYMENT, NamedVoice, Voice, signed

if TYPE_CHECKING:
    from ingest.replay.validate import ValidationReport


def seat_amounts(value: Any, seats: int) -> list[int] | None:
    """A stored ``expected``/``recorded`` text as one integer per seat, or None when it is
    something else (a list of patterns, a count)."""
    try:
        data = json.loads(value) if isinstance(value, str) else value
    except ValueError:
        return None
    if not isinstance(data, list) or len(data) != seats:
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in data):
        return None
    return [int(v) for v in data]


def per_player(amounts: Sequence[int], players: Sequence[str], lang: Lang) -> str:
    """The seats that pay or receive, by name: "张三 −4, 李四 +4"; "no payment" when none."""
    moved = [f"{players[seat]} {signed(amount)}" for seat, amount in enumerate(amounts) if amount]
    return ", ".join(moved) if moved else NO_PAYMENT[0 if lang == "zh" else 1]


def payments_line(expected: Any, recorded: Any, players: Any, lang: Lang) -> str | None:
    """ "Expected: 张三 −4, 李四 +4 · recorded: no payment" for a payment finding, else None."""
    names = [str(p) for p in players] if players is not None and not isinstance(players, str | float) else []
    want, got = seat_amounts(expected, len(names)), seat_amounts(recorded, len(names))
    if not names or want is None or got is None:
        return None
    return label("expected_recorded", lang).format(
        expected=per_player(want, names, lang), recorded=per_player(got, names, lang)
    )


def seat_base(record: Any = None, file: Any = None) -> int:
    """How the source counts its seats: 1–4 for a score sheet and a spreadsheet, 0–3 for a
    tile log (as the log format counts them)."""
    if record == "sheet":
        return 1
    return 1 if isinstance(file, str) and file.lower().endswith((".csv", ".xlsx")) else 0


def _number(value: Any) -> int | None:
    """A stored number (an int, a float of pandas, never NaN or NA) as an int, else None."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return None
    return int(value)


def finding_place(
    line: Any, deal_line: Any = None, deal_no: Any = None, rows: bool = False, lang: Lang = "en"
) -> str:
    """Where a finding is, as a club reads it: in a tile deal its deal's number in the
    session and the step the replay shows ("第 3 局第 12 步"), not the line of a long file; a
    sheet's row; else the file's line ("" without a line). The ``line`` key stays as it is."""
    at, start, number = _number(line), _number(deal_line), _number(deal_no)
    if at is None:
        return ""
    if rows:
        return label("row_n", lang).format(n=at)
    if start is not None and number is not None and at >= start:
        key = "deal_start_n" if at == start else "deal_step_n"
        return label(key, lang).format(deal=number, step=at - start)
    return label("line_n", lang).format(n=at)


def named_voice(players: Any, first: int = 0, tile: Callable[[str, Lang], str] | None = None) -> Voice | None:
    """The voice that names ``players`` (the deal's, as shown: roster-mapped), or None
    when there are no players to name."""
    if players is None or isinstance(players, str | float):
        return None
    names = [None if p is None or isinstance(p, float) else str(p) for p in players]
    return NamedVoice(names, first, tile, sentence_rules) if names and any(names) else None


class PageVoice(Voice):
    """The stored messages' voice, but a rule set named as a page says it (标准川麻 on a 中文
    page, not ``standard`` in a Chinese sentence)."""

    def rules(self, name: str, lang: Lang) -> str:
        return sentence_rules(name, lang)


PAGE_VOICE = PageVoice()


def page_values(key: str, values: dict[str, Any] | None) -> dict[str, Any] | None:
    """A finding's values as a page says them: the patterns a win was recorded with by
    their names (清一色), not their ids (``['qingyise']``); the JSON decoder's English in
    Chinese on a 中文 page (a batch stored before the reader said it so)."""
    recorded = (values or {}).get("recorded")
    if key == "win_patterns" and isinstance(recorded, list) and all(isinstance(p, str) for p in recorded):
        return {**(values or {}), "recorded": {"patterns": recorded}}
    error = (values or {}).get("error")
    if key in ("read_not_json", "read_not_json_rows") and isinstance(error, str):  # stored before json_error
        return {**(values or {}), "error": json_error(error)}
    return values


def finding_message(message: object, message_zh: object, lang: Lang) -> str:
    """The engine's explanation in the language: ``message_zh`` where the warehouse has it
    (a newer engine), else the English one."""
    if lang == "zh" and isinstance(message_zh, str) and message_zh:
        return message_zh
    return "" if not isinstance(message, str) else message


def finding_text(
    message: Any, message_zh: Any, key: Any, values: Any, lang: Lang, voice: Voice | None = None
) -> str:
    """A finding's explanation in ``lang``: rendered from its template key and values in
    ``voice`` (the players by name) where it has them, else the stored message (a batch
    written before the key was stored, a finding written out)."""
    if isinstance(key, str) and key in TEMPLATES:
        try:
            data = json.loads(values) if isinstance(values, str) else values
            if data is None or isinstance(data, dict):
                return render(key, page_values(key, data), lang, voice or PAGE_VOICE)
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            pass  # values this engine cannot read: the stored words
    return finding_message(message, message_zh, lang)


def page_tile(name: str, lang: Lang) -> str:
    """A tile as the pages write one: its rank and suit character ("5万"); a name that is no
    tile ("?") as it is."""
    if len(name) == 2 and name[0].isdigit() and name[1] in "mps":
        return f"{name[0]}{SUIT_CHARS['mps'.index(name[1])]}"
    return name


def row_voice(row: Mapping[str, Any], tile: Callable[[str, Lang], str] | None = page_tile) -> Voice | None:
    """A stored finding's voice: its deal's players (as shown), its seats counted as the
    deal's source counts them."""
    return named_voice(row.get("players"), seat_base(row.get("deal_record"), row.get("file")), tile)


def row_text(row: Mapping[str, Any], lang: Lang, tile: Callable[[str, Lang], str] | None = page_tile) -> str:
    """A stored finding's explanation with its players' names (the stored message where
    its batch kept no key)."""
    return finding_text(
        row.get("message"), row.get("message_zh"), row.get("message_key"), row.get("message_values"),
        lang, row_voice(row, tile),
    )  # fmt: skip


def finding_said(
    finding: Finding,
    lang: Lang,
    players: Sequence[str] = (),
    first: int = 0,
    escape: Callable[[str], str] | None = None,
) -> str:
    """A finding the page holds (not a stored row) with ``players`` by name, each seat
    counted from ``first``; ``escape`` each name first (Markdown on a page)."""
    names = [escape(p) if escape is not None else p for p in players]
    voice = named_voice(names, first, page_tile)
    return finding_text(
        finding.message, finding.message_zh, finding.message_key, finding.message_values, lang, voice
    )


def report_with_text(report: ValidationReport, lang: Lang) -> dict[str, Any]:
    """``validate --json``'s report (docs/report.md), each deal's finding with ``text``: its
    explanation in ``lang`` naming the session's players (``message`` stays as it is)."""
    data = report.to_json()
    players = {s.session_id: list(s.players) for s in report.sessions}
    for deal, shown in zip(report.deals, data["deals"], strict=True):
        names = players.get(deal.session_id, [])
        first = seat_base(deal.record, deal.file)
        for finding, said in zip(deal.findings, shown["findings"], strict=True):
            said["text"] = finding_said(finding, lang, names, first)
    return data
