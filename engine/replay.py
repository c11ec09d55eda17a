"""Replay one deal and compare every recorded claim with the rules' answer.

One core loop (python-chess's pattern): findings go to a sink that either collects them
(lenient, the default) or raises :class:`StrictStop` at the first one (strict). An
illegal event stops the replay of its deal only; payment and fan differences are
reported and the replay goes on with the computed values.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.deal import Deal, IllegalEvent, KongMade, Win
from engine.events import DealEnd, DealStart, Finding, Hu, Kong, PlayEvent
from engine.fan import NAMES
from engine.rules import Rules
from engine.settlement import REASONS, Transfer, deltas, multiplier
from engine.tiles import tile_name

END_REASONS = ("three_won", "wall_exhausted", "first_hu")

StepHook = Callable[[PlayEvent | DealEnd, Deal, "FindingSink"], None]


class StrictStop(Exception):
    """Raised by a strict sink at the first finding."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


@dataclass
class FindingSink:
    strict: bool = False
    file: str | None = None
    findings: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)

    def add(self, finding: Finding) -> None:
        if finding.severity == "warning":
            self.warnings.append(finding)
            return
        self.findings.append(finding)
        if self.strict:
            raise StrictStop(finding)


@dataclass
class DealReport:
    """The replay of one deal: its status, findings and what the rules compute."""

    deal_id: str
    session_id: str | None
    file: str | None
    line: int
    rules: str
    findings: list[Finding]
    warnings: list[Finding]
    scores: tuple[int, int, int, int]
    wins: list[Win]
    kongs: list[KongMade]
    ledger: list[Transfer]
    settlement: tuple[int, int, int, int]
    end_reason: str | None
    complete: bool  # replayed to its end without an illegal event
    deal: Deal | None = None

    @property
    def status(self) -> str:
        return "ok" if not self.findings else "findings"

    def to_json(self) -> dict[str, Any]:
        """The deal object of the validation report (docs/report.md, deals)."""
        return {
            "deal_id": self.deal_id,
            "session_id": self.session_id,
            "file": self.file,
            "line": self.line,
            "status": self.status,
            "findings": [f.to_json() for f in self.findings],
            "warnings": [f.to_json() for f in self.warnings],
            "computed": {
                "scores": list(self.scores),
                "wins": [
                    {
                        "seat": w.seat,
                        "fan": w.result.fan,
                        "patterns": list(w.result.patterns),
                        "kind": w.kind,
                        "from": w.from_seat,
                        "tile": tile_name(w.tile),
                        "line": w.line,
                    }
                    for w in self.wins
                ],
                "settlement": list(self.settlement),
                "end_reason": self.end_reason,
                "rules": self.rules,
                "complete": self.complete,
            },
        }


