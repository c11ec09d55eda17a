"""Validate log files: read, replay every deal under its rules, compare every claim.

The report is spec/log-format.md's ``{"deals": [...], "summary": {...}}``, plus
``sessions`` (session totals and findings) and ``files`` (lines that belong to no deal).
Lenient by default: a finding never stops the other deals; ``strict`` raises
:class:`engine.replay.StrictStop` at the first one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine.events import Finding
from engine.replay import DealReport, FindingSink, replay_deal
from engine.rules import Rules, RulesError, load_rules
from ingest.gcpause import gc_paused
from ingest.reader import DealLog, LogFile, SessionLog, read_log

LOG_SUFFIXES = (".jsonl", ".jsonl.gz")


@dataclass
class SessionReport:
    session_id: str | None
    file: str
    line: int | None
    rules: str | None
    findings: list[Finding]
    totals: tuple[int, int, int, int]
    players: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "file": self.file,
            "line": self.line,
            "rules": self.rules,
            "players": list(self.players),
            "findings": [f.to_json() for f in self.findings],
            "computed": {"totals": list(self.totals)},
        }


@dataclass
class ValidationReport:
    deals: list[DealReport] = field(default_factory=list)
    sessions: list[SessionReport] = field(default_factory=list)
    file_findings: list[Finding] = field(default_factory=list)  # lines in no deal, unreadable files
    files: list[str] = field(default_factory=list)

    def all_findings(self) -> Iterator[Finding]:
        for deal in self.deals:
            yield from deal.findings
        for session in self.sessions:
            yield from session.findings
        yield from self.file_findings

    @property
    def ok(self) -> bool:
        return next(self.all_findings(), None) is None

    def summary(self) -> dict[str, Any]:
        codes = Counter(f.code for f in self.all_findings())
        return {
            "files": len(self.files),
            "sessions": len(self.sessions),
            "deals": len(self.deals),
            "ok": sum(1 for d in self.deals if d.status == "ok"),
            "findings": sum(1 for d in self.deals if d.status != "ok"),
            "finding_count": sum(codes.values()),
            "by_code": dict(sorted(codes.items())),
            "warnings": sum(len(d.warnings) for d in self.deals),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "deals": [d.to_json() for d in self.deals],
            "summary": self.summary(),
            "sessions": [s.to_json() for s in self.sessions],
            "files": [
                {"file": name, "findings": [f.to_json() for f in self.file_findings if f.file == name]}
                for name in self.files
            ],
        }


def find_logs(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given, folders searched for ``*.jsonl`` and ``*.jsonl.gz`` (sorted); what
    cannot be read is listed too, for the reader to say why (see ``ingest.walk``)."""
    from ingest.walk import walk_logs

    return walk_logs(paths)


def validate_paths(
    paths: Iterable[str | Path], rules: Rules | None = None, *, strict: bool = False
) -> ValidationReport:
    report = ValidationReport()
    for path in find_logs(paths):
        validate_log(read_log(path), rules, strict=strict, report=report)
    return report


def validate_log(
    log: LogFile,
    rules: Rules | None = None,
    *,
    strict: bool = False,
    report: ValidationReport | None = None,
) -> ValidationReport:
    """Replay every deal of one read file; ``rules`` replaces the rules the log names."""
    report = report if report is not None else ValidationReport()
    report.files.append(log.path)
    sink = FindingSink(strict=strict, file=log.path)
    for finding in [*log.findings, *(f for _, _, f in log.stray)]:
        sink.add(_with_file(finding, log.path))
        report.file_findings.append(_with_file(finding, log.path))
    with gc_paused():
        for session in log.sessions:
            report.sessions.append(_validate_session(session, rules, sink, report, log.path))
    return report


def _with_file(finding: Finding, path: str) -> Finding:
    return finding if finding.file == path else replace(finding, file=path)


def session_rules(session: SessionLog, override: Rules | None) -> Rules:
    if override is not None:
        return override
    spec = session.session.rules if session.session is not None else None
    return load_rules(spec if spec is not None else "standard")


def _validate_session(
    session: SessionLog, override: Rules | None, sink: FindingSink, report: ValidationReport, path: str
) -> SessionReport:
    start = session.session
    session_id = start.session_id if start is not None else None
    session_findings = [_with_file(f, path) for f in session.findings]
    for finding in session_findings:
        sink.add(finding)
    rules, problem = rules_or_finding(session, override, path)
    if problem is not None:
        session_findings.append(problem)
        sink.add(problem)
    base = start.base if start is not None else 1
    totals = [0, 0, 0, 0]
    all_scored = True  # every deal replayed to its end, so the totals are known
    for deal_log in session.deals:
        read_findings = [_with_file(f, path) for f in deal_log.findings]
        if rules is None:
            deal_report = unreplayed_report(deal_log, session_id, sink, read_findings)
        else:
            deal_report = replay_deal(
                deal_log.deal,
                deal_log.events,
                deal_log.end,
                rules,
                base=base,
                sink=sink,
                session_id=session_id,
                read_findings=read_findings,
            )
        report.deals.append(deal_report)
        totals = [a + b for a, b in zip(totals, deal_report.scores, strict=True)]
        all_scored = all_scored and deal_report.complete
    mismatch = totals_finding(session, totals, all_scored, rules, path)
    if mismatch is not None:
        session_findings.append(mismatch)
        sink.add(mismatch)
    return SessionReport(
        session_id,
        path,
        session.line,
        rules.name if rules else None,
        session_findings,
        (totals[0], totals[1], totals[2], totals[3]),
        tuple(start.players) if start is not None else (),
    )


def rules_or_finding(
    session: SessionLog, override: Rules | None, path: str
) -> tuple[Rules | None, Finding | None]:
    """The session's rule set, or a ``bad_record`` finding saying why it cannot be used."""
    try:
        return session_rules(session, override), None
    except RulesError as error:
        start = session.session
        return None, Finding(
            "bad_record",
            session.line,
            None,
            f"the session's rules cannot be used: {error}; its deals are not replayed",
            recorded=start.rules if start is not None else None,
            rule="rules",
            file=path,
        )


def unreplayed_report(
    deal_log: DealLog, session_id: str | None, sink: FindingSink, read_findings: list[Finding]
) -> DealReport:
    """The report of a deal that cannot be replayed (its session's rules are unusable)."""
    before = len(sink.findings)
    for finding in read_findings:
        sink.add(finding)
    return DealReport(
        deal_log.deal.deal_id, session_id, sink.file, deal_log.deal.line, "?",
        sink.findings[before:], sink.warnings[:0], (0, 0, 0, 0), [], [], [], (0, 0, 0, 0), None, False,
    )  # fmt: skip


def totals_finding(
    session: SessionLog, totals: list[int], all_scored: bool, rules: Rules | None, path: str
) -> Finding | None:
    """``score_mismatch`` when the recorded session totals differ from the deals' nets.

    A deal whose replay stopped has no net the rules give, so neither has the session:
    its own findings say why, and the totals go unchecked (docs/decisions.md)."""
    recorded = session.end.totals if session.end is not None else None
    if recorded is None or not all_scored or tuple(recorded) == tuple(totals):
        return None
    return Finding(
        "score_mismatch",
        session.end.line if session.end is not None else None,
        None,
        f"the session's totals are the sum of its deals' nets under {rules.name if rules else '?'}: "
        f"{totals}; recorded {list(recorded)}",
        expected=totals,
        recorded=list(recorded),
        file=path,
    )
