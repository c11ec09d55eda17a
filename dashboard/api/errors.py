"""Errors as JSON with a code, never a traceback: ``{"error": {"code": ..., "message": ...}}``.

Clubs' scripts branch on ``code`` (a contract, like finding codes); ``message`` is for
people. An unexpected exception is logged with its traceback on the server and answered
with code ``internal`` and no detail (paths and hosts stay on the server)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger("chuanma.api")

#: the codes an error answer can carry, with their HTTP status
CODES: dict[str, int] = {
    "bad_request": 400,  # a parameter or body that cannot be used (with why)
    "unauthorized": 401,  # a write without the token this server asks for
    "forbidden": 403,  # writing is closed on this server
    "not_found": 404,  # no such session, deal, player or route
    "method_not_allowed": 405,
    "too_large": 413,  # a body over the server's limit
    "unprocessable": 422,  # parameters of the wrong type or shape
    "too_many_tries": 429,  # wrong tokens: the client waits before its next try
    "busy": 503,  # the warehouse stayed locked by another writer past the wait
    "internal": 500,
}
_BY_STATUS = {status: code for code, status in CODES.items()}


class ApiError(Exception):
    """An answer other than 200, with its code from :data:`CODES`."""

    def __init__(self, code: str, message: str, *, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.headers = headers


def error_body(code: str, message: str) -> dict[str, dict[str, str]]:
    return {"error": {"code": code, "message": message}}


def answer(code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(error_body(code, message), status_code=CODES[code], headers=headers)


def install(app: FastAPI) -> None:
    """Every error the app can raise answered as :func:`error_body`."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, error: ApiError) -> JSONResponse:
        return answer(error.code, error.message, error.headers)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = _BY_STATUS.get(error.status_code, "bad_request")
        return answer(code, str(error.detail))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        said = "; ".join(
            f"{'.'.join(str(p) for p in item.get('loc', ()))}: {item.get('msg', 'invalid')}"
            for item in error.errors()
        )
        return answer("unprocessable", said or "invalid request")

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected error answering %s %s", request.method, request.url.path)
        return answer("internal", "the server could not answer this request (its log says why)")
