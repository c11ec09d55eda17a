"""Terminal views: the validation report and the turn-by-turn replay of one deal."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dashboard.findings_view import finding_text, seat_base
from dashboard.i18n import Lang, label
from dashboard.term_labels import code_label, end_reason_label, reason_label, win_kind_label
from engine.deal import Deal
from engine.events import DealEnd, Discard, Draw, Exchange, Finding, Hu, Kong, PlayEvent, Pong, Void
from engine.replay import DealReport, FindingSink, pattern_text
from engine.tiles import SUITS, WILD, format_tiles, tile_name
from engine.vocabulary import KONG_KINDS
from engine.vocabulary import SUITS as SUIT_NAMES
from engine.voice import NamedVoice, Voice
from ingest.replay.validate import ValidationReport


def say(key: str, lang: Lang, **values: object) -> str:
    """A label of :data:`dashboard.i18n.LABELS` in ``lang``, filled in."""
    return label(key, lang).format(**values)


def seat_voice(players: Sequence[str | None] = (), first: int = 0) -> Voice:
    """The CLI's voice: the players by name, each seat beside its name counted from
    ``first`` (1 for a score sheet or a spreadsheet, 0 for a tile log)."""
    return NamedVoice(list(players), first)


def finding_line(
    finding: Finding, indent: str = "    ", lang: Lang = "en", voice: Voice | None = None
) -> str:
    """One finding: where, whose seat (by name where ``voice`` names the players) and what."""
    unit = (
        "cli_row" if (finding.file or "").lower().endswith((".csv", ".xlsx")) else "cli_line"
    )  # score sheets
    where = say(unit, lang, n=finding.line) if finding.line is not None else say("cli_file", lang)
    if finding.seat is None:
        seat = ""
    elif voice is not None and voice.name(finding.seat) is not None:
        seat = f" {voice.seat(finding.seat, lang)}"
    else:
        seat = say("cli_seat", lang, n=finding.seat + (voice.first if voice is not None else 0))
    code = code_label(finding.code, lang)
    message = finding_text(
        finding.message, finding.message_zh, finding.message_key, finding.message_values, lang, voice
    )
    return f"{indent}{where}{seat} {code}: {message}"


def deal_voice(deal: DealReport, players: Sequence[str | None]) -> Voice:
    """A deal's voice: its session's players, its seats counted as its source counts them."""
    return seat_voice(players, seat_base(deal.record, deal.file))


def validation_text(report: ValidationReport, lang: Lang = "en", *, only_findings: bool = False) -> str:
    """One line per deal (``only_findings``: per deal that is not ok), then its findings;
    then session and file findings; a summary of every deal."""
    out = []
    marks = {
        "ok": say("cli_ok", lang),
        "findings": say("cli_findings", lang),
        "invalid": say("cli_invalid", lang),
    }
    unscored = say("cli_not_replayed", lang)
    signed = "{:+d}".format
    players = {s.session_id: s.players for s in report.sessions}
    for deal in report.deals:  # a line per deal: thousands in a club's file
        status = deal.status
        if only_findings and status == "ok":
            continue
        scores = " ".join(map(signed, deal.scores)) if deal.replayed else unscored
        out.append(f"{marks[status]} {deal.deal_id}  [{scores}]  ({deal.rules}, {deal.file}:{deal.line})")
        if deal.findings:
            voice = deal_voice(deal, players.get(deal.session_id, ()))
            out.extend(finding_line(f, lang=lang, voice=voice) for f in deal.findings)
        if status == "invalid":
            out.append(stopped_line(deal, lang))
    for session in report.sessions:
        if session.findings:
            where = f"{session.file}:{session.line}"
            out.append(say("cli_session", lang, id=session.session_id, where=where))
            voice = seat_voice(session.players, seat_base(None, session.file))
            out.extend(finding_line(f, lang=lang, voice=voice) for f in session.findings)
    if report.file_findings:
        out.append(say("cli_outside", lang))
        out.extend(f"  {f.file}: " + finding_line(f, "", lang) for f in report.file_findings)
    summary = report.summary()
    codes = ", ".join(f"{code_label(code, lang)} {count}" for code, count in summary["by_code"].items())
    unreplayed = summary["invalid"] or summary["set_aside"]  # a clean report reads as before
    out.append(
        say(
            "cli_summary_unreplayed" if unreplayed else "cli_summary",
            lang,
            deals=summary["deals"],
            sessions=summary["sessions"],
            files=summary["files"],
            ok=summary["ok"],
            findings=summary["findings"],
            invalid=summary["invalid"],
            set_aside=summary["set_aside"],
            codes=codes or say("cli_none", lang),
        )
    )
    return "\n".join(out)


def stopped_line(deal: DealReport, lang: Lang) -> str:
    """Where an invalid deal's replay stopped: the finding that stopped it, by line."""
    stopped = deal.stopped_json() or {"code": None, "line": None, "scope": "deal"}
    key = "cli_stopped_session" if stopped["scope"] == "session" else "cli_stopped"
    return say(key, lang, line=stopped["line"], code=code_label(stopped["code"], lang))


