"""``chuanma roster``: a club's players (球员名册): add, list, rename, alias, guest, forget, remove;
kept in ``<warehouse>/roster.json`` (``analytics/roster.py``) and applied to every table
the next time the warehouse is read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dashboard.cli.options import WarehouseOption, echo_text, fail

if TYPE_CHECKING:
    from collections.abc import Callable

    from analytics.roster import Player

roster_app = typer.Typer(
    help="A club's players (球员名册): add, list, rename, alias, guest, forget, remove. The Record page "
    "picks players from it; every statistic shows a player under their roster name.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
ClubOption = Annotated[
    str, typer.Option("--club", help="The club the player belongs to (names are per club).")
]
NameArgument = Annotated[str, typer.Argument(help="The player's name (or one of their aliases).")]
JsonOption = Annotated[bool, typer.Option("--json", help="The player as a JSON object.")]


def _run(change: Callable[[], Player | None], as_json: bool, said: str) -> None:
    """Make a roster change; a :class:`RosterError` is a usage error (exit 2)."""
    from analytics.roster import RosterError

    try:
        player = change()
    except RosterError as error:
        raise fail(str(error)) from None
    if as_json:
        typer.echo(json.dumps(None if player is None else player.to_json(), ensure_ascii=False))
    else:
        echo_text(said)


@roster_app.command("add")
def roster_add(
    name: Annotated[str, typer.Argument(help="The new player's name, as the club writes it.")],
    club: ClubOption,
    guest: Annotated[
        bool, typer.Option("--guest", help="A guest: listed apart from the leaderboards.")
    ] = False,
    warehouse: WarehouseOption = Path("data/warehouse"),
    as_json: JsonOption = False,
) -> None:
    """Put a player on a club's roster. Exit 2 when the club already has the name."""
    from analytics.roster import add_player

    _run(lambda: add_player(warehouse, club, name, guest=guest), as_json, f"{name} added to club {club}")


@roster_app.command("list")
def roster_list(
    club: Annotated[str | None, typer.Option("--club", help="One club's players only.")] = None,
    warehouse: WarehouseOption = Path("data/warehouse"),
    as_json: Annotated[bool, typer.Option("--json", help="A JSON list, one object per player.")] = False,
) -> None:
    """The roster, by club and name: aliases, guests, forgotten players (by label only)."""
    from analytics.roster import RosterError, load_roster

    try:
        players = [p for p in load_roster(warehouse) if club is None or p.club == club]
    except RosterError as error:
        raise fail(str(error)) from None
    if as_json:
        typer.echo(json.dumps([p.to_json() for p in players], ensure_ascii=False))
        return
    for p in players:
        if p.forgotten is not None:
            echo_text(f"{p.club}: {p.shown}")
            continue
        also = f" (also {', '.join(p.aliases)})" if p.aliases else ""
        echo_text(f"{p.club}: {p.name}{also}{' — guest' if p.guest else ''}")
    if not players:
        echo_text(
            f"no players on the roster in {warehouse} (add one with: chuanma roster add NAME --club CLUB)"
        )


@roster_app.command("alias")
def roster_alias(
    alias: Annotated[str, typer.Argument(help="The other name, e.g. 老张.")],
    name: Annotated[str, typer.Argument(help="The player it is, e.g. 张伟.")],
    club: ClubOption,
    warehouse: WarehouseOption = Path("data/warehouse"),
    as_json: JsonOption = False,
) -> None:
    """Say that ALIAS is the player NAME: deals recorded under either count for NAME. An
    ALIAS that is a roster player is merged into NAME. Exit 2 when NAME is not on the roster."""
    from analytics.roster import add_alias

    _run(lambda: add_alias(warehouse, club, alias, name), as_json, f"{alias} is now {name} (club {club})")


@roster_app.command("rename")
def roster_rename(
    name: NameArgument,
    new_name: Annotated[str, typer.Argument(help="The player's new name.")],
    club: ClubOption,
    warehouse: WarehouseOption = Path("data/warehouse"),
    as_json: JsonOption = False,
) -> None:
    """Give a player a new name; the old one becomes an alias, so their recorded deals
    still count for them. Exit 2 when the club already has NEW_NAME."""
    from analytics.roster import rename_player

    said = f"{name} is now {new_name} (club {club})"
    _run(lambda: rename_player(warehouse, club, name, new_name), as_json, said)


@roster_app.command("guest")
def roster_guest(
    name: NameArgument,
    club: ClubOption,
    member: Annotated[bool, typer.Option("--member", help="Make a guest a member again.")] = False,
    warehouse: WarehouseOption = Path("data/warehouse"),
    as_json: JsonOption = False,
) -> None:
    """Mark a player a guest (listed apart from the leaderboards), or with --member a member."""
    from analytics.roster import set_guest

    said = f"{name} is {'a member' if member else 'a guest'} of club {club}"
    _run(lambda: set_guest(warehouse, club, name, guest=not member), as_json, said)


@roster_app.command("forget")
def roster_forget(
    name: NameArgument,
    club: ClubOption,
    warehouse: WarehouseOption = Path("data/warehouse"),
    as_json: JsonOption = False,
) -> None:
    """Anonymise a player in every table (匿名玩家 N); scores and counts stay as they are.
    The stored files are not rewritten (docs/roster.md). Cannot be undone."""
    from analytics.roster import forget_player

    _run(lambda: forget_player(warehouse, club, name), as_json, f"{name} of club {club} is forgotten")


@roster_app.command("remove")
def roster_remove(
    name: NameArgument,
    club: ClubOption,
    warehouse: WarehouseOption = Path("data/warehouse"),
    as_json: JsonOption = False,
) -> None:
    """Take an alias off its player, or a player off the roster: the names show as recorded
    again (no deal changes). Exit 2 when the name is not on the roster or was forgotten."""
    from analytics.roster import remove_player

    _run(lambda: remove_player(warehouse, club, name), as_json, f"{name} removed from club {club}'s roster")
