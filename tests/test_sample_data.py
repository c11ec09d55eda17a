"""The committed sample (data/sample/): every corruption its manifest lists is reported at
its line with its code, and nothing is reported anywhere else."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from ingest.replay.validate import validate_paths

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"
PRESETS = ("standard", "chengdu")


Spot = tuple[int | None, str]  # (line, code)


def manifest(preset: str) -> list[tuple[str | None, Spot]]:
    """(deal_id, (line, code)) per corruption."""
    lines = (SAMPLE / "manifests" / f"club-{preset}.jsonl").read_text(encoding="utf-8").splitlines()
    entries = [json.loads(line) for line in lines if line.strip()]
    return [(e["deal_id"], (e["line"], e["code"])) for e in entries]


@pytest.mark.parametrize("preset", PRESETS)
def test_sample_findings_are_exactly_the_manifest(preset: str) -> None:
    log = SAMPLE / "logs" / f"club-{preset}.jsonl.gz"
    report = validate_paths([log])
    entries = manifest(preset)
    assert entries, "the sample has tampered deals"
    assert len(report.deals) == 120
    found: dict[str | None, set[Spot]] = defaultdict(set)
    for deal in report.deals:
        for finding in deal.findings:
            found[deal.deal_id].add((finding.line, finding.code))
    session_found = {(f.line, f.code) for s in report.sessions for f in s.findings}
    expected: dict[str | None, set[Spot]] = defaultdict(set)
    for deal_id, spot in entries:
        if spot[1] == "score_mismatch" and spot in session_found:
            continue  # a wrong session total is a session's finding
        expected[deal_id].add(spot)
    assert session_found <= {spot for _, spot in entries}
    for deal_id, spots in expected.items():
        assert spots <= found[deal_id], (deal_id, spots, found[deal_id])
    untouched = {d.deal_id for d in report.deals} - set(expected)
    assert all(not found[deal_id] for deal_id in untouched)
    assert not report.file_findings
    assert report.summary()["deals"] == len(report.deals)


def test_the_warehouse_reports_what_validate_reports(tmp_path: Path) -> None:
    """Ingest and validate share one replay and one session check, so the stored findings
    are exactly the validation report's (a session with a stopped deal is not totalled)."""
    from analytics.queries import Analytics
    from ingest.warehouse import ingest

    logs = SAMPLE / "logs"
    ingest([logs], tmp_path / "wh", workers=0)
    stored = Analytics(tmp_path / "wh", materialize=False).findings_by_code()
    by_code = dict(zip(stored["code"], stored["findings"], strict=True))
    assert by_code == validate_paths([logs]).summary()["by_code"]
