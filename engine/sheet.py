"""The audit of a score-sheet deal (docs/log-format.md, "Score sheets"): no tiles, only
what a club wrote down (kongs, wins with their patterns, who is ready at the wall's end
and who is a 花猪), priced by the same settlement core as a tile deal
(:class:`engine.settle.Settler`) and checked for what the facts allow: a seat that has
won makes no more kongs and wins no second time (under 血流成河 it plays on and may win
again), a winner's 根 count covers its kongs,
no seven pairs after a kong, one base pattern scored by the rule set (under
``fan_combination = "sum"`` several that add up: :func:`engine.fan.adds_up`), ``ready`` and
``flower_pigs`` only for seats still in at the wall's end and only where a 花猪 can be
(:func:`engine.moves.flower_pigs_possible`: not at 三人两房's two suits), and a pattern
that names how the win happened (天胡, 地胡, 起手4红中, 杠上花, 杠上炮) only where the sheet's order of events allows
it (``impossible_pattern``, :meth:`SheetAudit.check_situation`): the Record page shows the
same finding before a win is added, so the two checks are one rule.

The table is the rules' ``seats`` (4, 3 or 2): a sheet needs no tiles, so it is audited at
any table. Every seat it names is one of the table's, every recorded list has one entry a
seat (:meth:`SheetAudit.per_seat`), the settlement core makes every other seat still in
pay, and the deal ends when all but one have won (``three_won`` at four seats).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.checks import check_end, check_kong, check_win, finding
from engine.events import DealEnd, DealStart, PlayEvent, SheetHu, SheetKong
from engine.fan import EXTRA_IDS, FanResult, adds_up, summed_fan
from engine.messages import (
    EXPOSED_NEEDS_FROM,
    NO_DEAL_END,
    Text,
    end_rule,
    sheet_after_end,
    sheet_base_count,
    sheet_bases_apart,
    sheet_cha_jiao_not_due,
    sheet_from_not_exposed,
    sheet_from_self,
    sheet_from_won,
    sheet_impossible_pattern,
    sheet_not_scored,
    sheet_pig_impossible,
    sheet_pig_ready,
    sheet_play_event,
    sheet_ready_fan,
    sheet_ready_low,
    sheet_ready_missing,
    sheet_ready_not_in,
    sheet_rob_nothing,
    sheet_seat_off_table,
    sheet_seven_pairs_kong,
    sheet_unknown_pattern,
    sheet_width,
    sheet_won_already,
)
from engine.moves import cha_jiao_due, flower_pigs_possible
from engine.replay_options import ReplayOptions
from engine.report import NO_TILE, DealReport, FindingSink
from engine.rules import Rules
from engine.settle import Settler, fan_of
from engine.settlement import deltas, seat_deltas
from engine.state import KongMade, Win
from engine.vocabulary import EXTRAS, PATTERNS

#: wins at once, before play begins (天胡, 起手4红中): after them a 起手4红中 may still come
AT_ONCE: frozenset[str] = frozenset({"tianhu", "sihongzhong"})

SEVEN_PAIRS = frozenset({"qidui", "longqidui", "qingqidui", "qinglongqidui"})


class _Stop(Exception):
    """A fact the sheet cannot have: the audit of the deal stops here (as an illegal
    event stops a tile replay), so its net is not known."""

    def __init__(
        self,
        code: str,
        line: int,
        seat: int | None,
        text: Text,
        rule: str | None = None,
        expected: Any = None,
        recorded: Any = None,
    ) -> None:
        super().__init__(text.en)
        self.code, self.line, self.seat, self.text, self.rule = code, line, seat, text, rule
        self.expected, self.recorded = expected, recorded


class SheetAudit:
    """Walks a sheet deal's events in order, pricing each with the settlement core."""

    def __init__(self, rules: Rules, base: int, sink: FindingSink, dealer: int = 0) -> None:
        self.rules = rules
        self.dealer = dealer
        self.moves = 0  # kongs and wins audited so far (天胡 comes before any)
        self.at_once = 0  # of them, wins at once (天胡, 起手4红中): play has not begun after them
        self.sink = sink
        self.settler = Settler(rules, base)
        self.wins: list[Win] = []
        self.kongs: list[KongMade] = []
        self.kongs_by = [0, 0, 0, 0]  # standing kongs per seat (a robbed one is a pong again)
        self.pending: SheetKong | None = None  # an added kong that may still be robbed
        self.after_kong: int | None = None  # the seat whose kong was the last move (杠上花/杠上炮)
        self.last_win: SheetHu | None = None  # the last move, when a win on a discard or a rob
        self.ended: str | None = None
        self.complete = True
        self.pigs: frozenset[int] = frozenset()  # 查叫 as accepted: 花猪 and ready seats' fan
        self.ready: dict[int, int] = {}

    # -- kongs
    # -- the table (rules.seats): seats it has, one recorded entry a seat
    def on_table(self, seat: int | None, field: str, line: int, who: int | None = None) -> None:
        """A seat the table has; seat 4 at a three-seat table cannot have played."""
        seats = self.rules.seats
        if seat is not None and seat >= seats:
            text = sheet_seat_off_table(seat, field, seats, self.rules)
            raise _Stop("bad_record", line, who, text, "seats", f"a seat 0-{seats - 1}", seat)

    def per_seat(self, values: tuple[Any, ...] | None, field: str, line: int, seat: int | None = None) -> Any:
        """A recorded list of one entry a seat, or None (left unchecked, with a finding)
        when it has another count than the table's seats."""
        seats = self.rules.seats
        if values is None or len(values) == seats:
            return values
        text = sheet_width(field, len(values), seats, self.rules)
        finding(
            "bad_record", line, seat, text, self.sink, expected=seats, recorded=list(values), rule="seats"
        )
        return None

    def kong(self, ev: SheetKong) -> None:
        self.close_pending(robbed=False)
        self.on_table(ev.seat, "seat", ev.line, ev.seat)
        self.on_table(ev.from_seat, "from", ev.line, ev.seat)
        self._expect_open(ev.seat, "kong", ev.line, "make a kong")
        if ev.kind == "exposed":
            if ev.from_seat is None:
                raise _Stop("bad_record", ev.line, ev.seat, EXPOSED_NEEDS_FROM, "exposed_kong", "from", None)
            self._check_source(ev.seat, ev.from_seat, ev.line, "illegal_kong", "kongs a discard")
        elif ev.from_seat is not None:
            text = sheet_from_not_exposed(ev.kind)
            finding("bad_record", ev.line, ev.seat, text, self.sink, recorded=ev.from_seat, rule="kong")
        self.kongs_by[ev.seat] += 1
        self.last_win = None
        if ev.kind == "added":
            self.pending = ev  # paid when the next move shows nobody robbed it
            self.after_kong = ev.seat
            return
        self._pay_kong(ev, True)

    def _pay_kong(self, ev: SheetKong, earns: bool) -> None:
        tile = _tile_or_none(ev.tile)
        feeder = ev.from_seat if ev.kind == "exposed" else None
        transfers = self.settler.kong(ev.seat, ev.kind, tile, ev.line, feeder, earns)
        made = KongMade(ev.seat, tile, ev.kind, ev.line, deltas(transfers))
        self.kongs.append(made)
        check_kong(made, self.per_seat(ev.deltas, "deltas", ev.line, ev.seat), self.rules, self.sink)
        self.after_kong = ev.seat

    def close_pending(self, robbed: bool) -> None:
        """The added kong waiting for a rob: robbed (void, earns nothing) or paid now."""
        ev = self.pending
        if ev is None:
            return
        self.pending = None
        if not robbed:
            self._pay_kong(ev, ev.same_turn or not self.rules.added_kong_same_turn_only)
            return
        tile = _tile_or_none(ev.tile)
        made = KongMade(ev.seat, tile, "added", ev.line, (0, 0, 0, 0), robbed=True)
        self.kongs.append(made)
        self.kongs_by[ev.seat] -= 1
        check_kong(made, self.per_seat(ev.deltas, "deltas", ev.line, ev.seat), self.rules, self.sink)
        self.after_kong = None

    # -- wins
    def hu(self, ev: SheetHu) -> None:
        self.on_table(ev.seat, "seat", ev.line, ev.seat)
        self.on_table(ev.from_seat, "from", ev.line, ev.seat)
        robs = "qiangganghu" in ev.patterns
        pending = self.pending
        if robs and pending is not None and ev.from_seat == pending.seat:
            self.close_pending(robbed=True)
        else:
            self.close_pending(robbed=False)
            last = self.last_win
            same_rob = last is not None and "qiangganghu" in last.patterns and last.from_seat == ev.from_seat
            if robs and not same_rob:
                source = ev.from_seat if ev.from_seat is not None else ev.seat
                raise _Stop(
                    "illegal_hu", ev.line, ev.seat, sheet_rob_nothing(ev.seat, source), "qiangganghu",
                    "an added kong just before", source,
                )  # fmt: skip
        self._expect_open(ev.seat, "hu", ev.line, "win", ev)
        if ev.from_seat is not None:
            self._check_source(ev.seat, ev.from_seat, ev.line, "illegal_hu", "wins a discard")
        self.check_situation(ev)
        fed_by, result = self._score(ev)
        self._pay_win(ev, fed_by, result)

    def check_situation(self, ev: SheetHu) -> None:
        """天胡, 地胡, 杠上花 and 杠上炮 each name a moment of the deal (门清 and 中张 the winner's
        melds); a sheet shows enough
        of its order to rule some out, and a win written with one of them then cannot have
        happened as written (its fan is unknown), as a rob of no kong."""
        fault = self._situation_fault(ev)
        if fault is None:
            return
        pattern, name, expected = fault
        values = {"seat": ev.seat, "dealer": self.dealer, "source": ev.from_seat, "moves": self.moves}
        text = sheet_impossible_pattern(pattern, name, **values)
        raise _Stop("impossible_pattern", ev.line, ev.seat, text, pattern, expected, pattern)

    def _situation_fault(self, ev: SheetHu) -> tuple[str, str, str] | None:
        """(pattern, fault, what the facts would need) for the first declared situational
        pattern the sheet rules out, else None."""
        declared, seat, source = set(ev.patterns), ev.seat, ev.from_seat
        if "tianhu" in declared:
            if seat != self.dealer:
                return "tianhu", "not_dealer", "the dealer"
            if source is not None:
                return "tianhu", "on_discard", "a self-draw"
            if self.moves:
                return "tianhu", "not_first", "the deal's first move"
        if "sihongzhong" in declared:  # four 红中 dealt: a win at once, self-drawn
            if source is not None:
                return "sihongzhong", "on_discard", "a self-draw"
            if self.moves > self.at_once:
                return "sihongzhong", "not_first", "a win before play begins"
        if "dihu" in declared:
            if seat == self.dealer:
                return "dihu", "dealer", "a non-dealer"
            if source is not None:
                return "dihu", "on_discard", "a self-draw"
            if self.kongs:
                return "dihu", "after_kong", "no kong before"
            if self.settler.won[seat]:
                return "dihu", "won_before", "a first win"
        own_kongs = [k for k in self.kongs if k.seat == seat]
        if self.pending is not None and self.pending.seat == seat:
            own_kongs.append(
                KongMade(seat, _tile_or_none(self.pending.tile), "added", self.pending.line, (0, 0, 0, 0))
            )
        if "menqing" in declared and any(k.kind != "concealed" for k in own_kongs):
            return "menqing", "open_kong", "no exposed or added kong of the winner"
        if "zhongzhang" in declared and any(k.tile != NO_TILE and k.tile % 9 in (0, 8) for k in own_kongs):
            return "zhongzhang", "terminal_kong", "no kong of 1 or 9 by the winner"
        if "gangshanghua" in declared:
            if source is not None:
                return "gangshanghua", "on_discard", "a self-draw"
            if self.after_kong != seat:
                return "gangshanghua", "not_own_kong", "the winner's kong just before"
        if "gangshangpao" in declared:
            if source is None:
                return "gangshangpao", "self_drawn", "a win on a discard"
            if self.after_kong != source:
                return "gangshangpao", "not_source_kong", "the discarder's kong just before"
        return None

    def _score(self, ev: SheetHu) -> tuple[int | None, FanResult]:
        """The win's fan from its declared patterns, with what the facts fix: the 根 count
        covers the seat's kongs, situational extras fit how it won, 自摸加番 where due."""
        rules, seat = self.rules, ev.seat
        for pattern in ev.patterns:
            if pattern not in PATTERNS:
                raise _Stop(
                    "bad_record", ev.line, seat, sheet_unknown_pattern(pattern), "fan", "a pattern of rules.md 4", pattern
                )  # fmt: skip
        bases = [p for p in ev.patterns if p not in EXTRA_IDS]
        summing = rules.fan_combination == "sum"
        if len(bases) != 1 and not (summing and bases):
            raise _Stop(
                "fan_mismatch", ev.line, seat, sheet_base_count(len(bases), rules), "fan", 1, len(bases)
            )
        fans = []
        for one in bases:
            fan = rules.pattern_fan(one)
            if fan is None:
                raise _Stop("fan_mismatch", ev.line, seat, sheet_not_scored(one, rules), "fan", None, one)
            fans.append(fan)
        base_fan = summed_fan(fans)
        if not adds_up(bases):
            raise _Stop(
                "fan_mismatch", ev.line, seat, sheet_bases_apart(bases, rules), "fan_combination",
                "patterns that add up", bases,
            )  # fmt: skip
        bases.sort(key=lambda p: -(rules.pattern_fan(p) or 0))
        base = bases[0]
        if SEVEN_PAIRS.intersection(bases) and self.kongs_by[seat]:
            kongs = self.kongs_by[seat]
            raise _Stop(
                "illegal_hu", ev.line, seat, sheet_seven_pairs_kong(seat, kongs), "qidui", "no kong", kongs
            )
        declared = set(ev.patterns)
        self_draw = ev.from_seat is None
        rob = "qiangganghu" in declared and not self_draw
        allowed = {
            "gangshanghua": self_draw and self.after_kong == seat,
            "gangshangpao": not self_draw and not rob and self.after_kong == ev.from_seat,
            "qiangganghu": rob,
            "haidi": rules.haidi,
            # 门清 and 中张 come from tiles a sheet does not have: taken as declared
            "menqing": True,
            "zhongzhang": True,
        }
        extras = [e for e in EXTRAS if allowed.get(e) and e in declared and rules.pattern_fan(e) is not None]
        fed_by = self.settler.bloom_feeder(seat) if "gangshanghua" in extras else None
        if self_draw and fed_by is None and rules.self_draw_bonus == "add_fan" and rules.pattern_fan("zimo"):
            extras.append("zimo")
        gen_fan = rules.pattern_fan("gen") or 0
        gens = max(ev.patterns.count("gen"), self.kongs_by[seat]) if gen_fan else 0
        extra_fan = gen_fan * gens + sum(rules.pattern_fan(e) or 0 for e in extras)
        fan, uncapped = fan_of(base_fan, extra_fan, rules)
        result = FanResult(fan, base, ("gen",) * gens + tuple(extras), uncapped, tuple(bases[1:]))
        return fed_by, result

    def _pay_win(self, ev: SheetHu, fed_by: int | None, result: FanResult) -> None:
        settler = self.settler
        if ev.from_seat is None:
            kind = "kong_bloom" if "gangshanghua" in result.extras else "self_draw"
            transfers = settler.win_self_draw(ev.seat, result.fan, ev.line, fed_by)
        else:
            kind = "rob" if "qiangganghu" in result.extras else "discard"
            if "gangshangpao" in result.extras:
                kind = "kong_discard"
            transfers = settler.win_discard(
                ev.seat, ev.from_seat, result.fan, ev.line, kind == "kong_discard"
            )
        tile = _tile_or_none(ev.tile)
        win = Win(
            ev.seat, tile, ev.from_seat, result, kind, ev.line, len(self.wins) + 1, 0,
            deltas(transfers), tuple(transfers),
        )  # fmt: skip
        self.wins.append(win)
        recorded = self.per_seat(ev.deltas, "deltas", ev.line, ev.seat)
        check_win(win, ev.fan, ev.patterns, recorded, self.rules, self.sink)
        self.last_win = ev if ev.from_seat is not None else None
        if kind != "kong_discard":
            self.after_kong = None
        if self.rules.end_condition == "first_hu":
            self.ended = "first_hu"
        elif settler.left.count(True) >= self.rules.seats - 1:  # never under 血流成河: nobody leaves
            self.ended = "three_won"  # all but one have won (three at four seats)

    # -- order
    def _expect_open(self, seat: int, kind: str, line: int, what: str, hu: SheetHu | None = None) -> None:
        """The deal goes on and ``seat`` is still in; under first_hu, other winners of the
        same discard (一炮多响) still count."""
        if self.ended is not None:
            last = self.last_win
            same_discard = (
                hu is not None
                and self.ended == "first_hu"
                and self.rules.multiple_hu
                and last is not None
                and hu.from_seat == last.from_seat
            )
            if not same_discard:
                text = sheet_after_end(kind, self.ended, end_rule(self.rules))
                raise _Stop("out_of_turn", line, seat, text, "end_condition", "deal_end", kind)
        if self.settler.left[seat]:
            raise _Stop(
                "out_of_turn", line, seat, sheet_won_already(seat, what), "bloody", "a seat still in", seat
            )

    def _check_source(self, seat: int, source: int, line: int, code: str, what: str) -> None:
        if source == seat:
            raise _Stop(code, line, seat, sheet_from_self(seat, what), "claims", "another seat", source)
        if self.settler.left[source]:
            raise _Stop(
                "out_of_turn", line, seat, sheet_from_won(seat, source), "bloody", "a seat still in", source
            )

    # -- the end
    def end(self, end: DealEnd) -> None:
        self.close_pending(robbed=False)
        reason = self.ended or "wall_exhausted"
        never_won = self.settler.never_won
        if cha_jiao_due(reason, len(never_won), self.settler.stays):
            self._cha_jiao(end)
        elif (end.ready is not None and any(v is not None for v in end.ready)) or end.flower_pigs:
            text = sheet_cha_jiao_not_due(reason)
            recorded = list(end.ready) if end.ready is not None else list(end.flower_pigs or ())
            finding("bad_record", end.line, None, text, self.sink, recorded=recorded, rule="cha_jiao")
        settler = self.settler
        claims = (
            self.per_seat(end.settlement, "settlement", end.line),
            self.per_seat(end.scores, "scores", end.line),
        )
        check_end(
            reason, end.reason, end.line, settler.settlement, settler.ledger, claims, self.rules, self.sink
        )

    def _cha_jiao(self, end: DealEnd) -> None:
        """查叫 from the declared ready values and 花猪, each checked against who is in."""
        won, sink, line = self.settler.won, self.sink, end.line
        for pig in end.flower_pigs or ():
            self.on_table(pig, "flower_pigs", line)
        if end.ready is not None and len(end.ready) != self.rules.seats:
            self.per_seat(end.ready, "ready", line)
            self.complete = False  # who is ready is not known: neither is 查叫
            return
        if end.ready is None:
            finding("bad_record", line, None, sheet_ready_missing(), sink, expected="ready", rule="cha_jiao")
            self.complete = False
            return
        pigs: set[int] = set()
        for seat in end.flower_pigs or ():
            if not flower_pigs_possible(self.rules):  # two suits, no 缺一门: nobody is a 花猪
                text = sheet_pig_impossible(seat, self.rules)
                finding("bad_record", line, seat, text, sink, recorded=seat, rule="flower_pig")
            elif won[seat]:
                text = sheet_ready_not_in(seat, "flower_pigs")
                finding("bad_record", line, seat, text, sink, recorded=seat, rule="cha_jiao")
            else:
                pigs.add(seat)
        ready: dict[int, int] = {}
        cap = self.rules.max_fan
        for seat, fan in enumerate(end.ready):
            if fan is None:
                continue
            if won[seat]:
                text = sheet_ready_not_in(seat, "ready")
                finding("bad_record", line, seat, text, sink, recorded=fan, rule="cha_jiao")
            elif seat in pigs:
                finding("bad_record", line, seat, sheet_pig_ready(seat), sink, recorded=fan, rule="cha_jiao")
            elif fan < 1:
                finding(
                    "bad_record", line, seat, sheet_ready_low(seat, fan), sink, recorded=fan, rule="cha_jiao"
                )
            elif cap is not None and fan > cap:
                text = sheet_ready_fan(seat, fan, self.rules)
                finding("fan_mismatch", line, seat, text, sink, expected=cap, recorded=fan, rule="max_fan")
                ready[seat] = cap
            else:
                ready[seat] = fan
        self.settler.cha_jiao(pigs, ready, line)
        self.pigs, self.ready = frozenset(pigs), ready


