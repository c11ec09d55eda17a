"""Points into money at the close (engine/money.py): worked examples by hand, and the
invariants for any session (hypothesis): the money balances to the fen (players and
house), each player is within one rounding unit of the exact amount, the fee is what the
rule says, and the transfers, between players only, settle every amount before the fee
while each player's fee is a line of its own."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.money import HOUSE, ROUNDING, MoneyError, MoneyRule, settle, settle_money, yuan
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
    # nobody owes the table: the players settle the points' worth among themselves (30 元
    # to seat 0) and each pays their own 10 元 of fee
    assert done.fees == (1000, 1000, 1000, 1000) and done.gross == (3000, -1000, -2000, 0)
    assert all(t.payee != HOUSE and t.payer != HOUSE for t in done.transfers)
    assert set(done.transfers) == {Payoff(2, 0, 2000), Payoff(1, 0, 1000)}


def test_a_share_of_the_takings_is_paid_by_the_winners() -> None:
    # 1 元 a point, 抽水 10% of what a winner takes: +30 -> 27 元 (3 to the house), +10 -> 9 (1);
    # losers pay in full: -25, -15; 27 + 9 - 25 - 15 = -4: the house's 4 元
    done = settle_money([30, 10, -25, -15], MoneyRule(100, "share", 10))
    assert done.amounts == (2700, 900, -2500, -1500) and done.house == 400
    assert done.fees == (300, 100, 0, 0) and done.gross == (3000, 1000, -2500, -1500)


def test_the_chengdu_night_of_the_user_test() -> None:
    # 2 元 a point, 台费 40 元 AA: 刘洋 -12 pays 李娜 24 元 (not 19, not the whole fee)
    done = settle_money([12, -12, 5, -5], MoneyRule(200, "fixed", 4000, "yuan"))
    assert done.gross == (2400, -2400, 1000, -1000) and done.fees == (1000,) * 4
    assert done.amounts == (1400, -3400, 0, -2000)
    assert set(done.transfers) == {Payoff(1, 0, 2400), Payoff(3, 2, 1000)}


def test_more_players_than_the_exact_search_settle_greedily() -> None:
    nets = [10 * (i + 1) for i in range(10)] + [-55] * 10  # 20 players: past MAX_PLAYERS
    done = settle(nets)
    left = list(nets)
    for t in done:
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    assert left == [0] * 20 and len(done) <= 19 and all(t.amount > 0 for t in done)


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
    # each fee within a unit of the rule's, summing to the house's; a loser's share fee is 0
    assert sum(done.fees) == done.house and all(
        abs(p - f) < unit for p, f in zip(done.fees, fee, strict=True)
    )
    assert all(f == 0 for f, e in zip(done.fees, fee, strict=True) if e == 0)
    assert [g - f for g, f in zip(done.gross, done.fees, strict=True)] == list(done.amounts)
    settled = list(done.gross)
    for t in done.transfers:  # paying every transfer (players only) brings everyone to zero
        assert t.payee != HOUSE and t.amount > 0
        settled[t.payer] += t.amount
        settled[t.payee] -= t.amount
    assert settled == [0] * len(points)
