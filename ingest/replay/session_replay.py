"""One session replayed: its rules (or the finding that says why they cannot be used),
base and players worked out once, every deal replayed, and the session totals checked.

The validator, the warehouse's row builder, ``chuanma replay`` and the dashboard's
re-score all drive their sessions through :class:`SessionReplay`. A deal the reader read
with its records goes first to the compiled fast check (:mod:`ingest.replay.fast_check`, in
:meth:`SessionReplay.replay`); every other deal, and every deal the check does not call
clean, is replayed by :func:`replay_one`, for all of them at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from engine.events import DealEnd, DealStart, Finding, PlayEvent
from engine.messages import Text, rules_unusable, table_players, tile_table_refused, totals_mismatch
from engine.replay import PLAIN, DealReport, FindingSink, ReplayOptions, StepHook, replay_deal
from engine.rules import Rules, RulesError, load_rules
from engine.table import replay_refusal
from ingest.logs.builder import DealLog, SessionLog
from ingest.replay.fast_check import fast_replay
from ingest.sheets.deleted import deleted_report, is_deleted
from ingest.sheets.net_only import is_net_only, net_only_report

DEFAULT_RULES = "standard"  # a session line that names no rules plays these


class DealReplayer(Protocol):
    """What replays one deal: :func:`engine.replay.replay_deal`'s signature."""

    def __call__(
        self,
        start: DealStart,
        events: Sequence[PlayEvent],
        end: DealEnd | None,
        rules: Rules,
        options: ReplayOptions = PLAIN,
        sink: FindingSink | None = None,
    ) -> DealReport: ...


def replay_one(
    start: DealStart,
    events: Sequence[PlayEvent],
    end: DealEnd | None,
    rules: Rules | None,
    options: ReplayOptions = PLAIN,
    sink: FindingSink | None = None,
    *,
    replayer: DealReplayer = replay_deal,
    stopped_by: Finding | None = None,
) -> DealReport:
    """Replay one deal under ``rules``; with no usable rules (None) the deal is reported
    unreplayed with the reader's findings only, pointing to ``stopped_by`` (the session's
    rules finding). The one place a deal is replayed."""
    sink = sink if sink is not None else FindingSink()
    session_id, read_findings = options.session_id, options.read_findings
    if rules is None:
        return unreplayed_report(start, session_id, sink, read_findings, stopped_by)
    refusal = replay_refusal(rules) if start.record == "tiles" else None
    if refusal is not None:  # a tile deal at a table the engine does not deal yet
        refused = _rules_finding("bad_record", start.line, tile_table_refused(refusal), sink.file, rules.name)
        return unreplayed_report(start, session_id, sink, [*read_findings, refused])
    if is_net_only(events, end):  # a score sheet's deal of nets only: nothing to replay
        return net_only_report(start, end, rules.name, session_id, sink, read_findings)
    if is_deleted(start, events, options.sheet_events, end):  # a revision that removes the deal
        assert end is not None
        return deleted_report(start, end, rules.name, session_id, sink, read_findings)
    return replayer(start, events, end, rules, options, sink)


def unreplayed_report(
    start: DealStart,
    session_id: str | None,
    sink: FindingSink,
    read_findings: Sequence[Finding],
    stopped_by: Finding | None = None,
) -> DealReport:
    """The report of a deal that cannot be replayed (its session's rules are unusable):
    status ``invalid``, no computed score, and ``stopped_by`` the finding that says why."""
    before = len(sink.findings)
    for finding in read_findings:
        sink.add(finding)
    return DealReport(
        start.deal_id, session_id, sink.file, start.line, "?",
        sink.findings[before:], sink.warnings[:0], (0, 0, 0, 0), [], [], [], (0, 0, 0, 0), None, False,
        replayed=False, stopped_by=stopped_by,
    )  # fmt: skip


