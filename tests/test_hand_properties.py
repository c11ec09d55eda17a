"""Property tests (hypothesis) for waits, wins, the cap and the tile text.

The strategies build realistic hands: four sets + a pair (or seven pairs) from one or two
suits, never above four copies, with some triplets turned into pong or kong melds; ready
hands are such a win with one concealed tile taken out, so the properties are exercised
on wins and ready hands by construction, not only on random noise.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.fan import WinContext
from engine.hand import analyse_hand, parse_hand, waits
from engine.rules import Rules, load_rules
from engine.score import score_win
from engine.tiles import SUITS, format_tiles, parse_tile, parse_tiles, tile_name, to_counts

PRESET_RULES = {name: load_rules(name) for name in ("standard", "chengdu", "online")}
PROPS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TWO_SUITS: tuple[tuple[int, ...], ...] = ((0, 1), (0, 2), (1, 2))
ONE_SUIT: tuple[tuple[int, ...], ...] = ((0,), (1,), (2,))


@dataclass(frozen=True)
class Built:
    """A hand as tiles: concealed tiles in some order, and the melded kinds."""

    concealed: tuple[int, ...]
    pongs: tuple[int, ...] = ()
    kongs: tuple[int, ...] = ()

    def counts(self) -> list[int]:
        return to_counts(self.concealed)

    def held(self) -> list[int]:
        held = self.counts()
        for tile in self.pongs:
            held[tile] += 3
        for tile in self.kongs:
            held[tile] += 4
        return held

    def text(self, concealed: Sequence[int] | None = None) -> str:
        tiles = self.concealed if concealed is None else concealed
        melds = [tile_name(t)[0] * 3 + SUITS[t // 9] for t in self.pongs]
        melds += [tile_name(t)[0] * 4 + SUITS[t // 9] for t in self.kongs]
        return " ".join([compact_in_order(tiles), *melds])

    def with_concealed(self, concealed: Sequence[int]) -> Built:
        return Built(tuple(concealed), self.pongs, self.kongs)


def compact_in_order(tiles: Sequence[int]) -> str:
    """Compact text keeping the given order: a suit letter closes each run of one suit
    ([4, 9, 0] -> "5m1p1m"); written here, not with format_tiles, which sorts."""
    out: list[str] = []
    for index, tile in enumerate(tiles):
        out.append(str(tile % 9 + 1))
        if index + 1 == len(tiles) or tiles[index + 1] // 9 != tile // 9:
            out.append(SUITS[tile // 9])
    return "".join(out)


def _kinds(suits: Sequence[int]) -> list[int]:
    return [suit * 9 + rank for suit in suits for rank in range(9)]


@st.composite
def winning_hands(draw: st.DrawFn, melds: bool = True) -> Built:
    suits = draw(st.sampled_from(TWO_SUITS + TWO_SUITS + ONE_SUIT))
    kinds = _kinds(suits)
    counts = [0] * 27
    if draw(st.integers(0, 9)) == 0:  # seven pairs (a kind may come twice: 龙七对)
        while sum(counts) < 14:
            kind = draw(st.sampled_from([k for k in kinds if counts[k] <= 2]))
            counts[kind] += 2
        tiles = [t for t in range(27) for _ in range(counts[t])]
        return Built(tuple(draw(st.permutations(tiles))))
    triplets: list[int] = []
    for _ in range(4):
        runs = [
            s * 9 + r for s in suits for r in range(7) if all(counts[s * 9 + r + i] <= 3 for i in range(3))
        ]
        use_run: bool = draw(st.booleans())
        if runs and use_run:
            start = draw(st.sampled_from(runs))
            for i in range(3):
                counts[start + i] += 1
        else:
            kind = draw(st.sampled_from([k for k in kinds if counts[k] <= 1]))
            counts[kind] += 3
            triplets.append(kind)
    counts[draw(st.sampled_from([k for k in kinds if counts[k] <= 2]))] += 2
    pongs: list[int] = []
    kongs: list[int] = []
    if melds:
        for kind in triplets[: draw(st.integers(0, len(triplets)))]:
            counts[kind] -= 3
            if counts[kind] == 0 and draw(st.booleans()):
                kongs.append(kind)
            else:
                pongs.append(kind)
    tiles = [t for t in range(27) for _ in range(counts[t])]
    return Built(tuple(draw(st.permutations(tiles))), tuple(pongs), tuple(kongs))


@st.composite
def ready_hands(draw: st.DrawFn) -> tuple[Built, int]:
    """A win less one concealed tile, and that tile (a wait by construction)."""
    win = draw(winning_hands())
    index = draw(st.integers(0, len(win.concealed) - 1))
    rest = win.concealed[:index] + win.concealed[index + 1 :]
    return win.with_concealed(rest), win.concealed[index]


@st.composite
def random_hands(draw: st.DrawFn, size: int) -> Built:
    """``size`` tiles drawn from the 72 tiles of two suits (or the 36 of one)."""
    suits = draw(st.sampled_from(TWO_SUITS + ONE_SUIT))
    pool = [t for t in _kinds(suits) for _ in range(4)]
    seed = draw(st.integers(0, 2**32 - 1))
    return Built(tuple(random.Random(seed).sample(pool, size)))


@st.composite
def near_wins(draw: st.DrawFn) -> Built:
    """A win with one concealed tile replaced by another of a suit it uses."""
    win = draw(winning_hands())
    index = draw(st.integers(0, len(win.concealed) - 1))
    held = win.held()
    held[win.concealed[index]] -= 1
    suits = {t // 9 for t in range(27) if held[t]}
    tile = draw(st.sampled_from([t for t in range(27) if t // 9 in suits and held[t] < 4]))
    tiles = list(win.concealed)
    tiles[index] = tile
    return win.with_concealed(tiles)


@st.composite
def contexts(draw: st.DrawFn) -> WinContext:
    self_draw = draw(st.booleans())
    after_kong = draw(st.booleans())
    robbing = not self_draw and not after_kong and draw(st.booleans())
    first_turn = self_draw and draw(st.booleans())
    return WinContext(
        self_draw=self_draw,
        after_kong=after_kong,
        robbing_kong=robbing,
        last_tile=draw(st.booleans()),
        first_turn=first_turn,
        dealer=draw(st.booleans()),
    )


def _wins(hand: Built, rules: Rules) -> bool:
    return score_win(hand.counts(), hand.pongs, hand.kongs, rules) is not None


def _add(hand: Built, tile: int) -> Built:
    return hand.with_concealed((*hand.concealed, tile))


# --- wins and waits ---------------------------------------------------------------------


@PROPS
@given(winning_hands())
def test_constructed_hands_win_under_every_preset(hand: Built) -> None:
    assert hand.held() == [min(c, 4) for c in hand.held()]  # the strategy respects 4 copies
    for rules in PRESET_RULES.values():
        result = score_win(hand.counts(), hand.pongs, hand.kongs, rules)
        assert result is not None, hand
        assert result.fan >= 1
        assert analyse_hand(hand.text(), rules).is_win


@PROPS
@given(ready_hands())
def test_the_removed_tile_is_a_wait_and_every_wait_completes(case: tuple[Built, int]) -> None:
    hand, removed = case
    found = waits(hand.counts(), hand.pongs, hand.kongs)
    assert removed in found, (hand, removed)
    held = hand.held()
    for tile in found:
        assert held[tile] <= 3, "a wait never needs a fifth copy"
        for rules in PRESET_RULES.values():
            assert _wins(_add(hand, tile), rules)
    assert analyse_hand(hand.text(), PRESET_RULES["standard"]).ready_fan is not None


@PROPS
@given(st.one_of(random_hands(13), ready_hands().map(lambda case: case[0])))
def test_waits_are_exactly_the_completing_tiles(hand: Built) -> None:
    """Every wait completes the hand, and every tile that completes it (without a fifth
    copy) is a wait."""
    found = set(waits(hand.counts(), hand.pongs, hand.kongs))
    held = hand.held()
    rules = PRESET_RULES["standard"]
    for tile in range(27):
        if held[tile] >= 4:
            assert tile not in found, "no wait needs a fifth copy"
            continue
        assert (tile in found) == _wins(_add(hand, tile), rules), (hand, tile)


@PROPS
@given(st.one_of(winning_hands(), near_wins(), random_hands(14)))
def test_a_win_is_a_wait_on_any_of_its_tiles(hand: Built) -> None:
    """A 14-tile hand is a win exactly when, for any concealed tile, the hand without it
    waits on it (score_win and waits agree)."""
    is_win = _wins(hand, PRESET_RULES["standard"])
    for index in {0, len(hand.concealed) // 2, len(hand.concealed) - 1}:
        tile = hand.concealed[index]
        rest = hand.with_concealed(hand.concealed[:index] + hand.concealed[index + 1 :])
        assert (tile in waits(rest.counts(), rest.pongs, rest.kongs)) == is_win


@PROPS
@given(ready_hands(), st.randoms(use_true_random=False))
def test_waits_do_not_depend_on_tile_order(case: tuple[Built, int], rng: random.Random) -> None:
    hand, _ = case
    rules = PRESET_RULES["chengdu"]
    expected = analyse_hand(hand.with_concealed(sorted(hand.concealed)).text(), rules)
    shuffled = list(hand.concealed)
    rng.shuffle(shuffled)
    pongs, kongs = list(hand.pongs), list(hand.kongs)
    rng.shuffle(pongs)
    rng.shuffle(kongs)
    reordered = Built(tuple(shuffled), tuple(pongs), tuple(kongs))
    report = analyse_hand(reordered.text(), rules)
    assert report.waits == expected.waits
    assert report.ready_fan == expected.ready_fan
    assert waits(to_counts(shuffled), pongs, kongs) == list(expected.waits)
    assert parse_hand(reordered.text()).counts() == hand.counts()


@PROPS
@given(ready_hands())
def test_a_third_suit_removes_every_wait(case: tuple[Built, int]) -> None:
    hand, _ = case
    held = hand.held()
    used = {t // 9 for t in range(27) if held[t]}
    if len(used) < 2:
        return
    (missing,) = set(range(3)) - used
    for index, tile in enumerate(hand.concealed):
        held[tile] -= 1
        still_used = {t // 9 for t in range(27) if held[t]}
        held[tile] += 1
        if still_used == used:  # both suits stay: the hand now holds three
            tiles = list(hand.concealed)
            tiles[index] = missing * 9 + 4  # a 5 of the third suit replaces it
            assert waits(to_counts(tiles), hand.pongs, hand.kongs) == []
            return


# --- fan and the cap ---------------------------------------------------------------------


@PROPS
@given(
    winning_hands(),
    contexts(),
    st.sampled_from(["chengdu", "online", "standard"]),
    st.integers(1, 9),
    st.booleans(),
    st.sampled_from(["none", "add_base", "add_fan"]),
)
def test_fan_never_exceeds_the_cap(
    hand: Built, context: WinContext, preset: str, cap: int, haidi: bool, bonus: str
) -> None:
    for rules in (
        PRESET_RULES[preset],
        load_rules({"preset": preset, "haidi": haidi, "self_draw_bonus": bonus}),
        load_rules({"preset": preset, "max_fan": cap, "haidi": haidi, "self_draw_bonus": bonus}),
    ):
        result = score_win(hand.counts(), hand.pongs, hand.kongs, rules, context)
        assert result is not None
        assert 1 <= result.fan <= result.uncapped
        if rules.max_fan is None:
            assert result.fan == result.uncapped
        else:
            assert result.fan <= rules.max_fan
            assert result.fan == min(result.uncapped, rules.max_fan)
        base_fan = rules.pattern_fan(result.base)
        assert base_fan is not None, "a pattern the rules do not score is never the base"
        assert result.uncapped == base_fan + len(result.extras)  # each extra is +1 fan


@PROPS
@given(ready_hands(), st.sampled_from(["chengdu", "online", "standard"]))
def test_ready_value_max_is_at_least_min_and_within_the_cap(case: tuple[Built, int], preset: str) -> None:
    hand, _ = case
    best = analyse_hand(hand.text(), load_rules(preset)).ready_fan
    worst = analyse_hand(hand.text(), load_rules({"preset": preset, "no_ting_pays": "min"})).ready_fan
    assert best is not None and worst is not None
    assert 1 <= worst <= best
    cap = PRESET_RULES[preset].max_fan
    if cap is not None:
        assert best <= cap


# --- tile text ---------------------------------------------------------------------------


def test_every_tile_name_round_trips() -> None:
    names = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)]
    assert [tile_name(t) for t in range(27)] == names
    assert [parse_tile(name) for name in names] == list(range(27))


@PROPS
@given(st.lists(st.integers(0, 26), max_size=20))
def test_compact_text_round_trips(tiles: list[int]) -> None:
    # sorted compact form -> the same multiset, sorted
    assert parse_tiles(format_tiles(tiles)) == sorted(tiles)
    # the order-keeping form -> the same tiles in the same order
    assert parse_tiles(compact_in_order(tiles)) == tiles
    # the list-of-names form
    assert parse_tiles([tile_name(t) for t in tiles]) == tiles
