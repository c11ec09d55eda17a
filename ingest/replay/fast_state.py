"""The fast check's side of the one deal state (:mod:`engine.state`): the same state and
the same moves as the explaining replay (:class:`engine.deal.DealMoves`), where a breach
the explaining replay keeps, or anything this path does not explain, gives the deal up
(:class:`HandOff`), and a seat's tiles can be loaded from a plan the C moves played
(:mod:`ingest.replay.fast_plan`).
"""

from __future__ import annotations

from typing import Final

from engine.deal import DealMoves
from engine.events import DealStart
from engine.moves import IllegalEvent
from engine.report import DealFacts
from engine.rules import Rules
from engine.state import HandOff, Win
from ingest.logs.records import HuRec
from ingest.replay.fast_plan import SeatState

__all__ = ["FastState", "HandOff"]


#: whether 门清 is scored, by rule set name (a name says every knob)
_MENQING: Final[dict[str, bool]] = {}


def _menqing_scored(rules: Rules) -> bool:
    scored = _MENQING.get(rules.name)
    if scored is None:
        scored = _MENQING[rules.name] = rules.pattern_fan("menqing") is not None
    return scored


class FastState(DealMoves):
    """One deal on the fast check (see the module docstring)."""

    def __init__(
        self, start: DealStart, rules: Rules, base: int, keep_facts: bool, deal_in: bool = True
    ) -> None:
        """``deal_in=False``: no tiles dealt (a plan's pricing loads every seat it reads)."""
        # 门清 scored: the kinds of the kongs (暗杠 or not) of a seat a plan loads are not known
        self.menqing_scored = _menqing_scored(rules)
        self.keep_facts = keep_facts  # the rows need every ready seat's fan (DealFacts)
        self.claim: HuRec | None = None  # the win record being played: its claims are held to it
        self.end_settlement: tuple[int, ...] = (0, 0, 0, 0)  # the 查叫 transfers' deltas, a seat each
        self.scores: tuple[int, ...] = (0, 0, 0, 0)  # the deal's net, a seat each
        super().__init__(start, rules, base, deal_in)
        self.all_fans = keep_facts

    def note(self, breach: IllegalEvent) -> None:
        """A breach the explaining replay keeps is the explaining replay's."""
        raise HandOff

    def check_kongs_known(self, seat: int) -> None:
        """门清 needs to know which kongs are 暗杠, which a plan's seat does not tell: a seat
        with kongs and no pong under a rule set that scores 门清 is the engine's."""
        if self.menqing_scored and self.konged[seat] and not self.ponged[seat]:
            raise HandOff

    def keep_win(self, win: Win) -> None:
        """Keep the win, and give up unless its recorded fan, patterns and payment are right."""
        rec = self.claim
        if rec is not None:
            result = win.result
            if rec.fan is not None and rec.fan != result.fan:
                raise HandOff
            if rec.patterns is not None and sorted(rec.patterns) != sorted(result.patterns):
                raise HandOff
            recorded = rec.deltas
            if recorded is not None:
                # one entry a seat of the table; the computed seats past it are 0
                players = self.players
                if tuple(recorded) != (win.deltas if players == 4 else win.deltas[:players]):
                    raise HandOff
        self.wins.append(win)

    def ready_fan(self, seat: int, waits: int) -> int | None:
        """A ready seat's 查大叫 fan; a wait no pattern scores is the engine's to explain."""
        fan = super().ready_fan(seat, waits)
        if fan is None:
            raise HandOff
        return fan

    def cha_jiao(self, line: int) -> None:
        """查叫 (:meth:`engine.deal.DealMoves.cha_jiao`); 死叫不算叫 needs the unseen tiles:
        the engine's."""
        if not self.rules.dead_wait_counts:
            raise HandOff
        super().cha_jiao(line)

    def load_seat(self, seat: int, state: SeatState) -> None:
        """Take a seat's tiles, melds, draws and void from a plan (ingest.replay.fast_plan)."""
        counts, pongs, kongs, draws, void, (k0, k1, k2), size = state
        self.hands[seat] = counts
        self.sizes[seat] = size
        self.keys[seat * 3] = k0
        self.keys[seat * 3 + 1] = k1
        self.keys[seat * 3 + 2] = k2
        self.ponged[seat] = pongs
        self.konged[seat] = kongs
        self.draws[seat] = draws
        self.void[seat] = void if void >= 0 else None

    def facts(self) -> DealFacts:
        still_in = len(self.in_play)
        return DealFacts(
            self.dealer,
            tuple(self.void),
            tuple(self.settler.settlement),
            frozenset(self.pigs),
            self.ready_at_end,
            still_in,
        )