def session_rules(session: SessionLog, override: Rules | None) -> Rules:
    """``override``, else the rules the session line names, else the default preset;
    raises :class:`engine.rules.RulesError` when the named rules cannot be used. A table
    the tile replay does not play yet is no error here: a score sheet needs no tiles, so
    only a tile deal at such a table is refused (:func:`replay_one`)."""
    if override is not None:
        return override
    spec = session.session.rules if session.session is not None else None
    return load_rules(spec if spec is not None else DEFAULT_RULES)


def rules_finding(session: SessionLog, error: RulesError, path: str | None) -> Finding:
    """The ``bad_record`` finding of a session whose rules cannot be used."""
    start = session.session
    recorded = start.rules if start is not None else None
    return _rules_finding("bad_record", session.line, rules_unusable(str(error)), path, recorded)


def players_problem(session: SessionLog, rules: Rules, path: str | None) -> Finding | None:
    """The ``bad_record`` finding of a session that names another count of players than
    its table's seats (one player a seat), else None."""
    start = session.session
    if start is None or len(start.players) == rules.seats:
        return None
    text = table_players(len(start.players), rules.seats, rules.name)
    return _rules_finding("bad_record", session.line, text, path, list(start.players), "seats")


def _rules_finding(
    code: str, line: int | None, text: Text, path: str | None, recorded: object, rule: str = "rules"
) -> Finding:
    return Finding(
        code,
        line,
        None,
        text.en,
        recorded=recorded,
        rule=rule,
        file=path,
        message_zh=text.zh,
        message_key=text.key,
        message_values=text.values,
    )


