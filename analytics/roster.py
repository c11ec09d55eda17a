"""A club's players (球员名册): who plays, the other names a player was recorded under
(老张 = 张伟), who is a guest, and who asked to be forgotten.

Kept in ``<warehouse>/roster.json`` (``chuanma roster add``), beside the batches and not
in them, like the seasons (``analytics/seasons.py``): the stored Parquet keeps every name as
it was recorded, and the roster is applied when the warehouse is read (``10_staging.sql``
joins :data:`TABLE`), so an alias, a guest or a forgotten player changes what every table
shows without rewriting a stored deal. Names are per club: the same name in two clubs is
two entries. The file is replaced whole (temp file + ``os.replace``).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

import duckdb
import pyarrow as pa  # type: ignore[import-untyped]

ROSTER_FILE: Final = "roster.json"
FORMAT: Final = 1
#: the DuckDB table the staging views join: one row per recorded name of a roster player
TABLE: Final = "roster_names"
#: what a forgotten player is shown as, in every table (N counts over the whole roster)
FORGOTTEN_LABEL: Final = "匿名玩家 {n} (forgotten player {n})"


class RosterError(ValueError):
    """A roster change that cannot be made as asked, or a roster file that cannot be read."""


@dataclass(frozen=True)
class Player:
    """One player of a club; ``aliases`` are other names the club's logs wrote for them."""

    club: str
    name: str
    aliases: tuple[str, ...] = field(default_factory=tuple)
    guest: bool = False
    forgotten: int | None = None  # the N of the anonymous label, once forgotten

    @property
    def shown(self) -> str:
        """The name every table shows for this player."""
        return self.name if self.forgotten is None else FORGOTTEN_LABEL.format(n=self.forgotten)

    def names(self) -> tuple[str, ...]:
        """Every name as recorded that stands for this player."""
        return (self.name, *self.aliases)

    def stored(self) -> dict[str, Any]:
        """The entry as ``roster.json`` keeps it (a forgotten player's names too: the
        mapping needs them, docs/roster.md)."""
        return {
            "club": self.club,
            "name": self.name,
            "aliases": list(self.aliases),
            "guest": self.guest,
            "forgotten": self.forgotten,
        }

    def to_json(self) -> dict[str, Any]:
        """The entry as ``chuanma roster list --json`` shows it: a forgotten player's names
        are left out (null, no aliases)."""
        data = self.stored()
        if self.forgotten is not None:
            data.update(name=None, aliases=[])
        return {**data, "shown": self.shown}


def roster_path(warehouse: str | Path) -> Path:
    return Path(warehouse) / ROSTER_FILE


def _clean(text: str, what: str) -> str:
    cleaned = text.strip()
    if not cleaned:
        raise RosterError(f"a {what} cannot be empty")
    return cleaned


def _player(item: Any, where: Path) -> Player:
    try:
        forgotten = item.get("forgotten")
        return Player(
            club=_clean(str(item["club"]), "club"),
            name=_clean(str(item["name"]), "name"),
            aliases=tuple(_clean(str(a), "alias") for a in item.get("aliases", [])),
            guest=bool(item.get("guest", False)),
            forgotten=None if forgotten is None else int(forgotten),
        )
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        raise RosterError(f"{where}: a roster entry cannot be read ({error!r}): {item!r}") from None


def load_roster(warehouse: str | Path) -> list[Player]:
    """The roster of a warehouse, by club and name; empty when no file exists."""
    path = roster_path(warehouse)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as error:
        raise RosterError(f"{path}: cannot read the roster ({error})") from None
    if (
        not isinstance(data, dict)
        or data.get("format") != FORMAT
        or not isinstance(data.get("players"), list)
    ):
        raise RosterError(f"{path}: not a roster file of format {FORMAT}")
    return _ordered(_player(item, path) for item in data["players"])


def roster_or_error(warehouse: str | Path) -> tuple[list[Player], RosterError | None]:
    """The roster, or none and why: a damaged ``roster.json`` must not stop every page and
    report; until it is fixed, names are shown as recorded (and the reader says so)."""
    try:
        return load_roster(warehouse), None
    except RosterError as error:
        return [], error


def _ordered(players: Any) -> list[Player]:
    return sorted(players, key=lambda p: (p.club, p.name))


def save_roster(warehouse: str | Path, players: list[Player]) -> Path:
    """Replace the roster file whole (a reader sees the old roster or the new one)."""
    path = roster_path(warehouse)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f"{ROSTER_FILE}.tmp-{os.getpid()}")
    stored = [p.stored() for p in _ordered(players)]
    temp.write_text(
        json.dumps({"format": FORMAT, "players": stored}, ensure_ascii=False, indent=1), encoding="utf-8"
    )
    os.replace(temp, path)
    return path


def roster_digest(warehouse: str | Path) -> str:
    """A short fingerprint of the roster file ("" when none): a reader that held another
    one rebuilds its views, so a roster change shows without a restart."""
    try:
        return hashlib.sha256(roster_path(warehouse).read_bytes()).hexdigest()[:12]
    except FileNotFoundError:
        return ""


def find_player(players: list[Player], club: str, name: str) -> Player | None:
    """The player of ``club`` that ``name`` (their name or an alias) stands for."""
    return next((p for p in players if p.club == club and name in p.names()), None)


def club_names(players: list[Player], club: str) -> list[str]:
    """The names the Record page offers for a club: its players (forgotten ones left out)."""
    return sorted(p.name for p in players if p.club == club and p.forgotten is None)


