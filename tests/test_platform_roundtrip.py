"""The open_mahjong_unity importer round trip, with hypothesis: deals played by chuanma's
simulator under the importer's own rule set are written in the platform's record format
(a small writer here, following docs/platforms.md and the platform's 川麻 state machine:
seatless draws and discards, 刮风下雨 after ``"gs"``, a win's fan names, 血战 wins settled in ``settle_hu``
steps, the empty wall in ``chajiao`` steps, no 定缺), read back by the importer and
replayed: the scores are the simulated ones, and a payment tick changed by any amount is
always a finding (but a robbed kong's: the platform pays and refunds it, and the importer
drops the kong with both)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from engine.events import DealEnd, DealStart, Discard, Draw, Hu, Kong, PlayEvent, Pong
from engine.rules import Rules, load_rules
from ingest.platforms.open_mahjong import read_open_mahjong
from ingest.platforms.open_mahjong_rules import patterns_of, rules_of
from ingest.replay.validate import ValidationReport, validate_log
from ingest.simulator.simulate import STYLES, simulate_deal

#: the rule set the importer gives a 血战 record (game_title has no blood_battle field)
RULES: Rules = load_rules(rules_of({}) | {"end_condition": "bloody"})
PAYING = ("g", "ag", "jg")  # kong ticks that carry their payments after "gs"
#: where the four changes are in a liuju step
STEP_CHANGES = {"settle_hu": 6, "chajiao": 5}


#: chuanma's base patterns the platform can name, as its fan names (the others, e.g.
#: 带幺九 or 将对, it has no name for: such a win is written with no fan names)
PLATFORM_BASE = {
    "pinghu": [],
    "duiduihu": ["大对子"],
    "qingyise": ["清一色"],
    "qidui": ["七对"],
    "qingdui": ["清一色", "大对子"],
    "qingqidui": ["清一色", "七对"],
    "jingoudiao": ["大对子", "金钩钓"],
}
PLATFORM_EXTRA = {
    "gen": "根",
    "gangshanghua": "杠上花",
    "gangshangpao": "杠上炮",
    "qiangganghu": "抢杠",
    "haidi": "海底",
}


def fan_names(patterns: tuple[str, ...] | None) -> list[str]:
    """A simulated win's patterns as the platform's fan names (平和 alone when nothing
    else), or none when the platform has no name for one of them."""
    base, *extras = patterns or ("?",)
    if base not in PLATFORM_BASE or any(e not in PLATFORM_EXTRA for e in extras):
        return []
    return [*PLATFORM_BASE[base], *(PLATFORM_EXTRA[e] for e in extras)] or ["平和"]


def platform_tile(tile: int) -> int:
    """chuanma's 0-26 (m, p, s) as the platform's 11-19, 21-29, 31-39."""
    return (tile // 9 + 1) * 10 + tile % 9 + 1


@dataclass(frozen=True)
class Simulated:
    start: DealStart
    events: list[PlayEvent]
    end: DealEnd


def round_of(deal: Simulated, number: int) -> dict[str, Any]:
    """One simulated deal as the platform's ``round_index_N``."""
    wall = deal.start.wall or ()
    drawn: list[int] = []  # every draw in the order it happened (the platform's wall order)
    front = back = 0
    ticks: list[list[Any]] = []
    wins: list[tuple[str, Hu]] = []
    previous: PlayEvent | None = None
    run = 0  # wins on one discard so far (一炮多响: hu_first, hu_second, hu_third)
    for event in deal.events:
        if isinstance(event, Draw):
            replacement = isinstance(previous, Kong)
            expected = wall[len(wall) - 1 - back] if replacement else wall[front]
            assert event.tile == expected  # the simulator's own wall order
            back, front = (back + 1, front) if replacement else (back, front + 1)
            drawn.append(event.tile)
            ticks.append(["gd" if replacement else "d", platform_tile(event.tile)])
        elif isinstance(event, Discard):
            moqie = isinstance(previous, Draw) and previous.tile == event.tile
            ticks.append(["c", platform_tile(event.tile), "T" if moqie else "F"])
        elif isinstance(event, Pong):
            t = platform_tile(event.tile)
            ticks.append(["p", t, event.seat, t, t])
        elif isinstance(event, Kong):
            t = platform_tile(event.tile)
            tick: list[Any] = {
                "exposed": ["g", t, event.seat, t, t, t],
                "concealed": ["ag", t, "T", t, t, t, t],
                "added": ["jg", t, "T"],
            }[event.kind]
            ticks.append(tick + (["gs", *event.deltas] if event.deltas is not None else []))
        elif isinstance(event, Hu):
            if isinstance(previous, Kong) and event.from_seat == previous.seat:  # 抢杠
                # the platform pays the 加杠 (1 from each seat still in) and refunds it ("gr")
                # before the win; the importer drops both with the robbed kong
                won = {w.seat for _, w in wins}
                paid = [0 if s == previous.seat or s in won else -1 for s in range(4)]
                paid[previous.seat] = -sum(paid)
                ticks[-1][ticks[-1].index("gs") + 1 :] = paid
                ticks.append(["gr", "gs", *(-d for d in paid)])
            run = run + 1 if isinstance(previous, Hu) and previous.from_seat is not None else 0
            kind = "hu_self" if event.from_seat is None else ("hu_first", "hu_second", "hu_third")[run]
            # 血战: the tick pays nothing; the win is paid in its settle_hu step at the end
            fans = fan_names(event.patterns)
            ticks.append(
                [kind, event.seat, 1, fans, [0, 0, 0, 0], platform_tile(event.tile), 0, event.from_seat, 0]
            )
            wins.append((kind, event))
        else:
            raise AssertionError(f"no platform tick for {event!r}")
        previous = event
    ticks.append(["liuju", "reveal_hu", "{}"])
    for k, (kind, win) in enumerate(wins):  # 血战: each win paid at the end, in the order won
        final = 1 if k == len(wins) - 1 and deal.end.reason == "three_won" else 0
        changes = list(win.deltas or (0, 0, 0, 0))
        ticks.append(["liuju", "settle_hu", kind, win.seat, 1, fan_names(win.patterns), changes, final])
    if deal.end.reason == "wall_exhausted":  # 查叫 of the seats that never won: the sum on the first
        never = [s for s in range(4) if s not in {w.seat for _, w in wins}]
        for k, seat in enumerate(never):
            changes = list(deal.end.settlement or (0, 0, 0, 0)) if k == 0 else [0, 0, 0, 0]
            ticks.append(["liuju", "chajiao", seat, "no_ting", "[]", changes, int(k == len(never) - 1)])
    ticks.append(["end"])
    rest = list(wall[front : len(wall) - back])
    return {
        "round_index": number,
        "current_round": number,
        "seats": [0, 1, 2, 3],
        "dealer_index": deal.start.dealer,
        "start_player_index": deal.start.dealer,
        **{f"p{seat}_tiles": [platform_tile(t) for t in deal.start.hands[seat]] for seat in range(4)},
        "tiles_list": [platform_tile(t) for t in drawn + rest],
        "action_ticks": ticks,
    }


