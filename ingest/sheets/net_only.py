"""Deals recorded only as each seat's net points (a score sheet with no events).

Such a deal (``deal_end.reason`` ``"net_only"``, no kong or hu) says nothing the rules
could recompute: who won how is not on the sheet. What can still be checked is that
the four nets add up to zero and that the session's totals are their sum; the report
says so with a ``net_only`` warning, so a clean result is not mistaken for a full audit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal, TypeGuard

from engine.events import DealEnd, DealStart, Finding, PlayEvent
from engine.messages import Text, say
from engine.replay import DealReport, FindingSink

Severity = Literal["error", "warning"]

NET_ONLY: Final = "net_only"
NET_ONLY_NOTE: Final = "net-only sheet: only zero-sum and totals checked"


def is_net_only(events: Sequence[PlayEvent], end: DealEnd | None) -> TypeGuard[DealEnd]:
    """A deal of nets only: no events, and a deal_end whose reason is ``net_only``."""
    return end is not None and end.reason == NET_ONLY and not events


def net_only_report(
    start: DealStart,
    end: DealEnd | None,
    rules_name: str,
    session_id: str | None,
    sink: FindingSink,
    read_findings: Sequence[Finding],
) -> DealReport:
    """The report of a net-only deal: its recorded nets, checked for a zero sum."""
    before, warned = len(sink.findings), len(sink.warnings)
    for finding in read_findings:
        sink.add(finding)
    scores = end.scores if end is not None else None
    line = end.line if end is not None else start.line
    sink.add(_finding(NET_ONLY, line, say("net_only_note"), sink, severity="warning", rule="score sheet"))
    if scores is None:
        sink.add(_finding("bad_record", line, say("net_only_none"), sink, rule="score sheet"))
        return DealReport(  # no nets: nothing was scored, so the deal is not complete
            start.deal_id, session_id, sink.file, start.line, rules_name,
            sink.findings[before:], sink.warnings[warned:], (0, 0, 0, 0), [], [], [], (0, 0, 0, 0), NET_ONLY, False,
            record="sheet", replayed=False,
        )  # fmt: skip
    elif sum(scores) != 0:
        message = say("net_only_sum", sum=f"{sum(scores):+d}")
        sink.add(
            _finding(
                "score_mismatch", line, message, sink, expected="a sum of 0", recorded=list(scores),
                rule="zero sum",
            )
        )  # fmt: skip
    return DealReport(
        start.deal_id, session_id, sink.file, start.line, rules_name,
        sink.findings[before:], sink.warnings[warned:], scores, [], [], [], (0, 0, 0, 0), NET_ONLY, True,
        record="sheet",  # a score sheet's: stored with its seats, its lines not set aside as unreplayed
    )  # fmt: skip


def _finding(
    code: str, line: int | None, text: Text, sink: FindingSink, *, severity: Severity = "error", **more: Any
) -> Finding:
    """A finding of the deal with its message as a template (it reads in either language)."""
    return Finding(
        code, line, None, text.en, severity=severity, file=sink.file, message_zh=text.zh,
        message_key=text.key, message_values=text.values, **more,
    )  # fmt: skip
