"""House rules of the wall's end: ``tax_refund`` (退税 or not), ``no_ting_pays`` as a flat
number (查大叫 in base units) and ``flower_pig_pays`` (a 花猪 pays the seats still in, or
every other seat). Payments worked out by hand in the comments, under two presets, on the
settler every path prices through (the engine, the fast path, the sheet audit); then whole
deals: the simulator plays them, the audit agrees, and the default audit tells them apart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.rules import RulesError, knob_values, load_rules
from engine.settle import Settler
from engine.settlement import deltas
from ingest.logs.writer import write_log
from ingest.replay.files import read_log
from ingest.replay.validate import validate_log
from ingest.simulator.simulate import ClubPlan, simulate_club


def wall_end(overrides: dict[str, Any], preset: str = "standard", base: int = 1) -> tuple[int, int, int, int]:
    """One deal's points, by hand:

    - seat 0 makes a concealed kong: each other seat still in pays concealed_kong_each
      (2 under standard and chengdu): seat 0 +6, seats 1-3 -2 each;
    - seat 3 wins by self-draw, 1 fan: seats 0-2 pay 1 each (seat 3 +3);
    - at the wall's end seats 0, 1, 2 are in: seat 1 is a 花猪 (holds three suits), seat 2
      is ready at 2 fan, seat 0 (the konger) is not ready.
    """
    settler = Settler(load_rules({"preset": preset, **overrides}), base)
    settler.kong(0, "concealed", 5, 10)
    settler.win_self_draw(3, 1, 20)
    settler.cha_jiao({1}, {2: 2}, 30)
    return deltas(settler.ledger)


# Before 查叫: seat 0 +6 -1 = +5, seat 1 -2 -1 = -3, seat 2 -2 -1 = -3, seat 3 -2 +3 = +1.
# 查花猪 (16 under standard): seat 1 pays seats 0 and 2 (still in, no 花猪): -32, +16, +16.
# 查大叫 (max: 2^(2-1) = 2): seat 0 pays seat 2: -2, +2.
# 退税: seat 0 is not ready: its kong's 6 go back, 2 to each payer: -6, +2, +2, +2.
TODAY = (5 + 16 - 2 - 6, -3 - 32 + 2, -3 + 16 + 2 + 2, 1 + 2)


def test_todays_rules_are_unchanged() -> None:
    assert TODAY == (13, -33, 17, 3)
    assert wall_end({}) == TODAY
    assert wall_end({"tax_refund": True, "no_ting_pays": "max", "flower_pig_pays": "still_in"}) == TODAY


def test_no_tax_refund_keeps_the_kong_income() -> None:
    # TODAY without the 退税: seat 0 keeps its 6 (+6), seats 1-3 do not get their 2 back.
    assert wall_end({"tax_refund": False}) == (19, -35, 15, 1)


def test_a_flat_no_ting_payment() -> None:
    # 查大叫 flat 3 base units instead of 2^(2-1) = 2: seat 0 pays seat 2 one more.
    assert wall_end({"no_ting_pays": 3}) == (12, -33, 18, 3)
    # base 2 doubles every payment of the deal
    assert wall_end({"no_ting_pays": 3}, base=2) == (24, -66, 36, 6)


def test_a_flower_pig_pays_every_other_seat() -> None:
    # all_others: seat 1 pays seat 3 too (it has won and left): 16 more from seat 1 to seat 3.
    assert wall_end({"flower_pig_pays": "all_others"}) == (13, -49, 17, 19)


def test_under_chengdu() -> None:
    # chengdu: 自摸加底 (the self-draw costs each payer 1 + 1 = 2: seat 3 +6), 花猪 pays the
    # cap (max_fan 4: 2^3 = 8). Before 查叫: seat 0 +6 -2 = +4, seats 1 and 2 -2 -2 = -4,
    # seat 3 -2 +6 = +4. Then seat 0: +4 +8 (pig) -2 (查大叫) -6 (退税) = +4; seat 1:
    # -4 -16 +2 = -18; seat 2: -4 +8 +2 +2 = +8; seat 3: +4 +2 = +6.
    assert wall_end({}, "chengdu") == (4, -18, 8, 6)
    # without 退税, a flat 查大叫 of 1: seat 0 +4 +8 -1 = +11, seat 1 -4 -16 = -20,
    # seat 2 -4 +8 +1 = +5, seat 3 +4.
    assert wall_end({"tax_refund": False, "no_ting_pays": 1}, "chengdu") == (11, -20, 5, 4)


def test_the_knobs_are_checked_and_played_by_the_differential() -> None:
    for bad in (
        {"no_ting_pays": 0},
        {"no_ting_pays": "most"},
        {"tax_refund": "yes"},
        {"flower_pig_pays": "all"},
    ):
        with pytest.raises(RulesError):
            load_rules({"preset": "standard", **bad})
    values = knob_values()
    assert values["tax_refund"] == (False, True)
    assert values["flower_pig_pays"] == ("still_in", "all_others")
    assert {"max", "min"} <= set(values["no_ting_pays"]) and any(
        isinstance(v, int) for v in values["no_ting_pays"]
    )


@pytest.mark.parametrize("preset", ["standard", "chengdu"])
def test_whole_deals_under_the_house_rules(tmp_path: Path, preset: str) -> None:
    house = {"preset": preset, "tax_refund": False, "no_ting_pays": 2, "flower_pig_pays": "all_others"}
    plan = ClubPlan(players=6, sessions=6, deals_per_session=8, seed=51, rules=house)
    path = tmp_path / "house.jsonl"
    write_log(simulate_club(plan), path)
    audited = validate_log(read_log(path))
    assert audited.ok, [f.message for f in audited.all_findings()][:3]  # played and audited alike
    # the same deals audited under the preset: the wall's-end payments differ somewhere
    plain = validate_log(read_log(path), load_rules(preset))
    codes = {f.code for f in plain.all_findings()}
    assert "payment_mismatch" in codes


# -------------------------------------------------------------------- 杠上炮, 查叫 and the turn
# kong_discard_transfer "refund", ready_value_kong_roots, flower_pig, next_after_discard_win


def kong_discard(
    overrides: dict[str, Any], preset: str = "standard", winners: tuple[int, ...] = (1,)
) -> Settler:
    """杠上炮, by hand: seat 0 makes a concealed kong (2 from each of seats 1-3 under both
    presets: seat 0 +6), then discards it straight into a win of 2 fan by each of
    ``winners`` (2^(2-1) = 2 from seat 0 to each)."""
    settler = Settler(load_rules({"preset": preset, **overrides}))
    settler.kong(0, "concealed", 5, 10)
    for winner in winners:
        settler.win_discard(winner, 0, 2, 11, kong_discard=True)
    return settler


def test_a_kong_discard_refunds_the_kong_to_its_payers() -> None:
    # true (呼叫转移): seat 0 +6 -2 -6 = -2, seat 1 -2 +2 +6 = +6, seats 2, 3 -2 each.
    assert deltas(kong_discard({}).ledger) == (-2, 6, -2, -2)
    assert deltas(kong_discard({"kong_discard_transfer": True}).ledger) == (-2, 6, -2, -2)
    # false: the kong is kept: seat 0 +6 -2 = +4, seat 1 -2 +2 = 0, seats 2, 3 -2 each.
    assert deltas(kong_discard({"kong_discard_transfer": False}).ledger) == (4, 0, -2, -2)
    # refund: the 6 go back, 2 to each payer: seat 0 +6 -2 -6 = -2, seat 1 -2 +2 +2 = +2,
    # seats 2 and 3 -2 +2 = 0.
    refund = kong_discard({"kong_discard_transfer": "refund"})
    assert deltas(refund.ledger) == (-2, 2, 0, 0)
    assert [t.reason for t in refund.ledger].count("kong_refund") == 3


def test_a_kong_refund_is_paid_once_however_many_win() -> None:
    # 一炮多响, seats 1 and 2 win the kong's discard at 2 fan each.
    # true: each winner gets the whole 6: seat 0 +6 -2 -2 -6 -6 = -10, seats 1, 2 -2 +2 +6 = +6.
    assert deltas(kong_discard({}, winners=(1, 2)).ledger) == (-10, 6, 6, -2)
    # refund, once: seat 0 +6 -4 -6 = -4, seats 1, 2 -2 +2 +2 = +2, seat 3 -2 +2 = 0.
    assert deltas(kong_discard({"kong_discard_transfer": "refund"}, winners=(1, 2)).ledger) == (-4, 2, 2, 0)


def test_a_refunded_kong_is_not_refunded_again_at_the_wall_end() -> None:
    # After the one-winner refund (-2, 2, 0, 0), seats 0, 2, 3 are in at the wall's end:
    # seat 2 ready at 1 fan, seats 0 and 3 pay it 1 each (查大叫); seat 0 is not ready but
    # its kong is already back with its payers, so 退税 returns nothing more.
    settler = kong_discard({"kong_discard_transfer": "refund"})
    settler.cha_jiao(set(), {2: 1}, 30)
    assert deltas(settler.settlement) == (-1, 0, 2, -1)
    assert deltas(settler.ledger) == (-3, 2, 2, -1)
    # kept (false): 退税 returns the 6 then, 2 to each of seats 1-3: (4, 0, -2, -2) then
    # seat 0 -1 -6, seat 1 +2, seat 2 +2 +2, seat 3 -1 +2.
    kept = kong_discard({"kong_discard_transfer": False})
    kept.cha_jiao(set(), {2: 1}, 30)
    assert deltas(kept.ledger) == (-3, 2, 2, -1)


def test_a_kong_refund_under_chengdu() -> None:
    # chengdu: seat 0 kongs seat 3's discard (直杠: the discarder pays 2), then discards into
    # seat 1's 3-fan win (2^2 = 4). Before the kong's fate: seat 0 +2 -4, seat 1 +4, seat 3 -2.
    def play(value: Any) -> tuple[int, int, int, int]:
        settler = Settler(load_rules({"preset": "chengdu", "kong_discard_transfer": value}))
        settler.kong(0, "exposed", 7, 10, feeder=3)
        settler.win_discard(1, 0, 3, 11, kong_discard=True)
        return deltas(settler.ledger)

    assert play(True) == (-4, 6, 0, -2)  # the 2 go on to the winner
    assert play(False) == (-2, 4, 0, -2)  # kept
    assert play("refund") == (-4, 4, 0, 0)  # back to seat 3
    # a late 弯杠 (its tile not drawn this turn) earns nothing under chengdu: nothing to refund
    settler = Settler(load_rules({"preset": "chengdu", "kong_discard_transfer": "refund"}))
    settler.kong(0, "added", 7, 10, earns=False)
    settler.win_discard(1, 0, 3, 11, kong_discard=True)
    assert deltas(settler.ledger) == (-4, 4, 0, 0)


def test_the_ready_value_without_kong_roots() -> None:
    from engine.hand import analyse_hand

    # concealed 23m 456m 789m 55p and the kong 1111m wait on 4m only (1m: all four are in
    # the kong): 平胡 1 + 1 root (the kong) = 2; without the kong's root 1.
    hand = "23456789m55p 1111m"
    for preset in ("standard", "chengdu"):
        assert analyse_hand(hand, load_rules(preset)).ready_fan == 2
        off = load_rules({"preset": preset, "ready_value_kong_roots": False})
        assert analyse_hand(hand, off).ready_fan == 1
    # three kongs and 2344m, waiting on 4m: 清一色 3 + 3 roots = 6 under standard (no cap),
    # 4 under chengdu (its cap); without the kongs' roots 3 under both.
    three = "2344m 1111m 5555m 9999m"
    assert analyse_hand(three, load_rules("standard")).ready_fan == 6
    assert analyse_hand(three, load_rules("chengdu")).ready_fan == 4
    for preset in ("standard", "chengdu"):
        off = load_rules({"preset": preset, "ready_value_kong_roots": False})
        assert analyse_hand(three, off).ready_fan == 3
    # a win is scored as before, kongs' roots included: 2344m+4m with the three kongs
    win = "23444m 1111m 5555m 9999m"
    off = load_rules({"preset": "standard", "ready_value_kong_roots": False})
    assert analyse_hand(win, off).fan == 6


def _deals(rules: dict[str, Any], count: int, seed: int) -> list[tuple[Any, list[Any], Any, Any]]:
    import random

    from ingest.simulator.simulate import STYLES, simulate_deal

    rng = random.Random(seed)
    loaded = load_rules(rules)
    return [simulate_deal(rng, f"d{i}", i % 4, loaded, STYLES[:4]) for i in range(count)]


@pytest.mark.parametrize("preset", ["standard", "chengdu"])
def test_who_draws_after_a_discard_win(preset: str) -> None:
    """The simulator asks the engine who draws; the first draw after a discard win (or a
    rob) is by the first seat still in after the winner, or after the discarder."""
    from engine.events import Draw, Hu

    for value in ("winner", "discarder"):
        checked = 0
        for _, events, _, _ in _deals({"preset": preset, "next_after_discard_win": value}, 24, 7):
            won = [False] * 4
            for index, event in enumerate(events):
                if not isinstance(event, Hu):
                    continue
                won[event.seat] = True
                after = events[index + 1] if index + 1 < len(events) else None
                if event.from_seat is None or not isinstance(after, Draw):
                    continue  # a self-draw, a second winner of the tile, or the end
                source = event.from_seat
                # the tile's winners: this Hu line and the Hu lines of the same tile just before it
                winners = [event.seat]
                back = index - 1
                while back >= 0 and isinstance(events[back], Hu) and events[back].from_seat == source:
                    winners.append(events[back].seat)
                    back -= 1
                furthest = max(winners, key=lambda w: (w - source) % 4)
                start = furthest if value == "winner" else source
                expected = next(s for s in ((start + k) % 4 for k in (1, 2, 3)) if not won[s])
                assert after.seat == expected, (value, index)
                checked += 1
        assert checked >= 5, value


@pytest.mark.parametrize("preset", ["standard", "chengdu"])
def test_whole_deals_under_the_rest_of_the_house_rules(tmp_path: Path, preset: str) -> None:
    """Each new value alone: the simulator plays legal deals under it, the audit under it
    finds nothing, and the audit under the plain preset tells the deals apart."""
    differs = {
        ("kong_discard_transfer", "refund"): "payment_mismatch",
        ("ready_value_kong_roots", False): "payment_mismatch",
        ("next_after_discard_win", "discarder"): "out_of_turn",
    }
    for (knob, value), code in differs.items():
        house = {"preset": preset, knob: value}
        plan = ClubPlan(players=6, sessions=6, deals_per_session=8, seed=53, rules=house)
        path = tmp_path / f"{knob}.jsonl"
        write_log(simulate_club(plan), path)
        audited = validate_log(read_log(path))
        assert audited.ok, (knob, [f.message for f in audited.all_findings()][:3])
        plain = validate_log(read_log(path), load_rules(preset))
        assert code in {f.code for f in plain.all_findings()}, knob


#: a wall's end under 定缺, by hand: seat 3 (the dealer) has won; seat 0 (void 筒 p) holds
#: two suits, one its void; seat 1 (void 条 s) is ready on 1p/4p at 1 fan (平胡); seat 2
#: (void 万 m) is neither ready nor a 花猪
PIG_HANDS = ("123456789m1235p", "123456789m1123p", "13579p12345678s", "99m445566778899s")
PIG_VOIDS = (1, 2, 0, None)


def _pig_end(
    value: str, hands_text: tuple[str, ...] = PIG_HANDS
) -> tuple[tuple[int, int, int, int], set[int], tuple[int, int, int, int], set[int]]:
    """The 查叫 of :data:`PIG_HANDS` (or ``hands_text``) on the engine's deal and on the
    fast path's state: (engine settlement, engine pigs, fast settlement, fast pigs)."""
    from engine.deal import Deal
    from engine.events import DealStart
    from engine.tiles import parse_tiles
    from ingest.replay.fast_check import FastDeal

    rules = load_rules({"preset": "online", "flower_pig": value})
    hands = tuple(tuple(parse_tiles(text)) for text in hands_text)
    start = DealStart("pigs", 3, hands)
    deal = Deal(start, rules)
    deal.void = list(PIG_VOIDS)
    deal.won[3] = True
    deal.cha_jiao(99)
    fast = FastDeal(start, rules, 1, False, deal_in=False)
    for seat, hand in enumerate(hands[:3]):
        for tile in hand:
            fast.move(seat, tile, 1)
        void = PIG_VOIDS[seat]
        fast.void[seat] = void if void is not None else -1
    fast.won[3] = True
    fast.cha_jiao(99)  # the seats that never won: 0, 1, 2
    return deltas(deal.settlement), set(deal.pigs), deltas(fast.settler.settlement), set(fast.pigs)


