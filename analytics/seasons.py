"""A club's seasons (赛季): named date ranges that every leaderboard, placement and rating
can be read over, each with the least deals and sessions a player needs to be ranked
(规定局数).

Kept in ``<warehouse>/seasons.json`` (``chuanma season add``), beside the batches and
not in them: a season is the club's choice, not a fact of its games, so it may be
redefined at any time without touching a stored deal. The file is replaced whole
(temp file + ``os.replace``), so a reader sees the old list or the new one.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path
from typing import Any, Final

import pandas as pd  # type: ignore[import-untyped]

SEASONS_FILE: Final = "seasons.json"
FORMAT: Final = 1


class SeasonError(ValueError):
    """A season that cannot be defined as asked, or a seasons file that cannot be read."""


@dataclass(frozen=True)
class Season:
    """One season: ``club`` None means every club of the warehouse."""

    name: str
    first: date
    last: date
    club: str | None = None
    min_deals: int = 0  # 规定局数: fewer deals in the season and a player is listed, not ranked
    min_sessions: int = 0

    def covers(self, day: date) -> bool:
        return self.first <= day <= self.last

    def applies_to(self, club: str | None) -> bool:
        """Whether the season is offered under a club filter (None: every club chosen)."""
        return self.club is None or club is None or self.club == club

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["first"], data["last"] = self.first.isoformat(), self.last.isoformat()
        return data


def seasons_path(warehouse: str | Path) -> Path:
    return Path(warehouse) / SEASONS_FILE


def _season(item: Any, where: Path) -> Season:
    try:
        season = Season(
            name=str(item["name"]),
            first=date.fromisoformat(item["first"]),
            last=date.fromisoformat(item["last"]),
            club=None if item.get("club") is None else str(item["club"]),
            min_deals=int(item.get("min_deals", 0)),
            min_sessions=int(item.get("min_sessions", 0)),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise SeasonError(f"{where}: a season entry cannot be read ({error!r}): {item!r}") from None
    return checked(season)


def checked(season: Season) -> Season:
    """The season, or a :class:`SeasonError` that says what is wrong with it."""
    if not season.name.strip():
        raise SeasonError("a season needs a name")
    if season.last < season.first:
        raise SeasonError(f"season {season.name!r} ends ({season.last}) before it begins ({season.first})")
    if season.min_deals < 0 or season.min_sessions < 0:
        raise SeasonError(f"season {season.name!r}: the least deals and sessions are 0 or more")
    return season


def load_seasons(warehouse: str | Path) -> list[Season]:
    """The seasons defined for a warehouse, earliest first; none when no file exists."""
    path = seasons_path(warehouse)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as error:
        raise SeasonError(f"{path}: cannot read the seasons ({error})") from None
    if (
        not isinstance(data, dict)
        or data.get("format") != FORMAT
        or not isinstance(data.get("seasons"), list)
    ):
        raise SeasonError(f"{path}: not a seasons file of format {FORMAT}")
    return sorted((_season(item, path) for item in data["seasons"]), key=lambda s: (s.first, s.name))


def save_seasons(warehouse: str | Path, seasons: list[Season]) -> Path:
    """Replace the seasons file whole (a reader sees the old list or the new one)."""
    path = seasons_path(warehouse)
    path.parent.mkdir(parents=True, exist_ok=True)
    ordered = sorted(seasons, key=lambda s: (s.first, s.name))
    temp = path.with_name(f"{SEASONS_FILE}.tmp-{os.getpid()}")
    temp.write_text(
        json.dumps(
            {"format": FORMAT, "seasons": [s.to_json() for s in ordered]}, ensure_ascii=False, indent=1
        ),
        encoding="utf-8",
    )
    os.replace(temp, path)
    return path


def add_season(warehouse: str | Path, season: Season) -> list[Season]:
    """Define a season (or redefine the one of the same name and club)."""
    season = checked(season)
    kept = [s for s in load_seasons(warehouse) if (s.name, s.club) != (season.name, season.club)]
    save_seasons(warehouse, [*kept, season])
    return load_seasons(warehouse)


def remove_season(warehouse: str | Path, name: str, club: str | None = None) -> list[Season]:
    """Forget a season's definition (no deal changes); a name not defined is an error."""
    seasons = load_seasons(warehouse)
    kept = [s for s in seasons if (s.name, s.club) != (name, club)]
    if len(kept) == len(seasons):
        where = f" of club {club!r}" if club is not None else " for every club"
        raise SeasonError(f"no season {name!r}{where}")
    save_seasons(warehouse, kept)
    return kept


def find_season(seasons: list[Season], name: str, club: str | None = None) -> Season:
    """The season called ``name`` offered under ``club`` (a club's own before an all-clubs one)."""
    found = [s for s in seasons if s.name == name and s.applies_to(club)]
    found.sort(key=lambda s: s.club is None)
    if not found:
        known = ", ".join(sorted({s.name for s in seasons if s.applies_to(club)})) or "none"
        raise SeasonError(f"no season {name!r} (defined: {known})")
    return found[0]


def current_season(seasons: list[Season], club: str | None, today: date) -> Season | None:
    """The season a club is in today; else the latest one that has begun (a club between
    seasons reads the last one), else None."""
    offered = [s for s in seasons if s.applies_to(club)]
    running = [s for s in offered if s.covers(today)]
    if running:
        return max(running, key=lambda s: (s.first, s.club is not None))
    begun = [s for s in offered if s.first <= today]
    return max(begun, key=lambda s: (s.last, s.first)) if begun else None


def month_of(today: date) -> tuple[date, date]:
    """The first and last day of ``today``'s calendar month."""
    first = today.replace(day=1)
    following = date(first.year + first.month // 12, first.month % 12 + 1, 1)
    return first, date.fromordinal(following.toordinal() - 1)


def split_ranked(frame: pd.DataFrame, min_deals: int, min_sessions: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A leaderboard's players who meet the least deals and sessions (规定局数), and those
    who do not yet, in the frame's order; a column the frame lacks is not asked of it."""
    ranked = pd.Series(True, index=frame.index)
    for column, least in (("deals", min_deals), ("sessions", min_sessions)):
        if least > 0 and column in frame.columns:
            ranked &= frame[column].fillna(0) >= least
    return frame[ranked], frame[~ranked]