def describe_event(event: PlayEvent | DealEnd, lang: Lang = "en") -> str:
    if isinstance(event, Draw):
        return say("cli_draws", lang, seat=event.seat, tile=tile_name(event.tile))
    if isinstance(event, Discard):
        return say("cli_discards", lang, seat=event.seat, tile=tile_name(event.tile))
    if isinstance(event, Pong):
        return say("cli_pongs", lang, seat=event.seat, tile=tile_name(event.tile))
    if isinstance(event, Kong):
        zh, en = KONG_KINDS[event.kind]
        kind = zh if lang == "zh" else f"{zh} {en}"
        return say("cli_kong", lang, seat=event.seat, kind=kind, tile=tile_name(event.tile))
    if isinstance(event, Hu):
        how = (
            win_kind_label("self_draw", lang)
            if event.from_seat is None
            else say("cli_on_tile", lang, seat=event.from_seat)
        )
        return say("cli_wins", lang, seat=event.seat, how=how, tile=tile_name(event.tile))
    if isinstance(event, Void):
        suit = SUITS[event.suit]
        return say("cli_void", lang, seat=event.seat, suit=SUIT_NAMES[suit][0] if lang == "zh" else suit)
    if isinstance(event, Exchange):
        tiles = ", ".join(format_tiles(t) for t in event.tiles)
        return say("cli_exchange", lang, direction=event.direction, tiles=tiles)
    reason = end_reason_label(event.reason, lang) if lang == "zh" else event.reason
    return say("cli_end", lang, reason=reason)


def replay_printer(
    emit: Callable[[str], None], lang: Lang = "en", voice: Voice | None = None
) -> Callable[[PlayEvent | DealEnd, Deal, FindingSink], None]:
    """A step hook for :func:`engine.replay.replay_deal` that prints each turn (its
    findings with the players' names where ``voice`` has them)."""
    state = {"ledger": 0, "findings": 0, "wins": 0}

    def step(event: PlayEvent | DealEnd, deal: Deal, sink: FindingSink) -> None:
        emit(say("cli_step", lang, line=event.line, text=describe_event(event, lang), wall=deal.wall_left))
        for win in deal.wins[state["wins"] :]:
            patterns = pattern_text(win.result.patterns)
            emit(say("cli_win", lang, seat=win.seat, patterns=patterns, fan=win.result.fan))
        state["wins"] = len(deal.wins)
        for transfer in deal.ledger[state["ledger"] :]:
            reason = reason_label(transfer.reason, lang)
            emit(
                say(
                    "cli_pay",
                    lang,
                    payer=transfer.payer,
                    payee=transfer.payee,
                    amount=transfer.amount,
                    reason=reason,
                )
            )
        state["ledger"] = len(deal.ledger)
        for finding in sink.findings[state["findings"] :]:
            emit("    !! " + finding_line(finding, "", lang, voice).strip())
        state["findings"] = len(sink.findings)
        if isinstance(event, Discard | Pong | Kong | Hu | DealEnd):
            for seat in deal.order:  # the table's seats: three hands at a three-seat table
                melds = " ".join(f"[{m.kind} {tile_name(m.tile)}]" for m in deal.melds[seat])
                status = say("cli_won", lang) if deal.won[seat] else ""
                tiles = format_tiles(_tiles(deal.hands[seat]) + [WILD] * deal.wilds[seat])  # 红中 last, 7z
                emit(say("cli_hand", lang, seat=seat, status=status, tiles=tiles, melds=melds).rstrip())

    return step


def _tiles(counts: list[int]) -> list[int]:
    return [tile for tile, count in enumerate(counts) for _ in range(count)]


def sheet_printout(report: DealReport, emit: Callable[[str], None], voice: Voice | None = None) -> None:
    """A score-sheet deal as priced: each payment with its reason, line by line, and the
    findings of each line (a sheet has no tiles to show turn by turn); the seats as
    ``voice`` says them (by name, counted 1-4 as a sheet counts them)."""
    said = voice or Voice()
    wins = {win.line: win for win in report.wins}
    findings = sorted(report.findings, key=lambda f: f.line or 0)
    lines = sorted({t.line for t in report.ledger} | {f.line for f in findings if f.line is not None})
    for line in lines:
        win = wins.get(line)
        emit(
            f"[line {line}]"
            + (
                f" 胡 {said.seat(win.seat, 'en')}: {pattern_text(win.result.patterns)} = {win.result.fan} fan"
                if win
                else ""
            )
        )
        for transfer in (t for t in report.ledger if t.line == line):
            payer, payee = said.seat(transfer.payer, "en"), said.seat(transfer.payee, "en")
            emit(f"    pay: {payer} -> {payee} {transfer.amount} ({reason_label(transfer.reason, 'en')})")
        for finding in (f for f in findings if f.line == line):
            emit("    !! " + finding_line(finding, "", voice=voice).strip())
