"""The API's application: its routes, its error answers and its OpenAPI schema
(``/openapi.json``, browsable at ``/docs``, whose Swagger UI is served from the installed
``swagger-ui-bundle`` package, not a CDN: a club's server often has no internet)."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

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
        docs_url=None,
        redoc_url=None,
    )
    _serve_docs(app)
    app.state.chuanma = ApiState(
        warehouse, address=address, token=token, max_body=int(max_body_mb * (1 << 20))
    )
    errors.install(app)
    app.include_router(reads.router)
    app.include_router(writes.router)
    app.include_router(access_routes.router)
    return app


DOCS_ASSETS = "/docs-assets"


def _serve_docs(app: FastAPI) -> None:
    """``/docs``: the Swagger UI page, its script and style from this server."""
    from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]

    app.mount(DOCS_ASSETS, StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="chuanma API",
            swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url="data:,",
        )
