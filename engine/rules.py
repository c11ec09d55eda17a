"""Rule sets: one frozen dataclass of knobs; presets are TOML tables in ``presets/``.

``load_rules("chengdu")`` or ``load_rules({"preset": "standard", "max_fan": 4})``. Adding
a preset means adding a TOML file; the engine never branches on a preset's name.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import Field, dataclass, fields
from functools import cache
from importlib import resources
from typing import Any, Literal, get_args, get_origin

from engine.patterns import EXTRAS, PATTERNS

#: Base pattern ids, in the order of docs/rules.md section 4 (``engine/patterns.py``).
PATTERN_IDS: tuple[str, ...] = tuple(pattern.id for pattern in PATTERNS)
#: Extras, rows of the fan table too (docs/knobs.md, "The fan table"): each adds its fan on
#: top of the base pattern(s) where it applies (``gen`` once per root).
EXTRA_FAN_IDS: tuple[str, ...] = tuple(EXTRAS)
#: every row of the fan table: the base patterns, then the extras
FAN_IDS: tuple[str, ...] = PATTERN_IDS + EXTRA_FAN_IDS
#: the fan of an extra a preset file or a stored rule set leaves out: 1, so a rule set that
#: names no extras scores each at its plain value (and a stored name keeps its meaning)
EXTRA_DEFAULT_FAN = 1

FanValue = int | Literal["cap"] | None


class RulesError(ValueError):
    """A preset that does not exist or a knob with a value the rules do not know."""


# The values each knob takes, written once as the type its field of :class:`Rules` is
# annotated with; ``load_rules``' checks, :func:`knob_values` (the fast path's
# differential, the C moves' rule bits) and the docs table test read them through
# :data:`_KNOB_TYPES`, derived from those fields. A knob's type is ``bool``, ``int``, or
# named after the knob (``pass_rule``: ``PassRule``); a type that mixes kinds names its
# main kind first.
VoidDeclaration = Literal["none", "required"]
PassRule = Literal["any", "same_tile", "off"]
EndCondition = Literal["bloody", "first_hu", "bloody_flow"]
MaxFan = int | None  # None (written "none"): no cap
SelfDrawBonus = Literal["none", "add_base", "add_fan"]
KongBloomAfterExposed = Literal["self_draw", "discard"]
KongDiscardTransfer = bool | Literal["refund"]  # "refund": 杠上炮 returns the kong's takings to its payers
FlowerPigPayment = int | Literal["cap"]  # "cap": the multiplier of max_fan (满格)
NoTingPays = Literal["max", "min"] | int  # or a whole number >= 1: a flat 查大叫 in base units
FlowerPigPays = Literal["still_in", "all_others"]
FlowerPig = Literal["three_suits", "holds_void", "none"]  # "none": no 查花猪, such a seat is not ready
NextAfterDiscardWin = Literal["winner", "discarder"]
FanCombination = Literal["highest", "sum"]
# the table: players, the suits in the wall, the hand, the 红中 wild tiles (engine/table.py)
Seats = Literal[4, 3, 2]
Suits = Literal["mps", "mp", "ms", "ps", "m", "p", "s"]
HandSize = Literal[13, 10, 7]
WildTiles = Literal[0, 4, 8]


def _parts(kind: Any) -> tuple[Any, ...]:
    """A knob's type as its parts in order: a tuple of the literal values it names, or a
    type (``bool``, ``int``, ``NoneType``)."""
    if get_origin(kind) is Literal:
        return (get_args(kind),)
    if isinstance(kind, type):
        return (kind,)
    return tuple(part for arg in get_args(kind) for part in _parts(arg))


def knob_kinds(knob: str) -> tuple[tuple[Any, ...], tuple[type, ...]]:
    """``(literals, types)``: the literal values ``knob`` takes, and the types of its other
    values (``bool``, ``int``, ``NoneType``)."""
    parts = _CHOICES[knob]
    literals = tuple(value for part in parts if isinstance(part, tuple) for value in part)
    return literals, tuple(part for part in parts if isinstance(part, type))


#: the values a whole-number knob is played at by the differential tests (its preset
#: values and a turn away from them); every other knob is played at every value it takes
_SAMPLES: dict[str, tuple[Any, ...]] = {
    "max_fan": (None, 2, 3, 4, 6),
    "exposed_kong_discarder": (1, 2, 3),
    "exposed_kong_others": (0, 1, 2),
    "added_kong_each": (1, 2),
    "concealed_kong_each": (1, 2, 3),
    "flower_pig_payment": (4, 8, 16, "cap"),
    "no_ting_pays": ("max", "min", 1, 4),
    "kong_discard_transfer": (True, False, "refund"),
}


def knob_values() -> dict[str, tuple[Any, ...]]:
    """Every knob with the values that exercise it: each literal and both booleans, and
    :data:`_SAMPLES` for the whole numbers. The fast path's differential plays every one
    (tests/test_fast_check.py), so a new knob is tested the day it is written here."""
    out: dict[str, tuple[Any, ...]] = {}
    for knob in _CHOICES:
        literals, types = knob_kinds(knob)
        if knob in _SAMPLES:  # a knob that mixes kinds (literals, numbers, bools) says how it is played
            out[knob] = _SAMPLES[knob]
        elif not types:
            out[knob] = literals
        elif types == (bool,) and not literals:
            out[knob] = (False, True)
        else:  # a whole-number knob must say how it is played
            raise RulesError(
                f"knob {knob!r} takes whole numbers: give the values it is played at in _SAMPLES"
            )
    return out


@dataclass(frozen=True)
class Rules:
    """Every knob of docs/knobs.md, plus the fan of each base pattern (docs/presets.md)."""

    name: str
    void_declaration: VoidDeclaration
    void_discard_first: bool
    multiple_hu: bool
    pass_rule: PassRule
    pass_rule_higher_fan_ok: bool
    last_four_must_hu: bool
    end_condition: EndCondition
    max_fan: MaxFan
    self_draw_bonus: SelfDrawBonus
    kong_bloom_after_exposed: KongBloomAfterExposed
    kong_discard_transfer: KongDiscardTransfer
    exposed_kong_discarder: int
    exposed_kong_others: int
    added_kong_each: int
    concealed_kong_each: int
    added_kong_same_turn_only: bool
    flower_pig_payment: FlowerPigPayment
    no_ting_pays: NoTingPays
    dead_wait_counts: bool
    haidi: bool
    haidi_any_discard: bool  # 海底 on any discard win once the wall is empty (not only the last drawer's)
    exchange_three: bool
    tax_refund: bool
    flower_pig_pays: FlowerPigPays
    ready_value_kong_roots: bool
    flower_pig: FlowerPig
    next_after_discard_win: NextAfterDiscardWin
    fan_combination: FanCombination
    jingoudiao_needs_four_melds: bool
    seats: Seats
    suits: Suits
    hand_size: HandSize
    wild_tiles: WildTiles
    two_suit_void: bool
    fan: tuple[tuple[str, FanValue], ...]

    def pattern_fan(self, pattern: str) -> int | None:
        """Fan of a base pattern or an extra (a row of the fan table) under these rules;
        ``None`` when it is not scored.

        ``cap`` is the rule set's ``max_fan``; without a cap it is the highest fan any
        base pattern has here (天胡/地胡 "按满格处理").
        """
        value = dict(self.fan)[pattern]
        if value != "cap":
            return value
        if self.max_fan is not None:
            return self.max_fan
        return max(v for p, v in self.fan if isinstance(v, int) and p in PATTERN_IDS)

    @property
    def flower_pig_points(self) -> int:
        """Base units a 花猪 pays each other seat (``cap``: 2^(max_fan-1), 满格)."""
        if self.flower_pig_payment == "cap":
            if self.max_fan is None:
                raise RulesError("flower_pig_payment 'cap' needs a max_fan")
            return 1 << (self.max_fan - 1)
        return self.flower_pig_payment

    def knobs(self) -> dict[str, Any]:
        """The knob values as plain JSON-ready data (``fan`` as a mapping)."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["fan"] = dict(self.fan)
        return out