def test_a_flower_pig_that_holds_its_void() -> None:
    # three_suits (today): no 花猪; seat 1 is ready at 1 fan, seats 0 (it holds its void,
    # so is not ready) and 2 pay it 2^0 = 1 each (查大叫).
    assert _pig_end("three_suits") == ((-1, 2, -1, 0), set(), (-1, 2, -1, 0), set())
    # holds_void: seat 0 is a 花猪 and pays 16 (online) to each seat still in that is none,
    # seats 1 and 2; seat 2 still pays seat 1 its 1: (-32, 16 + 1, 16 - 1, 0).
    assert _pig_end("holds_void") == ((-32, 17, 15, 0), {0}, (-32, 17, 15, 0), {0})
    # none: no seat is a 花猪; seat 0 holding its void is not ready, as under three_suits
    assert _pig_end("none") == ((-1, 2, -1, 0), set(), (-1, 2, -1, 0), set())


def test_no_flower_pig_pays_as_a_seat_not_ready() -> None:
    # seat 0 holds all three suits: under three_suits a 花猪 paying 16 (online) to seats 1
    # and 2 (seat 2 still pays seat 1 its 1), no 查大叫 of its own; under none (the open_mahjong platform) it is only not ready and
    # pays seat 1 its 1, as seat 2 does.
    three = ("123456789m123p1s", *PIG_HANDS[1:])
    assert _pig_end("three_suits", three) == ((-32, 17, 15, 0), {0}, (-32, 17, 15, 0), {0})
    assert _pig_end("none", three) == ((-1, 2, -1, 0), set(), (-1, 2, -1, 0), set())


def test_the_rest_of_the_house_rules_are_checked_and_played() -> None:
    for bad in (
        {"kong_discard_transfer": "refunds"},
        {"ready_value_kong_roots": "no"},
        {"flower_pig": "void"},
        {"flower_pig": None},
        {"next_after_discard_win": "loser"},
    ):
        with pytest.raises(RulesError):
            load_rules({"preset": "chengdu", **bad})
    values = knob_values()
    assert values["kong_discard_transfer"] == (True, False, "refund")
    assert values["ready_value_kong_roots"] == (False, True)
    assert values["flower_pig"] == ("three_suits", "holds_void", "none")
    assert values["next_after_discard_win"] == ("winner", "discarder")