def _change(warehouse: str | Path, club: str, name: str) -> tuple[list[Player], Player]:
    players = load_roster(warehouse)
    found = find_player(players, _clean(club, "club"), _clean(name, "name"))
    if found is None:
        raise RosterError(f"no player {name!r} in the roster of club {club!r}")
    return [p for p in players if p is not found], found


def add_player(warehouse: str | Path, club: str, name: str, *, guest: bool = False) -> Player:
    """Put a new player on a club's roster; a name the club already has is an error."""
    club, name = _clean(club, "club"), _clean(name, "name")
    players = load_roster(warehouse)
    found = find_player(players, club, name)
    if found is not None:
        raise RosterError(f"club {club!r} already has {name!r} (player {found.name!r})")
    player = Player(club, name, guest=guest)
    save_roster(warehouse, [*players, player])
    return player


def add_alias(warehouse: str | Path, club: str, alias: str, name: str) -> Player:
    """Record that ``alias`` is the player ``name`` (老张 = 张伟): every deal recorded under
    the alias counts for them. An alias that is itself a roster player merges that player
    in (their own aliases come along)."""
    alias = _clean(alias, "alias")
    players, target = _change(warehouse, club, name)
    if alias in target.names():
        raise RosterError(f"{alias!r} is already {target.name!r}")
    merged = find_player(players, target.club, alias)
    if merged is not None and merged.forgotten is not None:
        raise RosterError(f"{alias!r} was forgotten and cannot be merged")
    if merged is not None:
        players = [p for p in players if p is not merged]
    extra = merged.names() if merged is not None else (alias,)
    player = replace(target, aliases=(*target.aliases, *extra))
    save_roster(warehouse, [*players, player])
    return player


def rename_player(warehouse: str | Path, club: str, name: str, new_name: str) -> Player:
    """Give a player a new name (a typo fixed, 小张 now 张伟): the old name becomes an alias,
    so every deal recorded under it still counts for them. A name the club has is refused."""
    new_name = _clean(new_name, "name")
    players, found = _change(warehouse, club, name)
    if found.forgotten is not None:
        raise RosterError(f"{name!r} of club {club!r} was forgotten and cannot be renamed")
    other = find_player(players, found.club, new_name)
    if other is not None:
        raise RosterError(f"club {found.club!r} already has {new_name!r} (player {other.name!r})")
    aliases = tuple(a for a in (found.name, *found.aliases) if a != new_name)
    player = replace(found, name=new_name, aliases=aliases)
    save_roster(warehouse, [*players, player])
    return player


def set_guest(warehouse: str | Path, club: str, name: str, *, guest: bool = True) -> Player:
    """Mark a player a guest (listed apart from the club's leaderboards), or a member again."""
    players, found = _change(warehouse, club, name)
    player = replace(found, guest=guest)
    save_roster(warehouse, [*players, player])
    return player


def forget_player(warehouse: str | Path, club: str, name: str) -> Player:
    """Anonymise a player: every table shows the label instead of any of their names from
    now on; the stored deals are not rewritten (docs/decisions.md). A name not on the
    roster is added first, so any recorded name can be forgotten."""
    club, name = _clean(club, "club"), _clean(name, "name")
    players = load_roster(warehouse)
    found = find_player(players, club, name) or Player(club, name)
    if found.forgotten is not None:
        raise RosterError(f"{name!r} of club {club!r} is already forgotten ({found.shown})")
    number = 1 + max((p.forgotten or 0 for p in players), default=0)
    player = replace(found, forgotten=number)
    save_roster(warehouse, [*(p for p in players if p is not found), player])
    return player


def remove_player(warehouse: str | Path, club: str, name: str) -> Player | None:
    """Take an alias off its player (given an alias), or a player off the roster (given
    their name): the names are shown as recorded again. A forgotten player stays forgotten."""
    players, found = _change(warehouse, club, name)
    if found.forgotten is not None:
        raise RosterError(f"{name!r} of club {club!r} was forgotten: forgetting cannot be undone")
    if name.strip() != found.name:
        kept = replace(found, aliases=tuple(a for a in found.aliases if a != name.strip()))
        save_roster(warehouse, [*players, kept])
        return kept
    save_roster(warehouse, players)
    return None


def name_rows(players: list[Player]) -> pa.Table:
    """The :data:`TABLE` rows: (club, recorded name, shown name, guest, forgotten)."""
    rows = [(p.club, n, p.shown, p.guest, p.forgotten is not None) for p in players for n in p.names()]
    return pa.table(
        {
            "club": pa.array([r[0] for r in rows], pa.string()),
            "recorded": pa.array([r[1] for r in rows], pa.string()),
            "shown": pa.array([r[2] for r in rows], pa.string()),
            "guest": pa.array([r[3] for r in rows], pa.bool_()),
            "forgotten": pa.array([r[4] for r in rows], pa.bool_()),
        }
    )


def guests_split(frame: Any, guests: set[str]) -> tuple[Any, Any]:
    """A leaderboard's rows (a ``player`` column) of members and of guests, in its order."""
    is_guest = frame["player"].isin(sorted(guests))
    return frame[~is_guest], frame[is_guest]


def install(con: duckdb.DuckDBPyConnection, rows: pa.Table) -> None:
    """(Re)create :data:`TABLE` on a connection from :func:`name_rows`' rows."""
    con.register("roster_rows", rows)
    con.execute(f"create or replace table {TABLE} as select * from roster_rows")
    con.unregister("roster_rows")
