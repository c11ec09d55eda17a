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
from ingest.reader import read_log
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.validate import validate_log
from ingest.writer import write_log


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
