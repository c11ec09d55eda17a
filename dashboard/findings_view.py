"""A finding's expected and recorded payments per player, as a table reads them
("张三 −4, 李四 +4"), instead of the bare lists the engine stores ("[-4, 4, 0, 0]")."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from dashboard.i18n import Lang, label


def seat_amounts(value: Any, seats: int) -> list[int] | None:
    """A stored ``expected``/``recorded`` text as one integer per seat, or None when it is
    something else (a list of patterns, a count)."""
    try:
        data = json.loads(value) if isinstance(value, str) else value
    except ValueError:
        return None
    if not isinstance(data, list) or len(data) != seats:
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in data):
        return None
    return [int(v) for v in data]


def signed(amount: int) -> str:
    """+4, −4 (a true minus sign), 0."""
    return f"+{amount}" if amount > 0 else f"\u2212{-amount}" if amount < 0 else "0"


def per_player(amounts: Sequence[int], players: Sequence[str], lang: Lang) -> str:
    """The seats that pay or receive, by name: "张三 −4, 李四 +4"; "no payment" when none."""
    moved = [f"{players[seat]} {signed(amount)}" for seat, amount in enumerate(amounts) if amount]
    return ", ".join(moved) if moved else label("no_payment", lang)


def payments_line(expected: Any, recorded: Any, players: Any, lang: Lang) -> str | None:
    """ "Expected: 张三 −4, 李四 +4 · recorded: no payment" for a payment finding, else None."""
    names = [str(p) for p in players] if players is not None and not isinstance(players, str | float) else []
    want, got = seat_amounts(expected, len(names)), seat_amounts(recorded, len(names))
    if not names or want is None or got is None:
        return None
    return label("expected_recorded", lang).format(
        expected=per_player(want, names, lang), recorded=per_player(got, names, lang)
    )
