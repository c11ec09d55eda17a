"""Deals recorded only as each seat's net points (a score sheet with no events).

Such a deal (``deal_end.reason`` ``"net_only"``, no kong or hu) says nothing the rules
could recompute: who won how is not on the sheet. What can still be checked is that
the four nets add up to zero and that the session's totals are their sum; the report
says so with a ``net_only`` warning, so a clean result is not mistaken for a full audit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeGuard

from engine.events import DealEnd, DealStart, Finding, PlayEvent
from engine.replay import DealReport, FindingSink

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
    sink.add(
        Finding(NET_ONLY, line, None, NET_ONLY_NOTE, severity="warning", rule="score sheet", file=sink.file)
    )
    if scores is None:
        message = "a net-only deal records each seat's net points; this one has none"
        sink.add(Finding("bad_record", line, None, message, rule="score sheet", file=sink.file))
        return DealReport(  # no nets: nothing was scored, so the deal is not complete
            start.deal_id, session_id, sink.file, start.line, rules_name,
            sink.findings[before:], sink.warnings[warned:], (0, 0, 0, 0), [], [], [], (0, 0, 0, 0), NET_ONLY, False,
            replayed=False,
        )  # fmt: skip
    elif sum(scores) != 0:
        message = (
            f"every point one seat wins another pays, so a deal's nets add up to 0; these add up to "
            f"{sum(scores):+d}"
        )
        sink.add(
            Finding(
                "score_mismatch", line, None, message, expected="a sum of 0", recorded=list(scores),
                rule="zero sum", file=sink.file,
            )
        )  # fmt: skip
    return DealReport(
        start.deal_id, session_id, sink.file, start.line, rules_name,
        sink.findings[before:], sink.warnings[warned:], scores, [], [], [], (0, 0, 0, 0), NET_ONLY, True,
    )  # fmt: skip
