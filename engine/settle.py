"""The settlement core: every payment of a deal priced from declared facts alone.

Facts are who made which kind of kong (and from whom), who won how (self-draw or from
whom, at what fan, with a 杠上炮 or a rob), and at an empty wall who is ready at what fan
and who is a 花猪. No tiles: the tile replay (:mod:`engine.deal`) derives these facts and
feeds them here, and the score-sheet audit (:mod:`engine.sheet`) feeds what a club wrote
down, so both price a deal with the same code (rules.md sections 4-6).
"""

from __future__ import annotations

from engine.rules import Rules
from engine.settlement import (
    KongIncome,
    Transfer,
    flower_pig_transfers,
    multiplier,
    no_ting_transfers,
    refund_transfers,
)

#: the extras of rules.md section 4, each +1 fan (``gen`` once per root)


def fan_of(base_fan: int, extras: int, rules: Rules) -> tuple[int, int]:
    """(capped, uncapped) fan of a win: the base pattern plus one per extra, capped by
    ``max_fan`` (rules.md 4)."""
    total = base_fan + extras
    return (total if rules.max_fan is None else min(total, rules.max_fan)), total


class Settler:
    """The payments of one deal, priced event by event from facts (刮风下雨, 胡, 查叫).

    ``won`` is the deal's list of who has won (four entries; at a table of fewer seats,
    the rules' ``seats``, only the first ``seats`` ever play or pay); who is still in (``left`` is who has left)
    decides who pays a kong or a self-draw, so the owner of the facts marks a winner
    through :meth:`win_self_draw` or :meth:`win_discard`. Under 血流成河
    (``end_condition: bloody_flow``) a winner stays in: ``left`` stays all False and only
    the seats that never won take part in 查叫.
    """

    def __init__(self, rules: Rules, base: int = 1) -> None:
        self.rules = rules
        self.base = base
        self.won = [False, False, False, False]
        self.stays = rules.end_condition == "bloody_flow"  # 血流成河: a winner plays on
        self.left = [False, False, False, False] if self.stays else self.won
        self.ledger: list[Transfer] = []
        self.kong_income: list[KongIncome] = []
        self.settlement: list[Transfer] = []
        self.last_kong: KongIncome | None = None
        self.last_kong_feeder: int | None = None  # the discarder an exposed kong took from

    @property
    def in_play(self) -> list[int]:
        """The seats still in the deal: they pay a kong or a self-draw."""
        return [seat for seat in range(self.rules.seats) if not self.left[seat]]

    @property
    def never_won(self) -> list[int]:
        """The seats that have not won: 查叫 is theirs (the seats still in, under 血战)."""
        return [seat for seat in range(self.rules.seats) if not self.won[seat]]

    # -- kongs (刮风下雨)
    def kong_payers(
        self, seat: int, kind: str, feeder: int | None, earns: bool = True
    ) -> list[tuple[int, int]]:
        """(payer, base units) of a kong by the seats still in (rules.md 5)."""
        rules = self.rules
        if kind == "exposed":
            assert feeder is not None
            return [(feeder, rules.exposed_kong_discarder)] + [
                (other, rules.exposed_kong_others) for other in self.in_play if other not in (seat, feeder)
            ]
        if kind == "concealed":
            return [(other, rules.concealed_kong_each) for other in self.in_play if other != seat]
        each = rules.added_kong_each if earns else 0
        return [(other, each) for other in self.in_play if other != seat]

    def kong(
        self, seat: int, kind: str, tile: int, line: int, feeder: int | None = None, earns: bool = True
    ) -> list[Transfer]:
        """Pay a kong now; ``earns`` False is an added kong that earns nothing
        (``added_kong_same_turn_only``). Returns its transfers."""
        income = KongIncome(seat, tile, kind, line)
        transfers = []
        for payer, units in self.kong_payers(seat, kind, feeder, earns):
            amount = units * self.base
            if amount:
                transfers.append(Transfer("kong_" + kind, payer, seat, amount, line))
                income.paid_by.append((payer, amount))
        self.ledger.extend(transfers)
        self.kong_income.append(income)
        self.last_kong = income
        self.last_kong_feeder = feeder if kind == "exposed" else None
        return transfers

    # -- wins
    def win_self_draw(self, seat: int, fan: int, line: int, fed_by: int | None = None) -> list[Transfer]:
        """自摸: every seat still in pays (自摸加底 adds a base each); ``fed_by`` is the
        seat that pays alone for a 杠上花 on an exposed kong counted as a discard win
        (``kong_bloom_after_exposed: discard``)."""
        unit = self.base * multiplier(fan)
        transfers: list[Transfer] = []
        if fed_by is not None:
            transfers.append(Transfer("win_discard", fed_by, seat, unit, line))
        else:
            for payer in self.in_play:
                if payer == seat:
                    continue
                transfers.append(Transfer("win_self_draw", payer, seat, unit, line))
                if self.rules.self_draw_bonus == "add_base":
                    transfers.append(Transfer("self_draw_bonus", payer, seat, self.base, line))
        self._won(seat, transfers)
        return transfers

    def bloom_feeder(self, seat: int) -> int | None:
        """Who pays alone for ``seat``'s 杠上花 now: the feeder of its exposed kong when the
        rules count that bloom as a discard win, else ``None`` (every seat still in pays)."""
        kong = self.last_kong
        if (
            kong is None
            or kong.seat != seat
            or kong.kind != "exposed"
            or self.rules.kong_bloom_after_exposed != "discard"
        ):
            return None
        return self.last_kong_feeder

    def win_discard(
        self, seat: int, from_seat: int, fan: int, line: int, kong_discard: bool
    ) -> list[Transfer]:
        """点炮 (or 抢杠): the discarder pays; on a 杠上炮 it also hands on what its last
        kong earned (呼叫转移), the whole income to each winner, or (``refund``) returns
        it to the seats that paid it, once however many win."""
        transfers = [Transfer("win_discard", from_seat, seat, self.base * multiplier(fan), line)]
        kong = self.last_kong
        if kong_discard and kong is not None and kong.seat == from_seat and kong.income:
            transfers += self._kong_on_discard(kong, seat, line)
        self._won(seat, transfers)
        return transfers

    def _kong_on_discard(self, kong: KongIncome, winner: int, line: int) -> list[Transfer]:
        """What a 杠上炮 does with the discarder's kong, as ``kong_discard_transfer`` says."""
        mode = self.rules.kong_discard_transfer
        if mode is True:
            kong.handed_on += kong.income
            return [Transfer("kong_transfer", kong.seat, winner, kong.income, line)]
        if mode != "refund" or kong.handed_on >= kong.income:
            return []  # kept (false), or already refunded to a first winner of the discard
        kong.handed_on = kong.income  # nothing is left for 退税 to return
        return [Transfer("kong_refund", kong.seat, payer, amount, line) for payer, amount in kong.paid_by]

    def _won(self, seat: int, transfers: list[Transfer]) -> None:
        self.ledger.extend(transfers)
        self.won[seat] = True

    # -- 查叫 at an empty wall
    def cha_jiao(self, pigs: set[int], ready: dict[int, int], line: int) -> list[Transfer]:
        """查花猪, then 查大叫, then 退税 (rules.md 6), among the seats that never won."""
        in_play = self.never_won
        rules = self.rules
        points = rules.flower_pig_points * self.base
        transfers = flower_pig_transfers(in_play, pigs, points, line, rules.flower_pig_pays, rules.seats)
        flat = rules.no_ting_pays if isinstance(rules.no_ting_pays, int) else None
        transfers += no_ting_transfers(in_play, pigs, ready, self.base, line, flat)
        if rules.tax_refund:
            not_ready = {seat for seat in in_play if seat not in ready}
            transfers += refund_transfers(self.kong_income, not_ready, line)
        self.settlement = transfers
        self.ledger.extend(transfers)
        return transfers
