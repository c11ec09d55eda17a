"""A club admin's tokens over the API: list, create, revoke (its own club's only). The
first admin token of a club is made at the server with ``chuanma access add``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request

from dashboard.access import AccessError, Grant, add_grant, load_grants, revoke_grant
from dashboard.api.errors import ApiError
from dashboard.api.who import Admin, state_of

router = APIRouter(prefix="/v1/access", tags=["access"])


def club_admin(grant: Grant | None) -> Grant:
    if grant is None:
        raise ApiError("forbidden", "tokens are a club admin's to manage: use a club admin's token "
                       "(the first is made with chuanma access add --role admin)")  # fmt: skip
    return grant


@router.get("/tokens", summary="The club's tokens (never the tokens themselves)")
def tokens(request: Request, grant: Admin) -> dict[str, Any]:
    club = club_admin(grant).club
    return {"tokens": [g.listed() for g in load_grants(state_of(request).warehouse) if g.club == club]}


@router.post("/tokens", summary="A new token for the club, shown once")
def create(
    request: Request,
    grant: Admin,
    role: Annotated[Literal["viewer", "recorder", "admin"], Query(description="What the token may do.")],
    label: Annotated[str, Query(max_length=100, description="Whose token, for the list.")] = "",
) -> dict[str, Any]:
    club = club_admin(grant).club
    try:
        made, token = add_grant(state_of(request).warehouse, club, role, label)
    except AccessError as error:
        raise ApiError("bad_request", str(error)) from None
    return {**made.listed(), "token": token}


@router.delete("/tokens/{token_id}", summary="Revoke one of the club's tokens")
def revoke(request: Request, grant: Admin, token_id: str) -> dict[str, Any]:
    club = club_admin(grant).club
    try:
        return revoke_grant(state_of(request).warehouse, token_id, club).listed()
    except AccessError as error:
        raise ApiError("not_found", str(error)) from None
