"""A deleted deal: a later revision of a sheet deal that removes it, so a deal saved by
mistake (a 流局 saved twice, a deal of another table) leaves every statistic without
anything being erased (docs/log-format.md, "Revisions").

Such a revision is a sheet ``deal`` line with ``"revision": N`` (N >= 2) and nothing but
a ``deal_end`` whose ``reason`` is ``"deleted"``. Its report has no payments and the end
reason ``deleted``; the warehouse stores it like any revision, and the analytics staging
hides every revision of a deal whose latest one is deleted (``stg_superseded``) while the
Audit page still lists them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.events import DealEnd, DealStart, Finding, PlayEvent, SheetEvent
from engine.messages import say
from engine.replay import DealReport, FindingSink
from ingest.logs.revisions import split_revision

DELETED: Final = "deleted"
_FIRST: Final = say("first_deleted")
FIRST_DELETED: Final = _FIRST.en


def is_deleted(
    start: DealStart, events: Sequence[PlayEvent], sheet_events: Sequence[SheetEvent], end: DealEnd | None
) -> bool:
    """A sheet deal of no events that ends with the reason ``deleted``."""
    return (
        start.record == "sheet"
        and end is not None
        and end.reason == DELETED
        and not events
        and not sheet_events
    )


def deleted_report(
    start: DealStart,
    end: DealEnd,
    rules_name: str,
    session_id: str | None,
    sink: FindingSink,
    read_findings: Sequence[Finding],
) -> DealReport:
    """The report of a deletion: no payments; a bad_record when it is a first recording."""
    before, warned = len(sink.findings), len(sink.warnings)
    for finding in read_findings:
        sink.add(finding)
    _, revision = split_revision(start.deal_id)
    if revision < 2:
        sink.add(
            Finding(
                "bad_record", end.line, None, FIRST_DELETED, expected="revision 2 or more", recorded=revision,
                rule="revisions", file=sink.file, message_zh=_FIRST.zh, message_key=_FIRST.key,
                message_values=_FIRST.values,
            )
        )  # fmt: skip
    return DealReport(
        start.deal_id, session_id, sink.file, start.line, rules_name,
        sink.findings[before:], sink.warnings[warned:], (0, 0, 0, 0), [], [], [], (0, 0, 0, 0), DELETED,
        revision >= 2, record="sheet",
    )  # fmt: skip
