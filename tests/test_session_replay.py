"""The session driver (``ingest/replay/session_replay.py``): the one place a deal is replayed,
its seam for another replayer, the session's rules, totals and their check, and
``chuanma replay`` on top of it. Real golden logs, read by the real reader."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.events import DealEnd, DealStart, Finding, PlayEvent
from engine.replay import PLAIN, DealReport, FindingSink, ReplayOptions, replay_deal
from engine.rules import Rules, load_rules
from ingest.logs.builder import SessionLog
from ingest.logs.reader import read_lines
from ingest.replay.session_replay import SessionReplay, replay_one
from ingest.replay.validate import validate_log

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
CHUANMA = Path(sys.executable).parent / "chuanma"


def lines_of(name: str) -> list[str]:
    return (GOLDEN / name).read_text(encoding="utf-8").splitlines()


def session_of(lines: Sequence[str], name: str = "case.jsonl") -> SessionLog:
    log = read_lines(lines, name)
    assert len(log.sessions) == 1
    return log.sessions[0]


def with_session_field(lines: list[str], **fields: object) -> list[str]:
    first = json.loads(lines[0])
    assert first["type"] == "session"
    first.update(fields)
    return [json.dumps(first, ensure_ascii=False), *lines[1:]]


def uses_of(name: str, path: Path) -> bool:
    """Whether the module imports, calls or passes ``name`` (docstrings aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == name:
            return True
        if isinstance(node, ast.alias) and node.name == name:
            return True
        if isinstance(node, ast.Attribute) and node.attr == name:
            return True
    return False


def test_no_module_but_the_driver_uses_replay_deal() -> None:
    """The compiled fast path plugs in at one seam: nothing else replays a deal."""
    users = [
        path.relative_to(ROOT).as_posix()
        for folder in ("engine", "ingest", "analytics", "dashboard", "bench")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if uses_of("replay_deal", path)
    ]
    assert users == ["ingest/replay/session_replay.py"]


def test_a_replayer_plugged_into_the_seam_sees_every_deal() -> None:
    calls: list[str] = []

    def counting(
        start: DealStart,
        events: Sequence[PlayEvent],
        end: DealEnd | None,
        rules: Rules,
        options: ReplayOptions = PLAIN,
        sink: FindingSink | None = None,
    ) -> DealReport:
        calls.append(start.deal_id)
        return replay_deal(start, events, end, rules, options, sink)

    session = session_of(lines_of("multiple_hu.jsonl"))
    driver = SessionReplay.of_log(session, replayer=counting)
    reports = [driver.replay(deal_log) for deal_log in session.deals]
    assert calls == [d.deal.deal_id for d in session.deals] and len(calls) >= 1
    assert all(r.status == "ok" and r.session_id == driver.session_id for r in reports)
    assert session.end is not None and session.end.totals is not None
    assert driver.totals_tuple() == tuple(session.end.totals)
    assert driver.totals_finding() is None


def test_the_validation_report_and_the_driver_agree_on_wrong_totals() -> None:
    lines = lines_of("dead_wait.jsonl")
    end = json.loads(lines[-1])
    assert end["type"] == "session_end"
    wrong = [*end["totals"][1:], end["totals"][0] + 1]
    lines[-1] = json.dumps({**end, "totals": wrong})
    session = session_of(lines)
    driver = SessionReplay.of_log(session, path="case.jsonl")
    for deal_log in session.deals:
        driver.replay(deal_log)
    mismatch = driver.totals_finding()
    assert mismatch is not None and mismatch.code == "score_mismatch"
    assert mismatch.expected == end["totals"] and mismatch.recorded == wrong
    assert mismatch.line == len(lines) and mismatch.file == "case.jsonl"
    report = validate_log(read_lines(lines, "case.jsonl"))
    assert report.sessions[0].findings == [mismatch]
    totals = report.sessions[0].totals
    assert totals is not None and list(totals) == end["totals"]


def test_a_stopped_deal_counts_in_totals_but_not_in_complete_totals() -> None:
    lines = lines_of("dead_wait.jsonl")
    second = max(i for i, text in enumerate(lines) if json.loads(text)["type"] == "deal")
    broken = [*lines[: second + 9], *lines[second + 10 :]]  # a line of the second deal gone
    session = session_of(broken)
    driver = SessionReplay.of_log(session)
    first, last = (driver.replay(deal_log) for deal_log in session.deals)
    assert first.complete and not last.complete
    assert driver.complete_totals == list(first.scores)
    assert driver.totals == [a + b for a, b in zip(first.scores, last.scores, strict=True)]
    assert not driver.all_scored
    assert driver.totals_finding() is None  # unknown: the stopped deal has no net


def test_unusable_rules_give_one_finding_and_unreplayed_deals() -> None:
    session = session_of(with_session_field(lines_of("kongs_standard.jsonl"), rules="no-such-preset"))
    driver = SessionReplay.of_log(session, path="case.jsonl")
    assert driver.rules is None and driver.rules_error is not None
    problem = driver.rules_problem
    assert problem is not None and problem.code == "bad_record" and problem.rule == "rules"
    assert problem.message.startswith("the session's rules cannot be used: ")
    assert problem.message.endswith("; its deals are not replayed")
    report = driver.replay(session.deals[0])
    assert report.rules == "?" and not report.complete and report.scores == (0, 0, 0, 0)
    fixed = SessionReplay.of_log(session, load_rules("standard"))
    assert fixed.rules_problem is None and fixed.replay(session.deals[0]).status == "ok"


def test_replay_one_without_rules_reports_the_readers_findings_only() -> None:
    session = session_of(lines_of("first_hu.jsonl"))
    deal_log = session.deals[0]
    read = Finding("bad_record", deal_log.deal.line, None, "a line the reader could not use")
    report = replay_one(
        deal_log.deal, deal_log.events, deal_log.end, None, ReplayOptions(read_findings=[read])
    )
    assert report.findings == [read] and report.rules == "?" and report.end_reason is None


def run_replay(*args: str) -> subprocess.CompletedProcess[str]:
    command = [str(CHUANMA)] if CHUANMA.is_file() else [sys.executable, "-m", "dashboard.cli"]
    return subprocess.run(
        [*command, "replay", *args], capture_output=True, text=True, encoding="utf-8", timeout=60, check=False
    )


def test_chuanma_replay_shows_a_deal_and_its_net(tmp_path: Path) -> None:
    lines = lines_of("cha_jiao.jsonl")
    start = json.loads(lines[0])
    deal = json.loads(lines[1])
    done = run_replay(str(GOLDEN / "cha_jiao.jsonl"), "--deal", deal["deal_id"])
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[0] == f"deal {deal['deal_id']} under standard; dealer seat {deal['dealer']}"
    assert out[1] == "seats: " + ", ".join(f"{i} {name}" for i, name in enumerate(start["players"]))
    totals = json.loads(lines[-1])["totals"]  # one deal: the session's totals are its net
    assert out[-1] == "net [" + " ".join(f"{s:+d}" for s in totals) + "]; ok (0 findings)"

    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(with_session_field(lines, rules="no-such-preset")) + "\n", encoding="utf-8")
    refused = run_replay(str(bad), "--deal", deal["deal_id"])
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith("chuanma: the session's rules cannot be used: ")
    assert run_replay(str(bad), "--deal", deal["deal_id"], "--rules", "standard").returncode == 0
    missing = run_replay(str(bad), "--deal", "no-such-deal")
    assert missing.returncode == 2 and "no deal 'no-such-deal'" in missing.stderr
