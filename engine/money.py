"""Points into money at the evening's close (结账): the value of a point in 元, the table
fee (台费/茶水) and the rounding a club settles with.

Everything is counted in 分 (fen, 0.01 元) as exact fractions and rounded once, at the
end, so the amounts always balance: what the losers pay is what the winners and the
house (the fee) receive, to the fen. Two fees are common at real tables:

- ``fixed``: a sum for the table (e.g. 40 元 of tea and table), shared equally by the
  players (AA制);
- ``share``: a percentage of each winner's takings (抽水), paid by the winners only.

Rounding to the 角 or the 元 keeps the balance by the largest remainder: each player's
amount is rounded down to the unit and the units still missing go to those whose
amounts were cut the most, so nobody is off by a unit or more, and the house takes
only its fee (itself rounded to the unit).

Who pays whom is between players only (:attr:`MoneyResult.transfers`): each player's
money before the fee (:attr:`MoneyResult.gross`, what the points are worth) is settled
among the players, and each player pays their own fee (:attr:`MoneyResult.fees`: an
equal share of a ``fixed`` fee, a winner's cut of a ``share``) to whoever keeps the
table, as a line of its own. So nobody is made the debtor of the whole fee, and a
player's 元 after the fee is ``gross - fee`` to the fen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from engine.settle_up import MAX_PLAYERS, Payoff, fewest_transfers

FEE_KINDS: Final = ("none", "fixed", "share")
#: rounding unit -> fen per unit
ROUNDING: Final = {"fen": 1, "jiao": 10, "yuan": 100}
HOUSE: Final = (
    -1
)  # the fee's payee, for callers that name it: the fee leaves the table, so no transfer pays it


class MoneyError(ValueError):
    """A money rule that makes no sense (a negative price, a share over 100%...)."""


@dataclass(frozen=True)
class MoneyRule:
    """How a club turns points into 元: ``fen_per_point`` (50 = 0.5 元 a point), a fee
    (``fee`` in fen for ``fixed``, in percent for ``share``) and the rounding unit."""

    fen_per_point: int
    fee_kind: str = "none"
    fee: int = 0
    rounding: str = "fen"

    def __post_init__(self) -> None:
        if self.fen_per_point < 0:
            raise MoneyError(f"a point cannot be worth less than nothing ({self.fen_per_point} fen)")
        if self.fee_kind not in FEE_KINDS:
            raise MoneyError(f"fee {self.fee_kind!r}: one of {', '.join(FEE_KINDS)}")
        if self.fee < 0 or (self.fee_kind == "share" and self.fee > 100):
            raise MoneyError(f"fee {self.fee}: a sum of 0 fen or more, a share of 0 to 100%")
        if self.rounding not in ROUNDING:
            raise MoneyError(f"rounding {self.rounding!r}: one of {', '.join(ROUNDING)}")


@dataclass(frozen=True)
class MoneyResult:
    """Each player's money after the fee (fen; positive: receives), the house's fee, who
    pays whom among the players (of ``gross``), each player's money before the fee
    (``gross``, zero-sum) and each player's fee (``fees``, summing to ``house``);
    ``amounts[i] == gross[i] - fees[i]``."""

    amounts: tuple[int, ...]
    house: int
    transfers: tuple[Payoff, ...]
    gross: tuple[int, ...] = ()
    fees: tuple[int, ...] = ()


def _fees(points: Sequence[int], rule: MoneyRule) -> list[Fraction]:
    players = len(points)
    if rule.fee_kind == "fixed" and players:
        return [Fraction(rule.fee, players)] * players
    if rule.fee_kind == "share":
        return [Fraction(max(p, 0) * rule.fen_per_point * rule.fee, 100) for p in points]
    return [Fraction(0)] * players


def _round_to(value: Fraction, unit: int) -> int:
    """``value`` to the nearest multiple of ``unit`` (halves away from zero)."""
    units = abs(value) / unit
    whole = int(units + Fraction(1, 2))
    return whole * unit if value >= 0 else -whole * unit


def _largest_remainder(exact: Sequence[Fraction], target: int, unit: int) -> list[int]:
    """Multiples of ``unit`` summing to ``target``, each within one unit of its exact value."""
    floors = [(value // unit) * unit for value in exact]
    missing = (target - sum(floors)) // unit
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order[: max(0, int(missing))]:
        floors[i] += unit
    return [int(v) for v in floors]


def settle_money(points: Sequence[int], rule: MoneyRule) -> MoneyResult:
    """The evening's money from each player's points (a zero-sum list: a session's nets).

    Raises ``ValueError`` when the points do not sum to zero (nothing to settle)."""
    if sum(points) != 0:
        raise ValueError(f"the points do not sum to zero: {list(points)} sums to {sum(points)}")
    unit = ROUNDING[rule.rounding]
    fees = _fees(points, rule)
    exact = [Fraction(p * rule.fen_per_point) - fee for p, fee in zip(points, fees, strict=True)]
    house = _round_to(sum(fees, Fraction(0)), unit)
    amounts = _largest_remainder(exact, -house, unit)
    # each fee to the unit, summing to the house's (a loser's share fee stays 0: only
    # fees with a remainder take a missing unit); before the fee = after it + the fee
    paid = _largest_remainder(fees, house, unit)
    gross = [a + f for a, f in zip(amounts, paid, strict=True)]
    transfers = tuple(settle(gross))
    return MoneyResult(tuple(amounts), house, transfers, tuple(gross), tuple(paid))


def settle(nets: Sequence[int]) -> list[Payoff]:
    """Who pays whom for zero-sum ``nets``: the fewest transfers
    (:func:`engine.settle_up.fewest_transfers`) up to its limit of players; past it (a
    club night of five tables and more) the biggest loser pays the biggest winner in
    turn, at most one transfer fewer than the players."""
    if not any(nets):
        return []
    if sum(1 for n in nets if n) <= MAX_PLAYERS:
        return fewest_transfers(nets)
    left = list(nets)
    out: list[Payoff] = []
    while any(left):
        payer = min(range(len(left)), key=lambda i: (left[i], i))
        payee = max(range(len(left)), key=lambda i: (left[i], -i))
        amount = min(-left[payer], left[payee])
        out.append(Payoff(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return out


def yuan(fen: int, *, sign: bool = False) -> str:
    """Fen as 元 with the fewest decimals the amount needs (12.50 → "12.5", 300 → "3")."""
    text = f"{abs(fen) / 100:.2f}".rstrip("0").rstrip(".")
    if fen < 0:
        return f"-{text}"
    return f"+{text}" if sign and fen > 0 else text