def audit_sheet(
    start: DealStart,
    stray: Sequence[PlayEvent],
    end: DealEnd | None,
    rules: Rules,
    options: ReplayOptions,
    sink: FindingSink,
) -> DealReport:
    """Audit one sheet deal from its declared facts (``options.sheet_events``); ``stray``
    are tile events found in it (each a finding)."""
    start_count, warn_count = len(sink.findings), len(sink.warnings)
    for read in options.read_findings:
        sink.add(read)
    audit = SheetAudit(rules, options.base, sink, start.dealer)
    for play in stray:
        text = sheet_play_event(play.type)
        finding("bad_record", play.line, getattr(play, "seat", None), text, sink, rule="record")
    try:
        for moves, ev in enumerate(sorted(options.sheet_events, key=lambda e: e.line)):
            audit.moves = moves
            if isinstance(ev, SheetKong):
                audit.kong(ev)
            else:
                audit.hu(ev)
                if AT_ONCE.intersection(ev.patterns):  # a win at once: play has not begun
                    audit.at_once += 1
        if end is None:
            finding("wrong_end", start.line, None, NO_DEAL_END, sink, expected="deal_end")
            audit.complete = False
        else:
            audit.end(end)
    except _Stop as stop:
        finding(
            stop.code, stop.line, stop.seat, stop.text, sink,
            expected=stop.expected, recorded=stop.recorded, rule=stop.rule,
        )  # fmt: skip
        audit.complete = False
    settler = audit.settler
    return DealReport(
        deal_id=start.deal_id,
        session_id=options.session_id,
        file=sink.file,
        line=start.line,
        rules=rules.name,
        findings=sink.findings[start_count:],
        warnings=sink.warnings[warn_count:],
        scores=seat_deltas(settler.ledger, rules.seats),
        wins=audit.wins,
        kongs=audit.kongs,
        ledger=list(settler.ledger),
        settlement=seat_deltas(settler.settlement, rules.seats),
        end_reason=(audit.ended or "wall_exhausted") if end is not None else None,
        complete=audit.complete,
        record="sheet",
        pigs=audit.pigs,
        ready_at_end=audit.ready,
    )


def _tile_or_none(tile: int | None) -> int:
    """A sheet kong's tile, or :data:`NO_TILE` where the sheet names none."""
    return tile if tile is not None else NO_TILE
