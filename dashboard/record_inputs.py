"""The Record page's chips (记分): the form that makes one kong or win, for a new event or
for one edited in place, and the wall's end. A form returns the fact its chips make, or
None while it is incomplete or the sheet audit refuses it (its finding is shown under the
chips, before anything is added): adding and correcting are one form and one rule.

Widget keys carry a step number that is bumped after each recorded fact, so the chips
start over; an edited event's chips start from what was recorded.
"""

from __future__ import annotations

import streamlit as st

from dashboard import page_kit
from dashboard.findings_view import finding_said
from dashboard.i18n import Lang, label
from dashboard.safe_text import md
from dashboard.term_labels import pattern_label, win_kind_label
from engine.fan import PATTERNS
from engine.moves import flower_pigs_possible
from engine.rules import Rules
from engine.sheet import AT_ONCE
from engine.vocabulary import EXTRAS
from ingest.sheets.record import (
    KONG_KINDS,
    DealFacts,
    EndFact,
    Fact,
    KongFact,
    SessionFacts,
    WinFact,
    picked_patterns,
    win_fan,
)

STEP_KEY = "record_step"  # bumped after each recorded fact: the input chips start empty again
SELF = -1  # the "from" chip of a self-draw
ACTIONS = ("kong", "win")
#: extras a player picks (根 has its own count; 自摸加番 follows from the rules)
PICKED_EXTRAS = tuple(e for e in EXTRAS if e not in ("gen", "zimo"))
ROOTS = (0, 1, 2, 3, 4)


def step_key(name: str) -> str:
    return f"record_{name}_{st.session_state.get(STEP_KEY, 0)}"


def next_step() -> None:
    st.session_state[STEP_KEY] = st.session_state.get(STEP_KEY, 0) + 1


def seat_pills(
    text: str, seats: list[int], players: tuple[str, ...], key: str, default: int | None = None
) -> int | None:
    picked: int | None = st.pills(
        text, seats, format_func=lambda s: md(players[s]), key=key,
        default=default if default in seats else None,
    )  # fmt: skip
    return picked


def pattern_options(rules: Rules) -> list[str]:
    bases = [p.id for p in PATTERNS if p.id != "pinghu" and rules.pattern_fan(p.id) is not None]
    extras = [e for e in PICKED_EXTRAS if (e != "haidi" or rules.haidi) and rules.pattern_fan(e) is not None]
    return bases + extras


def at_once_open(before: DealFacts, source: int | None) -> bool:
    """Whether a win at once (起手4红中) can still be: self-drawn, before play begins (no
    kong and no win but another win at once before it), as the sheet audit rules."""
    if source != SELF:
        return False
    return all(isinstance(f, WinFact) and AT_ONCE.intersection(f.patterns) for f in before.events)


def kong_input(players: tuple[str, ...], seats: list[int], prefix: str, old: KongFact | None, lang: Lang) -> KongFact | None:  # fmt: skip
    """Who, which kind, and the discarder of a 直杠."""
    who = seat_pills(
        page_kit.t("record_who"),
        seats,
        players,
        step_key(f"{prefix}kong_who"),
        None if old is None else old.seat,
    )
    kind = st.segmented_control(
        page_kit.t("record_kind"), list(KONG_KINDS), format_func=lambda k: label(f"kong_kind_{k}", lang),
        key=step_key(f"{prefix}kong_kind"), default=old.kind if old else None,
    )  # fmt: skip
    source: int | None = None
    if kind == "exposed":
        others = [s for s in seats if s != who]
        was = old.from_seat if old else None
        source = seat_pills(page_kit.t("record_from"), others, players, step_key(f"{prefix}kong_from"), was)
    same_turn = True
    if kind == "added":  # a late 弯杠 (its tile drawn before) earns nothing on some tables
        same_turn = not st.checkbox(
            page_kit.t("record_late_added"), value=old is not None and not old.same_turn,
            key=step_key(f"{prefix}kong_late"), help=page_kit.t("record_late_added_help"),
        )  # fmt: skip
    if who is None or kind is None or (kind == "exposed" and source is None):
        return None
    return KongFact(who, str(kind), source, same_turn)