def _knob_type(field: Field[Any]) -> Any:
    """The type of a knob's field: the type named after the knob, else ``bool`` or ``int``.

    Found by the knob's name rather than read from ``field.type`` because mypyc erases a
    compiled class's annotations of named types to ``type`` (``bool`` and ``int`` stay);
    the pure build's annotation (a string, ``from __future__ import annotations``) is held
    to the same name here, and tests/test_rules.py holds the source to it.
    """
    name = "".join(word.title() for word in field.name.split("_"))
    if field.type in (bool, int):
        return field.type
    if field.type in ("bool", "int"):
        return {"bool": bool, "int": int}[field.type]
    if field.type in (name, type) and name in globals():
        return globals()[name]
    raise TypeError(
        f"knob {field.name!r} is annotated {field.type}: name its type {name}, or use bool or int"
    )


#: each knob's type, from the fields of :class:`Rules` (all but ``name`` and ``fan``), in
#: their order: the one list of the knobs
_KNOB_TYPES: dict[str, Any] = {f.name: _knob_type(f) for f in fields(Rules) if f.name not in ("name", "fan")}
#: knob -> the parts of its type (:func:`_parts`), what ``load_rules`` checks a value against
_CHOICES: dict[str, tuple[Any, ...]] = {knob: _parts(kind) for knob, kind in _KNOB_TYPES.items()}


