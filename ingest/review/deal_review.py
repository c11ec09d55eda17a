"""复盘: every decision of a tile deal judged on the state the engine holds.

A deal is replayed by the engine (:meth:`ingest.replay.session_replay.SessionReplay.replay`
with an ``on_step`` hook, the explaining replay), and each step is judged as it comes:

- a discard: the seat's 14 tiles before it against every distinct discard (shanten after,
  effective tiles after, the best ones), ``loss`` and ``backward``;
- 定缺: the suit chosen against the suits that leave the lowest shanten, most effective tiles;
- 换三张: the 13 (the dealer's 14) tiles kept against the best three of one suit;
- a win passed: a seat that could win the open tile (or its own draw) and did not;
- a deal-in: the discard a win was paid on, the discarder ready or not, 被迫点炮 or not;
- the wall's end: ready or not at 查叫, and what 查叫 cost.

What a seat sees (its effective tiles' ``left``): its own tiles, every seat's discards
still on the table and melds, the tiles winners laid aside (血流成河) or laid down when
they left (血战到底), and the three tiles it passed at 换三张 until their taker throws them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from engine.deal import Deal
from engine.events import DealEnd, PlayEvent
from engine.report import FindingSink
from engine.rules import Rules
from engine.shanten import Hand13, situation
from engine.state import CLAIM, EXCHANGE_STEP, ROB
from engine.tiles import COPIES, NUM_KINDS, WILD, tile_name

Row = dict[str, Any]


@dataclass
class DealReview:
    """The decisions of one deal, in the order played, and the seats' money by source."""

    deal_id: str
    rows: list[Row] = field(default_factory=list)
    money: list[dict[str, int]] = field(default_factory=list)
    tiles: bool = True  # False: a score sheet (money only)
    why_no_tiles: str | None = None


