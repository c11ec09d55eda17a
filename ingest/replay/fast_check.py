"""The fast path of validation: a deal's decoded records replayed on the one integer
state, with no event object and no message put in words, ending in one of two answers.

- The deal is clean: every move legal, every recorded fan, pattern and payment what the
  rules give. :func:`fast_replay` returns the same :class:`engine.report.DealReport` the
  engine's replay would (wins, kongs, ledger and settlement priced by the engine's own
  settlement core and fan scorer, :mod:`engine.settle` and :mod:`engine.fan`).
- Anything else, or anything this path does not implement (a rule it does not know, a
  dead-wait 查叫, a win on a discard after a pong in the same go-round...): ``None``, and
  the caller hands the deal to the engine, which explains every finding.

Every table the tile replay plays (:mod:`engine.table`: three or two seats, two suits or
one, ten or seven tiles, 红中) plays here too, on the same moves (the C moves hand a
table with 红中 to the Python ones). A recorded payment has one entry a seat of
the table; the computed ones are four wide, the seats past the table's 0.

血流成河 (``end_condition: bloody_flow``): a winner stays in and pays and draws like any
seat, its winning tile laid aside; its hand is fixed (胡后不改牌), so a discard of another
tile than the one drawn, a pong, or a kong that is not of the drawn tile (or the discard)
or changes its waits gives the deal up (the engine's ``fixed_hand``); only the wall ends
the deal, and 查叫 judges the seats that never won. The C moves play it too, but leave a
fixed hand's kong or pong to these moves.

It runs the explaining replay's own state and moves (:mod:`engine.state`,
:mod:`engine.claims`, :mod:`engine.deal`'s :class:`engine.deal.DealMoves`), as
:class:`ingest.replay.fast_state.FastState`: where the explaining replay raises or notes a
breach, this path gives up; it adds the records read as they are decoded, the recorded
claims held to what the moves price, and the pricing of a plan the C moves played.
``tests/test_fast_check.py`` and ``bench/fast_check.py`` run both paths on simulated and
tampered deals and require the same answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from engine.events import DealEnd, DealStart
from engine.moves import IllegalEvent, discard_context
from engine.replay import PLAIN, ReplayOptions
from engine.report import DealReport
from engine.rules import Rules
from engine.settlement import deltas, seat_deltas
from engine.state import ENDED
from engine.table import replay_refusal
from engine.tiles import WILD, WILD_NAMES, parse_tiles
from ingest.logs.line_parser import TILE_IDS
from ingest.logs.play_lines import KIND_DISCARD, KIND_DRAW
from ingest.logs.records import (
    DiscardRec,
    DrawRec,
    ExchangeRec,
    HuRec,
    KongRec,
    PerSeat,
    PlayRecord,
    PongRec,
    TileList,
    VoidRec,
)
from ingest.replay.fast_plan import (
    CTX_AFTER_KONG,
    CTX_LAST_TILE,
    CTX_ROB,
    END_REASONS,
    STEP_DISCARD_WIN,
    STEP_KONG,
    STEP_SELF_DRAW,
    plan_moves,
    self_draw_context,
)
from ingest.replay.fast_state import FastState, HandOff

_SUIT_IDS: Final = {"m": 0, "p": 1, "s": 2}
# A module-level copy: mypyc reads a Final of its own module as a C static.
_TILES: Final[dict[str, int]] = {**TILE_IDS, **dict.fromkeys(WILD_NAMES, WILD)}


class FastDeal(FastState):
    """A deal's records played on the shared moves (:class:`engine.deal.DealMoves`), the
    recorded end and claims held to what they give."""

    def exchange_names(self, direction: str, given: Sequence[TileList]) -> None:
        """换三张 of tile names (a name the reader's slow path parses is the engine's)."""
        try:
            passed = [parse_tiles(names) for names in given]
        except ValueError:
            raise HandOff from None
        self.exchange(direction, passed)

    def recorded_deltas(self, recorded: PerSeat | None) -> tuple[int, ...] | None:
        """A kong's recorded payment as the moves compare it, four wide: at a table of fewer
        seats, one entry a seat and zeros after (the seats past the table's are 0 in every
        computed payment); another count than the table's seats is the engine's
        ``bad_record``."""
        if recorded is None or self.players == 4:
            return recorded
        if len(recorded) != self.players:
            raise HandOff
        return (*recorded, *(0,) * (4 - self.players))

    def hu_record(self, rec: HuRec, tile: int, line: int) -> None:
        self.claim = rec
        self.hu(rec.seat, tile, rec.from_, line)

    # ------------------------------------------------------------------ the end
    def deal_end(self, end: DealEnd) -> None:
        self.end_at(end.reason)
        self.settle_end(end)

    def settle_end(self, end: DealEnd) -> None:
        """The deal has ended (``end_reason``): 查叫, and the recorded end checked."""
        self.judge_end(end.line)
        if end.reason not in END_REASONS or end.reason != self.end_reason:
            raise HandOff
        settler = self.settler
        if self.players == 4:
            self.end_settlement = deltas(settler.settlement)
            self.scores = deltas(settler.ledger)
        else:  # one entry a seat of the table, as the engine's report
            self.end_settlement = seat_deltas(settler.settlement, self.players)
            self.scores = seat_deltas(settler.ledger, self.players)
        if end.settlement is not None and tuple(end.settlement) != self.end_settlement:
            raise HandOff
        if end.scores is not None and tuple(end.scores) != self.scores:
            raise HandOff

    # ------------------------------------------------------------------ the loop
    def run(self, records: list[PlayRecord], first_line: int) -> None:
        line = first_line
        for rec in records:
            if self.stage == ENDED:
                raise HandOff
            if isinstance(rec, int):  # a plain play line (ingest.logs.play_lines)
                # its code_kind, code_seat and code_tile, inline: play_lines is not compiled,
                # and a call into it from here cost more than the move it unpacks
                kind, seat, tile = rec & 3, (rec >> 2) & 3, rec >> 4
                if kind == KIND_DRAW:
                    self.draw(seat, tile)
                elif kind == KIND_DISCARD:
                    self.discard(seat, tile, line)
                else:
                    self.pong(seat, tile)
            elif isinstance(rec, DrawRec):
                self.draw(rec.seat, _tile(rec.tile))
            elif isinstance(rec, DiscardRec):
                self.discard(rec.seat, _tile(rec.tile), line)
            elif isinstance(rec, PongRec):
                self.pong(rec.seat, _tile(rec.tile))
            elif isinstance(rec, KongRec):
                self.kong(rec.seat, _tile(rec.tile), rec.kind, line, self.recorded_deltas(rec.deltas))
            elif isinstance(rec, HuRec):
                self.hu_record(rec, _tile(rec.tile), line)
            elif isinstance(rec, VoidRec):
                self.declare_void(rec.seat, _SUIT_IDS[rec.suit])
            elif isinstance(rec, ExchangeRec):
                self.exchange_names(rec.direction, rec.tiles)
            else:
                raise HandOff  # anything unexpected: the engine's
            line += 1


def _price_plan(deal: FastDeal, plan: tuple[list[Any], int, Any], end: DealEnd) -> None:
    """Price the plan of the deal's moves played in C (:mod:`ingest.replay.fast_plan`) on ``deal``,
    as its Python moves would: :class:`HandOff` at a step that does not price."""
    steps, end_reason, finals = plan
    for step in steps:
        kind = step[0]
        if kind == STEP_KONG:
            _, seat, tile, kong_kind, line, feeder, earns, rec = step
            deal.pay_kong(seat, kong_kind, tile, line, feeder, bool(earns), deal.recorded_deltas(rec.deltas))
        elif kind == STEP_SELF_DRAW:
            _, seat, tile, line, rec, bits, state = step
            deal.load_seat(seat, state)
            deal.claim = rec
            deal.price_self_draw(seat, tile, line, self_draw_context(bits))
        elif kind == STEP_DISCARD_WIN:
            _, seat, from_seat, tile, line, rec, bits, state = step
            deal.load_seat(seat, state)
            after_kong, rob, last_tile = (
                bool(bits & CTX_AFTER_KONG),
                bool(bits & CTX_ROB),
                bool(bits & CTX_LAST_TILE),
            )
            context = discard_context(after_kong, rob, last_tile)
            deal.claim = rec
            deal.price_discard_win(seat, from_seat, tile, line, state[0], context, False)
        else:
            _, seat, tile, line, rec = step
            deal.record_robbed(seat, tile, line, deal.recorded_deltas(rec.deltas))
    for seat, state in enumerate(finals):  # one a seat of the table
        deal.load_seat(seat, state)
    deal.end_reason = END_REASONS[end_reason]
    deal.settle_end(end)


#: whether the fast check plays a rule set's table, by rule set name (a name says every knob)
_PLAYS: Final[dict[str, bool]] = {}


def _plays_table(rules: Rules) -> bool:
    """Any table plays here (three or two seats, other suits, another hand size, 红中)
    unless the tile replay refuses it (:func:`engine.table.replay_refusal`): those deals
    are the engine's."""
    plays = _PLAYS.get(rules.name)
    if plays is None:
        plays = _PLAYS[rules.name] = replay_refusal(rules) is None
    return plays


