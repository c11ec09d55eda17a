"""``chuanma access``: tokens per club with a role (viewer, recorder, admin) for the HTTP
API and the dashboard, kept hashed in ``<warehouse>/access.json`` (``dashboard/access.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from dashboard.cli.options import WarehouseOption, echo_text, fail

access_app = typer.Typer(
    help="Tokens per club (viewer, recorder, admin) for the HTTP API and the dashboard: add, list, revoke. "
    "Once a token exists, every reader and writer needs one.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
JsonOption = Annotated[bool, typer.Option("--json", help="The result as JSON.")]


@access_app.command("add")
def access_add(
    club: Annotated[str, typer.Option("--club", help="The club whose data the token reads (and writes).")],
    role: Annotated[
        str,
        typer.Option(
            "--role", help="viewer (reads), recorder (also stores deals), admin (also manages tokens)."
        ),
    ] = "viewer",
    label: Annotated[str, typer.Option("--label", help="Whose token it is, for the list.")] = "",
    warehouse: WarehouseOption = Path("data/warehouse"),
    as_json: JsonOption = False,
) -> None:
    """Make a token and print it: it is shown this once (only its hash is kept)."""
    from dashboard.access import AccessError, add_grant

    try:
        grant, token = add_grant(warehouse, club, role, label)
    except (AccessError, OSError) as error:
        raise fail(str(error)) from None
    if as_json:
        typer.echo(json.dumps({**grant.listed(), "token": token}, ensure_ascii=False))
    else:
        echo_text(f"{grant.role} token {grant.id} for club {grant.club} (shown once, keep it):\n{token}")


@access_app.command("list")
def access_list(warehouse: WarehouseOption = Path("data/warehouse"), as_json: JsonOption = False) -> None:
    """Every token by id, club, role and label, revoked ones with when (never the tokens)."""
    from dashboard.access import AccessError, load_grants

    try:
        grants = load_grants(warehouse)
    except AccessError as error:
        raise fail(str(error)) from None
    if as_json:
        typer.echo(json.dumps([g.listed() for g in grants], ensure_ascii=False))
        return
    for g in grants:
        revoked = f" (revoked {g.revoked})" if g.revoked else ""
        echo_text(f"{g.id}  {g.club}  {g.role}  {g.label or '-'}  made {g.created}{revoked}")
    if not grants:
        echo_text("no tokens: the API and the dashboard are open as before (writing only on localhost)")


@access_app.command("revoke")
def access_revoke(
    token_id: Annotated[str, typer.Argument(help="The token's id (chuanma access list).")],
    warehouse: WarehouseOption = Path("data/warehouse"),
) -> None:
    """Revoke a token: it opens nothing from the next request on (it stays listed)."""
    from dashboard.access import AccessError, revoke_grant

    try:
        grant = revoke_grant(warehouse, token_id)
    except AccessError as error:
        raise fail(str(error)) from None
    echo_text(f"token {grant.id} ({grant.role} of {grant.club}) revoked at {grant.revoked}")
