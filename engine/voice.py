"""How a finding's message says a seat, a list of seats, a tile and per-seat amounts.

A message is a template key and its values (:mod:`engine.messages`); a voice turns the
values that stand for something at the table into words. :data:`DEFAULT` says them as
the stored messages always have ("seat 2" / "2 号位", the tile's name, a bare list), so
``message`` and ``message_zh`` stay what they were. :class:`NamedVoice` says the players
by name, the seat beside it counted as the source counts it (a tile log 0–3, a score
sheet or a spreadsheet 1–4), and payments per player ("张三 −4, 李四 +4"); a page may
draw a tile as it draws tiles (``tile``) and name a rule set in its language (``rules``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

Lang = Literal["en", "zh"]


def signed(amount: int) -> str:
    """+4, −4 (a true minus sign), 0."""
    return f"+{amount}" if amount > 0 else f"\u2212{-amount}" if amount < 0 else "0"


#: per-seat amounts where nobody pays: (中文, English)
NO_PAYMENT = ("无人付分", "no payment")


class Voice:
    """The default voice: every value as the stored messages say it."""

    first = 0  # the number the source gives its first seat

    def name(self, seat: int) -> str | None:
        """The player at ``seat``, None when the voice names nobody there."""
        return None

    def seat(self, seat: int, lang: Lang) -> str:
        return f"{seat} 号位" if lang == "zh" else f"seat {seat}"

    def seats(self, seats: Sequence[int], lang: Lang) -> str:
        return f"{list(seats)} 号位" if lang == "zh" else f"seats {list(seats)}"

    def tile(self, name: str, lang: Lang) -> str:
        return name

    def amounts(self, amounts: Sequence[int], lang: Lang) -> str:
        return str(list(amounts))

    def rules(self, name: str, lang: Lang) -> str:
        """A rule set (a template's ``rules``): its name as stored (``standard``)."""
        return name


DEFAULT = Voice()


class NamedVoice(Voice):
    """Players by name: "张三 (seat 3)" / "张三（3 号位）", the seat counted from ``first``
    (0 for a tile log, 1 for a score sheet or a spreadsheet); ``tile`` draws a tile (by
    default its name)."""

    def __init__(
        self,
        players: Sequence[str | None],
        first: int = 0,
        tile: Callable[[str, Lang], str] | None = None,
        rules: Callable[[str, Lang], str] | None = None,
    ) -> None:
        self.players = [str(p) if p is not None else "" for p in players]
        self.first = first
        self._tile = tile
        self._rules = rules

    def name(self, seat: int) -> str | None:
        if isinstance(seat, int) and 0 <= seat < len(self.players) and self.players[seat]:
            return self.players[seat]
        return None

    def seat(self, seat: int, lang: Lang) -> str:
        name = self.name(seat)
        number = seat + self.first if isinstance(seat, int) else seat
        if name is None:
            return Voice.seat(self, number, lang)
        return f"{name}（{number} 号位）" if lang == "zh" else f"{name} (seat {number})"

    def seats(self, seats: Sequence[int], lang: Lang) -> str:
        return ("、" if lang == "zh" else ", ").join(self.seat(s, lang) for s in seats)

    def tile(self, name: str, lang: Lang) -> str:
        return self._tile(name, lang) if self._tile is not None else name

    def rules(self, name: str, lang: Lang) -> str:
        """A rule set as the page names it (``rules``: 标准川麻 on a 中文 page), else as stored."""
        return self._rules(name, lang) if self._rules is not None else name

    def amounts(self, amounts: Sequence[int], lang: Lang) -> str:
        if len(amounts) != len(self.players) or not all(isinstance(a, int) for a in amounts):
            return str(list(amounts))
        moved = [f"{self.name(s) or self.seat(s, lang)} {signed(a)}" for s, a in enumerate(amounts) if a]
        return ", ".join(moved) if moved else NO_PAYMENT[0 if lang == "zh" else 1]
