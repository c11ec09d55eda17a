"""Payments as a ledger of transfers, each with its reason (docs/rules.md sections 5 and 6).

Every payment is one transfer from a payer to a payee, so points sum to zero after each
one by construction, and a deal's deltas, scores and the 退税 refunds are sums over it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec


class Transfer(msgspec.Struct, frozen=True, gc=False):
    reason: str
    payer: int
    payee: int
    amount: int
    line: int  # the event that caused it (deal_end for 查叫)


class KongIncome(msgspec.Struct, gc=False):
    """What one kong earned, from whom, and how much of it 杠上炮 handed on."""

    seat: int
    tile: int
    kind: str
    line: int
    paid_by: list[tuple[int, int]] = []  # (payer, amount); msgspec copies an empty default
    handed_on: int = 0

    @property
    def income(self) -> int:
        return sum(amount for _, amount in self.paid_by)


def deltas(transfers: Iterable[Transfer]) -> tuple[int, int, int, int]:
    """The four seats' point changes from some transfers."""
    out = [0, 0, 0, 0]
    for transfer in transfers:
        out[transfer.payer] -= transfer.amount
        out[transfer.payee] += transfer.amount
    return (out[0], out[1], out[2], out[3])


def seat_deltas(transfers: Iterable[Transfer], seats: int) -> tuple[int, ...]:
    """The point changes of a table of ``seats`` seats (the rules' ``seats``) from some
    transfers: one entry a seat, so a three-seat deal's nets have three."""
    out = [0] * seats
    for transfer in transfers:
        out[transfer.payer] -= transfer.amount
        out[transfer.payee] += transfer.amount
    return tuple(out)


def multiplier(fan: int) -> int:
    """2^(fan - 1): 1 fan x1, 2 x2, 3 x4 (seed 003: 点数即倍数为2的(番数减1)次方)."""
    return 1 << (fan - 1)


def flower_pig_transfers(
    in_play: Sequence[int], pigs: set[int], points: int, line: int, pays: str = "still_in", seats: int = 4
) -> list[Transfer]:
    """查花猪: every 花猪 pays every seat still in that is not a 花猪 (``flower_pig_pays``
    ``still_in``), or every other seat, in or out (``all_others``)."""
    payees = range(seats) if pays == "all_others" else in_play
    return [
        Transfer("flower_pig", pig, seat, points, line)
        for pig in sorted(pigs)
        for seat in payees
        if seat != pig and (pays == "all_others" or seat not in pigs)
    ]


def no_ting_transfers(
    in_play: Sequence[int], pigs: set[int], ready_fan: dict[int, int], base: int, line: int,
    flat: int | None = None,
) -> list[Transfer]:  # fmt: skip
    """查大叫: every seat still in, not a 花猪 and not ready, pays every ready seat its
    ready hand's value, or ``flat`` base units each (``no_ting_pays`` a number)."""
    return [
        Transfer("no_ting", seat, ready, base * (flat if flat is not None else multiplier(fan)), line)
        for seat in in_play
        if seat not in pigs and seat not in ready_fan
        for ready, fan in sorted(ready_fan.items())
    ]


def refund_transfers(kongs: Sequence[KongIncome], not_ready: set[int], line: int) -> list[Transfer]:
    """退税: a seat still in that is not ready returns what its kongs earned, less what it
    already handed on by 杠上炮 transfer, never below zero."""
    out = []
    for kong in kongs:
        if kong.seat not in not_ready or kong.handed_on >= kong.income:
            continue
        # A transfer hands on the whole income per winner, so a kong is either refunded
        # whole or not at all; a partial remainder is returned payer by payer in order.
        left = kong.income - kong.handed_on
        for payer, amount in kong.paid_by:
            give = min(amount, left)
            if give > 0:
                out.append(Transfer("tax_refund", kong.seat, payer, give, line))
                left -= give
    return out
