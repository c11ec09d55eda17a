"""The differential check of a fast path (``ingest.replay.fast_check.fast_replay``)
against the explaining engine (``engine.replay.replay_deal``): one place for the comparison,
shared by the test (``tests/test_fast_check.py``) and the long run (``bench/fast_check.py``).

The fast path's promise: it may hand any deal to the engine (it returns None), it never
calls a deal clean that the engine flags (any finding or warning), and a report it gives
equals the engine's (``to_json()`` and the computed fields of :data:`REPORT_FIELDS`).

Both paths get the same log lines. The engine's inputs are what the reader makes of them
(``read_lines``, then :class:`ingest.replay.session_replay.SessionReplay` as ``chuanma validate``
drives it); the fast path's records are the deal's own lines decoded here with the reader's
``DECODER``. Simulated sessions come one at a time (:func:`corpus_sessions`), tampered with
by the simulator's :class:`Tamperer` and, for more kinds of broken deals, by
:func:`mutations.mutate_session` (``tests/mutations.py``) (lines dropped, doubled, swapped, a field
changed or left out), so a corpus of any size runs in flat memory.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from mutations import mutate_session

from engine.events import DealEnd, DealStart, Event, SessionEnd
from engine.replay import DealReport, FindingSink, ReplayOptions
from engine.report import DealFacts
from engine.rules import Rules
from engine.tiles import tile_name
from ingest.logs.builder import DealLog, SessionLog
from ingest.logs.line_parser import DECODE_ERRORS, DECODER
from ingest.logs.play_lines import KINDS, code_kind, code_seat, code_tile, line_code
from ingest.logs.reader import read_lines, read_text_bytes
from ingest.logs.records import DealEndRec, PlayRecord
from ingest.replay.session_replay import SessionReplay
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.simulator.tamper import Tamperer

__all__ = [
    "REPORT_FIELDS",
    "Disagreement",
    "FastReplay",
    "Tally",
    "check_lines",
    "check_sessions",
    "club_sessions",
    "corpus_sessions",
    "deal_records",
    "facts_differences",
    "report_differences",
]

#: the computed fields a fast report must share with the engine's, besides ``to_json()``
REPORT_FIELDS = ("wins", "kongs", "ledger", "settlement", "scores", "end_reason", "complete", "rules")


class FastReplay(Protocol):
    """``ingest.replay.fast_check.fast_replay``'s signature."""

    def __call__(
        self,
        start: DealStart,
        records: Sequence[PlayRecord],
        end: DealEnd | None,
        rules: Rules,
        options: ReplayOptions = ...,
        *,
        file: str | None = None,
    ) -> DealReport | None: ...


def _short(value: object, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def report_differences(engine: DealReport, fast: DealReport, *, findings: bool = False) -> list[str]:
    """How the fast report differs from the engine's, one line per difference (empty:
    equal); with ``findings``, the findings and warnings too (their messages included)."""
    names = (*REPORT_FIELDS, "findings", "warnings") if findings else REPORT_FIELDS
    out = [
        f"{name}: engine {_short(getattr(engine, name))} != fast {_short(getattr(fast, name))}"
        for name in names
        if getattr(engine, name) != getattr(fast, name)
    ]
    mine, theirs = engine.to_json(), fast.to_json()
    if mine != theirs:
        keys = sorted(set(mine) | set(theirs))
        for key in keys:
            if mine.get(key) != theirs.get(key):
                out.append(
                    f"to_json()[{key!r}]: engine {_short(mine.get(key))} != fast {_short(theirs.get(key))}"
                )
    return out


def facts_differences(engine: DealFacts | None, fast: DealFacts | None) -> list[str]:
    """How the fast path's warehouse facts (``keep_state``) differ from the engine's."""
    if engine is None or fast is None:
        return [] if engine is fast else [f"facts: engine {_short(engine)} != fast {_short(fast)}"]
    return [
        f"facts.{name}: engine {_short(getattr(engine, name))} != fast {_short(getattr(fast, name))}"
        for name in engine.__struct_fields__
        if getattr(engine, name) != getattr(fast, name)
    ]


@dataclass(frozen=True)
class Disagreement:
    """A deal where the fast path broke its promise, with the lines that show it again: the
    session line, then the deal's lines (replay them with :func:`check_lines`)."""

    corpus: str
    deal_id: str
    line: int
    what: str
    lines: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"corpus": self.corpus, "deal_id": self.deal_id, "line": self.line, "what": self.what}