class DealJudge:
    """The ``on_step`` hook of one deal's replay: judges each decision as the engine plays it."""

    def __init__(self, review: DealReview) -> None:
        self.review = review
        self.pending: dict[int, tuple[int, int, int, str]] = {}  # seat -> (tile, fan, line, kind)
        self.exchanged: list[list[int]] = []  # per seat: tiles passed, not yet thrown by their taker
        self.receiver: list[int] = []
        self.last_discard: dict[int, Row] = {}  # seat -> its last discard row
        self.passes: list[Row] = []
        self.seen_wins = 0
        self.held_back: list[Row] = []  # the rows of the last step (see ``__call__``)

    # -- what a seat sees
    def visible(self, deal: Deal, seat: int) -> list[int]:
        seen = [0] * (NUM_KINDS + 1)
        self.see(deal, seat, seen, 1)
        return seen

    def see(self, deal: Deal, seat: int, seen: list[int], sign: int) -> None:
        """Add what ``seat`` sees on the table to ``seen`` (28 counts, the last 红中), each
        tile ``sign`` times (-1: take it off what is left)."""
        for other in deal.order:
            for tile in deal.discards[other]:
                seen[tile] += sign
            for tile in deal.laid[other]:
                seen[tile] += sign
            for tile in deal.ponged[other]:
                seen[tile] += 3 * sign
            for tile in deal.konged[other]:
                seen[tile] += 4 * sign
            if other != seat and deal.left[other]:  # a winner who left laid its hand down
                held = deal.hands[other]
                for tile in range(NUM_KINDS):
                    seen[tile] += held[tile] * sign
                seen[WILD] += deal.wilds[other] * sign
        if self.exchanged:
            for tile in self.exchanged[seat]:
                seen[tile] += sign

    def left(self, deal: Deal, seat: int, counts: Sequence[int], wilds: int) -> tuple[list[int], int]:
        left = [COPIES - count for count in counts]
        left.append(deal.wild_copies - wilds)
        self.see(deal, seat, left, -1)
        wild_left = left.pop()
        for tile in range(NUM_KINDS):
            if left[tile] < 0:
                left[tile] = 0
        return left, (wild_left if wild_left > 0 else 0) if deal.wild_table else 0

    def hand(
        self,
        deal: Deal,
        seat: int,
        counts: Sequence[int],
        wilds: int,
        void: int | None,
        keys: Sequence[int] | None = None,
    ) -> Hand13:
        melds = [*deal.ponged[seat], *deal.konged[seat]]
        return Hand13(counts, situation(deal.rules, melds, void, wild=deal.wild_table), wilds, keys)

    # -- the hook
    def __call__(self, event: PlayEvent | DealEnd, deal: Deal, sink: FindingSink) -> None:
        """One step, after the engine applied it. The rows of a step are kept back until
        the next step shows the engine went on: the step an illegal event stops the replay
        at is handed over too, on a state that never took it, and is not judged."""
        self.review.rows.extend(self.held_back)
        self.held_back = []
        rows = self.review.rows
        self.review.rows = self.held_back
        try:
            self.step(event, deal)
        finally:
            self.review.rows = rows

    def finish(self, complete: bool) -> None:
        """The replay's end: the last step's rows stand if the deal was replayed to its end."""
        if complete:
            self.review.rows.extend(self.held_back)
        self.held_back = []

    def step(self, event: PlayEvent | DealEnd, deal: Deal) -> None:
        kind = event.type
        self.resolve_passes(event, deal)
        if kind == "discard":
            self.discard(event.seat, event.tile, event.line, deal)  # type: ignore[union-attr]
        elif kind == "exchange":
            self.exchange(event, deal)
        elif kind == "void":
            self.void(event.seat, event.suit, event.line, deal)  # type: ignore[union-attr]
        if kind == "hu":
            self.deal_ins(deal)
        if deal.stage in (CLAIM, ROB) and deal.open is not None:
            for seat in deal.order:
                option = deal.claim_option(seat)
                if option is not None and seat not in self.pending:
                    self.pending[seat] = (deal.open.tile, option.fan, event.line, "discard")
        elif kind in ("draw", "kong") and not deal.is_over():
            option = deal.self_draw_option()
            if option is not None and not deal.hand_fixed(deal.current):
                self.pending[deal.current] = (deal.drawn, option.fan, event.line, "self_draw")
        if kind == "deal_end":
            self.wall_end(deal)

    def resolve_passes(self, event: PlayEvent | DealEnd, deal: Deal) -> None:
        if not self.pending:
            return
        if event.type == "hu":
            seat = event.seat
            if seat in self.pending:
                del self.pending[seat]
                return
            if getattr(event, "from_seat", None) is not None and deal.rules.multiple_hu:
                return  # another winner of the same tile: the others may still claim it
        for seat, (tile, fan, line, how) in sorted(self.pending.items()):
            row: Row = {
                "line": line,
                "seat": seat,
                "kind": "pass",
                "tile": tile_name(tile),
                "on": how,
                "fan": fan,
            }
            self.passes.append(row)
            self.review.rows.append(row)
        self.pending = {}

    def discard(self, seat: int, tile: int, line: int, deal: Deal) -> None:
        if self.exchanged and seat in self.receiver:  # a passed tile thrown: seen now
            giver = self.receiver.index(seat)
            if tile in self.exchanged[giver]:
                self.exchanged[giver].remove(tile)
        if deal.stays and deal.won[seat]:
            return  # 胡后不改牌: the drawn tile goes, no choice
        # the 14 tiles before the discard: the engine's counts and suit keys (engine.shapes)
        # with the tile back
        hand = self.hand(
            deal,
            seat,
            deal.hands[seat],
            deal.wilds[seat],
            deal.void[seat],
            deal.keys[3 * seat : 3 * seat + 3],
        )
        hand.add(tile, 1)
        left, wild_left = self.left(deal, seat, hand.counts, hand.wilds)
        shantens = hand.discard_shantens()
        before = hand.shanten()  # (the count discard_shantens worked out)
        low = min(shantens.values())
        counted: dict[int, int] = {}
        best_effective = -1
        for option, after in shantens.items():
            if after == low or option == tile:
                hand.add(option, -1)
                count = counted[option] = hand.effective_count(left, wild_left)
                hand.add(option, 1)
                if after == low and count > best_effective:
                    best_effective = count
        best = [t for t, after in shantens.items() if after == low and counted[t] == best_effective]
        chosen = counted[tile]
        # a discard that leaves the hand further than the best: none of its tiles bring it
        # to the best's count, so all the best's effective tiles are lost
        loss = 0 if tile in best else best_effective - chosen if shantens[tile] == low else best_effective
        row: Row = {
            "line": line,
            "seat": seat,
            "kind": "discard",
            "tile": tile_name(tile),
            "shanten_before": before,
            "shanten": shantens[tile],
            "effective": chosen,
            "best": [tile_name(t) for t in best],
            "best_shanten": low,
            "best_effective": best_effective,
            "loss": loss,
            "backward": shantens[tile] > max(before, 0),
        }
        self.review.rows.append(row)
        self.last_discard[seat] = row

    def void(self, seat: int, suit: int, line: int, deal: Deal) -> None:
        counts = deal.hands[seat]
        wilds = deal.wilds[seat]
        scores: dict[int, tuple[int, int]] = {}
        for choice in sorted({int(s) for s in range(3) if deal.kinds[s * 9]}):
            scores[choice] = self.judge_tiles(deal, seat, counts, wilds, choice)
        low = min(scores.values(), key=lambda v: (v[0], -v[1]))
        best = [s for s, v in scores.items() if v == low]
        self.review.rows.append(
            {
                "line": line,
                "seat": seat,
                "kind": "void",
                "suit": "mps"[suit],
                "shanten": scores[suit][0] if suit in scores else None,
                "effective": scores[suit][1] if suit in scores else None,
                "best": ["mps"[s] for s in best],
                "best_shanten": low[0],
                "best_effective": low[1],
                "agrees": suit in best,
            }
        )

    def judge_tiles(
        self, deal: Deal, seat: int, counts: Sequence[int], wilds: int, void: int | None
    ) -> tuple[int, int]:
        """(shanten, effective count) of a hand: waiting to draw, its own; else its best discard's."""
        left, wild_left = self.left(deal, seat, counts, wilds)
        hand = self.hand(deal, seat, counts, wilds, void)
        if (sum(counts) + wilds) % 3 == 1:
            now = hand.shanten()
            return now, hand.effective_count(left, wild_left)
        best = hand.options(left, wild_left)[0]
        return best.shanten, best.effective_count

    def judge_kept(self, deal: Deal, seat: int, kept: Sequence[int], wilds: int) -> tuple[int, int]:
        """(shanten, effective count) of the tiles a seat keeps at 换三张 (10, the dealer's
        11), as a hand that still lacks the three to come: the distance of those tiles
        to a win, and the kinds whose arrival lowers it. 定缺 is not declared yet: 缺一门."""
        left, wild_left = self.left(deal, seat, kept, wilds)
        hand = self.hand(deal, seat, kept, wilds, None)
        return hand.shanten(), hand.effective_count(left, wild_left)

    def exchange(self, event: Any, deal: Deal) -> None:
        step = EXCHANGE_STEP[event.direction]
        players = deal.players
        self.exchanged = [list(three) for three in event.tiles]
        self.receiver = [(seat + step) % players for seat in range(len(event.tiles))]
        for seat, given in enumerate(event.tiles):
            received = event.tiles[(seat - step) % players]
            before = list(deal.hands[seat])
            for tile in received:
                before[tile] -= 1
            for tile in given:
                before[tile] += 1
            kept = list(before)
            for tile in given:
                kept[tile] -= 1
            wilds = deal.wilds[seat]
            chosen = self.judge_kept(deal, seat, kept, wilds)
            best_value = chosen
            best_three: tuple[int, ...] = tuple(given)
            for suit in range(3):
                pool = [t for t in range(suit * 9, suit * 9 + 9) for _ in range(before[t])]
                for three in sorted(set(combinations(pool, 3))):
                    for t in three:
                        before[t] -= 1
                    value = self.judge_kept(deal, seat, before, wilds)
                    for t in three:
                        before[t] += 1
                    if (value[0], -value[1]) < (best_value[0], -best_value[1]):
                        best_value, best_three = value, three
            self.review.rows.append(
                {
                    "line": event.line,
                    "seat": seat,
                    "kind": "exchange",
                    "tiles": [tile_name(t) for t in given],
                    "shanten": chosen[0],
                    "effective": chosen[1],
                    "best": [tile_name(t) for t in best_three],
                    "best_shanten": best_value[0],
                    "best_effective": best_value[1],
                }
            )

    def deal_ins(self, deal: Deal) -> None:
        while self.seen_wins < len(deal.wins):
            win = deal.wins[self.seen_wins]
            self.seen_wins += 1
            if win.from_seat is None or win.kind == "rob":
                continue
            thrown = self.last_discard.get(win.from_seat)
            void = deal.void[win.from_seat]
            self.review.rows.append(
                {
                    "line": win.line,
                    "seat": win.from_seat,
                    "kind": "deal_in",
                    "tile": tile_name(win.tile),
                    "winner": win.seat,
                    "fan": win.result.fan,
                    "paid": -win.deltas[win.from_seat],
                    "ready": None if thrown is None else thrown["shanten"] <= 0,
                    "shanten": None if thrown is None else thrown["shanten"],
                    "forced": void is not None and win.tile < NUM_KINDS and win.tile // 9 == void,
                }
            )

    def wall_end(self, deal: Deal) -> None:
        for row in self.passes:  # what each passed win became
            later = [w.result.fan for w in deal.wins if w.seat == row["seat"] and w.line > row["line"]]
            row["won_later"] = later[0] if later else None
        if deal.end_reason != "wall_exhausted":
            return
        from engine.settlement import seat_deltas

        cost = seat_deltas(deal.settlement, deal.players)
        for seat in deal.never_won:
            self.review.rows.append(
                {
                    "line": 0,
                    "seat": seat,
                    "kind": "wall_end",
                    "ready": seat in deal.ready_at_end,
                    "flower_pig": seat in deal.pigs,
                    "cha_jiao": cost[seat],
                }
            )


