"""A deal recorded at the table (the Record page) as score-sheet log lines.

Pure: facts in (who made which kong, who won how with which patterns, who is ready and
who is a 花猪 at the wall's end), priced by the engine's sheet audit
(:func:`engine.sheet.audit_sheet`, the settlement core every sheet deal goes through),
lines out. Each line carries what the engine priced (``deltas``, ``fan``,
``settlement``, ``scores``), so the audit of the written lines agrees with the page that
showed them. The page keeps no arithmetic of its own.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.events import DealEnd, DealStart, Finding, SheetHu, SheetKong
from engine.replay_options import ReplayOptions
from engine.report import DealReport, FindingSink
from engine.rules import Rules, load_rules
from engine.settle import Settler
from engine.settlement import Transfer, seat_deltas
from engine.sheet import audit_sheet
from ingest.sheets.deleted import DELETED
from ingest.sheets.net_only import NET_ONLY
from ingest.sheets.terms import BASE_IDS, COMBINED_BASES

SEATS = (0, 1, 2, 3)  # a four-seat table's; a session's own are ``SessionFacts.seats``
KONG_KINDS = ("exposed", "added", "concealed")


@dataclass(frozen=True)
class KongFact:
    """杠: who, which kind, the discarder of an exposed kong (直杠), and for an added kong
    (弯杠) whether its fourth tile was drawn this turn (``same_turn``; a late 弯杠 earns
    nothing under ``added_kong_same_turn_only``, so a 成都 table must be able to say it)."""

    seat: int
    kind: str
    from_seat: int | None = None
    same_turn: bool = True


@dataclass(frozen=True)
class WinFact:
    """胡: who, from whom (``None``: 自摸), the base pattern then the extras (ids)."""

    seat: int
    from_seat: int | None
    patterns: tuple[str, ...]


Fact = KongFact | WinFact


@dataclass(frozen=True)
class EndFact:
    """The wall's end: each seat's 查大叫 fan when ready (``None``: not ready or won), the 花猪.
    ``ready`` has an entry a seat; :func:`price` fits it to the table's seats (four by
    default, so a three-seat table's fourth entry is dropped, and never names a seat)."""

    ready: tuple[int | None, ...] = (None, None, None, None)
    flower_pigs: tuple[int, ...] = ()

    def fitted(self, seats: int) -> tuple[int | None, ...]:
        """``ready`` with one entry a seat of a table of ``seats``."""
        return (*self.ready[:seats], *(None,) * (seats - len(self.ready)))


@dataclass(frozen=True)
class SessionFacts:
    session_id: str
    players: tuple[str, ...]  # one a seat of the rule set's table (``seats``)
    rules: str | dict[str, Any] = "standard"
    base: int = 1
    club: str | None = None
    table: str | None = None
    started_at: str | None = None

    def rule_set(self) -> Rules:
        """The session's rules (raises :class:`engine.rules.RulesError` when unreadable)."""
        return load_rules(self.rules)

    @property
    def seats(self) -> tuple[int, ...]:
        """The table's seats in order, one a player: (0, 1, 2) at a three-seat table."""
        return tuple(range(len(self.players)))


@dataclass(frozen=True)
class DealFacts:
    deal_id: str
    dealer: int = 0
    events: tuple[Fact, ...] = ()
    end: EndFact | None = None  # None: the deal goes on
    revision: int = 1
    deleted: bool = False  # a revision that removes the deal (ingest/sheets/deleted.py)
    #: quick entry: each seat's net points only (no events), for a table that keeps only the
    #: net; written as a ``net_only`` sheet deal (ingest/sheets/net_only.py), None otherwise
    nets: tuple[int, ...] | None = None


@dataclass
class Priced:
    """What the engine computed for a deal's facts, event by event."""

    payments: list[list[Transfer]]  # one list per event, in order
    fans: list[int | None]  # per event: a win's capped fan, None for a kong
    patterns: list[tuple[str, ...] | None]  # per event: a win's patterns as scored (根 counted)
    settlement: list[Transfer]  # 查叫 at the wall's end
    scores: tuple[int, ...]  # one a seat
    end_reason: str
    findings: list[Finding] = field(default_factory=list)  # what the facts cannot be
    complete: bool = True


def _events(deal: DealFacts) -> list[SheetKong | SheetHu]:
    out: list[SheetKong | SheetHu] = []
    for number, fact in enumerate(deal.events):
        line = number + 2  # line 1 is the deal
        if isinstance(fact, KongFact):
            source = fact.from_seat if fact.kind == "exposed" else None
            same_turn = fact.same_turn or fact.kind != "added"
            out.append(SheetKong(fact.seat, fact.kind, source, same_turn=same_turn, line=line))  # type: ignore[arg-type]
        else:
            out.append(SheetHu(fact.seat, fact.from_seat, tuple(fact.patterns), line=line))
    return out


