"""The validation report counts each finding once, and warnings outside deals not at all.

docs/report.md: ``summary.finding_count`` and ``by_code`` count findings; a warning
(unknown field) is listed where it occurs but never makes the exit code 3.
"""

from __future__ import annotations

from ingest.reader import read_lines
from ingest.validate import validate_log

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
