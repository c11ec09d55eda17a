"""The API's application: its routes, its error answers and its OpenAPI schema
(``/openapi.json``, browsable at ``/docs``)."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI

from dashboard.api import access_routes, errors, reads, writes
from dashboard.api.state import ApiState

VERSION = "1"


def create_app(warehouse: Path, *, address: str = "localhost", token: str | None = None,
               max_body_mb: float = 64) -> FastAPI:  # fmt: skip
    """The API over ``warehouse``; see :class:`ApiState` for who may write."""
    app = FastAPI(
        title="chuanma",
        version=VERSION,
        summary="Sichuan mahjong (四川麻将) logs audited and their statistics, over HTTP.",
        docs_url="/docs",
        redoc_url=None,
    )
    app.state.chuanma = ApiState(
        warehouse, address=address, token=token, max_body=int(max_body_mb * (1 << 20))
    )
    errors.install(app)
    app.include_router(reads.router)
    app.include_router(writes.router)
    app.include_router(access_routes.router)
    return app