def _tile(name: str) -> int:
    tile = _TILES.get(name)
    if tile is None:
        raise HandOff  # a name the reader's slow path parses: the engine's
    return tile


def fast_replay(
    start: DealStart,
    records: Sequence[PlayRecord],
    end: DealEnd | None,
    rules: Rules,
    options: ReplayOptions = PLAIN,
    *,
    file: str | None = None,
    c_moves: bool = True,
) -> DealReport | None:
    """The report of a clean deal, equal to :func:`engine.replay.replay_deal`'s, or
    ``None``: the deal goes to the engine, which explains every finding.

    ``records`` are the deal's lines strictly between its ``deal`` and ``deal_end`` lines,
    as the reader keeps them (a plain draw, discard or pong as its play code,
    :mod:`ingest.logs.play_lines`; any other line decoded by :data:`ingest.logs.line_parser.DECODER`),
    in file order with no other line among them: record ``i`` is on line
    ``start.line + 1 + i``, the end on the line after.
    ``options`` are the engine's (:class:`engine.replay.ReplayOptions`): ``base`` and
    ``session_id``; ``keep_state`` adds what the warehouse rows need
    (:class:`engine.report.DealFacts`); a deal with ``read_findings``, ``on_step`` or
    ``sheet_events`` is the engine's (None).
    The moves are played in C where built (:mod:`ingest.replay.fast_plan`); ``c_moves=False``
    plays them in Python (the tests compare the two)."""
    if end is None or start.record != "tiles" or end.line != start.line + len(records) + 1:
        return None
    if options.read_findings or options.on_step is not None or options.sheet_events:
        return None  # findings to open the report with, or a view of every step: the engine's
    if not _plays_table(rules):
        return None  # a table the tile replay refuses: the engine's
    keep_facts = options.keep_state
    listed = records if isinstance(records, list) else list(records)
    try:
        plan = plan_moves(start, listed, rules) if c_moves else None
        deal = FastDeal(start, rules, options.base, keep_facts, deal_in=plan is None)
        if plan is not None:
            # The C moves played it as the Python moves would, so a step that does not
            # price would not price there either: the deal is the engine's.
            _price_plan(deal, plan, end)
        else:
            deal.run(listed, start.line + 1)
            deal.deal_end(end)
    except (HandOff, IllegalEvent):  # a breach or what this path does not explain
        return None
    settler = deal.settler
    return DealReport(
        deal_id=start.deal_id,
        session_id=options.session_id,
        file=file,
        line=start.line,
        rules=rules.name,
        findings=[],
        warnings=[],
        scores=deal.scores,
        wins=deal.wins,
        kongs=deal.made,
        ledger=settler.ledger,
        settlement=deal.end_settlement,
        end_reason=deal.end_reason,
        complete=True,
        facts=deal.facts() if keep_facts else None,
    )
