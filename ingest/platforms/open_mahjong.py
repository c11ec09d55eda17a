"""Convert an open_mahjong_unity record (牌谱, game_record_format.md) of 川麻 rounds into
chuanma log lines, so the engine audits each round (局) as a deal.

The record is one JSON document: ``game_title`` (rules, players) and ``game_round``
(``round_index_N``: seats, the four dealt hands, the wall, ``action_ticks``). The dealer
is the seat dealt 14 tiles: the platform writes ``dealer_index`` 0 in every round. Its
ticks carry no seat for draws and discards: the seat follows from the turn order, as the
platform's own replay does. It writes no 定缺: it is inferred from the moves
(:mod:`ingest.platforms.voids`) and each inference is a ``platform_inferred`` warning.

Line numbers: a round's line is ``N × 1000``, its tick ``k`` (1-based) is line
``N × 1000 + k``, so every finding names the round and the tick.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any, Final

from engine.messages import Text, say, words
from engine.table import FOUR_SEAT_TABLE
from engine.tiles import tile_name as kind_name
from ingest.logs.builder import LogFile
from ingest.logs.line_parser import TILE_IDS
from ingest.logs.play_lines import KIND_DISCARD, KIND_DRAW, KIND_PONG, code_tile, play_code
from ingest.platforms.emit import Converted, finding, log_of, parse_document
from ingest.platforms.open_mahjong_rules import KNOBS, SUB_RULES, UnknownFan, patterns_of, rules_of
from ingest.platforms.voids import infer_void

SUIT_OF: Final = {1: "m", 2: "p", 3: "s"}  # 11-19 万, 21-29 饼, 31-39 条
ROUND_LINES: Final = 1000
WALL: Final = FOUR_SEAT_TABLE.wall_size  # the tiles after the deal at the four-seat table (55)
HU_TICKS: Final = frozenset({"hu_self", "hu_first", "hu_second", "hu_third"})
SILENT: Final = frozenset({"ca", "end"})  # display only / end of round
PENALTY_ACTIVE_PIG: Final = 24  # 主动花猪 pays it to nobody (SichuanGameState.py)


class Unreadable(ValueError):
    """A part of the record that cannot be read (its message says what and where)."""


def tile_name(value: object) -> str:
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and value // 10 in SUIT_OF
        and 1 <= value % 10 <= 9
    ):
        return f"{value % 10}{SUIT_OF[value // 10]}"
    raise Unreadable(f"{value!r} is no 川麻 tile (11-19, 21-29, 31-39)")


def tiles(value: object) -> list[str]:
    if not isinstance(value, list):
        raise Unreadable(f"{value!r} is no list of tiles")
    return [tile_name(v) for v in value]


def seat_of(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return value
    raise Unreadable(f"{value!r} is no seat (0-3)")


def dealer_of(hands: list[list[str]], dealer_index: object) -> int:
    """The seat dealt 14 tiles deals: the platform writes ``dealer_index`` 0 in every round
    whoever deals (SichuanGameState.game_loop_sichuan hands the deal on, the record's
    header is not told), so it is read only when no hand holds 14 (the format's text: the
    dealer's 14th tile is the first draw)."""
    fourteen = [seat for seat, hand in enumerate(hands) if len(hand) == 14]
    if len(fourteen) == 1:
        return fourteen[0]
    return seat_of(dealer_index)


def gang_deltas(tick: list[Any]) -> list[int] | None:
    """The four 刮风下雨 point changes a kong tick carries after its ``"gs"`` mark."""
    if "gs" not in tick:
        return None
    at = tick.index("gs")
    deltas = tick[at + 1 : at + 5]
    if len(deltas) != 4 or not all(isinstance(d, int) and not isinstance(d, bool) for d in deltas):
        raise Unreadable(f'the kong\'s point changes after "gs" are not four whole numbers: {deltas!r}')
    return list(deltas)


def four_ints(value: object, what: str) -> list[int]:
    if (
        isinstance(value, list)
        and len(value) == 4
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return list(value)
    raise Unreadable(f"{what} {value!r} is not four whole numbers")


class _Round:
    """One round's ticks turned into events, with the seat to move tracked."""

    def __init__(self, out: Converted, deal_id: str, number: int, bloody: bool) -> None:
        self.out = out
        self.deal_id = deal_id
        self.base = number * ROUND_LINES
        self.bloody = bloody
        self.events: list[tuple[int, dict[str, Any] | int]] = []  # an int: a play code
        self.won: list[int] = []
        self.hu_lines: list[dict[str, Any]] = []
        self.settled: dict[int, list[int]] = {}  # winner -> settle_hu changes
        self.settlement: list[int] | None = None
        self.turn = 0
        self.after = 0  # the seat after which the next draw comes
        self.last_discard: tuple[int, str] | None = None
        self.last_kong: dict[str, Any] | None = None
        self.exhausted = False
        self.draws: list[tuple[bool, int]] = []  # (replacement?, index of the event)
        self.pending_refund: list[int] | None = None  # a 杠上炮 ``gr`` awaiting its win
        self.refunds: list[tuple[dict[str, Any], list[int]]] = []  # (the win, its gr refund)

    def note(self, line: int, text: Text, warning: bool = False, seat: int | None = None) -> None:
        code = "platform_rule" if warning else "bad_record"
        self.out.note(self.deal_id, finding(code, line, self.out.name, text, warning, seat))

    def next_seat(self, seat: int) -> int:
        for step in range(1, 5):
            nxt = (seat + step) % 4
            if not (self.bloody and nxt in self.won):
                return nxt
        return seat

    def emit(self, line: int, obj: dict[str, Any]) -> dict[str, Any]:
        self.events.append((line, obj))
        return obj

    def play(self, line: int, kind: int, seat: int, tile: object) -> None:
        """A draw, discard or pong as its play code: read with no JSON in between."""
        name = tile_name(tile)
        self.events.append((line, play_code(kind, seat, TILE_IDS[name])))

    def last_tile(self) -> str | None:
        """The tile of the last event (a self-drawn win's, where its tick names none)."""
        last = self.events[-1][1]
        if isinstance(last, int):
            return kind_name(code_tile(last))
        tile = last.get("tile")
        return tile if isinstance(tile, str) else None

    def tick(self, line: int, tick: list[Any]) -> None:
        code = tick[0]
        if code in ("d", "gd"):
            seat = self.turn if code == "gd" else self.next_seat(self.after)
            self.turn = seat
            self.draws.append((code == "gd", len(self.events)))
            self.play(line, KIND_DRAW, seat, tick[1])
            if code == "d":
                self.last_kong = None
        elif code == "c":
            tile = tile_name(tick[1])
            self.play(line, KIND_DISCARD, self.turn, tick[1])
            self.last_discard = (self.turn, tile)
            self.after = self.turn
        elif code == "p":
            self.turn = seat_of(tick[2])
            self.play(line, KIND_PONG, self.turn, tick[1])
        elif code in ("g", "ag", "jg"):
            if code == "g":
                self.turn = seat_of(tick[2])
            kind = {"g": "exposed", "ag": "concealed", "jg": "added"}[code]
            kong: dict[str, Any] = {
                "type": "kong",
                "seat": self.turn,
                "tile": tile_name(tick[1]),
                "kind": kind,
            }
            deltas = gang_deltas(tick)
            if deltas is not None:
                kong["deltas"] = deltas
            self.last_kong = self.emit(line, kong)
        elif code == "gr":
            self.refund(line, tick)
        elif code in HU_TICKS:
            self.hu(line, code, tick)
        elif code == "liuju":
            self.liuju(line, tick)
        elif code in SILENT:
            return
        else:
            raise Unreadable(f"tick code {code!r} is not one of a 川麻 round")

    def hu(self, line: int, code: str, tick: list[Any]) -> None:
        winner = seat_of(tick[1])
        changes = four_ints(tick[4], "the win's point changes") if len(tick) > 4 else [0, 0, 0, 0]
        win: dict[str, Any] = {"type": "hu", "seat": winner}
        if code == "hu_self":
            win["tile"] = tile_name(tick[5]) if len(tick) > 5 else self.last_tile()
            win["from"] = None
        else:
            robbed = (
                self.last_kong is not None
                and self.last_kong.get("kind") == "added"
                and self.last_kong is self.events[-1][1]
            )
            if robbed and self.last_kong is not None:
                self.last_kong.pop("deltas", None)  # 抢杠: the robbed kong earns nothing
                win["tile"], win["from"] = self.last_kong["tile"], self.last_kong["seat"]
            elif self.last_discard is not None:
                win["tile"], win["from"] = self.last_discard[1], self.last_discard[0]
            if len(tick) > 7 and tick[7] is not None:
                win["from"] = seat_of(tick[7])
            if len(tick) > 5:
                win["tile"] = tile_name(tick[5])
        if any(changes):
            win["deltas"] = changes
        fans = tick[3] if len(tick) > 3 else None
        if isinstance(fans, list) and fans and all(isinstance(f, str) for f in fans):
            try:
                win["patterns"] = patterns_of(fans)  # the engine checks them (fan_mismatch)
            except UnknownFan as err:
                error = words(f"番种 {' '.join(fans)} 无法对应", str(err))
                text = say("open_mahjong_fan", tick=line % ROUND_LINES, error=error)
                self.note(line, text)
        if self.pending_refund is not None:
            self.refunds.append((win, self.pending_refund))
            self.pending_refund = None
        self.emit(line, win)
        self.hu_lines.append(win)
        self.won.append(winner)
        self.after = winner
        self.turn = winner

    def refund(self, line: int, tick: list[Any]) -> None:
        """``gr``: the platform returns a kong's takings to its payers before the win ticks
        (SichuanGameState._settle_win). 抢杠: the robbed kong's claim is dropped instead;
        杠上炮: chuanma's ``kong_discard_transfer: refund`` counts it in the first win's
        payment, so the refund is added to that win's point changes."""
        deltas = four_ints(tick[2:6], "the refund's point changes")
        if self.last_kong is not None and self.last_kong is self.events[-1][1]:
            return  # 抢杠: the kong's earnings are dropped with its claim
        self.pending_refund = deltas

    def liuju(self, line: int, tick: list[Any]) -> None:
        step = tick[1] if len(tick) > 1 else None
        if step is None:
            self.exhausted = True
        elif step == "settle_hu":
            winner = seat_of(tick[3])
            self.settled.setdefault(winner, four_ints(tick[6], "the settled win's point changes"))
        elif step == "chajiao":
            seat = seat_of(tick[2])
            changes = four_ints(tick[5], "the 查叫 point changes")
            if tick[3] == "hua_zhu_active":
                changes[seat] += PENALTY_ACTIVE_PIG
                text = say(
                    "open_mahjong_active_pig", tick=line % ROUND_LINES, seat=seat, penalty=PENALTY_ACTIVE_PIG
                )
                self.note(line, text, warning=True, seat=seat)
            total = self.settlement or [0, 0, 0, 0]
            self.settlement = [a + b for a, b in zip(total, changes, strict=True)]
            self.exhausted = self.exhausted or len(self.won) < 3
        elif step != "reveal_hu":
            raise Unreadable(f"liuju step {step!r} is not reveal_hu, settle_hu or chajiao")

    def finish(self) -> None:
        """血战 pays its wins at the end (``settle_hu``); a 杠上炮 refund joins its win's
        payment, as chuanma counts it there."""
        if self.bloody:
            for win in self.hu_lines:
                changes = self.settled.get(win["seat"])
                if changes is not None:
                    win["deltas"] = changes
        for win, refund in self.refunds:
            paid = win.get("deltas", [0, 0, 0, 0])
            win["deltas"] = [a + b for a, b in zip(paid, refund, strict=True)]


def _wall(rest: list[str], rnd: _Round) -> list[str] | None:
    """chuanma's wall: the platform draws replacements from the front too, so its normal
    draws go first, the tiles never drawn next and the replacement draws last, reversed."""
    if len(rest) != WALL:
        return None
    count = len(rnd.draws)
    normal = [rest[k] for k, (repl, _) in enumerate(rnd.draws[:WALL]) if not repl]
    repls = [rest[k] for k, (repl, _) in enumerate(rnd.draws[:WALL]) if repl]
    return normal + rest[count:] + repls[::-1]


def _convert_round(
    out: Converted, title: dict[str, Any], key: str, data: Any, session: str, bloody: bool
) -> None:
    number = int(key.rsplit("_", 1)[1])
    base = number * ROUND_LINES
    deal_id = f"{session}-r{number}"

    def fail(line: int, why: str) -> None:
        """The round opens no deal: one finding of the file says which and why."""
        out.note(
            None, finding("bad_record", line, out.name, say("open_mahjong_not_replayed", round=key, why=why))
        )

    if not isinstance(data, dict):
        fail(base, "the round is not a JSON object")
        return
    try:
        seats = data.get("seats", [0, 1, 2, 3])
        if sorted(seats) != [0, 1, 2, 3]:
            raise Unreadable(f"seats {seats!r} is not a seating of four")
        hands = [tiles(data.get(f"p{i}_tiles")) for i in range(4)]
        dealer = dealer_of(hands, data.get("dealer_index"))
        wall = tiles(data.get("tiles_list", []))
        ticks = data.get("action_ticks")
        if not isinstance(ticks, list):
            raise Unreadable("action_ticks is not a list")
    except Unreadable as err:
        fail(base, str(err))
        return
    if len(wall) == 108:  # the format's word: the wall before dealing, 13 to each in turn
        wall = wall[52:]
    start = 0
    if len(hands[dealer]) == 13:  # the dealer's 14th tile is the wall's first
        if ticks and isinstance(ticks[0], list) and ticks[0][:1] == ["d"]:
            try:
                hands[dealer].append(tile_name(ticks[0][1]))
            except Unreadable as err:
                fail(base + 1, str(err))
                return
            start = 1
        elif wall:
            hands[dealer].append(wall[0])
        wall = wall[1:]
    rnd = _Round(out, deal_id, number, bloody)
    rnd.turn = dealer
    rnd.after = (dealer + 3) % 4
    for k, tick in enumerate(ticks[start:], start + 1):
        line = base + k
        try:
            if not isinstance(tick, list) or not tick or not isinstance(tick[0], str):
                raise Unreadable(f"{tick!r} is not a tick [code, ...]")
            rnd.tick(line, tick)
        except (Unreadable, IndexError, TypeError) as err:
            why = str(err) if isinstance(err, Unreadable) else f"{tick!r} is missing a part"
            text = say("open_mahjong_tick_left_out", round=key, k=k, why=why)
            out.note(deal_id, finding("bad_record", line, out.name, text))
    rnd.finish()
    deal: dict[str, Any] = {
        "type": "deal",
        "deal_id": deal_id,
        "dealer": dealer,
        "hands": ["".join(h) for h in hands],
    }
    chuanma_wall = _wall(wall, rnd)
    if chuanma_wall is not None:
        deal["wall"] = "".join(chuanma_wall)
    else:
        text = say("open_mahjong_wall", round=key, left=len(wall), wall=WALL)
        out.note(deal_id, finding("bad_record", base, out.name, text))
    out.add(base, deal)
    events = [obj for _, obj in rnd.events]  # dicts and play codes
    for seat in range(4):
        guess = infer_void(seat, hands[seat], events, discard_first=KNOBS["void_discard_first"])
        out.add(base, {"type": "void", "seat": seat, "suit": guess.suit})
        allowed = ", ".join(guess.allowed) or "none"
        how = (
            words("行牌可定", "the moves decide it")
            if guess.decided
            else words(f"行牌只限于 {'、'.join(guess.allowed) or '无'}", f"the moves allow {allowed}")
        )
        if guess.decided:
            continue  # the moves leave one suit: nothing for a reader to weigh
        text = say("open_mahjong_void", round=key, seat=seat, suit=guess.suit, how=how)
        out.note(deal_id, finding("platform_inferred", base, out.name, text, warning=True, seat=seat))
    for line, obj in rnd.events:
        out.add(line, obj)
    end: dict[str, Any] = {"type": "deal_end"}
    if rnd.won and not bloody:
        end["reason"] = "first_hu"  # one discard won by three still ends by the first win
    elif len(set(rnd.won)) >= 3:
        end["reason"] = "three_won"
    else:
        end["reason"] = "wall_exhausted"
    if rnd.settlement is not None:
        end["settlement"] = rnd.settlement
    out.add(base + len(ticks) + 1 if ticks else base + 1, end)


def _bloody(title: dict[str, Any], rounds: dict[str, Any]) -> bool:
    """血战 or one win ends the deal: the title's ``blood_battle`` where written, else the
    rounds decide (血战 settles its wins at the end in ``liuju`` steps; default on)."""
    flag = title.get("blood_battle")
    if isinstance(flag, bool):
        return flag
    for data in rounds.values():
        ticks = data.get("action_ticks", []) if isinstance(data, dict) else []
        if any(isinstance(t, list) and t[:1] == ["liuju"] and len(t) > 1 for t in ticks):
            return True
        codes = [t[0] for t in ticks if isinstance(t, list) and t]
        wins = [i for i, c in enumerate(codes) if c in HU_TICKS]
        if wins and any(c in ("d", "c") for c in codes[wins[0] :]):
            return True
        if wins:
            return False
    return True


def _weakest_win(title: dict[str, Any]) -> int:
    """The platform's fan of a plain win (平和), which any 起和番 up to it lets through: 1
    where its check returns ``(1, ["平和"])`` (the records written so, 平和 won at
    ``hepai_limit`` 1), 0 once the title marks ``sichuan_hepai_limit_version`` (its newer
    count, where a limit of 1 bars a plain discard win: test_hepai_limit.py)."""
    return 0 if "sichuan_hepai_limit_version" in title else 1


def convert_open_mahjong(data: bytes, name: str) -> Converted:
    """A record's bytes as log lines and findings (one finding when it is no record)."""
    out = Converted(name)
    try:
        record = parse_document(data)
        title, rounds = record["game_title"], record["game_round"]
        if not isinstance(title, dict) or not isinstance(rounds, dict):
            raise TypeError("game_title and game_round must be objects")
    except (ValueError, KeyError, TypeError) as err:
        out.note(
            None, finding("bad_record", None, name, say("open_mahjong_unreadable", file=name, error=str(err)))
        )
        return out
    rule, sub_rule = title.get("rule"), title.get("sub_rule")
    if rule != "sichuan" or sub_rule not in SUB_RULES:
        text = say("open_mahjong_not_sichuan", file=name, rule=rule, sub_rule=sub_rule)
        out.note(None, finding("platform_rule", None, name, text))
        return out
    stem = PurePath(name).name.split(".")[0]
    session = f"open_mahjong-{stem}-{str(title.get('commitment_hex', ''))[:8]}".rstrip("-")
    players = [str(title.get(f"p{i}_name", f"p{i}")) for i in range(4)]
    bloody = _bloody(title, rounds)
    rules = rules_of(title) | {"end_condition": "bloody" if bloody else "first_hu"}
    header: dict[str, Any] = {"type": "session", "session_id": session, "players": players, "rules": rules}
    if title.get("start_time"):
        header["started_at"] = str(title["start_time"])
    out.add(1, header)
    limit = title.get("hepai_limit")
    if isinstance(limit, int) and limit > _weakest_win(title):
        out.note(
            None, finding("platform_rule", 1, name, say("open_mahjong_hepai_limit", file=name, limit=limit))
        )
    keys = sorted(
        (k for k in rounds if k.startswith("round_index_") and k[12:].isdigit()), key=lambda k: int(k[12:])
    )
    for key in (k for k in rounds if k not in keys):
        out.note(
            None, finding("bad_record", None, name, say("open_mahjong_round_key", file=name, round_key=key))
        )
    for key in keys:
        _convert_round(out, title, key, rounds[key], session, bloody)
    return out


def read_open_mahjong(data: bytes, name: str) -> LogFile:
    """The record read as a log: its lines through chuanma's reader, then the engine."""
    return log_of(convert_open_mahjong(data, name))
