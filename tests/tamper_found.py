"""The tamperer's promise, checked: every corruption of a deal is found on the line the
manifest names, and no deal it left alone has a finding (tests/test_tamper.py holds the
same promise per preset at today's table, with the sessions' totals too)."""

from __future__ import annotations

from ingest.replay.validate import ValidationReport
from ingest.simulator.tamper import Tamperer


def assert_found_as_listed(tamperer: Tamperer, report: ValidationReport) -> None:
    """The deals' findings (code, line) are the manifest's, deal by deal, and nothing else."""
    found = {deal.deal_id: {(f.code, f.line or 0) for f in deal.findings} for deal in report.deals}
    expected: dict[str, set[tuple[str, int]]] = {}
    for entry in tamperer.manifest:
        if entry.kind != "total":
            assert entry.deal_id is not None
            expected.setdefault(entry.deal_id, set()).add((entry.code, entry.line))
    assert expected, "nothing tampered"
    assert {deal_id: found[deal_id] for deal_id in expected} == expected
    assert not {deal_id: spots for deal_id, spots in found.items() if deal_id not in expected and spots}