@dataclass
class SessionReplay:
    """A session's setup and running totals; :meth:`replay` replays its deals one by one,
    :meth:`totals_finding` then checks the recorded session totals.

    Two sums are kept because two reports use them: ``totals`` adds every deal's net as
    far as its replay went (the validation report's ``computed.totals``), ``complete_totals``
    only the deals replayed to their end (the warehouse, whose invalid deals score 0)."""

    rules: Rules | None
    base: int = 1
    players: tuple[str, ...] | None = None
    session_id: str | None = None
    path: str | None = None  # the file findings are about (None: leave them as read)
    rules_error: str | None = None  # why the session's rules cannot be used
    rules_problem: Finding | None = None  # the same, as the session's finding
    recorded_totals: tuple[int, ...] | None = None
    end_line: int | None = None  # the session_end line
    replayer: DealReplayer = replay_deal
    totals: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # one a seat (``seats``)
    complete_totals: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    all_scored: bool = True  # every deal replayed to its end, so the totals are known
    #: the options of a deal with nothing but the session's base and id (most deals): one
    #: value for them all, not one built per deal
    plain: ReplayOptions | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of_log(
        cls,
        session: SessionLog,
        override: Rules | None = None,
        *,
        path: str | None = None,
        replayer: DealReplayer = replay_deal,
    ) -> SessionReplay:
        """The setup of a read session; ``override`` replaces the rules it names."""
        start = session.session
        rules: Rules | None = None
        error: RulesError | None = None
        problem_finding: Finding | None = None
        try:
            rules = session_rules(session, override)
        except RulesError as problem:
            error = problem
            problem_finding = rules_finding(session, problem, path)
        if rules is not None:
            problem_finding = players_problem(session, rules, path)
            if problem_finding is not None:  # no seat of the table can be named: nothing is audited
                rules = None
        end = session.end
        seats = rules.seats if rules is not None else 4
        why = str(error) if error is not None else problem_finding.message if problem_finding else None
        return cls(
            rules,
            base=start.base if start is not None else 1,
            players=start.players if start is not None else None,
            session_id=start.session_id if start is not None else None,
            path=path,
            rules_error=why,
            rules_problem=problem_finding,
            recorded_totals=tuple(end.totals) if end is not None and end.totals is not None else None,
            end_line=end.line if end is not None else None,
            replayer=replayer,
            totals=[0] * seats,
            complete_totals=[0] * seats,
            all_scored=problem_finding is None and not session.set_aside,  # a deal set aside has no net
        )

    @property
    def rules_name(self) -> str | None:
        return self.rules.name if self.rules is not None else None

    def read_findings(self, deal_log: DealLog) -> list[Finding]:
        """The reader's findings of a deal, about this session's file."""
        path = self.path
        if path is None:
            return list(deal_log.findings)
        return [f if f.file == path else replace(f, file=path) for f in deal_log.findings]

    def replay(
        self,
        deal_log: DealLog,
        sink: FindingSink | None = None,
        *,
        keep_state: bool = False,
        on_step: StepHook | None = None,
    ) -> DealReport:
        """Replay one read deal of the session and add its net to the totals.

        A deal read on the reader's fast path (its decoded ``records``, no finding) goes
        to the compiled check first (:mod:`ingest.replay.fast_check`); only a deal it does not
        call clean is replayed by the engine, which explains every finding."""
        if keep_state or on_step is not None or deal_log.findings or deal_log.sheet_events:
            options = ReplayOptions(
                base=self.base,
                session_id=self.session_id,
                keep_state=keep_state,
                read_findings=self.read_findings(deal_log),
                on_step=on_step,
                sheet_events=deal_log.sheet_events,
            )
        else:
            options = self.plain_options()
        records = deal_log.records
        if records is not None and self.rules is not None and self.replayer is replay_deal:
            report = fast_replay(
                deal_log.deal,
                records,
                deal_log.end,
                self.rules,
                options,
                file=sink.file if sink is not None else None,
            )
            if report is not None:
                self._add_net(report)
                return report
        return self.replay_events(deal_log.deal, deal_log.events, deal_log.end, sink, options)

    def plain_options(self) -> ReplayOptions:
        """The session's base and id, nothing else (kept while they stay the same)."""
        plain = self.plain
        if plain is None or plain.base != self.base or plain.session_id != self.session_id:
            plain = self.plain = ReplayOptions(base=self.base, session_id=self.session_id)
        return plain

    def replay_events(
        self,
        start: DealStart,
        events: Sequence[PlayEvent],
        end: DealEnd | None,
        sink: FindingSink | None = None,
        options: ReplayOptions | None = None,
    ) -> DealReport:
        """Replay one deal given as events and add its net to the totals; ``options``
        default to the session's base and id (a caller's options keep their base and
        take the session's id)."""
        if options is None:
            options = ReplayOptions(base=self.base, session_id=self.session_id)
        elif options.session_id != self.session_id:
            options = replace(options, session_id=self.session_id)
        report = replay_one(
            start,
            events,
            end,
            self.rules,
            options,
            sink,
            replayer=self.replayer,
            stopped_by=self.rules_problem,
        )
        self._add_net(report)
        return report

    def _add_net(self, report: DealReport) -> None:
        scores = report.scores
        totals, complete = self.totals, self.complete_totals
        width = min(len(totals), len(scores))  # an unreplayed deal's zeros are four wide
        for seat in range(width):
            totals[seat] += scores[seat]
        if report.complete:
            for seat in range(width):
                complete[seat] += scores[seat]
        else:
            self.all_scored = False

    def totals_tuple(self) -> tuple[int, ...] | None:
        """The sum of the deals' nets, one a seat; None when the session's rules could not
        be used (no deal was replayed, so there is no sum to show)."""
        if self.rules is None:
            return None
        return tuple(self.totals)

    def totals_finding(self) -> Finding | None:
        """``score_mismatch`` when the recorded session totals differ from the deals' nets.

        A deal whose replay stopped has no net the rules give, so neither has the session:
        its own findings say why, and the totals go unchecked (docs/decisions.md)."""
        recorded = self.recorded_totals
        totals = self.totals
        if recorded is None or not self.all_scored or recorded == tuple(totals):
            return None
        text = totals_mismatch(self.rules_name or "?", list(totals), list(recorded))
        return Finding(
            "score_mismatch",
            self.end_line,
            None,
            text.en,
            expected=list(totals),
            recorded=list(recorded),
            file=self.path,
            message_zh=text.zh,
            message_key=text.key,
            message_values=text.values,
        )