def _audit(deal: DealFacts, rules: Rules, base: int, end: DealEnd | None) -> DealReport:
    start = DealStart(deal_id=deal.deal_id, dealer=deal.dealer, hands=(), line=1, record="sheet")
    return audit_sheet(
        start, (), end, rules, ReplayOptions(base=base, sheet_events=_events(deal)), FindingSink()
    )


def net_findings(seats: int, nets: Sequence[int], line: int) -> list[Finding]:
    """What a net-only deal cannot be: one net a seat, adding up to zero."""
    if len(nets) != seats:
        text = f"a net-only deal has one net a seat ({seats}), not {len(nets)}"
        return [
            Finding("bad_record", line, None, text, expected=seats, recorded=list(nets), rule="score sheet")
        ]
    if sum(nets) != 0:
        text = f"the nets of a deal add up to zero; these add up to {sum(nets):+d}"
        return [
            Finding(
                "score_mismatch",
                line,
                None,
                text,
                expected="a sum of 0",
                recorded=list(nets),
                rule="zero sum",
            )
        ]
    return []


def price(session: SessionFacts, deal: DealFacts) -> Priced:
    """Every payment of the deal so far, by the engine (an added kong is paid once the next
    move shows nobody robbed it, as the rules say; 查叫 only once ``deal.end`` is set). A
    quick-entry deal (``nets``) has no payments: its scores are its nets, as written."""
    rules = session.rule_set()
    if deal.nets is not None:
        nets = tuple(int(n) for n in deal.nets)
        found = net_findings(rules.seats, nets, 2)
        return Priced([], [], [], [], nets if not found else (0,) * rules.seats, NET_ONLY, found, not found)
    end_line = len(deal.events) + 2
    # how the deal ends so far (three won, first_hu, or the wall) is the audit's to say
    trial = _audit(deal, rules, session.base, DealEnd(reason="wall_exhausted", line=end_line))
    reason = trial.end_reason or "wall_exhausted"
    if deal.end is None:
        report = _audit(deal, rules, session.base, None)
        findings = [f for f in report.findings if f.code != "wrong_end"]  # no end yet: expected
    else:
        end = DealEnd(
            reason=reason,
            line=end_line,
            ready=deal.end.fitted(rules.seats),
            flower_pigs=tuple(deal.end.flower_pigs),
        )
        report = _audit(deal, rules, session.base, end)
        findings = list(report.findings)
    # the lines carry the patterns as the engine scores them (根 for each kong, 自摸加番),
    # so a pattern list that differs from the pick is no finding of what is written
    findings = [f for f in findings if not (f.code == "fan_mismatch" and isinstance(f.recorded, list))]
    by_line: dict[int, list[Transfer]] = {}
    for transfer in report.ledger:
        by_line.setdefault(transfer.line, []).append(transfer)
    fans: dict[int, int] = {win.line: win.result.fan for win in report.wins}
    scored = {win.line: tuple(win.result.patterns) for win in report.wins}
    lines = range(2, end_line)
    settlement = by_line.get(end_line, []) if deal.end is not None else []
    return Priced(
        payments=[by_line.get(n, []) for n in lines],
        fans=[fans.get(n) for n in lines],
        patterns=[scored.get(n) for n in lines],
        settlement=settlement,
        scores=report.scores,
        end_reason=reason,
        findings=findings,
        complete=report.complete,
    )


def seats_after(rules: Rules, events: Sequence[Fact]) -> tuple[list[int], list[int]]:
    """(the seats still in, the seats that never won) after ``events``, by the settlement
    core's own rule (:class:`engine.settle.Settler`): a seat still in may kong, win, be
    discarded from and pays; 查叫 at the wall's end is for the seats that never won. Under
    血流成河 (``end_condition: bloody_flow``) a winner stays in, so every seat is still in;
    under the other rule sets a winner has left."""
    settler = Settler(rules)
    for number, fact in enumerate(events):
        if isinstance(fact, WinFact):  # marks the winner as the Settler does; the price is not used
            settler.win_self_draw(fact.seat, 1, number + 2)
    return settler.in_play, settler.never_won


def win_fan(session: SessionFacts, deal: DealFacts, win: WinFact) -> tuple[int | None, list[Finding]]:
    """The fan ``win`` would score now, after the deal's events (capped, by the engine), or
    None with the findings that say why it cannot be."""
    trial = DealFacts(deal.deal_id, deal.dealer, (*deal.events, win), None, deal.revision)
    priced = price(session, trial)
    fan = priced.fans[-1]
    mine = [f for f in priced.findings if f.line == len(trial.events) + 1]
    return fan, mine


