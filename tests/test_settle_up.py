"""Who pays whom (engine/settle_up.py): every net is settled exactly, money only flows
from losers to winners, never more than n − 1 transfers, and never more than the fewest
possible, which a brute force over every forest of payments finds on small tables."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.settle_up import Payoff, fewest_transfers, zero_sum_groups


@st.composite
def zero_sum_nets(draw: st.DrawFn, min_size: int = 1, max_size: int = 8, bound: int = 500) -> list[int]:
    """Nets that sum to zero (the last player takes what the others leave), often with
    small values so zero-sum subgroups and ties happen."""
    values = st.integers(-bound, bound) | st.integers(-8, 8) | st.sampled_from([0, 16, -16, 32, -32])
    head = draw(st.lists(values, min_size=min_size - 1 if min_size else 0, max_size=max_size - 1))
    return [*head, -sum(head)]


def balances(size: int, transfers: list[Payoff]) -> list[int]:
    out = [0] * size
    for t in transfers:
        out[t.payer] -= t.amount
        out[t.payee] += t.amount
    return out


def brute_force_fewest(nets: list[int]) -> int:
    """The fewest transfers by search, without the zero-sum-groups argument: a minimal set
    of payments has no cycle (moving money round a cycle drops an edge), so try every
    forest of undirected edges, smallest first; the flow on a tree is forced (peel its
    leaves), and a forest works when every tree sums to zero. Edges left with no flow are
    not counted."""
    n = len(nets)
    pairs = list(combinations(range(n), 2))
    best = n  # more than any answer
    for size in range(n):
        for edges in combinations(pairs, size):
            used = settle_on_forest(nets, list(edges))
            if used is not None:
                best = min(best, used)
        if best <= size:
            return best
    return best


def settle_on_forest(nets: list[int], edges: list[tuple[int, int]]) -> int | None:
    """Edges with non-zero flow when ``edges`` (a forest) settle ``nets``; None when they
    do not (a cycle, or a tree that does not sum to zero)."""
    parent = list(range(len(nets)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for a, b in edges:
        if root(a) == root(b):
            return None
        parent[root(a)] = root(b)
    left = list(nets)
    remaining = list(edges)
    used = 0
    while remaining:
        degree = [0] * len(nets)
        for a, b in remaining:
            degree[a] += 1
            degree[b] += 1
        a, b = next(e for e in remaining if degree[e[0]] == 1 or degree[e[1]] == 1)
        leaf, other = (a, b) if degree[a] == 1 else (b, a)
        used += left[leaf] != 0
        left[other] += left[leaf]
        left[leaf] = 0
        remaining.remove((a, b))
    return used if not any(left) else None


@settings(max_examples=400, deadline=None)
@given(zero_sum_nets())
def test_transfers_settle_every_net_exactly_losers_paying_winners(nets: list[int]) -> None:
    transfers = fewest_transfers(nets)
    assert balances(len(nets), transfers) == nets  # each pays or receives exactly its net
    assert sum(t.amount for t in transfers) == sum(n for n in nets if n > 0)  # nothing paid twice
    for t in transfers:
        assert t.amount > 0 and t.payer != t.payee
        assert nets[t.payer] < 0 < nets[t.payee]  # nobody passes money on


@settings(max_examples=400, deadline=None)
@given(zero_sum_nets())
def test_at_most_one_fewer_transfer_than_players_with_a_net(nets: list[int]) -> None:
    movers = sum(1 for n in nets if n)
    assert len(fewest_transfers(nets)) <= max(movers - 1, 0)


@settings(max_examples=300, deadline=None)
@given(zero_sum_nets(min_size=2, max_size=5, bound=40))
def test_as_few_as_a_brute_force_finds(nets: list[int]) -> None:
    assert len(fewest_transfers(nets)) == brute_force_fewest(nets)


@settings(max_examples=200, deadline=None)
@given(zero_sum_nets(max_size=8))
def test_groups_partition_the_players_and_each_sums_to_zero(nets: list[int]) -> None:
    values = [n for n in nets if n]
    groups = zero_sum_groups(values)
    assert sorted(i for g in groups for i in g) == list(range(len(values)))
    assert all(sum(values[i] for i in g) == 0 for g in groups)


def test_two_pairs_need_two_transfers_not_three() -> None:
    # a chain would be A→B→C→D; the pairs settle apart: A pays B 10, C pays D 5
    assert fewest_transfers([-10, 10, -5, 5]) == [Payoff(0, 1, 10), Payoff(2, 3, 5)]
    assert len(fewest_transfers([-10, 5, -5, 10])) == 2


def test_a_typical_evening_and_the_trivial_cases() -> None:
    transfers = fewest_transfers([-37, 52, 9, -24])
    assert len(transfers) == 3
    assert balances(4, transfers) == [-37, 52, 9, -24]
    assert fewest_transfers([0, 0, 0, 0]) == []
    assert fewest_transfers([]) == []


def test_nets_that_do_not_balance_are_refused() -> None:
    with pytest.raises(ValueError, match="sum to zero"):
        fewest_transfers([10, -5, 0, 0])