def preset_names() -> list[str]:
    folder = resources.files("engine") / "presets"
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


@cache
def _preset_table(name: str) -> dict[str, Any]:
    path = resources.files("engine") / "presets" / f"{name}.toml"
    if name not in preset_names() or not path.is_file():
        raise RulesError(f"unknown preset {name!r}; known presets: {', '.join(preset_names())}")
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _check_knob(knob: str, value: Any) -> Any:
    """``value`` as the knob takes it, or a :class:`RulesError` that says what it takes (by
    the knob's main kind, the first part of its type)."""
    if knob not in _CHOICES:
        raise RulesError(f"unknown knob {knob!r}; knobs: {', '.join(sorted(_CHOICES))}")
    literals, types = knob_kinds(knob)
    main = _CHOICES[knob][0]
    if type(None) in types and value in (None, "none"):
        return None
    if any(value == literal and type(value) is type(literal) for literal in literals):
        return value  # a named value: a text, or a number of a knob of numbers (seats: 4)
    if main is not int and int in types and isinstance(value, int) and not isinstance(value, bool):
        if value < 1:  # no_ting_pays: a flat 查大叫 of at least one base unit
            raise RulesError(
                f"knob {knob!r} must be {', '.join(map(repr, literals))} or a whole number >= 1, not {value!r}"
            )
        return value
    if isinstance(main, tuple):
        raise RulesError(f"knob {knob!r} must be one of {list(main)}, not {value!r}")
    if main is int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RulesError(f"knob {knob!r} must be a whole number >= 0, not {value!r}")
    elif not isinstance(value, main):
        raise RulesError(f"knob {knob!r} must be true or false, not {value!r}")
    if knob == "max_fan" and value < 1:
        raise RulesError("knob 'max_fan' must be at least 1 (or 'none')")
    return value


