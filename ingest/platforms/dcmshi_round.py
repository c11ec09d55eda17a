"""One dcmshi record's actions replayed over its rebuilt wall into chuanma events
(:class:`Round`), with the reading of its seats, tiles and wins: the moves of
:mod:`ingest.platforms.dcmshi`, which reads the records, their results and sessions.

The app's turn runs by decreasing seat, chuanma's by increasing seat, so app seat ``s`` is
chuanma seat ``(4 - s) % 4`` (seat 0 stays 0); docs/platforms.md, "dcmshi".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from engine.messages import Text, say
from engine.messages import tile as tile_value
from engine.table import FOUR_SEAT_TABLE
from ingest.logs.play_lines import KIND_DISCARD, KIND_DRAW, KIND_PONG, play_code
from ingest.platforms.dcmshi_rng import Dealt, seed_hash
from ingest.platforms.emit import Converted, finding

ROUND_LINES: Final = 1000
END_LINE: Final = 999
HAND: Final = FOUR_SEAT_TABLE.hand  # the engine's four-seat table, the one dcmshi deals
DEALT: Final = FOUR_SEAT_TABLE.dealt - 1  # state.ts DEALT_TILES: 13 each before the dealer's 14th
SUITS: Final = ("man", "pin", "sou")
LETTER: Final = {"man": "m", "pin": "p", "sou": "s"}
TURN_MOVES: Final = frozenset(
    {"discard", "flipFirstDiscard", "declareKongOnTurn", "declareHeavenly", "declareHuOnDraw"}
)
WINDOW_MOVES: Final = frozenset({"claim", "pass"})
KNOWN: Final = TURN_MOVES | WINDOW_MOVES | {"huanSelect", "declareVoid", "draw", "claimWindowExpire"}


class Unreadable(ValueError):
    """A part of the record that cannot be read (its message says what and where)."""


def chuanma_seat(seat: int) -> int:
    """The app's seat as chuanma's: its turn order runs the other way round."""
    return (4 - seat) % 4


def app_seat(seat: int) -> Text:
    """The app's seat in a message, with chuanma's beside it."""
    return say("platform_seat", app=seat, here=chuanma_seat(seat))


def tile_name(tile: int) -> str:
    kind = tile // 4
    return f"{kind % 9 + 1}{'mps'[kind // 9]}"


def tile_id(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 108:
        return value
    raise Unreadable(f"{value!r} is no tile id (0-107)")


def seat_of(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return value
    raise Unreadable(f"{value!r} is no seat (0-3)")


def kind_of_tile(value: object) -> int:
    """A ``Tile`` object ``{suit, rank}`` (the kong action's) as a tile kind 0-26."""
    if isinstance(value, dict) and value.get("suit") in SUITS:
        rank = value.get("rank")
        if isinstance(rank, int) and not isinstance(rank, bool) and 1 <= rank <= 9:
            return SUITS.index(value["suit"]) * 9 + rank - 1
    raise Unreadable(f"{value!r} is no tile {{suit, rank}}")


@dataclass
class Window:
    """An open claim window: the tile, its discarder, the claims; ``kong`` when it is the
    robbing window of an added kong (its kong event, whose replacement waits on it)."""

    tile: int
    by: int
    line: int
    claims: dict[int, tuple[str, int]] = field(default_factory=dict)
    kong: dict[str, Any] | None = None


@dataclass
class Win:
    """A win as the record's ``results`` give it (app seats)."""

    kind: int  # tile kind of winningTile
    by_discard: bool
    discarder: int | None
    hand_value: int
    subtype: str


class Round:
    """One record's actions replayed over the rebuilt wall into chuanma events."""

    def __init__(self, out: Converted, deal_id: str, number: int, dealt: Dealt, config: dict[str, Any],
                 wins: dict[int, Win]) -> None:  # fmt: skip
        self.out = out
        self.deal_id = deal_id
        self.base = number * ROUND_LINES
        self.config = config
        self.wins = wins
        self.unknown: set[int] = set()  # seats whose results entry cannot be read
        self.wall = list(dealt.wall)
        self.hands = [sorted(self.wall[HAND * s : HAND * s + HAND]) for s in range(FOUR_SEAT_TABLE.players)]
        self.hands[dealt.dealer].append(self.wall[DEALT])
        self.dealt = [list(h) for h in self.hands]
        self.head = DEALT + 1
        self.tail = len(self.wall) - 1
        self.pongs: list[set[int]] = [set() for _ in range(4)]
        self.kongs = [0, 0, 0, 0]
        self.events: list[tuple[int, dict[str, Any] | int]] = []  # an int: a play code
        self.huan: dict[int, list[int]] = {}
        self.first: dict[int, int] = {}  # the face-down first discard set aside at 定缺
        self.void: dict[int, str] = {}
        self.won: list[int] = []
        self.drawn: dict[int, int] = {}  # the tile each seat drew last on its turn
        self.window: Window | None = None
        self.wall_end = False
        self.window_kong: dict[str, Any] | None = None  # the added kong of a robbing window
        self.exhausted = False
        self.misses = 0  # tiles the moves name that the seat does not hold
        self.penalties: list[str] = []  # rules of the app chuanma has no knob for

    def note(self, line: int, text: Text, code: str = "bad_record", seat: int | None = None) -> None:
        warning = code != "bad_record"
        self.out.note(self.deal_id, finding(code, line, self.out.name, text, warning, seat))

    def emit(self, line: int, obj: dict[str, Any]) -> dict[str, Any]:
        self.events.append((line, obj))
        return obj

    def play(self, line: int, kind: int, seat: int, tile: int) -> None:
        """A draw, discard or pong (app seat, tile id) as its play code: read with no JSON."""
        self.events.append((line, play_code(kind, chuanma_seat(seat), tile // 4)))

    def take(self, seat: int, tile: int) -> None:
        if tile in self.hands[seat]:
            self.hands[seat].remove(tile)
        else:
            self.misses += 1

    def take_kind(self, seat: int, kind: int, count: int) -> None:
        for _ in range(count):
            held = [t for t in self.hands[seat] if t // 4 == kind]
            if held:
                self.hands[seat].remove(held[0])
            else:
                self.misses += 1

    def replacement(self, seat: int, line: int) -> None:
        """A kong's replacement tile, from the far end of the wall (state.ts kongDrawIndex)."""
        if self.head > self.tail:
            raise Unreadable("a kong with no tile left to replace it")
        tile = self.wall[self.tail]
        self.tail -= 1
        self.wall_end = self.head > self.tail  # the wall's last tile: the next discard is 海底
        self.hands[seat].append(tile)
        self.drawn[seat] = tile
        self.play(line, KIND_DRAW, seat, tile)

    # -- the actions -------------------------------------------------------------

    def act(self, line: int, action: dict[str, Any], following: dict[str, Any] | None) -> None:
        kind = action.get("t")
        if kind not in KNOWN:
            raise Unreadable(f"action kind {kind!r} is not one of the app's GameAction")
        if self.window is not None and kind not in WINDOW_MOVES:
            self.resolve(line if kind == "claimWindowExpire" else self.window.line)
        if kind == "claimWindowExpire":
            return
        seat = seat_of(action.get("seat"))
        if kind == "huanSelect":
            tiles = action.get("tiles")
            if not isinstance(tiles, list) or len(tiles) != 3:
                raise Unreadable(f"huanSelect tiles {tiles!r} are not three tile ids")
            self.huan[seat] = [tile_id(t) for t in tiles]
            if len(self.huan) == 4:
                self.exchange(line)
        elif kind == "declareVoid":
            suit = action.get("suit")
            if suit not in SUITS:
                raise Unreadable(f"void suit {suit!r} is not man, pin or sou")
            first = action.get("firstDiscard")
            if first is not None:
                self.first[seat] = tile_id(first)  # stays in the hand until it is flipped
            self.void[seat] = suit
            self.emit(line, {"type": "void", "seat": chuanma_seat(seat), "suit": LETTER[suit]})
        elif kind == "draw":
            self.draw(seat, line)
        elif kind == "discard":
            self.discard(seat, tile_id(action.get("tile")), line)
        elif kind == "flipFirstDiscard":
            if seat not in self.first:
                raise Unreadable(
                    f"app seat {seat} (seat {chuanma_seat(seat)} here) flips a first discard it never set aside"
                )
            self.discard(seat, self.first.pop(seat), line)
        elif kind in WINDOW_MOVES:
            if self.window is None:
                raise Unreadable(f"{kind} with no claim window open")
            if kind == "claim":
                claim = action.get("claim")
                how = claim.get("kind") if isinstance(claim, dict) else None
                if how not in ("hu", "pung", "kong"):
                    raise Unreadable(f"claim {claim!r} is not hu, pung or kong")
                self.window.claims[seat] = (str(how), line)
        elif kind == "declareKongOnTurn":
            self.kong_on_turn(seat, kind_of_tile(action.get("tile")), line)
        else:  # declareHuOnDraw / declareHeavenly
            self.self_draw(seat, kind, line, following)

    def exchange(self, line: int) -> None:
        """换三张: every seat's three tiles go round (actions.ts applyHuanRotation)."""
        direction = self.config["huanDirection"]
        if direction == "random":
            direction = "cw" if seed_hash(str(self.config.get("_seed", ""))) & 1 else "ccw"
        offset = 1 if direction == "cw" else 3
        given: list[list[str]] = [[], [], [], []]
        for seat, tiles in self.huan.items():
            for tile in tiles:
                self.take(seat, tile)
                self.hands[(seat + offset) % 4].append(tile)
            given[chuanma_seat(seat)] = [tile_name(t) for t in tiles]
        # app seat s gives to s + 1 (cw): chuanma seat c gives to c - 1, chuanma's clockwise
        name = "clockwise" if offset == 1 else "counterclockwise"
        self.emit(line, {"type": "exchange", "direction": name, "tiles": given})

    def draw(self, seat: int, line: int) -> None:
        if self.head > self.tail:
            self.exhausted = True  # applyDraw on an empty wall ends the round
            return
        tile = self.wall[self.head]
        self.head += 1
        self.wall_end = self.head > self.tail
        self.hands[seat].append(tile)
        self.drawn[seat] = tile
        self.play(line, KIND_DRAW, seat, tile)

    def discard(self, seat: int, tile: int, line: int) -> None:
        self.take(seat, tile)
        self.drawn.pop(seat, None)
        self.play(line, KIND_DISCARD, seat, tile)
        self.window = Window(tile, seat, line)

    def kong_on_turn(self, seat: int, kind: int, line: int) -> None:
        held = sum(t // 4 == kind for t in self.hands[seat])
        tile = f"{kind % 9 + 1}{'mps'[kind // 9]}"
        if held >= 4 or kind not in self.pongs[seat]:
            self.take_kind(seat, kind, 4)
            if self.void.get(seat) == SUITS[kind // 9]:
                self.penalties.append(
                    f"app seat {seat} (seat {chuanma_seat(seat)} here) kongs its void suit (voidMeldPenalty 48)"
                )
            self.kongs[seat] += 1
            self.emit(line, {"type": "kong", "seat": chuanma_seat(seat), "tile": tile, "kind": "concealed"})
            self.replacement(seat, line)
            return
        fourth = next(t for t in self.hands[seat] if t // 4 == kind) if held else kind * 4
        self.take_kind(seat, kind, 1)
        self.pongs[seat].discard(kind)
        self.kongs[seat] += 1
        kong = self.emit(line, {"type": "kong", "seat": chuanma_seat(seat), "tile": tile, "kind": "added"})
        if self.config["enableRobbingKong"]:
            self.window = Window(fourth, seat, line, kong=kong)
        else:
            self.replacement(seat, line)

    def resolve(self, line: int) -> None:
        """Close the window as claims.ts resolveWindow does: every win, else the nearest
        kong, else the nearest pung (nearest by the turn: ``(from - seat) % 4``)."""
        window, self.window = self.window, None
        assert window is not None
        near = sorted(window.claims, key=lambda s: (window.by - s) % 4)
        winners = [s for s in near if window.claims[s][0] == "hu"]
        winners = [s for s in winners if self.real_win(s, window)]
        if winners:
            self.window_kong = window.kong
            for seat in winners:
                self.win(seat, window.tile, window.by, window.claims[seat][1])
            self.window_kong = None
            return
        if window.kong is not None:
            self.replacement(window.by, window.line)
            return
        for how in ("kong", "pung"):
            claimers = [s for s in near if window.claims[s][0] == how]
            if claimers:
                seat = claimers[0]
                at = window.claims[seat][1]
                kind = window.tile // 4
                if how == "pung":
                    self.take_kind(seat, kind, 2)
                    self.pongs[seat].add(kind)
                    self.play(at, KIND_PONG, seat, window.tile)
                else:
                    self.take_kind(seat, kind, 3)
                    self.kongs[seat] += 1
                    self.emit(at, {"type": "kong", "seat": chuanma_seat(seat), "tile": tile_name(window.tile),
                                   "kind": "exposed"})  # fmt: skip
                    self.replacement(seat, at)
                return

    def real_win(self, seat: int, window: Window) -> bool:
        """A win claimed in a window is one when the record's results say so (when it has
        results); the app fines a claim that is no win (falseHu) and plays on."""
        if not self.wins or seat in self.unknown:
            return True
        won = self.wins.get(seat)
        if won is not None and won.by_discard and won.discarder == window.by and won.kind == window.tile // 4:
            return True
        self.penalties.append(
            f"app seat {seat} (seat {chuanma_seat(seat)} here) claims a win that the results do not hold (falseHu)"
        )
        claim = say("dcmshi_false_claim", who=app_seat(seat), tile=tile_value(tile_name(window.tile)))
        self.note(window.claims[seat][1], claim, code="platform_rule", seat=chuanma_seat(seat))
        return False

    def self_draw(self, seat: int, kind: str, line: int, following: dict[str, Any] | None) -> None:
        if following is not None and following.get("seat") == seat and following.get("t") in TURN_MOVES:
            self.penalties.append(
                f"app seat {seat} (seat {chuanma_seat(seat)} here) declares a self-drawn win its hand does not make (falseHu)"
            )
            self.note(line, say("dcmshi_false_self_draw", who=app_seat(seat)), code="platform_rule",
                      seat=chuanma_seat(seat))  # fmt: skip
            return
        tile = self.drawn.get(seat)
        won = self.wins.get(seat)
        if won is not None and (tile is None or tile // 4 != won.kind):
            held = [t for t in self.hands[seat] if t // 4 == won.kind]
            tile = held[0] if held else tile
        if tile is None:
            tile = max(self.hands[seat])  # the dealer's first turn: actions.ts takes the last tile
        self.win(seat, tile, None, line)

    def win(self, seat: int, tile: int, by: int | None, line: int) -> None:
        hu: dict[str, Any] = {
            "type": "hu",
            "seat": chuanma_seat(seat),
            "tile": tile_name(tile),
            "from": None if by is None else chuanma_seat(by),
        }
        won = self.wins.get(seat)
        if won is not None:
            if won.kind != tile // 4:
                self.note(line, say("dcmshi_results_tile", who=app_seat(seat), won=tile_value(tile_name(won.kind * 4)),
                                    tile=tile_value(tile_name(tile))))  # fmt: skip
            fan = won.hand_value.bit_length() - 1
            hu["fan"] = fan + 1  # the app's 2 ** fan points is chuanma's fan + 1
            deltas = [0, 0, 0, 0]
            if by is not None:
                deltas[chuanma_seat(by)] -= won.hand_value
                deltas[chuanma_seat(seat)] += won.hand_value
            else:
                for payer in (s for s in range(4) if s != seat and s not in self.won):
                    deltas[chuanma_seat(payer)] -= won.hand_value + 1
                    deltas[chuanma_seat(seat)] += won.hand_value + 1
            if won.subtype != "shootAfterKong":  # its kong refund is chuanma's to work out
                hu["deltas"] = deltas
        self.emit(line, hu)
        self.won.append(seat)

    def finish(self) -> bool:
        """Close an open window at the log's end; True when the round ended in the log."""
        if self.window is not None:
            self.resolve(self.window.line)
        return len(self.won) >= 3 or self.exhausted or self.wall_end
