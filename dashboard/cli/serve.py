"""``chuanma dashboard`` (this process becomes the Streamlit server of ``dashboard/app.py``)
and ``chuanma serve`` (the HTTP API of ``dashboard/api/``, on uvicorn)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dashboard.cli.options import WarehouseOption, fail

LOCAL_ADDRESSES = frozenset({"localhost", "127.0.0.1", "::1"})


def dashboard(
    warehouse: WarehouseOption = Path("data/warehouse"),
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to serve on.")] = 8501,
    address: Annotated[
        str,
        typer.Option(
            help="Address to listen on (default localhost only); beyond localhost the Upload "
            "page is read-only unless an upload token is set."
        ),
    ] = "localhost",
    upload_token: Annotated[
        str | None,
        typer.Option(
            "--upload-token",
            help="Ingesting on the Upload page asks for this token (or set CHUANMA_UPLOAD_TOKEN, "
            "or upload_token in .streamlit/secrets.toml).",
        ),
    ] = None,
) -> None:
    """Serve the dashboard (Streamlit) on http://ADDRESS:PORT for the warehouse's data.

    Runs until stopped (Ctrl-C or SIGTERM: this process becomes the server). An empty or
    missing warehouse shows how to load data."""
    import os
    import sys

    from dashboard.warehouse_location import UPLOAD_TOKEN_ENV, WAREHOUSE_ENV
    from dashboard.write_access import READ_ONLY_LIMIT

    script = Path(__file__).parent.parent / "app.py"
    folder = warehouse.resolve()
    command = [
        sys.executable, "-m", "streamlit", "run", str(script),
        "--server.port", str(port), "--server.address", address, "--server.headless", "true",
        "--browser.gatherUsageStats", "false", "--client.toolbarMode", "viewer",
        # an unexpected error shows its type, never its message or traceback (paths, hosts)
        "--client.showErrorDetails", "type",
        "--", "--warehouse", str(folder),
    ]  # fmt: skip
    env = {**os.environ, WAREHOUSE_ENV: str(folder)}
    if upload_token is not None:
        env[UPLOAD_TOKEN_ENV] = upload_token
    if address not in LOCAL_ADDRESSES and not env.get(UPLOAD_TOKEN_ENV):
        # read-only: no visitor may write, so none may send more than the page validates
        command[command.index("--") : command.index("--")] = [
            "--server.maxUploadSize",
            str(READ_ONLY_LIMIT >> 20),
        ]
        typer.echo(
            f"chuanma dashboard: listening on {address}: the Upload page is read-only "
            f"(uploads of at most {READ_ONLY_LIMIT >> 20} MB are validated; "
            "set --upload-token to let those who know it ingest)",
            err=True,
        )
    typer.echo(f"chuanma dashboard: http://{address}:{port} (warehouse {folder}); Ctrl-C stops it", err=True)
    sys.stdout.flush()
    sys.stderr.flush()
    # exec: the server is this process, so a SIGTERM or Ctrl-C reaches it and no child is left
    try:
        os.execve(sys.executable, command, env)
    except OSError as error:
        raise fail(f"cannot start the dashboard ({error.strerror or error})") from None


def serve(
    warehouse: WarehouseOption = Path("data/warehouse"),
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to serve on.")] = 8000,
    address: Annotated[
        str,
        typer.Option(
            help="Address to listen on (default localhost only); beyond localhost writing needs --token."
        ),
    ] = "localhost",
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            help="Writes (POST /v1/ingest) ask for 'Authorization: Bearer TOKEN' (or set CHUANMA_API_TOKEN).",
        ),
    ] = None,
    max_body_mb: Annotated[
        float, typer.Option(min=0.001, help="The largest request body accepted, in MB.")
    ] = 64,
) -> None:
    """Serve the HTTP API on http://ADDRESS:PORT (docs at /docs, schema at /openapi.json).

    POST /v1/validate and /v1/ingest take a log, a sheet or a spreadsheet; GET /v1/sessions,
    /v1/deals/ID, /v1/players and /v1/findings answer as the pages do (docs/api.md). Runs
    until stopped (Ctrl-C or SIGTERM)."""
    import os

    import uvicorn

    from dashboard.api.app import create_app

    folder = warehouse.resolve()
    given = token or os.environ.get("CHUANMA_API_TOKEN") or None
    if address not in LOCAL_ADDRESSES and given is None:
        typer.echo(f"chuanma serve: listening on {address} without a token: writing is closed", err=True)
    typer.echo(f"chuanma serve: http://{address}:{port}/docs (warehouse {folder}); Ctrl-C stops it", err=True)
    app = create_app(folder, address=address, token=given, max_body_mb=max_body_mb)
    try:
        uvicorn.run(app, host=address, port=port, log_level="warning")
    except OSError as error:
        raise fail(f"cannot start the API ({error.strerror or error})") from None