def _check_fan(pattern: str, value: Any) -> FanValue:
    if pattern not in FAN_IDS:
        raise RulesError(f"unknown pattern {pattern!r} in 'fan'; patterns: {', '.join(FAN_IDS)}")
    if value in (None, "none"):
        return None
    if value == "cap" and pattern in EXTRA_FAN_IDS:
        raise RulesError(f"fan of the extra {pattern!r} must be a whole number >= 1 or 'none', not 'cap'")
    if value == "cap" or (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
        return value  # type: ignore[no-any-return]
    raise RulesError(f"fan of {pattern!r} must be a whole number >= 1, 'cap' or 'none', not {value!r}")


def load_rules(spec: str | Mapping[str, Any] | Rules) -> Rules:
    """A preset name, a JSON object text, or a mapping ``{"preset": ..., knob: value, ...}``.

    Unnamed knobs come from the preset (``standard`` when none is named). ``fan`` may
    override single patterns: ``{"preset": "chengdu", "fan": {"jiangdui": 4}}``.
    """
    if isinstance(spec, Rules):
        return spec
    if isinstance(spec, str):
        text = spec.strip()
        if not text.startswith("{"):
            return _load_mapping({"preset": text})
        try:
            spec = json.loads(text)
        except json.JSONDecodeError as error:
            raise RulesError(f"rules JSON cannot be read: {error}") from None
        if not isinstance(spec, dict):
            raise RulesError("rules must be a preset name or a JSON object")
    return _load_mapping(spec)


@cache
def _load_frozen(items: str) -> Rules:
    mapping: dict[str, Any] = json.loads(items)
    preset = mapping.pop("preset", "standard")
    if not isinstance(preset, str):
        raise RulesError(f"'preset' must be a preset name, not {preset!r}")
    table = dict(_preset_table(preset))
    fan = dict(table.pop("fan"))
    overrides = {k: v for k, v in mapping.items() if k != "fan"}
    fan_overrides = mapping.get("fan", {})
    if not isinstance(fan_overrides, dict):
        raise RulesError("'fan' must be an object of pattern -> fan")
    values = {knob: _check_knob(knob, v) for knob, v in {**table, **overrides}.items()}
    missing = set(_CHOICES) - set(values)
    if missing:
        raise RulesError(f"preset {preset!r} lacks knobs {sorted(missing)}")
    fan_values = {p: _check_fan(p, v) for p, v in {**fan, **fan_overrides}.items()}
    if fan_values.get("pinghu") is None:
        raise RulesError("fan of 'pinghu' cannot be 'none': pinghu applies to every win (docs/rules.md 4)")
    name = preset
    changed = {**overrides, **({"fan": fan_overrides} if fan_overrides else {})}
    if changed:
        name += "+" + json.dumps(changed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    rules = Rules(
        name=name,
        fan=tuple((p, fan_values.get(p, EXTRA_DEFAULT_FAN if p in EXTRA_FAN_IDS else None)) for p in FAN_IDS),
        **values,
    )
    if rules.flower_pig_payment == "cap":
        _ = rules.flower_pig_points  # raises early when there is no cap to pay
    _check_table(rules)
    return rules


def _check_table(rules: Rules) -> None:
    """A table that cannot be dealt or played is a :class:`RulesError` that says why
    (docs/knobs.md, "The table")."""
    tiles = 4 * 9 * len(rules.suits) + rules.wild_tiles
    dealt = rules.seats * rules.hand_size + 1
    if tiles - dealt < rules.seats:
        raise RulesError(
            f"a table of {rules.seats} seats dealing {rules.hand_size} tiles from {tiles} "
            f"(suits {rules.suits!r}, {rules.wild_tiles} 红中) leaves {tiles - dealt} in the wall, "
            f"fewer than one draw a seat"
        )
    suits_to_win = len(rules.suits) - (1 if len(rules.suits) == 3 or rules.two_suit_void else 0)
    if rules.void_declaration == "required" and (suits_to_win < 1 or len(rules.suits) == suits_to_win):
        raise RulesError(
            f"void_declaration 'required' (定缺) needs a suit to give up: suits {rules.suits!r}"
            + (" with two_suit_void false" if len(rules.suits) == 2 else "")
        )
    if rules.two_suit_void and len(rules.suits) == 1:
        raise RulesError("two_suit_void needs two suits in the wall: suits is one suit")


def rules_from_name(name: str) -> Rules:
    """A rule set from its name (``standard``, ``chengdu+{"max_fan":5}``, as stored in the
    warehouse): the preset, then its overrides; the inverse of the name built above."""
    preset, _, overrides = name.partition("+")
    if not overrides:
        return load_rules(preset)
    try:
        changed = json.loads(overrides)
    except json.JSONDecodeError as error:
        raise RulesError(f"rule set {name!r}: {error}") from None
    return load_rules({"preset": preset, **changed})


def _load_mapping(mapping: Mapping[str, Any]) -> Rules:
    try:
        key = json.dumps(dict(mapping), sort_keys=True)
    except TypeError as error:
        raise RulesError(f"rules must be plain JSON data: {error}") from None
    return _load_frozen(key)
