"""The validation report counts each finding once, and warnings outside deals not at all.

docs/report.md: ``summary.finding_count`` and ``by_code`` count findings; a warning
(unknown field) is listed where it occurs but never makes the exit code 3.
"""

from __future__ import annotations

from ingest.logs.reader import read_lines
from ingest.replay.validate import validate_log

SESSION = '{"type":"session","session_id":"s1","players":["A","B","C","D"],"rules":"standard"%s}'


def test_a_stray_line_is_reported_once() -> None:
    lines = ['{"type":"discard","seat":0,"tile":"1s"}', SESSION % "", '{"type":"session_end"}']
    report = validate_log(read_lines(lines, "stray.jsonl"))
    out = report.to_json()
    assert out["summary"]["finding_count"] == 1
    assert out["summary"]["by_code"] == {"bad_record": 1}
    assert [f["line"] for f in out["files"][0]["findings"]] == [1]


def test_a_warning_outside_a_deal_is_listed_but_not_counted() -> None:
    lines = [SESSION % ',"colour":3', '{"type":"session_end"}']
    report = validate_log(read_lines(lines, "warn.jsonl"))
    out = report.to_json()
    assert report.ok
    assert out["summary"]["finding_count"] == 0
    assert out["summary"]["warnings"] == 1
    assert [f["code"] for f in out["sessions"][0]["findings"]] == ["unknown_field"]


def test_only_findings_lists_the_deals_that_are_not_ok() -> None:
    """``chuanma validate --only-findings``: the text and the JSON list only the deals
    with findings or invalid; the summary still counts every deal (the sample is tampered)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    script = Path(sys.executable).with_name("chuanma")
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "dashboard.cli"]
    log = Path(__file__).resolve().parent.parent / "data" / "sample" / "logs" / "club-standard.jsonl.gz"

    def run(*flags: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*command, "validate", str(log), *flags], capture_output=True, text=True, timeout=120
        )

    every, some = json.loads(run("--json").stdout), json.loads(run("--json", "--only-findings").stdout)
    assert some["summary"] == every["summary"]
    assert [d["deal_id"] for d in some["deals"]] == [
        d["deal_id"] for d in every["deals"] if d["status"] != "ok"
    ]
    assert 0 < len(some["deals"]) < len(every["deals"])
    text = run("--only-findings")
    assert text.returncode == 3
    shown = [line.split()[1] for line in text.stdout.splitlines() if line and not line.startswith(" ")][:-1]
    assert shown == [d["deal_id"] for d in some["deals"]]
