"""Terminal views: the validation report and the turn-by-turn replay of one deal."""

from __future__ import annotations

from collections.abc import Callable

from engine.deal import Deal
from engine.events import DealEnd, Discard, Draw, Exchange, Finding, Hu, Kong, PlayEvent, Pong, Void
from engine.replay import DealReport, FindingSink, pattern_text
from engine.settlement import REASONS
from engine.tiles import SUITS, format_tiles, tile_name
from ingest.validate import ValidationReport

KONG_NAMES = {"exposed": "直杠 exposed kong", "added": "弯杠 added kong", "concealed": "暗杠 concealed kong"}


def finding_line(finding: Finding, indent: str = "    ") -> str:
    where = f"line {finding.line}" if finding.line is not None else "file"
    seat = f" seat {finding.seat}" if finding.seat is not None else ""
    return f"{indent}{where}{seat} {finding.code}: {finding.message}"


def validation_text(report: ValidationReport) -> str:
    """One line per deal, then its findings; then session and file findings; a summary."""
    out = []
    for deal in report.deals:
        mark = "ok      " if deal.status == "ok" else "FINDINGS"
        scores = " ".join(f"{s:+d}" for s in deal.scores)
        out.append(f"{mark} {deal.deal_id}  [{scores}]  ({deal.rules}, {deal.file}:{deal.line})")
        out.extend(finding_line(f) for f in deal.findings)
    for session in report.sessions:
        if session.findings:
            out.append(f"session {session.session_id} ({session.file}:{session.line})")
            out.extend(finding_line(f) for f in session.findings)
    if report.file_findings:
        out.append("lines outside any deal:")
        out.extend(f"  {f.file}: " + finding_line(f, "") for f in report.file_findings)
    summary = report.summary()
    codes = ", ".join(f"{code} {count}" for code, count in summary["by_code"].items()) or "none"
    out.append(
        f"{summary['deals']} deals in {summary['sessions']} sessions from {summary['files']} files: "
        f"{summary['ok']} ok, {summary['findings']} with findings; findings by code: {codes}"
    )
    return "\n".join(out)


def describe_event(event: PlayEvent | DealEnd) -> str:
    if isinstance(event, Draw):
        return f"seat {event.seat} draws {tile_name(event.tile)}"
    if isinstance(event, Discard):
        return f"seat {event.seat} discards {tile_name(event.tile)}"
    if isinstance(event, Pong):
        return f"seat {event.seat} 碰 pongs {tile_name(event.tile)}"
    if isinstance(event, Kong):
        return f"seat {event.seat} {KONG_NAMES.get(event.kind, event.kind)} of {tile_name(event.tile)}"
    if isinstance(event, Hu):
        how = "自摸 self-draw" if event.from_seat is None else f"on seat {event.from_seat}'s tile"
        return f"seat {event.seat} 胡 wins {how} with {tile_name(event.tile)}"
    if isinstance(event, Void):
        return f"seat {event.seat} 定缺 declares {SUITS[event.suit]} void"
    if isinstance(event, Exchange):
        return f"换三张 exchange {event.direction}: " + ", ".join(format_tiles(t) for t in event.tiles)
    return f"deal_end ({event.reason})"


def replay_printer(emit: Callable[[str], None]) -> Callable[[PlayEvent | DealEnd, Deal, FindingSink], None]:
    """A step hook for :func:`engine.replay.replay_deal` that prints each turn."""
    state = {"ledger": 0, "findings": 0, "wins": 0}

    def step(event: PlayEvent | DealEnd, deal: Deal, sink: FindingSink) -> None:
        emit(f"[line {event.line}] {describe_event(event)}   wall {deal.wall_left}")
        for win in deal.wins[state["wins"] :]:
            emit(f"    胡 seat {win.seat}: {pattern_text(win.result.patterns)} = {win.result.fan} fan")
        state["wins"] = len(deal.wins)
        for transfer in deal.ledger[state["ledger"] :]:
            zh, en = REASONS[transfer.reason]
            emit(f"    pay: seat {transfer.payer} -> seat {transfer.payee} {transfer.amount} ({zh} {en})")
        state["ledger"] = len(deal.ledger)
        for finding in sink.findings[state["findings"] :]:
            emit("    !! " + finding_line(finding, "").strip())
        state["findings"] = len(sink.findings)
        if isinstance(event, Discard | Pong | Kong | Hu | DealEnd):
            for seat in range(4):
                melds = " ".join(f"[{m.kind} {tile_name(m.tile)}]" for m in deal.melds[seat])
                status = " (won)" if deal.won[seat] else ""
                emit(f"      seat {seat}{status}: {format_tiles(_tiles(deal.hands[seat]))} {melds}".rstrip())

    return step


def _tiles(counts: list[int]) -> list[int]:
    return [tile for tile, count in enumerate(counts) for _ in range(count)]


def sheet_printout(report: DealReport, emit: Callable[[str], None]) -> None:
    """A score-sheet deal as priced: each payment with its reason, line by line, and the
    findings of each line (a sheet has no tiles to show turn by turn)."""
    wins = {win.line: win for win in report.wins}
    findings = sorted(report.findings, key=lambda f: f.line or 0)
    lines = sorted({t.line for t in report.ledger} | {f.line for f in findings if f.line is not None})
    for line in lines:
        win = wins.get(line)
        emit(
            f"[line {line}]"
            + (
                f" 胡 seat {win.seat}: {pattern_text(win.result.patterns)} = {win.result.fan} fan"
                if win
                else ""
            )
        )
        for transfer in (t for t in report.ledger if t.line == line):
            zh, en = REASONS[transfer.reason]
            emit(f"    pay: seat {transfer.payer} -> seat {transfer.payee} {transfer.amount} ({zh} {en})")
        for finding in (f for f in findings if f.line == line):
            emit("    !! " + finding_line(finding, "").strip())
