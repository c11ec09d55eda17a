"""Who a request comes from, as route dependencies: the grant it acts under
(:meth:`ApiState.caller`) for the role a route needs, and the club its reads are held to."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from dashboard.access import Grant
from dashboard.api.errors import ApiError
from dashboard.api.state import ApiState

Authorization = Annotated[
    str | None,
    Header(description="Bearer <token>: a club's token (chuanma access add), or the server's --token."),
]


def state_of(request: Request) -> ApiState:
    state: ApiState = request.app.state.chuanma
    return state


def client_of(request: Request) -> str:
    """Who is guessing, for the slowed wrong tokens: the client's address."""
    return request.client.host if request.client is not None else "unknown"


def viewer(request: Request, authorization: Authorization = None) -> Grant | None:
    return state_of(request).caller(authorization, client_of(request), "viewer")


def recorder(request: Request, authorization: Authorization = None) -> Grant | None:
    return state_of(request).caller(authorization, client_of(request), "recorder")


def admin(request: Request, authorization: Authorization = None) -> Grant | None:
    return state_of(request).caller(authorization, client_of(request), "admin")


Viewer = Annotated[Grant | None, Depends(viewer)]
Recorder = Annotated[Grant | None, Depends(recorder)]
Admin = Annotated[Grant | None, Depends(admin)]


def scoped(grant: Grant | None, club: str | None) -> str | None:
    """The club a read covers: a club's token reads that club only (asking for another is
    refused); without one, the club asked for (None: every club)."""
    if grant is None:
        return club
    if club is not None and club != grant.club:
        raise ApiError("forbidden", f"this token reads club {grant.club!r} only")
    return grant.club


def owned(grant: Grant | None, club: object, what: str) -> None:
    """A session or deal of another club is, to a club's token, not there at all."""
    if grant is not None and club != grant.club:
        raise ApiError("not_found", f"no {what}")
