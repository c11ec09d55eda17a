"""The committed sample (data/sample/): every corruption its manifest lists is reported at
its line with its code, and nothing is reported anywhere else."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from ingest.validate import validate_paths

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
