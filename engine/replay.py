"""Replay one deal and compare every recorded claim with the rules' answer.

One core loop (python-chess's pattern): findings go to a sink that either collects them
(lenient, the default) or raises :class:`StrictStop` at the first one (strict). An
illegal event stops the replay of its deal only; payment and fan differences are
reported and the replay goes on with the computed values.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.checks import END_REASONS, check_end, check_kong, check_win, finding
from engine.deal import Deal, IllegalEvent
from engine.events import DealEnd, DealStart, Finding, Hu, Kong, PlayEvent
from engine.messages import NO_DEAL_END, pattern_text
from engine.replay_options import PLAIN, ReplayOptions, StepHook
from engine.report import DealReport, FindingSink, StrictStop
from engine.rules import Rules
from engine.settlement import seat_deltas
from engine.sheet import audit_sheet

__all__ = [
    "END_REASONS", "PLAIN", "DealReport", "FindingSink", "ReplayOptions", "StepHook", "StrictStop",
    "pattern_text", "replay_deal",
]  # fmt: skip


def replay_deal(
    start: DealStart,
    events: Sequence[PlayEvent],
    end: DealEnd | None,
    rules: Rules,
    options: ReplayOptions = PLAIN,
    sink: FindingSink | None = None,
) -> DealReport:
    """Replay a deal's events under ``rules``; every difference becomes a finding (in
    ``sink``, a new one when None)."""
    sink = sink if sink is not None else FindingSink()
    if start.record == "sheet":  # a score sheet: no tiles, audited from its declared facts
        return audit_sheet(start, events, end, rules, options, sink)
    start_count = len(sink.findings)
    warn_count = len(sink.warnings)
    for read in options.read_findings:
        sink.add(read)
    deal: Deal | None = None
    complete = False
    try:
        deal = Deal(start, rules, options.base)
    except IllegalEvent as error:
        sink.add(_illegal(error, start.line, sink.file))
    if deal is not None:
        complete = _run(deal, events, end, rules, sink, start.line, options.on_step)
    # one entry a seat of the table (four at today's)
    scores = seat_deltas(deal.ledger, rules.seats) if deal is not None else (0, 0, 0, 0)
    return DealReport(
        deal_id=start.deal_id,
        session_id=options.session_id,
        file=sink.file,
        line=start.line,
        rules=rules.name,
        findings=sink.findings[start_count:],
        warnings=sink.warnings[warn_count:],
        scores=scores,
        wins=list(deal.wins) if deal else [],
        kongs=list(deal.kongs) if deal else [],
        ledger=list(deal.ledger) if deal else [],
        settlement=seat_deltas(deal.settlement, rules.seats) if deal else (0, 0, 0, 0),
        end_reason=deal.end_reason if deal else None,
        complete=complete,
        deal=deal if options.keep_state else None,
        replayed=deal is not None,  # hands that cannot be dealt: no net was computed
    )


def _run(
    deal: Deal,
    events: Sequence[PlayEvent],
    end: DealEnd | None,
    rules: Rules,
    sink: FindingSink,
    deal_line: int,
    on_step: StepHook | None,
) -> bool:
    recorded_kongs: dict[int, Kong] = {}
    wins_seen = kongs_seen = breaches_seen = 0
    kongs, wins, breaches = deal.kongs, deal.wins, deal.breaches
    for event in [*events, end] if end is not None else events:
        kind = event.type
        if kind == "kong":
            recorded_kongs[event.line] = event  # type: ignore[assignment]
        try:
            deal.apply(event)
        except IllegalEvent as error:
            _flush_breaches(deal, breaches_seen, sink, event.line)
            sink.add(_illegal(error, event.line, sink.file))
            if on_step is not None:
                on_step(event, deal, sink)
            return False
        if len(breaches) > breaches_seen:
            _flush_breaches(deal, breaches_seen, sink, event.line)
            breaches_seen = len(breaches)
        while kongs_seen < len(kongs):  # an added kong is paid when the next event shows no rob
            made = kongs[kongs_seen]
            kongs_seen += 1
            recorded = recorded_kongs.get(made.line)
            check_kong(made, recorded.deltas if recorded is not None else None, rules, sink)
        if kind == "hu":
            while wins_seen < len(wins):
                win = wins[wins_seen]
                wins_seen += 1
                if event.line == win.line:
                    hu: Hu = event  # type: ignore[assignment]
                    check_win(win, hu.fan, hu.patterns, hu.deltas, rules, sink)
        elif kind == "deal_end":
            ending: DealEnd = event  # type: ignore[assignment]
            check_end(
                deal.end_reason, ending.reason, ending.line, deal.settlement, deal.ledger,
                (ending.settlement, ending.scores), rules, sink,
            )  # fmt: skip
        if on_step is not None:
            on_step(event, deal, sink)
    if end is None:
        finding("wrong_end", deal_line, None, NO_DEAL_END, sink, expected="deal_end")
        return False
    return True


def _flush_breaches(deal: Deal, seen: int, sink: FindingSink, line: int | None = None) -> None:
    for breach in deal.breaches[seen:]:
        sink.add(_illegal(breach, line, sink.file))


def _illegal(error: IllegalEvent, line: int | None, file: str | None) -> Finding:
    """A breach the moves reported as a code and values, as a finding in words."""
    text = error.text
    return Finding(
        error.code,
        error.line if error.line is not None else line,
        error.seat,
        text.en,
        expected=error.expected,
        recorded=error.recorded,
        rule=error.rule,
        file=file,
        message_zh=text.zh,
        message_key=text.key,
        message_values=text.values,
    )
