"""Who pays whom at the end of an evening (结账), with the fewest transfers.

The ledger of a session is hundreds of small payments; at the end the table only wants
each player's net settled in cash. Any zero-sum list of nets can be settled with at most
n − 1 transfers (each one settles at least one player), but often fewer: when a group
of players already nets to zero among themselves (A −10, B +10, C −5, D +5), two
transfers do what a chain of three would. The fewest is n − k, where n counts the
players with a non-zero net and k is the largest number of disjoint groups each summing
to zero (every such group needs |group| − 1 transfers and cannot do with fewer).

:func:`fewest_transfers` finds that partition exactly (a dynamic programme over subsets,
2ⁿ·n steps: instant for a table of four and fine to a dozen), then settles each group by
letting its biggest loser pay its biggest winner, so money only goes from losers to
winners and nobody is asked to pass money on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

MAX_PLAYERS: Final = 16  # 2¹⁶ subsets; a mahjong table has four


@dataclass(frozen=True, slots=True)
class Payoff:
    """``payer`` (an index into the nets) gives ``payee`` ``amount`` points (> 0)."""

    payer: int
    payee: int
    amount: int


def fewest_transfers(nets: Sequence[int]) -> list[Payoff]:
    """Transfers that settle every net exactly, as few as possible, losers paying winners
    (the biggest first).

    ``nets[i]`` is player i's result (positive: is owed). Raises ``ValueError`` when the
    nets do not sum to zero (a ledger that does not balance cannot be settled) or there
    are more than :data:`MAX_PLAYERS`.
    """
    if sum(nets) != 0:
        raise ValueError(f"the nets do not sum to zero: {list(nets)} sums to {sum(nets)}")
    players = [i for i, net in enumerate(nets) if net != 0]
    if len(players) > MAX_PLAYERS:
        raise ValueError(f"at most {MAX_PLAYERS} players can be settled at once, not {len(players)}")
    transfers: list[Payoff] = []
    for group in zero_sum_groups([nets[i] for i in players]):
        transfers.extend(_settle_group({players[i]: nets[players[i]] for i in group}))
    return sorted(transfers, key=lambda t: (-t.amount, t.payer, t.payee))


def zero_sum_groups(values: Sequence[int]) -> list[list[int]]:
    """The most disjoint groups (lists of indices into ``values``, none zero) each summing
    to zero; together they hold every index. Over subsets ``mask`` of the players,
    ``best[mask]`` is the most zero-sum groups the players of ``mask`` can be cut into when
    taken in some order; the order that reaches it is recovered and cut where its
    running sum returns to zero."""
    n = len(values)
    full = (1 << n) - 1
    total = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + values[low]
        bonus = 1 if total[mask] == 0 else 0
        best[mask] = bonus + max(best[mask & ~(1 << i)] for i in range(n) if mask >> i & 1)
    order: list[int] = []
    mask = full
    while mask:
        bonus = 1 if total[mask] == 0 else 0
        last = next(i for i in range(n) if mask >> i & 1 and best[mask & ~(1 << i)] + bonus == best[mask])
        order.append(last)
        mask &= ~(1 << last)
    order.reverse()
    groups: list[list[int]] = []
    current: list[int] = []
    running = 0
    for index in order:
        current.append(index)
        running += values[index]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def _settle_group(nets: dict[int, int]) -> list[Payoff]:
    """Settle one zero-sum group: the biggest loser pays the biggest winner what the
    smaller of the two needs, until all are square (ties: the lower index first). A group
    that cannot be cut into smaller zero-sum groups takes exactly len(group) − 1 steps."""
    left = dict(nets)
    out: list[Payoff] = []
    while any(left.values()):
        payer = min(left, key=lambda i: (left[i], i))
        payee = max(left, key=lambda i: (left[i], -i))
        amount = min(-left[payer], left[payee])
        out.append(Payoff(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return out
