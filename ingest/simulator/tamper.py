"""Corrupt simulated logs on purpose, and say where the validator must find each corruption.

``chuanma simulate --tamper RATE --manifest FILE`` runs every simulated deal through
:class:`Tamperer`: about ``RATE`` of the deals get one or more corruptions of
:data:`KINDS`, and the manifest gets one line per corruption,
``{"deal_id", "line", "code", "kind"}``, where ``line`` is the final file line at which
``chuanma validate`` must report ``code``. ``kind`` names the corruption (three kinds share
``payment_mismatch``). About ``RATE`` of the sessions get a wrong total: its line is the
``session_end`` line and its ``deal_id`` is the session's last deal (so every entry names
a deal, and the session is the one that deal belongs to).

Each corruption is a pure function over one deal (its typed events, or its JSON lines for a
broken line) that uses the engine's :class:`engine.deal.Deal` where it needs the state, e.g.
the tiles a seat does not hold at a discard. A corruption is designed to give exactly one
finding code at exactly one line and nothing else, so a tampered deal's findings are its
manifest entries and an untouched deal has none:

- A corruption that stops the replay (an illegal event: ``illegal_hu``, ``not_in_hand``,
  ``illegal_pong``, ``tile_count``) is at most one per deal and comes after every other
  corruption the replay checks (after the first draw that follows it, so every check and
  every breach of the earlier ones has happened).
- A broken JSON line is a torn write followed by the retried line: the reader reports the
  torn line and the deal keeps all its events.
- A missed forced hu (``last_four_must_hu``) deletes a win of the last four and plays the
  rest of the deal again through the engine (the seat that did not win keeps its tiles; a
  self-drawn winning tile is discarded instead), so the rest stays legal and the recorded
  payments, settlement and scores stay the engine's. The validator reports it at the
  discard the seat could have won (for a self-draw: the seat's own discard of the drawn
  winning tile, which takes the place of the hu). A third way to miss it is a kong instead
  of a forced self-drawn win (``missed_forced_hu_kong``), reported at the kong; it needs a
  rare deal, so it is off by default and tested on its own (tests/test_tamper.py).
- Session totals are the sum of the recorded deal scores (as a recorder keeps them), so a
  deal played again does not by itself make the totals wrong. The validator does not
  compare the totals of a session with a deal whose replay stopped (docs/decisions.md), so
  a wrong total is only tampered in a session whose deals all replay to their end.

Deterministic: each deal's random choices come from a ``random.Random`` seeded with the
simulation seed, the deal's position in the file and its id, so the same seed gives the
same bytes, and the simulator's own random stream is not touched.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.events import (
    DealEnd,
    DealStart,
    Draw,
    Event,
    PlayEvent,
    SessionEnd,
    SessionStart,
    SheetEvent,
    SheetHu,
    SheetKong,
)
from engine.events import replace as replace_event
from engine.rules import load_rules
from ingest.logs.writer import log_lines, write_lines
from ingest.simulator.corruptions import DEFAULT_KINDS, KIND_BY_NAME, wrong_totals
from ingest.simulator.tamper_types import Corruption, DealRecord, Deltas, Mark, Stage, line_of

__all__ = [
    "ManifestEntry",
    "Tamperer",
    "choose_kinds",
    "compatible",
    "manifest_lines",
    "read_manifest",
    "tamper_deal",
    "write_manifest",
]


@dataclass(frozen=True)
class ManifestEntry:
    deal_id: str | None
    line: int
    code: str
    kind: str

    def to_json(self) -> dict[str, Any]:
        return {"deal_id": self.deal_id, "line": self.line, "code": self.code, "kind": self.kind}


def compatible(chosen: Sequence[Corruption], candidate: Corruption) -> bool:
    """Can ``candidate`` join ``chosen`` in one deal, each still found where it says?"""
    for other in chosen:
        if other.kind == candidate.kind:
            return False
        if other.stage is candidate.stage and candidate.stage in (Stage.ILLEGAL, Stage.REWRITE):
            return False  # the replay stops at the first illegal event; a rewrite moves the others
        pair = {other.stage, candidate.stage}
        if Stage.ILLEGAL in pair and (Stage.CLAIM in pair or Stage.REWRITE in pair):
            illegal, checked = (other, candidate) if other.stage is Stage.ILLEGAL else (candidate, other)
            if illegal.where == "deal" or checked.where == "deal_end":
                return False  # the illegal event could not come after the checked one
    return True


def choose_kinds(
    record: DealRecord, rng: random.Random, rate: float, kinds: Sequence[Corruption] = DEFAULT_KINDS
) -> list[Corruption]:
    """Whether to tamper with this deal (probability ``rate``) and with which of ``kinds``:
    one, sometimes two or three, among those that apply to it (a session's total is chosen
    for the session, by :class:`Tamperer`)."""
    if rate <= 0 or rng.random() >= rate:
        return []
    wanted = 1 + (rng.random() < 0.3) + (rng.random() < 0.1)
    candidates = [c for c in kinds if c.stage is not Stage.SESSION and c.applies(record)]
    rng.shuffle(candidates)
    chosen: list[Corruption] = []
    for candidate in candidates:
        if len(chosen) == wanted:
            break
        if compatible(chosen, candidate):
            chosen.append(candidate)
    return chosen


def _settled(record: DealRecord, index: int) -> int:
    """The line index by which the replay has checked everything about line ``index``: the
    first draw after it (an open discard closes, an added kong is paid), else the deal_end."""
    for event_index in range(index, len(record.events)):
        if isinstance(record.events[event_index], Draw):
            return line_of(event_index)
    return line_of(len(record.events))


def tamper_deal(
    record: DealRecord, kinds: Sequence[Corruption], rng: random.Random
) -> tuple[DealRecord, list[Mark]]:
    """Apply ``kinds`` in stage order; returns the corrupted deal and a mark per corruption
    that found a place (a kind with no place in this deal is left out)."""
    marks: list[Mark] = []
    for kind in sorted(kinds, key=lambda c: c.stage):
        checked = [m.index for m in marks if m.index is not None and KIND_BY_NAME[m.kind].checked_by_replay]
        after = max((_settled(record, index) for index in checked), default=-1)
        applied = kind.apply(record, rng, after)
        if applied is None:
            continue
        if applied.inserted is not None:
            marks = [
                replace(m, index=m.index + 1) if m.index is not None and m.index >= applied.inserted else m
                for m in marks
            ]
        record = applied.record
        marks.append(applied.mark)
    return record, marks


# ----------------------------------------------------------------- a whole log
@dataclass
class _Session:
    start: SessionStart
    deals: list[tuple[DealStart, list[PlayEvent | SheetEvent], DealEnd]]


class Tamperer:
    """Turns a well-formed event stream (the simulator's) into log lines, tampering with
    about ``rate`` of its deals (and of its sessions' totals); :attr:`manifest` fills up as
    the lines are produced."""

    def __init__(self, rate: float, seed: int, kinds: Sequence[str] | None = None) -> None:
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"the tamper rate must be between 0 and 1, got {rate}")
        unknown = sorted(set(kinds or ()) - set(KIND_BY_NAME))
        if unknown:
            raise ValueError(f"unknown corruption kinds {unknown}; known: {sorted(KIND_BY_NAME)}")
        self.rate = rate
        self.seed = seed
        self.kinds = tuple(KIND_BY_NAME[k] for k in kinds) if kinds else DEFAULT_KINDS
        self.manifest: list[ManifestEntry] = []
        self.deals = 0
        self.tampered = 0  # deals
        self.wrong_totals = 0  # sessions
        self.line = 0  # lines produced so far

    def lines(self, events: Iterable[Event | SheetEvent]) -> Iterator[str]:
        session: _Session | None = None
        deal: tuple[DealStart, list[PlayEvent | SheetEvent]] | None = None
        for event in events:
            if isinstance(event, SessionStart):
                if session is not None:
                    yield from self._session(session, None)
                session = _Session(event, [])
            elif isinstance(event, SessionEnd):
                if session is None:
                    raise ValueError("a session_end with no session: tamper takes simulated logs")
                yield from self._session(session, event)
                session = None
            elif isinstance(event, DealStart):
                deal = (event, [])
            elif isinstance(event, DealEnd):
                if session is None or deal is None:
                    raise ValueError("a deal_end outside a session's deal: tamper takes simulated logs")
                session.deals.append((deal[0], deal[1], event))
                deal = None
            else:
                if deal is None:
                    raise ValueError(f"a {event.type} event outside a deal: tamper takes simulated logs")
                deal[1].append(event)
        if session is not None:
            yield from self._session(session, None)

    def _rng(self, *parts: object) -> random.Random:
        return random.Random("chuanma-tamper/" + "/".join(str(p) for p in (self.seed, *parts)))

    def _session(self, session: _Session, end: SessionEnd | None) -> Iterator[str]:
        start = session.start
        rules = load_rules(start.rules if start.rules is not None else "standard")
        yield from self._emit(log_lines([start]))
        totals = [0] * len(start.players)  # one a seat of the table
        cut_short = False  # a deal of the session has an illegal event: its replay stops
        record: DealRecord | None = None
        for deal_start, events, deal_end in session.deals:
            self.deals += 1
            if deal_start.record == "sheet":  # a score sheet (--sheet-sessions): no tiles to tamper with
                yield from self._emit(log_lines([deal_start, *events, deal_end]))
                scores = deal_end.scores or (0,) * len(totals)
                totals = [a + b for a, b in zip(totals, scores, strict=True)]
                record = None
                continue
            plays = tuple(e for e in events if not isinstance(e, SheetKong | SheetHu))
            record = DealRecord(deal_start, plays, deal_end, rules, start.base)
            rng = self._rng(self.deals, deal_start.deal_id)
            kinds = choose_kinds(record, rng, self.rate, self.kinds)
            marks: list[Mark] = []
            if kinds:
                record, marks = tamper_deal(record, kinds, rng)
            if marks:
                self.tampered += 1
                cut_short |= any(KIND_BY_NAME[m.kind].stage is Stage.ILLEGAL for m in marks)
            first = self.line + 1
            for mark in sorted(marks, key=lambda m: m.index or 0):
                assert mark.index is not None
                self.manifest.append(
                    ManifestEntry(deal_start.deal_id, first + mark.index, mark.code, mark.kind)
                )
            yield from self._emit(record.render())
            scores = record.end.scores or (0,) * len(totals)
            totals = [a + b for a, b in zip(totals, scores, strict=True)]
        if end is None:
            return
        if end.totals is not None:
            recorded: Deltas = tuple(totals)  # as a recorder sums them
            if record is not None and not cut_short:
                recorded = self._session_kinds(replace(record, last_in_session=True), recorded, start)
            end = replace_event(end, totals=recorded)
        yield from self._emit(log_lines([end]))

    def _session_kinds(self, last: DealRecord, totals: Deltas, start: SessionStart) -> Deltas:
        """A wrong total, about ``rate`` of the sessions (only those whose deals all replay to
        their end); the manifest names the session's last deal and the session_end line."""
        kinds = [k for k in self.kinds if k.stage is Stage.SESSION and k.applies(last)]
        rng = self._rng(start.session_id, "totals")
        if not kinds or self.rate <= 0 or rng.random() >= self.rate:
            return totals
        for kind in kinds:
            applied = kind.apply(last, rng, -1)
            if applied is not None:
                totals = wrong_totals(totals, rng, start.base)
                self.manifest.append(
                    ManifestEntry(last.start.deal_id, self.line + 1, applied.mark.code, kind.kind)
                )
                self.wrong_totals += 1
        return totals

    def _emit(self, lines: Iterable[str]) -> Iterator[str]:
        for line in lines:
            self.line += 1
            yield line


def manifest_lines(entries: Iterable[ManifestEntry]) -> Iterator[str]:
    for entry in entries:
        yield json.dumps(entry.to_json(), ensure_ascii=False, separators=(",", ":"))


def write_manifest(entries: Iterable[ManifestEntry], path: str | Path) -> int:
    """One JSON line per corruption (gzip when the name ends in ``.gz``); returns the count."""
    return write_lines(manifest_lines(entries), path)


def read_manifest(path: str | Path) -> list[ManifestEntry]:
    """The entries of a manifest written by :func:`write_manifest`."""
    raw = Path(path).read_bytes()
    text = (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8")
    out = []
    for line in text.splitlines():
        if line.strip():
            obj = json.loads(line)
            out.append(ManifestEntry(obj["deal_id"], obj["line"], obj["code"], obj["kind"]))
    return out