#: the ledger's reasons by source of money (a win on a discard splits: paid in, paid out)
SOURCES: dict[str, str] = {
    "win_self_draw": "self_draws",
    "self_draw_bonus": "self_draws",
    "kong_exposed": "kongs",
    "kong_added": "kongs",
    "kong_concealed": "kongs",
    "kong_transfer": "call_transfer",
    "kong_refund": "refunds",
    "tax_refund": "refunds",
    "no_ting": "cha_jiao",
    "flower_pig": "flower_pig",
}
MONEY_KEYS = ("wins", "deal_ins", "self_draws", "kongs", "call_transfer", "cha_jiao", "flower_pig", "refunds")


def money_of(ledger: Sequence[Any], seats: int) -> list[dict[str, int]]:
    """Each seat's points by source: 胡 on a discard (``wins``), paid on its discards
    (``deal_ins``), 自摸 (both sides), kongs, 呼叫转移, 查叫, 花猪, 退税."""
    out = [dict.fromkeys(MONEY_KEYS, 0) for _ in range(seats)]
    for transfer in ledger:
        if transfer.reason == "win_discard":
            out[transfer.payee]["wins"] += transfer.amount
            out[transfer.payer]["deal_ins"] -= transfer.amount
            continue
        source = SOURCES.get(transfer.reason, "kongs" if transfer.reason.startswith("kong_") else "refunds")
        out[transfer.payee][source] += transfer.amount
        out[transfer.payer][source] -= transfer.amount
    return out