def picked_patterns(picked: Sequence[str], roots: int = 0, summing: bool = False) -> tuple[str, ...]:
    """The patterns of a win from chips picked at the table: one base pattern (none is a
    平胡; two that make one are that one, 清一色 + 对对胡 = 清对, unless the rule set adds
    patterns up: ``summing``), then the extras, then ``roots`` 根 (the engine counts at
    least one per kong of the winner)."""
    bases = [p for p in picked if p in BASE_IDS]
    extras = [p for p in picked if p not in BASE_IDS and p != "gen"]
    if not bases:
        bases = ["pinghu"]
    elif len(bases) > 1 and not summing:
        combined = COMBINED_BASES.get(frozenset(bases))
        bases = [combined] if combined is not None else bases
    return (*bases, *extras, *("gen",) * max(roots, picked.count("gen")))


def _dump(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def session_line(session: SessionFacts) -> str:
    record: dict[str, Any] = {
        "type": "session",
        "session_id": session.session_id,
        "players": list(session.players),
        "rules": session.rules,
        "base": session.base,
    }
    for key in ("club", "table", "started_at"):
        value = getattr(session, key)
        if value:
            record[key] = value
    return _dump(record)


def deal_lines(session: SessionFacts, deal: DealFacts) -> list[str]:
    """The deal as sheet-deal lines, each with the claims the engine priced. The deal must
    be ended (``deal.end``): a sheet deal closes with its ``deal_end``. A deleted deal is
    its ``deal`` line and a ``deal_end`` with the reason ``deleted`` (a revision of 2 or more)."""
    if deal.deleted:
        if deal.revision < 2:
            raise ValueError(
                f"deal {deal.deal_id}: only a deal saved before can be deleted (revision 2 or more)"
            )
        gone = {"type": "deal", "deal_id": deal.deal_id, "record": "sheet", "dealer": deal.dealer}
        return [_dump({**gone, "revision": deal.revision}), _dump({"type": "deal_end", "reason": DELETED})]
    if deal.nets is not None:  # quick entry: the nets alone, a net_only sheet deal
        priced = price(session, deal)
        if priced.findings:
            raise ValueError(f"deal {deal.deal_id} cannot be recorded: {priced.findings[0].message}")
        quick: dict[str, Any] = {
            "type": "deal",
            "deal_id": deal.deal_id,
            "record": "sheet",
            "dealer": deal.dealer,
        }
        if deal.revision > 1:
            quick["revision"] = deal.revision
        return [_dump(quick), _dump({"type": "deal_end", "reason": NET_ONLY, "scores": list(priced.scores)})]
    if deal.end is None:
        raise ValueError(f"deal {deal.deal_id} has not ended: record the wall's end first")
    priced = price(session, deal)
    seats = session.rule_set().seats
    if priced.findings:
        first = priced.findings[0]
        raise ValueError(f"deal {deal.deal_id} cannot be recorded: line {first.line}: {first.message}")
    head: dict[str, Any] = {"type": "deal", "deal_id": deal.deal_id, "record": "sheet", "dealer": deal.dealer}
    if deal.revision > 1:
        head["revision"] = deal.revision
    out = [_dump(head)]
    for number, fact in enumerate(deal.events):
        paid, fan, scored = priced.payments[number], priced.fans[number], priced.patterns[number]
        if isinstance(fact, KongFact):
            kong: dict[str, Any] = {"type": "kong", "seat": fact.seat, "kind": fact.kind}
            if fact.kind == "exposed":
                kong["from"] = fact.from_seat
            kong["deltas"] = list(seat_deltas(paid, seats))
            if fact.kind == "added" and not fact.same_turn:
                kong["same_turn"] = False  # left out when true, as the writer does
            out.append(_dump(kong))
        else:
            hu: dict[str, Any] = {
                "type": "hu", "seat": fact.seat, "from": fact.from_seat,
                "patterns": list(scored if scored is not None else fact.patterns),
            }  # fmt: skip
            if fan is not None:
                hu["fan"] = fan
            hu["deltas"] = list(seat_deltas(paid, seats))
            out.append(_dump(hu))
    end: dict[str, Any] = {"type": "deal_end", "reason": priced.end_reason}
    if priced.end_reason == "wall_exhausted":
        end["ready"] = list(deal.end.fitted(seats))
        end["flower_pigs"] = list(deal.end.flower_pigs)
    end["settlement"] = list(seat_deltas(priced.settlement, seats))
    end["scores"] = list(priced.scores)
    out.append(_dump(end))
    return out


def log_text(session: SessionFacts, deals: Sequence[DealFacts]) -> str:
    """A log file of the session line and the given (ended) deals; no ``session_end``:
    a session recorded at the table is saved deal by deal, each file adding to it."""
    lines = [session_line(session)]
    for deal in deals:
        lines += deal_lines(session, deal)
    return "\n".join(lines) + "\n"
