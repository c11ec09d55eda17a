"""What the replay of one deal reports, and where its findings go (a sink that collects
them, or raises :class:`StrictStop` at the first one). Shared by the tile replay
(:mod:`engine.replay`) and the score-sheet audit (:mod:`engine.sheet`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from engine.deal import Deal, KongMade, Win
from engine.events import Finding
from engine.settlement import Transfer
from engine.tiles import tile_name

#: the tile of a sheet deal's win or kong that the sheet does not name
NO_TILE = -1


class StrictStop(Exception):
    """Raised by a strict sink at the first finding."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


@dataclass
class FindingSink:
    strict: bool = False
    file: str | None = None
    findings: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)

    def add(self, finding: Finding) -> None:
        if finding.severity == "warning":
            self.warnings.append(finding)
            return
        self.findings.append(finding)
        if self.strict:
            raise StrictStop(finding)


class DealFacts(msgspec.Struct, frozen=True, gc=False):
    """What a replayed tile deal's warehouse rows need beyond its report: the dealer,
    the 定缺 suits, the 查叫 transfers and what decided them (花猪, ready fans), and how
    many seats were still in. The engine's :class:`engine.deal.Deal` and the fast
    check (:mod:`ingest.replay.fast_check`) both give them, so the rows need no replay state."""

    dealer: int
    void: tuple[int | None, ...]  # per seat: 0 m, 1 p, 2 s, or None
    settlement: tuple[Transfer, ...]
    pigs: frozenset[int]
    ready_at_end: dict[int, int]  # seat -> 查大叫 fan
    still_in: int

    @classmethod
    def of_deal(cls, deal: Deal) -> DealFacts:
        return cls(
            deal.dealer, tuple(deal.void), tuple(deal.settlement), frozenset(deal.pigs), deal.ready_at_end,
            len(deal.in_play),
        )  # fmt: skip


class DealReport(msgspec.Struct):
    """The replay of one deal: its status, findings and what the rules compute (a Struct:
    one is built per deal, in a tenth of a compiled dataclass's time)."""

    deal_id: str
    session_id: str | None
    file: str | None
    line: int
    rules: str
    findings: list[Finding]
    warnings: list[Finding]
    scores: tuple[int, ...]  # one a seat of the table (a tile deal: four)
    wins: list[Win]
    kongs: list[KongMade]
    ledger: list[Transfer]
    settlement: tuple[int, ...]
    end_reason: str | None
    complete: bool  # replayed to its end without an illegal event
    deal: Deal | None = None
    record: str = "tiles"  # "sheet": a score-sheet deal, audited from its declared facts
    # a sheet deal's 查叫 facts as the audit accepted them (a tile deal keeps them on ``deal``)
    pigs: frozenset[int] = frozenset()  # 花猪 at an empty wall
    ready_at_end: dict[int, int] = {}  # seat -> 查大叫 fan (msgspec copies an empty default)
    facts: DealFacts | None = None  # a tile deal's, when asked for (``keep_state``)
    # False when no net was computed at all (rules unusable, hands that cannot be dealt,
    # a net-only deal without nets): ``scores`` then hold zeros the report must not show
    replayed: bool = True
    # the finding that stopped the replay when it is not the deal's own (the session's rules)
    stopped_by: Finding | None = None

    def deal_facts(self) -> DealFacts | None:
        """A complete tile deal's :class:`DealFacts` (None before its end or without state)."""
        if not self.complete:
            return None
        if self.facts is None and self.deal is not None:
            self.facts = DealFacts.of_deal(self.deal)
        return self.facts

    @property
    def status(self) -> str:
        """``ok``/``findings`` for a deal replayed to its end, ``invalid`` for one that was
        not (docs/report.md): the warehouse's ``deals.status`` values."""
        if not self.complete:
            return "invalid"
        return "ok" if not self.findings else "findings"

    def stopping_finding(self) -> Finding | None:
        """The finding that stopped the replay of an incomplete deal: the session's (its
        rules cannot be used) or the deal's last error (the illegal event, the missing end)."""
        if self.complete:
            return None
        if self.stopped_by is not None:
            return self.stopped_by
        return self.findings[-1] if self.findings else None

    def stopped_json(self) -> dict[str, Any] | None:
        found = self.stopping_finding()
        if found is None:
            return None
        scope = "deal" if self.stopped_by is None else "session"
        return {"code": found.code, "line": found.line, "scope": scope}

    def to_json(self) -> dict[str, Any]:
        """The deal object of the validation report (docs/log-format.md)."""
        out: dict[str, Any] = {
            "deal_id": self.deal_id,
            "session_id": self.session_id,
            "file": self.file,
            "line": self.line,
            "status": self.status,
            "stopped_by": self.stopped_json(),
            "findings": [f.to_json() for f in self.findings],
            "warnings": [f.to_json() for f in self.warnings],
            "computed": {
                "scores": list(self.scores) if self.replayed else None,
                "wins": [
                    {
                        "seat": w.seat,
                        "fan": w.result.fan,
                        "patterns": list(w.result.patterns),
                        "kind": w.kind,
                        "from": w.from_seat,
                        "tile": tile_name(w.tile) if w.tile != NO_TILE else None,
                        "line": w.line,
                    }
                    for w in self.wins
                ],
                "settlement": list(self.settlement) if self.replayed else None,
                "end_reason": self.end_reason,
                "rules": self.rules,
                "complete": self.complete,
            },
        }
        if self.record != "tiles":
            out["record"] = self.record
        return out