#: what a player's tally sums over its decision rows, in :func:`seat_sums`'s order (the
#: fields of :class:`ingest.review.PlayerTally`)
ROW_SUMS = (
    "discards", "best", "loss", "backward", "voids", "void_agree", "deal_ins", "deal_ins_not_ready",
    "forced_deal_ins", "passes", "passed_fan", "passed_then_won", "passed_then_won_fan",
)  # fmt: skip


def seat_sums(rows: Sequence[Row], seats: int) -> list[list[int]]:
    """Per seat, the sums of its rows in :data:`ROW_SUMS` order (what
    :meth:`ingest.review.PlayerTally.count` adds a row at a time), here compiled: a
    review's rows are many."""
    out = [[0] * len(ROW_SUMS) for _ in range(seats)]
    for row in rows:
        sums = out[row["seat"]]
        kind = row["kind"]
        if kind == "discard":
            sums[0] += 1
            sums[1] += 1 if row["loss"] == 0 and row["shanten"] == row["best_shanten"] else 0
            sums[2] += row["loss"]
            sums[3] += 1 if row["backward"] else 0
        elif kind == "void":
            sums[4] += 1
            sums[5] += 1 if row["agrees"] else 0
        elif kind == "deal_in":
            sums[6] += 1
            sums[7] += 1 if row["ready"] is False else 0
            sums[8] += 1 if row["forced"] else 0
        elif kind == "pass":
            sums[9] += 1
            sums[10] += row["fan"]
            later = row.get("won_later")
            if later is not None:
                sums[11] += 1
                sums[12] += later
    return out


def dealt_shantens(hands: Sequence[Sequence[int]], rules: Rules) -> list[int]:
    """Each hand's shanten as dealt (before 换三张 and 定缺), 红中 among its tiles."""
    sit = situation(rules, (), None, wild=bool(rules.wild_tiles))
    out: list[int] = []
    for tiles in hands:
        counts = [0] * NUM_KINDS
        wilds = 0
        for tile in tiles:
            if tile == WILD:
                wilds += 1
            else:
                counts[tile] += 1
        out.append(Hand13(counts, sit, wilds).shanten())
    return out
