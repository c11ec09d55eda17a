"""Write an upload's bytes under ``<warehouse>/uploads/`` so that a write cut short (a
kill, a full disk) never leaves a wrong file at the final name.

The Upload and Record pages name the file by its content, so the same upload is written
once. The bytes go to a temporary name in the same folder and are renamed into place
(``os.replace`` is atomic on one file system); a file already at the final name is kept
only when it holds exactly these bytes, and is replaced (and the replacement logged)
when it does not: a partial file from an earlier cut write is never ingested."""

from __future__ import annotations

import hashlib
import logging
import os
import uuid
from pathlib import Path, PurePath

from ingest.warehouse import IngestSummary

log = logging.getLogger(__name__)
CHUNK = 1 << 20


def file_sha256(path: Path) -> str | None:
    """The sha256 of a file's bytes, or None when there is no readable file."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            while block := handle.read(CHUNK):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


def saved_path(warehouse: Path, sha: str, name: str) -> Path:
    """Where an upload is kept for the ingest: named by its content, so it is written once."""
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in Path(name).name) or "upload.jsonl"
    if not safe.lower().endswith((".jsonl", ".jsonl.gz", ".csv", ".xlsx", ".json")):
        safe += ".jsonl"
    return warehouse / "uploads" / f"{sha[:12]}-{safe}"


def shown_name(path: str) -> str:
    """A stored file as a club is shown it: its name, never the server's folders; an
    upload's name without the content prefix :func:`saved_path` gave it."""
    name = PurePath(path).name
    prefix, _, rest = name.partition("-")
    uploaded = PurePath(path).parent.name == "uploads" and len(prefix) == 12
    if rest and uploaded and all(ch in "0123456789abcdef" for ch in prefix):
        return rest
    return name


def write_upload(path: Path, data: bytes) -> bool:
    """Put ``data`` at ``path``; True when it was written, False when the file there
    already held these bytes. Raises ``OSError`` when it cannot be written (nothing is
    left at the final name that is not ``data``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        if path.stat().st_size == len(data) and file_sha256(path) == hashlib.sha256(data).hexdigest():
            return False
        log.warning("upload %s does not hold the bytes its name promises (a cut write?): replaced", path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}.part")
    try:
        with temporary.open("wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return True


def not_stored(summary: IngestSummary) -> str | None:
    """Why an upload's deals did not all go into the warehouse as written (a deal not
    replayed to its end, lines set aside, a file that could not be read), or None when
    they did: then, and only then, a page may say "Saved"."""
    for entry in summary.files:
        if entry.status.startswith("unreadable"):
            return entry.status
    if summary.conflicts:
        return "conflicting_duplicate"
    if summary.invalid:
        return f"invalid {summary.invalid}"
    if summary.file_findings or summary.quarantine:
        return "quarantine " + ", ".join(f"{reason} {n}" for reason, n in sorted(summary.quarantine.items()))
    known = all(entry.status in ("known", "repeated") for entry in summary.files)
    if not summary.read and not known:  # a new file with no deal in it
        return "no deal read"
    return None
