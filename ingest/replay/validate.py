"""Validate log files: read, replay every deal under its rules, compare every claim.

The report is docs/report.md's ``{"deals": [...], "summary": {...}}``, plus
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
from engine.messages import say
from engine.replay import DealReport, FindingSink
from engine.rules import Rules
from ingest.logs.builder import LogFile, SessionLog, file_finding
from ingest.logs.gcpause import gc_paused
from ingest.logs.source import file_name
from ingest.replay.files import read_log, read_log_bytes
from ingest.replay.session_replay import SessionReplay


@dataclass
class SessionReport:
    session_id: str | None
    file: str
    line: int | None
    rules: str | None
    findings: list[Finding]
    totals: tuple[int, ...] | None  # one a seat; None: its rules could not be used, nothing was summed
    players: tuple[str, ...] = ()
    set_aside: int = 0  # deal lines that could not be read: their deals are in no report

    def to_json(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "file": self.file,
            "line": self.line,
            "rules": self.rules,
            "players": list(self.players),
            "findings": [f.to_json() for f in self.findings],
            "computed": {"totals": list(self.totals) if self.totals is not None else None},
            "set_aside": self.set_aside,
        }


@dataclass
class ValidationReport:
    deals: list[DealReport] = field(default_factory=list)
    sessions: list[SessionReport] = field(default_factory=list)
    file_findings: list[Finding] = field(default_factory=list)  # lines in no deal, unreadable files
    files: list[str] = field(default_factory=list)

    def all_findings(self) -> Iterator[Finding]:
        """Every finding of severity ``error``: warnings outside a deal are listed, not counted."""
        for deal in self.deals:
            yield from deal.findings
        for finding in self._outside_deals():
            if finding.severity == "error":
                yield finding

    def _outside_deals(self) -> Iterator[Finding]:
        for session in self.sessions:
            yield from session.findings
        yield from self.file_findings

    @property
    def empty(self) -> bool:
        """Nothing read at all (an empty file or body): no deal, no session, no finding. It
        is an error for the caller, never a clean report."""
        return not self.deals and not self.sessions and next(self._outside_deals(), None) is None

    @property
    def ok(self) -> bool:
        """No finding anywhere and every deal replayed to its end (an invalid deal is never ok)."""
        return next(self.all_findings(), None) is None and all(d.complete for d in self.deals)

    def summary(self) -> dict[str, Any]:
        codes = Counter(f.code for f in self.all_findings())
        statuses = Counter(d.status for d in self.deals)
        return {
            "files": len(self.files),
            "sessions": len(self.sessions),
            "deals": len(self.deals),
            "ok": statuses["ok"],
            "findings": statuses["findings"],
            "invalid": statuses["invalid"],  # not replayed to their end: neither ok nor findings
            "set_aside": sum(s.set_aside for s in self.sessions),
            "finding_count": sum(codes.values()),
            "by_code": dict(sorted(codes.items())),
            "warnings": sum(len(d.warnings) for d in self.deals)
            + sum(1 for f in self._outside_deals() if f.severity == "warning"),
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
    """Files as given, folders searched for every kind of record (sorted); what
    cannot be read is listed too, for the reader to say why (see ``ingest.replay.walk``)."""
    from ingest.replay.walk import walk_logs

    return walk_logs(paths)


def validate_paths(
    paths: Iterable[str | Path], rules: Rules | None = None, *, strict: bool = False
) -> ValidationReport:
    report = ValidationReport()
    with gc_paused():  # between files too: the reports kept so far are many small objects
        files = find_logs(paths)
        matches = [path for path in files if _is_dcmshi(path)]
        exports = set(matches)
        for path in files:
            if path in exports:  # read together at the first: a match's rounds span files
                if path == matches[0]:
                    _validate_dcmshi(matches, rules, report, strict)
                continue
            if strict:  # the first finding must be the whole file's first: its stray lines come first
                validate_log(read_log(path), rules, strict=True, report=report)
            else:
                _validate_as_read(path, rules, report)
    return report


def _is_dcmshi(path: Path) -> bool:
    """Whether the file is a dcmshi replay export (told by its first bytes, as the reader does)."""
    from ingest.platforms.detect import HEAD, platform_of

    if not path.is_file():
        return False  # a FIFO or a device would block: the reader says why it is not read
    try:
        with path.open("rb") as handle:
            return platform_of(handle.read(HEAD)) == "dcmshi"
    except OSError:
        return False  # the reader says why it cannot be read


def _validate_dcmshi(paths: list[Path], rules: Rules | None, report: ValidationReport, strict: bool) -> None:
    """dcmshi exports read as one log: one download per round, so a match's rounds (one
    ``code``) come in several files and are one session with the match's totals
    (docs/platforms.md). Each deal and its findings name the file it was read from."""
    from ingest.logs.source import Limits, read_head

    files: list[tuple[bytes, str]] = []
    for path in paths:
        name = file_name(path)
        try:
            files.append((read_head(path, Limits.from_env().max_inflated + 1), name))
        except OSError as err:
            report.files.append(name)
            text = say("read_cannot_open", file=name, error=str(err.strerror or err))
            report.file_findings.append(file_finding(text, name))
    validate_dcmshi_bytes(files, rules, report, strict)


def validate_members(
    members: list[tuple[str, bytes]], rules: Rules | None = None, report: ValidationReport | None = None
) -> ValidationReport:
    """Several files' bytes (a zip's members) validated as a folder of them is: each on
    its own, dcmshi exports together (a match's rounds span files)."""
    from ingest.platforms.detect import HEAD, platform_of

    report = report if report is not None else ValidationReport()
    dcmshi = [platform_of(data[:HEAD]) == "dcmshi" for _, data in members]
    exports = [(data, name) for (name, data), match in zip(members, dcmshi, strict=True) if match]
    first = dcmshi.index(True) if exports else -1
    for index, ((name, data), match) in enumerate(zip(members, dcmshi, strict=True)):
        if index == first:
            validate_dcmshi_bytes(exports, rules, report)
        elif not match:
            validate_log(read_log_bytes(data, name), rules, report=report)
    return report


def validate_dcmshi_bytes(
    files: list[tuple[bytes, str]], rules: Rules | None, report: ValidationReport, strict: bool = False
) -> None:
    """dcmshi exports' bytes (each with its file name) read as one log and validated."""
    from ingest.platforms.dcmshi import read_dcmshi_files

    report.files.extend(name for _, name in files)
    if not files:
        return
    log, deal_files = read_dcmshi_files(files)
    sink = FindingSink(strict=strict, file=log.path)
    for finding in log.findings:
        sink.add(finding)
        report.file_findings.append(finding)
    for session in log.sessions:
        first = next(
            (deal_files[d.deal.deal_id] for d in session.deals if d.deal.deal_id in deal_files), log.path
        )
        report.sessions.append(_validate_session(session, rules, sink, report, first, deal_files))


def _validate_as_read(path: Path, rules: Rules | None, report: ValidationReport) -> None:
    """:func:`validate_log` of ``read_log(path)``, each session checked as soon as it is
    read and then let go: memory holds one session's deals, not the file's, however long
    the file. The report is the same, list for list; only the order
    in which findings reach the sink differs, which matters to ``strict`` alone."""
    name = file_name(path)
    report.files.append(name)
    sink = FindingSink(file=name)
    sessions = report.sessions

    def check(session: SessionLog) -> None:
        sessions.append(_validate_session(session, rules, sink, report, name))

    log = read_log(path, on_session=check)
    assert log.path == name and not log.sessions
    for finding in log.findings:  # the reader lists each stray line's reason here once
        report.file_findings.append(_with_file(finding, name))


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
    for finding in log.findings:  # the reader lists each stray line's reason here once
        sink.add(_with_file(finding, log.path))
        report.file_findings.append(_with_file(finding, log.path))
    with gc_paused():
        for session in log.sessions:
            report.sessions.append(_validate_session(session, rules, sink, report, log.path))
    return report


def _with_file(finding: Finding, path: str) -> Finding:
    return finding if finding.file == path else replace(finding, file=path)


def _validate_session(
    session: SessionLog,
    override: Rules | None,
    sink: FindingSink,
    report: ValidationReport,
    path: str,
    deal_files: dict[str, str] | None = None,
) -> SessionReport:
    """Replay a session's deals; ``deal_files``: the file of each deal, for a session read
    from several files (a dcmshi match), whose deals and findings name their own file."""
    session_findings = [_with_file(f, path) for f in session.findings]
    for finding in session_findings:
        sink.add(finding)
    driver = SessionReplay.of_log(session, override, path=path)
    if driver.rules_problem is not None:
        session_findings.append(driver.rules_problem)
        sink.add(driver.rules_problem)
    for deal_log in session.deals:
        if deal_files is not None:
            driver.path = sink.file = deal_files.get(deal_log.deal.deal_id, path)
        report.deals.append(driver.replay(deal_log, sink))
    if deal_files is not None:
        driver.path = sink.file = path
    mismatch = driver.totals_finding()
    if mismatch is not None:
        session_findings.append(mismatch)
        sink.add(mismatch)
    return SessionReport(
        driver.session_id,
        path,
        session.line,
        driver.rules_name,
        session_findings,
        driver.totals_tuple(),
        driver.players or (),
        len(session.set_aside),
    )
