"""The fan scorer against a spec-literal reading of docs/rules.md section 4.

:func:`engine.score.score_win` scores on bits: a hand's features are one ``int``, each rule
set's scored patterns a table built once. The reference here is the scorer as first
written, word for word the rules: features as a set of names, a pattern applies when its
``requires`` are a subset, every pattern's fan looked up in the rule set on each call.
Both must give the same :class:`FanResult` (fan, base pattern, extras, uncapped total) on
wins, near-wins and random hands, under every preset and under overrides that turn
patterns off, cap them or lift the cap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st
from test_hand_properties import PROPS, Built, near_wins, random_hands, ready_hands, winning_hands

from engine.fan import (
    FEATURE_BITS,
    HAND_EXTRAS,
    PATTERNS,
    FanResult,
    WinContext,
    feature_bits,
    situational_extras,
)
from engine.hand import ready_value, wait_mask
from engine.rules import Rules, load_rules
from engine.score import score_win
from engine.shapes import ALL_TERMINAL, ALL_TRIPLETS, is_seven_pairs, regular_win_flags
from engine.tiles import NUM_KINDS, rank_of, suits_used

RULES: tuple[Rules, ...] = (
    load_rules("standard"),
    load_rules("chengdu"),
    load_rules("online"),
    load_rules({"preset": "standard", "max_fan": None}),
    load_rules({"preset": "chengdu", "max_fan": 2, "haidi": False, "self_draw_bonus": "add_fan"}),
    load_rules({"preset": "standard", "fan": {"duiduihu": "none", "qidui": "none", "tianhu": "cap"}}),
    load_rules({"preset": "online", "max_fan": None, "fan": {"qingyise": 1, "jiangdui": "none"}}),
    # the extras as rows: 门清中张 on, a root worth 2, 海底 on but worth nothing
    load_rules(
        {"preset": "chengdu", "max_fan": 8, "haidi": True, "self_draw_bonus": "add_fan",
         "fan": {"menqing": 1, "zhongzhang": 1, "gen": 2, "haidi": "none", "zimo": 2}}
    ),
)  # fmt: skip


def hand_features(
    concealed: Sequence[int], meld_tiles: Sequence[int], meld_count: int, context: WinContext
) -> set[str] | None:
    """The features of a hand (``engine.fan.feature_bits``) as names, or ``None`` when the
    tiles are no win; ``meld_tiles`` is the tile kind of each pong or kong (``meld_count``
    of them)."""
    bits = feature_bits(concealed, meld_tiles[:meld_count], (), context)
    if not bits:
        return None
    return {name for name, bit in FEATURE_BITS.items() if bits & bit}


def reference_features(
    concealed: Sequence[int], meld_tiles: Sequence[int], meld_count: int, context: WinContext
) -> set[str] | None:
    regular = regular_win_flags(concealed)
    seven = meld_count == 0 and is_seven_pairs(concealed)
    if regular is None and not seven:
        return None
    total = list(concealed)
    for tile in meld_tiles:
        total[tile] += 3
    if suits_used(total) > 2:
        return None
    features = {"win"}
    if suits_used(total) == 1:
        features.add("one_suit")
    if regular is not None:
        if regular & ALL_TRIPLETS:
            features.add("triplets")
            if all(rank_of(t) in (2, 5, 8) for t in range(NUM_KINDS) if total[t]):
                features.add("only_258")
            if meld_count == 4:
                features.add("golden_hook")
        if regular & ALL_TERMINAL and all(rank_of(t) in (1, 9) for t in meld_tiles):
            features.add("terminals")
    if seven:
        features.add("seven_pairs")
        if 4 in concealed:
            features.add("four_kind")
    if context.first_turn and meld_count == 0:
        features.add("heavenly" if context.dealer else "earthly")
    if meld_count == 0:  # every meld given as a pong: 门清 only without melds
        features.add("concealed")
    if all(rank_of(t) not in (1, 9) for t in range(NUM_KINDS) if total[t]):
        features.add("no_terminal_tile")
    return features


def reference_score(
    concealed: Sequence[int], pongs: Sequence[int], kongs: Sequence[int], rules: Rules, context: WinContext
) -> FanResult | None:
    meld_tiles = [*pongs, *kongs]
    features = reference_features(concealed, meld_tiles, len(meld_tiles), context)
    if features is None:
        return None
    total_tiles = list(concealed)
    for tile in meld_tiles:
        total_tiles[tile] += 3
    for tile in kongs:
        total_tiles[tile] += 1
    roots = sum(1 for count in total_tiles if count == 4)
    situational = situational_extras(context, rules)  # unchanged by the rewrite
    gen_fan = rules.pattern_fan("gen") or 0
    # 门清 and 中张: extras of the tiles, each its row's fan where the rule set scores it
    hand = tuple(e.id for e in HAND_EXTRAS if e.requires <= features and rules.pattern_fan(e.id) is not None)
    extra = sum(rules.pattern_fan(e) or 0 for e in (*hand, *situational))
    best = None
    for pattern in PATTERNS:
        if not pattern.requires <= features:
            continue
        base_fan = rules.pattern_fan(pattern.id)
        if base_fan is None:
            continue
        own_roots = roots - 1 if pattern.uses_root else roots
        candidate = (base_fan + gen_fan * own_roots + extra, base_fan, pattern)
        if best is None or candidate[:2] >= best[:2]:
            best = candidate
    assert best is not None
    total, _, pattern = best
    own_roots = roots - 1 if pattern.uses_root else roots
    capped = total if rules.max_fan is None else min(total, rules.max_fan)
    gens = ("gen",) * own_roots if gen_fan else ()
    return FanResult(capped, pattern.id, (*gens, *hand, *situational), total)


@st.composite
def contexts(draw: st.DrawFn) -> WinContext:
    self_draw = draw(st.booleans())
    robbing = not self_draw and draw(st.booleans())
    first = self_draw and draw(st.integers(0, 5)) == 0
    return WinContext(
        self_draw=self_draw,
        after_kong=not robbing and draw(st.booleans()),
        robbing_kong=robbing,
        last_tile=draw(st.booleans()),
        first_turn=first,
        dealer=draw(st.booleans()),
    )


def assert_same(hand: Built, rules: Rules, context: WinContext) -> None:
    counts = hand.counts()
    expected = reference_score(counts, hand.pongs, hand.kongs, rules, context)
    assert score_win(counts, hand.pongs, hand.kongs, rules, context) == expected
    features = hand_features(counts, [*hand.pongs, *hand.kongs], len(hand.pongs) + len(hand.kongs), context)
    assert features == reference_features(
        counts, [*hand.pongs, *hand.kongs], len(hand.pongs) + len(hand.kongs), context
    )


@PROPS
@given(winning_hands(), st.sampled_from(RULES), contexts())
def test_wins_score_as_the_rules_read(hand: Built, rules: Rules, context: WinContext) -> None:
    assert_same(hand, rules, context)
    assert score_win(hand.counts(), hand.pongs, hand.kongs, rules, context) is not None


@PROPS
@given(st.one_of(near_wins(), random_hands(14)), st.sampled_from(RULES), contexts())
def test_other_hands_score_as_the_rules_read(hand: Built, rules: Rules, context: WinContext) -> None:
    assert_same(hand, rules, context)


@PROPS
@given(ready_hands(), st.sampled_from(RULES))
def test_ready_value_is_the_best_wait_by_the_reference(ready: tuple[Built, int], rules: Rules) -> None:
    hand, _ = ready
    counts = hand.counts()
    mask = wait_mask(counts, hand.pongs, hand.kongs)
    fans = []
    for tile in range(NUM_KINDS):
        if mask >> tile & 1:
            with_tile = list(counts)
            with_tile[tile] += 1
            result = reference_score(with_tile, hand.pongs, hand.kongs, rules, WinContext())
            if result is not None:
                fans.append(result.fan)
    expected = (max(fans) if rules.no_ting_pays == "max" else min(fans)) if fans else None
    assert ready_value(counts, hand.pongs, hand.kongs, rules) == expected
    assert ready_value(counts, hand.pongs, hand.kongs, rules, mask) == expected
    lowest = mask & -mask  # only the lowest wait valued: what a caller with one live wait asks
    with_lowest = list(counts)
    with_lowest[lowest.bit_length() - 1] += 1
    one = reference_score(with_lowest, hand.pongs, hand.kongs, rules, WinContext())
    assert ready_value(counts, hand.pongs, hand.kongs, rules, lowest) == (one.fan if one else None)


def test_a_rule_set_made_anew_is_scored_by_its_own_fans() -> None:
    """The per-rules table is found by the rule set object: one built by ``replace`` (as
    the tests and the dashboard's re-scoring do) must not reuse another's table."""
    standard = load_rules("standard")
    hand = [0] * NUM_KINDS
    for tile in (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4):  # 111222333444m55m: 清对 reading
        hand[tile] += 1
    before = score_win(hand, (), (), standard)
    fans = tuple((p, 1 if p != "pinghu" else 0) for p, _ in standard.fan)
    flat = replace(standard, fan=fans, name="flat")
    after = score_win(hand, (), (), flat)
    assert before is not None and after is not None
    assert after == reference_score(hand, (), (), flat, WinContext())
    assert before == reference_score(hand, (), (), standard, WinContext())
    assert before.fan > after.fan
