"""Single cells of a score sheet read as log values: numbers, dates, seats, the 听牌
cell, pattern lists, header names. Each reader raises :class:`BadCell` naming its
column key and what is wrong, so the importer can make a finding of row and column.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from typing import Any, Final

from engine.messages import Text, say
from engine.rules import Rules
from ingest.sheets.cells import Cell
from ingest.sheets.terms import (
    BASE_IDS,
    COLUMNS,
    COMBINED_BASES,
    PATTERN_NAMES,
    RULES_NAMES,
    SEAT_WORDS,
    SELF_DRAW,
    norm,
)

LIST_SPLIT: Final = re.compile(r"[\s,，、;；+|/]+")
#: patterns that are won only by a self-draw, so an empty 'from' beside them means 自摸
SELF_DRAWN: Final = frozenset({"tianhu", "dihu", "gangshanghua"})
_CN_COUNT: Final = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4}


class BadCell(Exception):
    """One cell that cannot be read: its column key and what is wrong (a template and its
    values, so the finding reads in the user's language; ``message`` its English)."""

    def __init__(self, key: str, message: str | Text) -> None:
        self.text = message if isinstance(message, Text) else None
        self.message = message.en if isinstance(message, Text) else message
        super().__init__(self.message)
        self.key = key


# --- cells -------------------------------------------------------------------------


def cell_text(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return str(value).strip()


def whole_number(key: str, text: str, what: Text) -> int:
    cleaned = text.replace("＋", "+").replace("－", "-").replace("−", "-").replace(",", "")
    try:
        number = float(cleaned)
    except ValueError:
        raise BadCell(key, say("cell_whole_number", what=what, got=text)) from None
    if not number.is_integer():
        raise BadCell(key, say("cell_whole_number", what=what, got=text))
    return int(number)


_DATE_FORMATS: Final = ("%Y-%m-%d", "%Y/%m/%d", "%Y.%m.%d", "%Y年%m月%d日", "%Y%m%d")


def iso_date(text: str) -> str:
    for fmt in _DATE_FORMATS:
        for suffix, with_time in (("", False), (" %H:%M", True), (" %H:%M:%S", True)):
            try:
                when = dt.datetime.strptime(text, fmt + suffix)
            except ValueError:
                continue
            return when.isoformat() if with_time else when.date().isoformat()
    raise BadCell("date", say("cell_date", got=text))


# --- the header ----------------------------------------------------------------------


def header_key(text: str) -> str | None:
    """The column key of a header cell: "番型 / patterns", "玩家1 (player 1)", "Points 1"."""
    if not text:
        return None
    whole = COLUMNS.get(norm(text))
    if whole is not None:
        return whole
    for segment in re.split(r"[/|()（）\[\]]", text):
        key = COLUMNS.get(norm(segment))
        if key is not None:
            return key
        for token in segment.split():
            key = COLUMNS.get(norm(token))
            if key is not None:
                return key
    return None


# --- single terms ----------------------------------------------------------------------


def deal_id_of(session_id: str, deal: str) -> str:
    return f"{session_id}-{int(deal):02d}" if deal.isdecimal() else f"{session_id}-{deal}"


def rules_value(text: str) -> str | dict[str, Any]:
    if text.lstrip().startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            return text  # the validator reports it as rules that cannot be used
        return value if isinstance(value, dict) else text
    return RULES_NAMES.get(norm(text), text)


def end_reason(winners: set[int], rules: Rules | None) -> str:
    """How a sheet deal with no end written ended, from the seats that won: three of them
    end a 血战 deal, but under 血流成河 (``end_condition: bloody_flow``) a winner stays in
    and only the wall ends the deal, however many seats won and however often."""
    if rules is not None and rules.end_condition == "bloody_flow":
        return "wall_exhausted"
    seats = rules.seats if rules is not None else 4
    if len(winners) >= seats - 1:  # all but one (three at four seats)
        return "three_won"
    if winners and rules is not None and rules.end_condition == "first_hu":
        return "first_hu"
    return "wall_exhausted"


def seat_of(text: str, players: list[str], key: str, seats: int = 4) -> int:
    """A seat written as 1-4 (1-3 at a three-seat table: the rules' ``seats``), 东南西北,
    or a player's name (seat order of the session)."""
    cleaned = text.strip()
    if cleaned in SEAT_WORDS:
        if SEAT_WORDS[cleaned] >= seats:
            raise BadCell(key, say("cell_seat_table", got=text, seats=seats))
        return SEAT_WORDS[cleaned]
    by_name = {norm(name): seat for seat, name in enumerate(players)}
    if norm(cleaned) in by_name:
        return by_name[norm(cleaned)]
    try:
        number = float(cleaned)
    except ValueError:
        known = ", ".join(players) if players else say("cell_no_players")
        raise BadCell(key, say("cell_no_seat", got=text, known=known)) from None
    if number.is_integer() and 1 <= number <= seats:
        return int(number) - 1
    if seats == 4:
        raise BadCell(key, say("cell_seat_range", got=text))
    raise BadCell(key, say("cell_seat_table", got=text, seats=seats))


def ready_fans(text: str, players: list[str], seats: int = 4) -> list[int | None]:
    """听牌 cell: "Ann 2, Bo 1" or "1:2 3:1番": each ready seat with its 查大叫 fan (one
    entry a seat of the table)."""
    ready: list[int | None] = [None] * seats
    for entry in re.split(r"[,，、;；]+", text):
        entry = entry.strip()
        if not entry:
            continue
        match = re.fullmatch(r"(.+?)\s*[:：=＝]?\s*(\d+)\s*番?", entry)
        if match is None:
            raise BadCell("ready", say("cell_ready", entry=entry))
        seat = seat_of(match.group(1), players, "ready", seats)
        ready[seat] = int(match.group(2))
    return ready


def _pattern_counts(token: str) -> Iterator[str]:
    """One token of the patterns cell as ids: "根×2", "2根", "两根", "清一色根" (no spaces)."""
    count = 1
    match = re.fullmatch(r"(.+?)\s*[x×*]?\s*(\d+)", token) or re.fullmatch(r"(\d+)\s*[x×*]?\s*(.+)", token)
    if match is not None:
        first, second = match.groups()
        name, count = (first, int(second)) if second.isdecimal() else (second, int(first))
        token = name
    elif token[:1] in _CN_COUNT and len(token) > 1 and norm(token) not in PATTERN_NAMES:
        count, token = _CN_COUNT[token[0]], token[1:]
    pid = PATTERN_NAMES.get(norm(token))
    if pid is not None:
        yield from [pid] * count
        return
    if norm(token) in SELF_DRAW:
        yield "自摸"
        return
    yield from _segment(token)


def _segment(token: str) -> Iterator[str]:
    """Names written without spaces ("清一色根自摸"): the longest known name at each point."""
    rest = token
    names = {**{k: v for k, v in PATTERN_NAMES.items() if not k.isascii()}, **{w: "自摸" for w in SELF_DRAW}}
    while rest:
        for size in range(len(rest), 0, -1):
            found = names.get(norm(rest[:size]))
            if found is not None:
                yield found
                rest = rest[size:]
                break
        else:
            raise BadCell("patterns", say("cell_pattern", token=token))


def pattern_ids(text: str, summing: bool = False) -> tuple[list[str], bool]:
    """Pattern ids, base first (平胡 when none is written), and whether 自摸 was among them.
    Two base patterns that name one (清一色 + 对对胡 = 清对) are that one, unless the rule
    set adds its patterns up (``summing``: ``fan_combination = "sum"``)."""
    ids: list[str] = []
    self_draw = False
    for token in LIST_SPLIT.split(text):
        if not token:
            continue
        for pid in _pattern_counts(token):
            if pid == "自摸":
                self_draw = True
            else:
                ids.append(pid)
    self_draw = self_draw or any(p in SELF_DRAWN for p in ids)
    bases = [p for p in ids if p in BASE_IDS]
    extras = [p for p in ids if p not in BASE_IDS]
    combined = COMBINED_BASES.get(frozenset(bases)) if len(bases) == 2 and not summing else None
    if combined is not None:
        bases = [combined]
    return [*(bases or ["pinghu"]), *extras], self_draw