def replay_deal(
    start: DealStart,
    events: Sequence[PlayEvent],
    end: DealEnd | None,
    rules: Rules,
    *,
    base: int = 1,
    sink: FindingSink | None = None,
    session_id: str | None = None,
    keep_state: bool = False,
    read_findings: Sequence[Finding] = (),
    on_step: StepHook | None = None,
) -> DealReport:
    """Replay a deal's events under ``rules``; every difference becomes a finding.

    ``read_findings`` (lines of the deal the reader could not use) open its report;
    ``on_step(event, deal, sink)`` sees the state after every event (the replay views)."""
    sink = sink if sink is not None else FindingSink()
    start_count = len(sink.findings)
    warn_count = len(sink.warnings)
    for finding in read_findings:
        sink.add(finding)
    deal: Deal | None = None
    complete = False
    try:
        deal = Deal(start, rules, base)
    except IllegalEvent as error:
        sink.add(_illegal(error, start.line, sink.file))
    if deal is not None:
        complete = _run(deal, events, end, rules, sink, start.line, on_step)
    scores = deltas(deal.ledger) if deal is not None else (0, 0, 0, 0)
    return DealReport(
        deal_id=start.deal_id,
        session_id=session_id,
        file=sink.file,
        line=start.line,
        rules=rules.name,
        findings=sink.findings[start_count:],
        warnings=sink.warnings[warn_count:],
        scores=scores,
        wins=list(deal.wins) if deal else [],
        kongs=list(deal.kongs) if deal else [],
        ledger=list(deal.ledger) if deal else [],
        settlement=deltas(deal.settlement) if deal else (0, 0, 0, 0),
        end_reason=deal.end_reason if deal else None,
        complete=complete,
        deal=deal if keep_state else None,
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
            _check_kong(made, recorded_kongs.get(made.line), rules, sink)
        if kind == "hu":
            while wins_seen < len(wins):
                win = wins[wins_seen]
                wins_seen += 1
                if event.line == win.line:
                    _check_win(win, event, rules, sink)  # type: ignore[arg-type]
        elif kind == "deal_end":
            _check_end(deal, event, rules, sink)  # type: ignore[arg-type]
        if on_step is not None:
            on_step(event, deal, sink)
    if end is None:
        sink.add(
            Finding(
                "wrong_end",
                deal_line,
                None,
                "the deal has no deal_end line: the log stops or a new deal begins before it ends",
                expected="deal_end",
                recorded=None,
                file=sink.file,
            )
        )
        return False
    return True


def _flush_breaches(deal: Deal, seen: int, sink: FindingSink, line: int | None = None) -> None:
    for breach in deal.breaches[seen:]:
        sink.add(_illegal(breach, line, sink.file))


def _illegal(error: IllegalEvent, line: int | None, file: str | None) -> Finding:
    return Finding(
        error.code,
        error.line if error.line is not None else line,
        error.seat,
        error.message,
        expected=error.expected,
        recorded=error.recorded,
        rule=error.rule,
        file=file,
    )


# ------------------------------------------------------------------- messages
def _kong_rule(kind: str, rules: Rules, robbed: bool) -> str:
    zh, en = REASONS["kong_" + kind]
    if robbed:
        return f"{zh} ({en}) robbed by 抢杠胡: a robbed kong earns nothing (刮风下雨无效)"
    if kind == "exposed":
        text = f"the discarder pays {rules.exposed_kong_discarder}"
        if rules.exposed_kong_others:
            text += f" and each other seat still in pays {rules.exposed_kong_others} (家家有)"
    elif kind == "added":
        text = f"each other seat still in pays {rules.added_kong_each}"
        if rules.added_kong_same_turn_only:
            text += ", only for a tile drawn this turn (added_kong_same_turn_only)"
    else:
        text = f"each other seat still in pays {rules.concealed_kong_each}"
    return f"{zh} ({en}): {text} under {rules.name}"


def _check_kong(made: KongMade, recorded: Kong | None, rules: Rules, sink: FindingSink) -> None:
    if recorded is None or recorded.deltas is None:
        return
    if tuple(recorded.deltas) != made.deltas:
        sink.add(
            Finding(
                "payment_mismatch",
                made.line,
                made.seat,
                f"seat {made.seat}'s kong of {tile_name(made.tile)}: {_kong_rule(made.kind, rules, made.robbed)}; "
                f"expected {list(made.deltas)}, recorded {list(recorded.deltas)}",
                expected=list(made.deltas),
                recorded=list(recorded.deltas),
                rule=f"{made.kind}_kong" if not made.robbed else "qiangganghu",
                file=sink.file,
            )
        )


def pattern_text(patterns: Sequence[str]) -> str:
    counts = Counter(patterns)
    parts = []
    for pattern in dict.fromkeys(patterns):
        zh, en = NAMES[pattern]
        parts.append(f"{zh} {en}" + (f" ×{counts[pattern]}" if counts[pattern] > 1 else ""))
    return " + ".join(parts)


def _win_rule(win: Win, rules: Rules) -> str:
    unit = multiplier(win.result.fan)
    if win.kind in ("discard", "rob", "kong_discard"):
        payer = "the robbed konger" if win.kind == "rob" else "the discarder"
        text = f"点炮 (discard win): {payer} pays 2^({win.result.fan}-1) = {unit}"
        if win.kind == "kong_discard" and rules.kong_discard_transfer:
            text += " and hands on what the kong just earned (杠上炮 呼叫转移)"
        return text
    if any(t.reason == "win_discard" for t in win.transfers):
        return f"杠上花 after an exposed kong counts as a discard win here: the seat that fed the kong pays {unit}"
    text = f"自摸 (self-draw): each seat still in pays 2^({win.result.fan}-1) = {unit}"
    if rules.self_draw_bonus == "add_base":
        text += " plus one base (自摸加底)"
    return text


def _check_win(win: Win, recorded: Hu, rules: Rules, sink: FindingSink) -> None:
    result = win.result
    fan_text = f"{pattern_text(result.patterns)} = {result.fan} fan"
    if result.uncapped != result.fan:
        fan_text += f" (封顶, capped at max_fan {rules.max_fan})"
    if recorded.fan is not None and recorded.fan != result.fan:
        sink.add(
            Finding(
                "fan_mismatch",
                win.line,
                win.seat,
                f"seat {win.seat}'s win on {tile_name(win.tile)} is {fan_text} under {rules.name}; "
                f"recorded {recorded.fan} fan",
                expected=result.fan,
                recorded=recorded.fan,
                rule="fan",
                file=sink.file,
            )
        )
    if recorded.patterns is not None and sorted(recorded.patterns) != sorted(result.patterns):
        sink.add(
            Finding(
                "fan_mismatch",
                win.line,
                win.seat,
                f"seat {win.seat}'s win on {tile_name(win.tile)} scores {fan_text} under {rules.name} "
                f"(one base pattern, the highest, plus extras); recorded patterns {list(recorded.patterns)}",
                expected=list(result.patterns),
                recorded=list(recorded.patterns),
                rule="fan",
                file=sink.file,
            )
        )
    if recorded.deltas is not None and tuple(recorded.deltas) != win.deltas:
        sink.add(
            Finding(
                "payment_mismatch",
                win.line,
                win.seat,
                f"seat {win.seat}'s win ({fan_text}): {_win_rule(win, rules)} under {rules.name}; "
                f"expected {list(win.deltas)}, recorded {list(recorded.deltas)}",
                expected=list(win.deltas),
                recorded=list(recorded.deltas),
                rule="payments",
                file=sink.file,
            )
        )


def _settlement_text(deal: Deal) -> str:
    parts = []
    for reason in ("flower_pig", "no_ting", "tax_refund"):
        moves = [t for t in deal.settlement if t.reason == reason]
        if moves:
            zh, en = REASONS[reason]
            parts.append(
                f"{zh} ({en}): " + ", ".join(f"seat {t.payer} pays seat {t.payee} {t.amount}" for t in moves)
            )
    return "; ".join(parts) if parts else "nothing to settle"


def _check_end(deal: Deal, end: DealEnd, rules: Rules, sink: FindingSink) -> None:
    if end.reason not in END_REASONS or end.reason != deal.end_reason:
        sink.add(
            Finding(
                "wrong_end",
                end.line,
                None,
                f"the deal ends by {deal.end_reason} ({deal.end_rule()}); recorded reason {end.reason!r}",
                expected=deal.end_reason,
                recorded=end.reason,
                file=sink.file,
            )
        )
    settlement = deltas(deal.settlement)
    if end.settlement is not None and tuple(end.settlement) != settlement:
        sink.add(
            Finding(
                "payment_mismatch",
                end.line,
                None,
                f"查叫 at the empty wall under {rules.name} (查花猪, then 查大叫, then 退税): "
                f"{_settlement_text(deal)}; expected {list(settlement)}, recorded {list(end.settlement)}",
                expected=list(settlement),
                recorded=list(end.settlement),
                rule="cha_jiao",
                file=sink.file,
            )
        )
    scores = deltas(deal.ledger)
    if end.scores is not None and tuple(end.scores) != scores:
        sink.add(
            Finding(
                "score_mismatch",
                end.line,
                None,
                f"the deal's net per seat (刮风下雨 kongs + 胡 wins + 查叫 settlement) under {rules.name} is "
                f"{list(scores)}; "
                f"recorded {list(end.scores)}",
                expected=list(scores),
                recorded=list(end.scores),
                file=sink.file,
            )
        )
