"""Points into money at the close (engine/money.py): worked examples by hand, and the
invariants for any session (hypothesis): the money balances to the fen (players and
house), each player is within one rounding unit of the exact amount, the fee is what the
rule says, and the transfers settle every amount."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.money import HOUSE, ROUNDING, MoneyError, MoneyRule, settle_money, yuan
from engine.settle_up import Payoff


def test_no_fee_is_points_times_the_price() -> None:
    # 0.5 元 a point: +30 -> 15 元, -10 -> -5 元, -20 -> -10 元, 0 -> 0
    done = settle_money([30, -10, -20, 0], MoneyRule(fen_per_point=50))
    assert done.amounts == (1500, -500, -1000, 0) and done.house == 0
    assert set(done.transfers) == {Payoff(2, 0, 1000), Payoff(1, 0, 500)}


def test_a_fixed_fee_is_shared_equally() -> None:
    # 1 元 a point, 台费 40 元 AA: each pays 10 元. +30 -> 20 元, -10 -> -20, -20 -> -30, 0 -> -10;
    # 20 - 20 - 30 - 10 = -40: the house's 40 元
    done = settle_money([30, -10, -20, 0], MoneyRule(100, "fixed", 4000))
    assert done.amounts == (2000, -2000, -3000, -1000) and done.house == 4000
    paid_to = {(t.payer, t.payee): t.amount for t in done.transfers}
    assert sum(a for (_, payee), a in paid_to.items() if payee == HOUSE) == 4000
    assert sum(a for (_, payee), a in paid_to.items() if payee == 0) == 2000


def test_a_share_of_the_takings_is_paid_by_the_winners() -> None:
    # 1 元 a point, 抽水 10% of what a winner takes: +30 -> 27 元 (3 to the house), +10 -> 9 (1);
    # losers pay in full: -25, -15; 27 + 9 - 25 - 15 = -4: the house's 4 元
    done = settle_money([30, 10, -25, -15], MoneyRule(100, "share", 10))
    assert done.amounts == (2700, 900, -2500, -1500) and done.house == 400


def test_rounding_to_the_yuan_keeps_the_balance() -> None:
    # 0.5 元 a point: exact 1.5, 1.5, -1.5, -1.5 元; to the 元 by the largest remainder:
    # floors 1, 1, -2, -2 (sum -2 元, 2 元 missing); every remainder is 0.5 元, ties go in
    # seat order: seats 0 and 1 get their unit back: 2, 2, -2, -2 (each within 1 元 of exact)
    done = settle_money([3, 3, -3, -3], MoneyRule(50, rounding="yuan"))
    assert done.amounts == (200, 200, -200, -200) and done.house == 0


def test_rules_that_make_no_sense_are_refused() -> None:
    with pytest.raises(MoneyError):
        MoneyRule(-1)
    with pytest.raises(MoneyError):
        MoneyRule(100, "share", 101)
    with pytest.raises(MoneyError):
        MoneyRule(100, "tip", 5)
    with pytest.raises(MoneyError):
        MoneyRule(100, rounding="wan")
    with pytest.raises(ValueError, match="sum to zero"):
        settle_money([1, 0, 0, 0], MoneyRule(100))


def test_yuan_text() -> None:
    assert [yuan(v) for v in (0, 300, 1250, -5, 1)] == ["0", "3", "12.5", "-0.05", "0.01"]
    assert yuan(300, sign=True) == "+3" and yuan(-300, sign=True) == "-3"


@st.composite
def sessions(draw: st.DrawFn) -> list[int]:
    points = draw(st.lists(st.integers(-500, 500), min_size=2, max_size=5))
    return [*points, -sum(points)]


rules = st.builds(
    MoneyRule,
    fen_per_point=st.integers(0, 500),
    fee_kind=st.sampled_from(["none", "fixed", "share"]),
    fee=st.integers(0, 100),
    rounding=st.sampled_from(list(ROUNDING)),
)


@given(sessions(), rules)
def test_money_balances_and_stays_within_a_unit(points: list[int], rule: MoneyRule) -> None:
    done = settle_money(points, rule)
    unit = ROUNDING[rule.rounding]
    assert sum(done.amounts) + done.house == 0  # to the fen: nothing made or lost
    assert done.house >= 0 and all(a % unit == 0 for a in done.amounts) and done.house % unit == 0
    fee = {
        "none": [Fraction(0)] * len(points),
        "fixed": [Fraction(rule.fee, len(points))] * len(points),
        "share": [Fraction(max(p, 0) * rule.fen_per_point * rule.fee, 100) for p in points],
    }[rule.fee_kind]
    exact = [p * rule.fen_per_point - f for p, f in zip(points, fee, strict=True)]
    assert all(abs(a - e) < unit for a, e in zip(done.amounts, exact, strict=True))
    assert abs(done.house - sum(fee, Fraction(0))) <= Fraction(unit, 2)
    settled = [*done.amounts, done.house]
    for t in done.transfers:  # paying every transfer brings everyone to zero
        payee = len(done.amounts) if t.payee == HOUSE else t.payee
        settled[t.payer] += t.amount
        settled[payee] -= t.amount
    assert settled == [0] * (len(points) + 1)
