"""Play full, legal deals through the engine's state machine and record them as log v1.

Every move is applied to :class:`engine.deal.Deal` before it is recorded, so a simulated
log is legal by construction; the recorder's claims (kong and win deltas, fan, patterns,
settlement, scores, totals) are the engine's own answers. Players are bots with styles
(careful, aggressive, weak, ...) so that club statistics differ the way a club expects.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from engine.deal import Deal, Phase
from engine.events import (
    DealEnd,
    DealStart,
    Direction,
    Discard,
    Draw,
    Event,
    Exchange,
    Hu,
    Kong,
    PlayEvent,
    Pong,
    SessionEnd,
    SessionStart,
    Void,
)
from engine.events import (
    replace as replace_event,
)
from engine.rules import Rules, load_rules
from engine.settlement import seat_deltas
from engine.table import require_replayable, table_of
from engine.tiles import NUM_KINDS, WILD

ALL_108 = [tile for tile in range(NUM_KINDS) for _ in range(4)]


@dataclass(frozen=True)
class Style:
    """How a bot plays. Probabilities are per decision."""

    name: str
    pong: float  # claim a pong when it can
    kong: float  # make a kong when it can
    chase_pure: float  # share of deals it dumps two suits to chase 清一色
    pass_small: float  # decline a 1-fan discard win early in the deal, hoping for more
    careless: float  # discard a random tile instead of a useless one
    defense: float  # late in the deal, throw tiles the table has already shown (安全牌)


STYLES: tuple[Style, ...] = (
    Style("careful", pong=0.5, kong=0.8, chase_pure=0.05, pass_small=0.0, careless=0.02, defense=0.9),
    Style("aggressive", pong=0.9, kong=1.0, chase_pure=0.45, pass_small=0.3, careless=0.05, defense=0.1),
    Style("weak", pong=0.7, kong=0.6, chase_pure=0.1, pass_small=0.05, careless=0.45, defense=0.0),
    Style("balanced", pong=0.7, kong=0.9, chase_pure=0.15, pass_small=0.1, careless=0.1, defense=0.4),
    Style("patient", pong=0.3, kong=0.9, chase_pure=0.25, pass_small=0.4, careless=0.05, defense=0.6),
    Style("reckless", pong=0.95, kong=1.0, chase_pure=0.3, pass_small=0.0, careless=0.3, defense=0.0),
)


class _Bot:
    """One seat's decisions for one deal."""

    def __init__(
        self, style: Style, rng: random.Random, suits: tuple[int, ...] = (0, 1, 2), void: bool = True
    ) -> None:
        self.style = style
        self.rng = rng
        self.suits = suits  # the table's suits (万 0, 筒 1, 条 2)
        self.void = void  # the table plays 缺一门: one suit at least is thrown away
        self.dump: set[int] = set()  # suits being thrown away (at least one: 缺一门)

    def choose_dump(self, hand: Sequence[int]) -> int:
        """The suit to throw away (the void declared where 定缺 binds); a table without
        缺一门 throws one away only to chase 清一色."""
        suits = self.suits
        sizes = [sum(hand[suit * 9 : suit * 9 + 9]) for suit in range(3)]
        order = sorted(suits, key=lambda suit: (sizes[suit], suit))
        self.dump = {order[0]} if self.void else set()
        if self.rng.random() < self.style.chase_pure and sizes[order[-1]] >= 8:
            self.dump.add(order[0] if not self.void else order[1])
        return order[0]

    def exchange_tiles(self, hand: Sequence[int]) -> tuple[int, ...]:
        """换三张: three tiles of the smallest suit that has three."""
        sizes = [sum(hand[suit * 9 : suit * 9 + 9]) for suit in range(3)]
        suit = min((s for s in range(3) if sizes[s] >= 3), key=lambda s: (sizes[s], s))
        tiles = [t for t in range(suit * 9, suit * 9 + 9) for _ in range(hand[t])]
        return tuple(self.rng.sample(tiles, 3))

    def wants_tile(self, tile: int) -> bool:
        return tile // 9 not in self.dump

    def discard(self, hand: Sequence[int], void_suit: int | None, deal: Deal) -> int:
        held = [t for t in range(NUM_KINDS) if hand[t]]
        if not held:
            return WILD  # only 红中 left in hand and no win: one goes (it is dead)
        if void_suit is not None:
            void_tiles = [t for t in held if t // 9 == void_suit]
            if void_tiles:
                return self.rng.choice(void_tiles)
        dumped = [t for t in held if t // 9 in self.dump]
        if dumped:
            return max(dumped, key=lambda t: (_isolation(hand, t), t))
        if self.rng.random() < self.style.careless:
            return self.rng.choice(held)
        if deal.wall_left < 32 and self.rng.random() < self.style.defense:
            shown = [0] * NUM_KINDS
            for seat in deal.order:
                for tile in deal.discards[seat]:
                    if tile != WILD:
                        shown[tile] += 1
                for meld in deal.melds[seat]:
                    shown[meld.tile] += 3
            return max(held, key=lambda t: (shown[t] + hand[t] >= 3, _isolation(hand, t) + 4 * shown[t], t))
        return max(held, key=lambda t: (_isolation(hand, t), self.rng.random()))


def _isolation(hand: Sequence[int], tile: int) -> int:
    """How useless a tile is: single, with no neighbours one or two ranks away."""
    if hand[tile] >= 2:
        return 0
    rank = tile % 9
    near = 0
    for step in (-2, -1, 1, 2):
        other = rank + step
        if 0 <= other < 9 and hand[tile - rank + other]:
            near += 2 if abs(step) == 1 else 1
    edge = 1 if rank in (0, 8) else 0
    return 10 - near * 3 + edge


class _Recorder:
    """Applies bare events to the deal and records them with the engine's answers."""

    def __init__(self, deal: Deal, seats: int = 4) -> None:
        self.deal = deal
        self.seats = seats  # the recorded points: one a seat
        self.events: list[PlayEvent] = []
        self._kongs_seen = 0

    @property
    def next_line(self) -> int:
        """Events carry their index here as ``line``, so a kong can be found to patch."""
        return len(self.events)

    def play(self, event: PlayEvent) -> None:
        self.deal.apply(event)
        self.events.append(event)
        self._patch_kongs()

    def play_win(self, event: Hu) -> None:
        self.play(event)
        win = self.deal.wins[-1]
        recorded = self.events[-1]
        assert isinstance(recorded, Hu)
        self.events[-1] = replace_event(
            recorded, fan=win.result.fan, patterns=win.result.patterns, deltas=win.deltas[: self.seats]
        )

    def _patch_kongs(self) -> None:
        """A kong's payment is known once it stands (an added kong may be robbed first)."""
        while self._kongs_seen < len(self.deal.kongs):
            made = self.deal.kongs[self._kongs_seen]
            self._kongs_seen += 1
            recorded = self.events[made.line]
            assert isinstance(recorded, Kong)
            self.events[made.line] = replace_event(recorded, deltas=made.deltas[: self.seats])


def simulate_deal(
    rng: random.Random, deal_id: str, dealer: int, rules: Rules, styles: Sequence[Style], base: int = 1
) -> tuple[DealStart, list[PlayEvent], DealEnd, Deal]:
    """Play one deal to its end; returns its events with the recorder's claims filled in.
    The table is the rules' (engine/table.py): its seats, its suits' tiles, its hand size."""
    table = table_of(rules)
    seats = table.players
    tiles = list(ALL_108) if len(table.suits) == 3 else [tile for tile in ALL_108 if table.kinds[tile]]
    tiles += [WILD] * table.wild_copies  # 红中
    rng.shuffle(tiles)
    hands: list[tuple[int, ...]] = []
    position = 0
    for seat in range(seats):
        size = table.hand + 1 if seat == dealer else table.hand
        hands.append(tuple(tiles[position : position + size]))
        position += size
    wall = tuple(tiles[position:])
    start = DealStart(deal_id, dealer, tuple(hands), wall=wall, dice=(rng.randint(1, 6), rng.randint(1, 6)))
    deal = Deal(start, rules, base)
    void = len(table.suits) == 3 or rules.two_suit_void  # 缺一门 is played
    bots = [_Bot(styles[seat], rng, table.suits, void) for seat in range(seats)]
    rec = _Recorder(deal, seats)
    if rules.exchange_three:
        given = tuple(bots[seat].exchange_tiles(deal.hands[seat]) for seat in range(seats))
        across: tuple[Direction, ...] = ("across",) if seats == 4 else ()  # no seat across at three
        directions: tuple[Direction, ...] = ("clockwise", "counterclockwise", *across)
        direction = rng.choice(directions)
        rec.play(Exchange(direction, given, line=rec.next_line))
    dumps = [bots[seat].choose_dump(deal.hands[seat]) for seat in range(seats)]
    if rules.void_declaration == "required":
        for step in range(seats):
            seat = (dealer + step) % seats
            rec.play(Void(seat, dumps[seat], line=rec.next_line))
    for seat in deal.four_wilds_seats():  # 起手4红中: a non-dealer dealt four wins at once
        rec.play_win(Hu(seat, WILD, None, line=rec.next_line))
    front = back = 0
    while not deal.is_over():
        phase = deal.phase
        if phase in (Phase.DRAW, Phase.REPLACEMENT):
            if phase is Phase.REPLACEMENT:
                tile = wall[len(wall) - 1 - back]
                back += 1
            else:
                tile = wall[front]
                front += 1
            rec.play(Draw(deal.current, tile, line=rec.next_line))
        elif phase is Phase.ACT:
            _act(deal, rec, bots[deal.current], rng)
        elif phase in (Phase.CLAIM, Phase.ROB):
            if not _claims(deal, rec, bots, rng):
                open_tile = deal.open_tile
                if open_tile is not None and open_tile[2] and not open_tile[3]:
                    rec.play(Draw(deal.current, wall[len(wall) - 1 - back], line=rec.next_line))
                    back += 1
                else:
                    drawer = deal.next_drawer()
                    if drawer is None:
                        break  # the wall is empty: the deal ends on its deal_end line
                    rec.play(Draw(drawer, wall[front], line=rec.next_line))
                    front += 1
        else:  # pragma: no cover - exchange/void phases are played above
            raise AssertionError(f"unexpected phase {phase}")
    bare_end = DealEnd("?")
    deal.apply(bare_end)
    assert deal.end_reason is not None
    end = DealEnd(
        deal.end_reason,
        settlement=seat_deltas(deal.settlement, seats),
        scores=seat_deltas(deal.ledger, seats),
    )
    return start, rec.events, end, deal


def _act(deal: Deal, rec: _Recorder, bot: _Bot, rng: random.Random) -> None:
    seat = deal.current
    hand = deal.hands[seat]
    option = deal.self_draw_option()
    if option is not None:
        drawn = deal.last_draw
        if drawn is not None:
            tile = drawn
        elif deal.wild_table and deal.opening_four(seat):
            tile = WILD  # the dealer's 起手4红中
        else:
            tile = next(t for t in range(NUM_KINDS) if hand[t])
        rec.play_win(Hu(seat, tile, None, line=rec.next_line))
        return
    if deal.hand_fixed(seat) and deal.last_draw is not None:
        # 血流成河's 胡后不改牌: a winner playing on throws the tile it drew (it never kongs)
        rec.play(Discard(seat, deal.last_draw, line=rec.next_line))
        return
    if deal.wall_left > 0 and (4 in hand or deal.melds[seat]) and rng.random() < bot.style.kong:
        for tile in range(NUM_KINDS):
            if hand[tile] == 4 and bot.wants_tile(tile):
                rec.play(Kong(seat, tile, "concealed", line=rec.next_line))
                return
        for tile in deal.pongs(seat):
            if hand[tile] >= 1:
                rec.play(Kong(seat, tile, "added", line=rec.next_line))
                return
    void_suit = deal.void[seat] if deal.rules.void_declaration == "required" else None
    rec.play(Discard(seat, bot.discard(hand, void_suit, deal), line=rec.next_line))


def _claims(deal: Deal, rec: _Recorder, bots: Sequence[_Bot], rng: random.Random) -> bool:
    """Offer the open tile to the other seats in turn order; True when someone claimed."""
    open_tile = deal.open_tile
    assert open_tile is not None
    source, tile, rob, already_won = open_tile
    if already_won:
        return False  # its winners have been recorded; the turn moves on
    seats = len(deal.order)
    order = [(source + step) % seats for step in range(1, seats)]
    must = deal.rules.last_four_must_hu and deal.in_last_four() and not rob
    winners: list[int] = []
    for seat in order:
        option = deal.claim_option(seat)
        if option is None:
            continue
        early = deal.wall_left > 20
        declines = early and option.fan <= 1 and rng.random() < bots[seat].style.pass_small
        if must or not declines:
            winners.append(seat)
            if not deal.rules.multiple_hu:
                break
    for seat in winners:
        rec.play_win(Hu(seat, tile, source, line=rec.next_line))
    if winners:
        return True
    if rob or tile >= NUM_KINDS:
        return False  # (a discarded 红中 is dead: nobody pongs or kongs it)
    for seat in order:
        if deal.won[seat]:
            continue
        count = deal.hands[seat][tile]
        bot = bots[seat]
        if not bot.wants_tile(tile) or count < 2:
            continue
        if count == 3 and deal.wall_left > 0 and rng.random() < bot.style.kong:
            rec.play(Kong(seat, tile, "exposed", line=rec.next_line))
            return True
        if rng.random() < bot.style.pong:
            rec.play(Pong(seat, tile, line=rec.next_line))
            return True
    return False


@dataclass(frozen=True)
class ClubPlan:
    players: int = 12
    sessions: int = 10
    deals_per_session: int = 8
    rules: str | dict[str, object] = "standard"
    seed: int = 1
    start: date = date(2026, 6, 1)
    club: str = "sample-club"
    days: int = 182  # the sessions are spread over this many days
    tables: int = 3  # tables playing on one evening
    base: int = 1  # 底分 of every session: the points of one fan-1 payment


def simulate_club(plan: ClubPlan) -> Iterator[Event]:
    """Sessions of four players drawn from the club, spread evenly over ``plan.days`` days,
    up to ``plan.tables`` tables an evening, each evening's tables with different players."""
    rng = random.Random(plan.seed)
    rules = require_replayable(load_rules(plan.rules))
    seats = table_of(rules).players
    names = [_player_name(index) for index in range(plan.players)]
    styles = {name: STYLES[index % len(STYLES)] for index, name in enumerate(names)}
    evening: list[str] = []
    previous_day = None
    table_no = 0
    for session_index in range(plan.sessions):
        day = plan.start + timedelta(days=session_index * plan.days // plan.sessions)
        if day != previous_day or len(evening) < seats or table_no >= plan.tables:
            evening = rng.sample(names, len(names))  # who is free tonight, in table order
            previous_day = day
            table_no = 0
        table, evening = evening[:seats], evening[seats:]
        table_no += 1
        when = datetime(day.year, day.month, day.day, 19, 30) + timedelta(minutes=rng.randint(0, 60))
        session_id = f"{plan.club}-{day.isoformat()}-{session_index:05d}"
        yield SessionStart(
            session_id,
            tuple(table),
            rules=plan.rules,
            base=plan.base,
            club=plan.club,
            table=f"t{table_no}",
            started_at=when.isoformat(timespec="minutes"),
        )
        totals = [0] * seats
        dealer = rng.randrange(seats)
        seat_styles = [styles[name] for name in table]
        for deal_index in range(plan.deals_per_session):
            start, events, end, deal = simulate_deal(
                rng, f"{session_id}-{deal_index + 1:02d}", dealer, rules, seat_styles, plan.base
            )
            yield start
            yield from events
            yield end
            assert end.scores is not None
            totals = [a + b for a, b in zip(totals, end.scores, strict=True)]
            dealer = deal.wins[0].seat if deal.wins else dealer  # 首胡者坐庄
        yield SessionEnd(tuple(totals))


_GIVEN = ["Ann", "Bo", "Chen", "Du", "Eve", "Fang", "Gao", "Hui", "Ivy", "Jun", "Kai", "Li", "Mei", "Ning"]


def _player_name(index: int) -> str:
    name = _GIVEN[index % len(_GIVEN)]
    return name if index < len(_GIVEN) else f"{name}{index // len(_GIVEN) + 1}"