@dataclass
class Tally:
    """What one corpus gave: deal counts, the hand-offs, the disagreements and the time of
    each path (the engine's: reading and replay; the fast path's: decoding and checking)."""

    deals: int = 0
    clean: int = 0  # the engine reports no finding and no warning
    flagged: int = 0
    handoffs: int = 0  # clean deals the fast path did not confirm (None, or not asked)
    not_asked: int = 0  # deals with a line that does not decode: the fast path never sees them
    fast_clean: int = 0  # deals the fast path called clean
    disagreed: int = 0  # deals where the fast path broke its promise
    disagreements: list[Disagreement] = field(default_factory=list, repr=False)  # the first ``keep``
    keep: int = 100
    codes: Counter[str] = field(
        default_factory=Counter, repr=False
    )  # the engine's codes, a count per flagged deal
    engine_read_s: float = 0.0
    engine_replay_s: float = 0.0
    fast_decode_s: float = 0.0
    fast_s: float = 0.0
    route_unread: int = 0  # clean deals the bytes reader kept no records of (so no fast check)
    route_read_s: float = 0.0  # validation's route: the bytes reader
    route_replay_s: float = 0.0  # and SessionReplay.replay (the fast check first)

    @property
    def handoff_rate(self) -> float:
        return self.handoffs / self.clean if self.clean else 0.0

    def add(self, other: Tally) -> None:
        for name in (
            "deals",
            "clean",
            "flagged",
            "handoffs",
            "not_asked",
            "fast_clean",
            "disagreed",
            "route_unread",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in (
            "engine_read_s",
            "engine_replay_s",
            "fast_decode_s",
            "fast_s",
            "route_read_s",
            "route_replay_s",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.disagreements += other.disagreements[: max(0, self.keep - len(self.disagreements))]
        self.codes.update(other.codes)

    def to_json(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "clean": self.clean,
            "flagged": self.flagged,
            "handoffs": self.handoffs,
            "handoff_rate": round(self.handoff_rate, 5),
            "not_asked": self.not_asked,
            "fast_clean": self.fast_clean,
            "disagreements": self.disagreed,
            "engine_read_s": round(self.engine_read_s, 3),
            "engine_replay_s": round(self.engine_replay_s, 3),
            "fast_decode_s": round(self.fast_decode_s, 3),
            "fast_s": round(self.fast_s, 3),
            "route_unread": self.route_unread,
            "route_read_s": round(self.route_read_s, 3),
            "route_replay_s": round(self.route_replay_s, 3),
            "codes": dict(sorted(self.codes.items())),
        }

    def summary(self) -> str:
        return (
            f"{self.deals} deals, {self.clean} clean, {self.handoffs} hand-offs among them "
            f"({100 * self.handoff_rate:.2f}%), {self.flagged} flagged, {self.not_asked} not decodable, "
            f"{self.disagreed} disagreements"
        )


# --------------------------------------------------------------------- one deal, one session
def deal_records(lines: Sequence[str], first: int, deal: DealLog) -> list[PlayRecord] | None:
    """The deal's lines strictly between its deal and deal_end lines, decoded as the fast
    path takes them; None when one of them, or the deal line, does not decode (or is
    blank): such a deal has the reader's finding (an unknown field on the deal line is a
    warning its ``DealStart`` does not show), and only the engine sees it."""
    try:
        DECODER.decode(lines[deal.deal.line - first])
    except DECODE_ERRORS:
        return None
    records: list[PlayRecord] = []
    for n in range(deal.deal.line + 1, deal.last_line + 1):
        code = line_code(lines[n - first].encode())
        if code >= 0:  # a plain play line, kept as the reader keeps it
            records.append(code)
            continue
        try:
            record = DECODER.decode(lines[n - first])
        except DECODE_ERRORS:
            return None
        if isinstance(record, DealEndRec):  # the deal's own deal_end line (read or not)
            break
        records.append(record)
    return records


def check_lines(
    lines: Sequence[str], fast: FastReplay, tally: Tally, *, corpus: str, first: int = 1, facts: bool = True
) -> None:
    """Both paths over ``lines`` (one or more sessions, numbered from ``first``); every
    deal is counted in ``tally`` and every broken promise is one of its disagreements.

    The engine's side is the line-by-line reader (``read_lines``) and
    :meth:`SessionReplay.replay_events`: the engine alone, with no fast path. Against it:

    - ``fast`` on the deal's records decoded here, timed as validation calls it; with
      ``facts``, a deal it calls clean is asked again with ``keep_state`` (untimed, as
      ingest calls it) and both answers are compared;
    - validation's own route (the bytes reader, which keeps the records of a deal it reads
      without a finding, then :meth:`SessionReplay.replay`, the fast check first): every
      deal's report, findings and all, must be the engine's."""
    name = f"{corpus}.jsonl"
    started = time.perf_counter()
    log = read_lines(lines, name, first)
    tally.engine_read_s += time.perf_counter() - started
    started = time.perf_counter()
    routed = read_text_bytes("\n".join(lines).encode("utf-8"), name, first)
    tally.route_read_s += time.perf_counter() - started
    if len(routed.sessions) != len(log.sessions):
        raise AssertionError(
            f"{corpus}: the two readers see {len(routed.sessions)} and {len(log.sessions)} sessions"
        )
    for session, routed_session in zip(log.sessions, routed.sessions, strict=True):
        driver = SessionReplay.of_log(session, path=name)
        route = SessionReplay.of_log(routed_session, path=name)
        for deal, routed_deal in zip(session.deals, routed_session.deals, strict=True):
            report = _engine_and_fast(lines, first, fast, tally, corpus, facts, session, driver, deal)
            _route(lines, first, tally, corpus, facts, session.line, route, routed_deal, deal, report)


def _engine_and_fast(
    lines: Sequence[str],
    first: int,
    fast: FastReplay,
    tally: Tally,
    corpus: str,
    facts: bool,
    session: SessionLog,
    driver: SessionReplay,
    deal: DealLog,
) -> DealReport:
    """The engine's report of one deal, after comparing ``fast``'s with it."""
    name = f"{corpus}.jsonl"
    rules = driver.rules
    tally.deals += 1
    started = time.perf_counter()
    options = ReplayOptions(
        base=driver.base,
        keep_state=facts,
        read_findings=driver.read_findings(deal),
        sheet_events=deal.sheet_events,
    )
    engine = driver.replay_events(deal.deal, deal.events, deal.end, FindingSink(file=name), options)
    tally.engine_replay_s += time.perf_counter() - started
    clean = not engine.findings and not engine.warnings
    tally.clean += clean
    tally.flagged += not clean
    if not clean:
        tally.codes.update({f.code for f in (*engine.findings, *engine.warnings)})
    started = time.perf_counter()
    records = deal_records(lines, first, deal) if rules is not None else None
    tally.fast_decode_s += time.perf_counter() - started
    if records is None or rules is None or deal.deal.record != "tiles":
        tally.not_asked += 1
        tally.handoffs += clean
        return engine
    started = time.perf_counter()
    try:
        report = fast(
            deal.deal,
            records,
            deal.end,
            rules,
            ReplayOptions(base=driver.base, session_id=driver.session_id),
            file=name,
        )
    except Exception as error:  # a broken promise like any other: said, with the deal
        tally.fast_s += time.perf_counter() - started
        _disagree(tally, corpus, deal, lines, first, session.line, f"fast_replay raised {error!r}")
        return engine
    tally.fast_s += time.perf_counter() - started
    if report is None:
        tally.handoffs += clean
        return engine
    tally.fast_clean += 1
    if not clean:
        codes = sorted({f.code for f in (*engine.findings, *engine.warnings)})
        _disagree(tally, corpus, deal, lines, first, session.line, f"called clean, the engine flags {codes}")
        return engine
    differences = report_differences(engine, report)
    if facts and not differences:
        again = fast(
            deal.deal, records, deal.end, rules,
            ReplayOptions(base=driver.base, session_id=driver.session_id, keep_state=True), file=name,
        )  # fmt: skip
        if again is None:
            differences = ["handed off with keep_facts, called clean without"]
        else:
            differences = report_differences(engine, again)
            differences += facts_differences(engine.deal_facts(), again.facts)
    if differences:
        _disagree(tally, corpus, deal, lines, first, session.line, "; ".join(differences))
    return engine


def _route(
    lines: Sequence[str],
    first: int,
    tally: Tally,
    corpus: str,
    facts: bool,
    session_line: int | None,
    route: SessionReplay,
    routed: DealLog,
    deal: DealLog,
    engine: DealReport,
) -> None:
    """Validation's route for one deal (bytes reader, fast check first) against the engine."""
    name = f"{corpus}.jsonl"
    if (routed.deal.deal_id, routed.deal.line, routed.last_line) != (
        deal.deal.deal_id,
        deal.deal.line,
        deal.last_line,
    ):
        _disagree(
            tally, corpus, deal, lines, first, session_line, "the bytes reader cuts the deals differently"
        )
        return
    clean = not engine.findings and not engine.warnings
    tally.route_unread += clean and routed.records is None
    started = time.perf_counter()
    report = route.replay(routed, FindingSink(file=name))
    tally.route_replay_s += time.perf_counter() - started
    differences = report_differences(engine, report, findings=True)
    if facts and not differences and report.complete:
        kept = route.replay(routed, FindingSink(file=name), keep_state=True)
        differences = facts_differences(engine.deal_facts(), kept.deal_facts())
    if differences:
        what = "validation's route differs from the engine: " + "; ".join(differences)
        _disagree(tally, corpus, deal, lines, first, session_line, what)


def _disagree(
    tally: Tally,
    corpus: str,
    deal: DealLog,
    lines: Sequence[str],
    first: int,
    session_line: int | None,
    what: str,
) -> None:
    tally.disagreed += 1
    if len(tally.disagreements) >= tally.keep:
        return
    own = [lines[n - first] for n in range(deal.deal.line, deal.last_line + 1)]
    head = [lines[session_line - first]] if session_line is not None and session_line >= first else []
    tally.disagreements.append(Disagreement(corpus, deal.deal.deal_id, deal.deal.line, what, (*head, *own)))


# --------------------------------------------------------------------- simulated corpora
def club_sessions(plan: ClubPlan) -> Iterator[list[Event]]:
    """``simulate_club``'s events, one session at a time (it simulates lazily, so does this)."""
    session: list[Event] = []
    for event in simulate_club(plan):
        session.append(event)
        if isinstance(event, SessionEnd):
            yield session
            session = []
    if session:
        yield session


def corpus_sessions(plan: ClubPlan, tamper: float, mutate: float = 0.0) -> Iterator[list[str]]:
    """The lines of each simulated session of ``plan``: about ``tamper`` of the deals
    corrupted by the simulator's :class:`Tamperer` and ``mutate`` by :func:`mutate_session`
    (both seeded with ``plan.seed``, so a corpus is the same on every run)."""
    tamperer = Tamperer(tamper, plan.seed)
    rng = random.Random(f"fast-diff/{plan.seed}")
    for events in club_sessions(plan):
        lines = list(tamperer.lines(events))
        tamperer.manifest.clear()  # not needed here, and it would grow with the corpus
        yield mutate_session(lines, rng, mutate) if mutate > 0 else lines


def check_sessions(sessions: Iterable[list[str]], fast: FastReplay, *, corpus: str) -> Tally:
    """Both paths over a stream of sessions' lines, numbered on as one file."""
    tally = Tally()
    first = 1
    for lines in sessions:
        check_lines(lines, fast, tally, corpus=corpus, first=first)
        first += len(lines)
    return tally


def play_line(code: int) -> bytes:
    """The plain line of a play code (no ``"t"``), as the writer writes it: the inverse of
    ``ingest.logs.play_lines.line_code``."""
    kind, seat, tile = KINDS[code_kind(code)], code_seat(code), tile_name(code_tile(code))
    return f'{{"type":"{kind}","seat":{seat},"tile":"{tile}"}}'.encode()