def win_input(
    session: SessionFacts, before: DealFacts, seats: list[int], rules: Rules, prefix: str,
    old: WinFact | None, lang: Lang,
) -> WinFact | None:  # fmt: skip
    """Who, from whom or 自摸, the patterns and roots; the fan the engine gives it after
    ``before`` (the deal's events up to it) shows as the chips are picked."""
    players = session.players
    who = seat_pills(
        page_kit.t("record_who"),
        seats,
        players,
        step_key(f"{prefix}win_who"),
        None if old is None else old.seat,
    )
    sources = [SELF, *(s for s in seats if s != who)]
    was = None if old is None else (SELF if old.from_seat is None else old.from_seat)
    source = st.pills(
        page_kit.t("record_from"), sources, key=step_key(f"{prefix}win_from"),
        format_func=lambda s: win_kind_label("self_draw", lang) if s == SELF else md(players[s]),
        default=was if was in sources else None,
    )  # fmt: skip
    options = [p for p in pattern_options(rules) if p != "sihongzhong" or at_once_open(before, source)]
    chips = [p for p in (old.patterns if old else ()) if p in options]
    picked = st.pills(
        page_kit.t("record_patterns"), options, selection_mode="multi", key=step_key(f"{prefix}win_patterns"),
        format_func=lambda p: pattern_label(p, lang), default=chips,
    )  # fmt: skip
    roots = min(old.patterns.count("gen"), ROOTS[-1]) if old else 0
    chosen_roots = st.segmented_control(
        page_kit.t("record_roots"), list(ROOTS), default=roots, key=step_key(f"{prefix}win_roots")
    )
    if who is None or source is None:
        return None
    patterns = picked_patterns(list(picked or []), int(chosen_roots or 0), rules.fan_combination == "sum")
    win = WinFact(who, None if source == SELF else int(source), patterns)
    fan, problems = win_fan(session, before, win)
    if fan is not None:
        capped = page_kit.t("record_fan_capped", cap=rules.max_fan) if fan == rules.max_fan else ""
        st.markdown(f"### {page_kit.t('record_fan', fan=fan)}{capped}")
    for finding in problems:  # the sheet audit's own finding, before the win is added
        message = finding_said(finding, page_kit.lang(), players, 1, md)
        st.warning(page_kit.t("record_problem", message=message), icon=":material/warning:")
    return None if problems else win


def fact_input(
    session: SessionFacts, before: DealFacts, seats: list[int], rules: Rules, prefix: str,
    old: Fact | None, lang: Lang,
) -> tuple[str, Fact | None]:  # fmt: skip
    """The kong/win chip, then that form: (the action picked, the fact or None)."""
    was = "kong" if isinstance(old, KongFact) else "win"
    action = st.segmented_control(
        page_kit.t("record_events"), list(ACTIONS), default=was, key=step_key(f"{prefix}action"),
        format_func=lambda a: label(f"record_{a}", lang), label_visibility="collapsed",
    )  # fmt: skip
    if action == "kong":
        return "kong", kong_input(
            session.players, seats, prefix, old if isinstance(old, KongFact) else None, lang
        )
    return "win", win_input(
        session, before, seats, rules, prefix, old if isinstance(old, WinFact) else None, lang
    )


def wall_end_input(
    players: tuple[str, ...], still_in: list[int], rules: Rules, stored: EndFact | None, lang: Lang
) -> EndFact:
    """Who is 花猪 and who is ready at what fan among ``still_in`` (the seats that never
    won: under 血流成河 a winner plays on but takes no part in 查叫), starting from what
    was entered before."""
    st.subheader(page_kit.t("record_wall_end"))
    cap = rules.max_fan or 6
    was = stored or EndFact()
    pigs: list[int] | None = []
    if flower_pigs_possible(rules):  # 三人两房's two suits: no hand is a 花猪, none offered
        pigs = st.pills(
            page_kit.t("record_pigs"), still_in, selection_mode="multi", format_func=lambda s: md(players[s]),
            key=step_key("end_pigs"), default=[s for s in was.flower_pigs if s in still_in],
        )  # fmt: skip
    fans = [0, *range(1, cap + 1)]
    ready: list[int | None] = [None] * len(players)  # one a seat of the table
    was_ready = was.fitted(len(players))
    for seat in still_in:
        if seat in (pigs or []):
            continue
        before = was_ready[seat]
        fan = st.segmented_control(
            f"{md(players[seat])} · {page_kit.t('record_ready')}", fans,
            default=before if before in fans else 0, key=step_key(f"end_ready_{seat}"),
            format_func=lambda f: label("record_not_ready", lang) if f == 0 else str(f),
        )  # fmt: skip
        ready[seat] = int(fan) if fan else None
    return EndFact(tuple(ready), tuple(sorted(pigs or [])))