def record_of(deals: list[Simulated]) -> dict[str, Any]:
    title = {"rule": "sichuan", "room_type": "custom", "sub_rule": "sichuan/standard", "hepai_limit": 0,
             "commitment_hex": "0123abcd" * 8, **{f"p{i}_name": f"P{i}" for i in range(4)}}  # fmt: skip
    return {
        "game_title": title,
        "game_round": {f"round_index_{n}": round_of(d, n) for n, d in enumerate(deals, 1)},
    }


def simulated(seed: int, count: int) -> list[Simulated]:
    rng = random.Random(seed)
    out: list[Simulated] = []
    dealer = 0
    for n in range(count):
        styles = [STYLES[rng.randrange(len(STYLES))] for _ in range(4)]
        start, events, end, played = simulate_deal(rng, f"d{n}", dealer, RULES, styles)
        out.append(Simulated(start, [e for e in events if e.type != "void"], end))
        dealer = played.wins[0].seat if played.wins else dealer
    return out


def replayed(record: dict[str, Any]) -> ValidationReport:
    return validate_log(read_open_mahjong(json.dumps(record).encode(), "roundtrip.json"))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 3))
@example(201, 1)  # seat 3 dealt no 条 discards 9m first: its void is s, not m (voids.py)
@example(1711, 1)
@example(308, 1)  # an added kong robbed (抢杠): paid and refunded ("gr") on the platform
def test_simulated_deals_replay_to_their_scores(seed: int, count: int) -> None:
    deals = simulated(seed, count)
    report = replayed(record_of(deals))
    assert report.file_findings == []
    assert len(report.deals) == count
    for deal, replay in zip(deals, report.deals, strict=True):
        assert [(f.code, f.line, f.message) for f in replay.findings] == []
        assert replay.status == "ok"
        assert tuple(replay.scores) == deal.end.scores


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.data())
def test_a_changed_payment_tick_is_always_a_finding(seed: int, data: st.DataObject) -> None:
    (deal,) = simulated(seed, 1)
    record = record_of([deal])
    ticks = record["game_round"]["round_index_1"]["action_ticks"]
    paying = [
        (k, tick.index("gs") + 1 if tick[0] in PAYING else STEP_CHANGES[tick[1]])
        for k, tick in enumerate(ticks)
        if (tick[0] in PAYING and "gs" in tick and ticks[k + 1][0] != "gr")  # a robbed kong pays nothing
        or tick[:2] in (["liuju", "settle_hu"], ["liuju", "chajiao"])
    ]
    assert paying  # a deal ends in settle_hu or chajiao steps at least
    k, at = data.draw(st.sampled_from(paying))
    if ticks[k][0] in PAYING:
        seat = data.draw(st.integers(0, 3))
        ticks[k][at + seat] += data.draw(st.integers(-20, 20).filter(bool))
    else:
        changes = ticks[k][at]
        changes[data.draw(st.integers(0, 3))] += data.draw(st.integers(-20, 20).filter(bool))
    (replay,) = replayed(record).deals
    assert replay.status != "ok"
    assert [f.code for f in replay.findings] == ["payment_mismatch"], replay.findings


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.data())
def test_other_fan_names_are_a_fan_mismatch(seed: int, data: st.DataObject) -> None:
    """A win's fan names changed to those of another hand: one fan_mismatch (the payments,
    in the settle_hu steps, stay as they were)."""
    deals = simulated(seed, 3)
    record = record_of(deals)
    named = [
        (n, k)
        for n, rnd in enumerate(record["game_round"].values(), 1)
        for k, tick in enumerate(rnd["action_ticks"])
        if tick[0].startswith("hu_") and tick[3]
    ]
    assume(named)
    n, k = data.draw(st.sampled_from(named))
    tick = record["game_round"][f"round_index_{n}"]["action_ticks"][k]
    was = patterns_of(tick[3])
    other = data.draw(
        st.sampled_from([names for names in PLATFORM_BASE.values() if patterns_of(names)[0] != was[0]])
    )
    tick[3] = (other or ["平和"]) + tick[3][len([f for f in tick[3] if f not in PLATFORM_EXTRA.values()]) :]
    replay = replayed(record).deals[n - 1]
    assert [(f.code, f.line) for f in replay.findings] == [("fan_mismatch", n * 1000 + k + 1)]
