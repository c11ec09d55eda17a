"""The API's two ways in: ``POST /v1/validate`` (the report, nothing written) and
``POST /v1/ingest`` (stored through the normal ingest path, waiting its turn like the
Record page's saves). The body is the file's bytes: a log (``.jsonl``, gzip or not), a
score-sheet log, a spreadsheet (``.csv``, ``.xlsx``), a platform's record, or a zip of these
(a folder as one body); ``name`` gives its file name, else its kind is told by its first
bytes. The Upload page's limits hold (inflation, line length),
and a body past the server's limit is refused before it is read whole."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from dashboard.access import Grant, foreign_clubs
from dashboard.api.errors import ApiError
from dashboard.api.reads import LangQuery
from dashboard.api.state import ApiState
from dashboard.api.who import Recorder, Viewer, state_of
from dashboard.findings_view import report_with_text
from dashboard.upload_file import not_stored, saved_path, write_upload
from engine.rules import Rules, RulesError, load_rules
from ingest.replay.archive import ArchiveError, archive_members, is_archive
from ingest.replay.validate import validate_members

router = APIRouter(prefix="/v1", tags=["writes"])

NameQuery = Annotated[
    str | None,
    Query(description="The file's name; its ending picks the reader (.jsonl, .jsonl.gz, .csv, .xlsx)."),
]
RulesQuery = Annotated[
    str | None,
    Query(description="Replay every deal under these rules instead of the log's (a preset or JSON)."),
]
#: what the body's first bytes say it is, when no name says it
MAGIC: tuple[tuple[bytes, str], ...] = ((b"\x1f\x8b", "upload.jsonl.gz"), (b"PK\x03\x04", "upload.xlsx"))
#: the request body, as the OpenAPI schema describes it
BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
    }
}


def file_name(name: str | None, data: bytes) -> str:
    """The body's file name: the one given, else one told by its first bytes."""
    if name:
        return name
    for magic, named in MAGIC:
        if data.startswith(magic):
            return named
    return "upload.jsonl" if data.lstrip()[:1] == b"{" else "upload.csv"


async def read_body(request: Request, limit: int) -> bytes:
    """The body, at most ``limit`` bytes (a longer one is refused as soon as it is seen)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ApiError("too_large", f"the body is over this server's limit of {limit >> 20} MB")
    parts, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError("too_large", f"the body is over this server's limit of {limit >> 20} MB")
        parts.append(chunk)
    data = b"".join(parts)
    if not data or data.isspace():
        raise ApiError("bad_request", "the body is empty: send the file's bytes")
    return data


def override(spec: str | None) -> Rules | None:
    try:
        return None if spec is None else load_rules(spec)
    except RulesError as error:
        raise ApiError("bad_request", f"rules: {error}") from None


@router.post("/validate", summary="Validate a log, a sheet or a spreadsheet (nothing is written)",
             openapi_extra=BODY)  # fmt: skip
async def validate(request: Request, grant: Viewer, name: NameQuery = None, rules: RulesQuery = None,
                   lang: LangQuery = "en") -> dict[str, Any]:  # fmt: skip
    """The validation report: every deal's status, findings and computed scores, the
    sessions and the file's own findings; ``summary.ok`` is true when nothing was found."""
    state = state_of(request)
    data = await read_body(request, state.max_body)
    table = override(rules)
    report = validate_members(bodies(name, data), table)
    if report.empty:
        raise ApiError("bad_request", "nothing to read: the body holds no deal and no session")
    return report_with_text(report, lang)


@router.post("/ingest", summary="Store a log, a sheet or a spreadsheet in the warehouse", openapi_extra=BODY)
async def ingest_body(
    request: Request,
    grant: Recorder,
    name: NameQuery = None,
    wait: Annotated[float, Query(ge=0, le=3600, description="Seconds to wait for another writer.")] = 600.0,
) -> dict[str, Any]:
    """The ingest summary (as ``chuanma ingest --json``) and ``stored``: whether every deal
    went in as written (``not_stored`` says why not: invalid deals, lines set aside, ...).
    The same bytes sent twice are stored once. A club's recorder stores its club's
    sessions only."""
    state = state_of(request)
    data = await read_body(request, state.max_body)
    members = bodies(name, data)
    from starlette.concurrency import run_in_threadpool

    if grant is not None:
        for member, body in members:
            await run_in_threadpool(check_clubs, grant, body, member)
    return await run_in_threadpool(store, state, members, wait)


def check_clubs(grant: Grant, data: bytes, name: str) -> None:
    """Refuse a body holding a session of another club, or deals of no known club."""
    others = foreign_clubs(grant.club, data, name)
    if others:
        raise ApiError("forbidden", f"a recorder of club {grant.club!r} stores its club's sessions only; "
                       f"this holds: {', '.join(others)}")  # fmt: skip


def bodies(name: str | None, data: bytes) -> list[tuple[str, bytes]]:
    """The files a body holds, each with its name: the body itself, or a zip's records
    (a folder sent as one body); a zip of nothing is ``bad_request``."""
    if not is_archive(data, name or ""):
        return [(file_name(name, data), data)]
    try:
        return archive_members(data)
    except ArchiveError as error:
        raise ApiError("bad_request", str(error)) from None


def store(state: ApiState, members: list[tuple[str, bytes]], wait: float) -> dict[str, Any]:
    """Keep each file under ``<warehouse>/uploads/`` (temp file + rename) and ingest them."""
    from ingest.warehouse import WarehouseError, ingest
    from ingest.warehouse.lock import WarehouseLocked

    paths = [saved_path(state.warehouse, hashlib.sha256(data).hexdigest(), name) for name, data in members]
    try:
        for path, (_, data) in zip(paths, members, strict=True):
            write_upload(path, data)
        summary = ingest(paths, state.warehouse, workers=0, wait=wait)
    except WarehouseLocked as error:
        raise ApiError("busy", str(error).replace(str(state.warehouse), "<warehouse>")) from None
    except (WarehouseError, OSError) as error:
        raise ApiError("bad_request", f"cannot ingest: {type(error).__name__}") from None
    if summary.read_nothing:
        raise ApiError("bad_request", "nothing to read: the body holds nothing but blanks")
    reason = not_stored(summary)
    out: dict[str, Any] = summary.to_json()
    out.pop("warehouse", None)  # the server's folder is not the client's to know
    for entry in out.get("files", []):
        entry["file"] = str(Path(entry["file"]).relative_to(state.warehouse))
    return {**out, "stored": reason is None, "not_stored": reason}
