"""Who may read and write a club's data: tokens per club with a role, kept hashed in
``<warehouse>/access.json`` (``chuanma access``; docs/api.md).

A token reads ``cm_<id>_<secret>``: the id finds its entry, the secret is compared with the
stored sha256 (a secret of 32 random bytes needs no slow hash; the file never holds a
token). Roles, each allowing what the one before does:

- ``viewer``: reads its club's data (sessions, deals, players, findings) and validates;
- ``recorder``: also stores deals of its club (ingest, the Upload and Record pages);
- ``admin``: also creates and revokes its club's tokens.

A warehouse with no active token behaves as before tokens existed (open on localhost).
The file is replaced whole (temp file + ``os.replace``), like the roster; a revoked token
stays listed with the time it was revoked."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

ACCESS_FILE: Final = "access.json"
FORMAT: Final = 1
ROLES: Final = ("viewer", "recorder", "admin")
PREFIX: Final = "cm_"


class AccessError(ValueError):
    """An access file that cannot be read, or a change to it that cannot be made."""


@dataclass(frozen=True)
class Grant:
    """One token's entry: never the token, only its secret's sha256."""

    id: str
    club: str
    role: str
    secret_sha256: str
    label: str = ""
    created: str = ""
    revoked: str | None = None

    def allows(self, role: str) -> bool:
        """Whether this token may do what ``role`` may (admin > recorder > viewer)."""
        return self.revoked is None and ROLES.index(self.role) >= ROLES.index(role)

    def listed(self) -> dict[str, Any]:
        """The entry as ``chuanma access list --json`` shows it (no hash)."""
        return {k: v for k, v in asdict(self).items() if k != "secret_sha256"}


def access_path(warehouse: str | Path) -> Path:
    return Path(warehouse) / ACCESS_FILE


def _sha256(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def load_grants(warehouse: str | Path) -> list[Grant]:
    """Every entry of the access file (revoked ones too); none when there is no file."""
    path = access_path(warehouse)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as error:
        raise AccessError(f"{path}: cannot read the access file ({error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("tokens"), list):
        raise AccessError(f"{path}: not an access file of format {FORMAT}")
    try:
        return [Grant(**item) for item in data["tokens"]]
    except TypeError as error:
        raise AccessError(f"{path}: an entry cannot be read ({error})") from None


def save_grants(warehouse: str | Path, grants: list[Grant]) -> None:
    path = access_path(warehouse)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f"{ACCESS_FILE}.tmp-{os.getpid()}")
    temp.write_text(json.dumps({"format": FORMAT, "tokens": [asdict(g) for g in grants]}, ensure_ascii=False,
                               indent=1) + "\n", encoding="utf-8")  # fmt: skip
    os.chmod(temp, 0o600)
    os.replace(temp, path)


def active(grants: list[Grant]) -> bool:
    """Whether access is controlled: any token not revoked."""
    return any(g.revoked is None for g in grants)


def add_grant(warehouse: str | Path, club: str, role: str, label: str = "") -> tuple[Grant, str]:
    """A new token for ``club`` with ``role``: its entry and the token, shown once."""
    if role not in ROLES:
        raise AccessError(f"role {role!r}: one of {', '.join(ROLES)}")
    if not club.strip():
        raise AccessError("a token belongs to a club: give its name")
    grants = load_grants(warehouse)
    taken = {g.id for g in grants}
    ident = secrets.token_hex(4)
    while ident in taken:
        ident = secrets.token_hex(4)
    secret = secrets.token_urlsafe(32)
    grant = Grant(ident, club.strip(), role, _sha256(secret), label, _now())
    save_grants(warehouse, [*grants, grant])
    return grant, f"{PREFIX}{ident}_{secret}"


def revoke_grant(warehouse: str | Path, ident: str, club: str | None = None) -> Grant:
    """Revoke a token by id (only one of ``club``'s when a club admin asks)."""
    grants = load_grants(warehouse)
    found = next((g for g in grants if g.id == ident and (club is None or g.club == club)), None)
    if found is None:
        raise AccessError(f"no token {ident!r}" + (f" of club {club!r}" if club else ""))
    done = found if found.revoked else replace(found, revoked=_now())
    save_grants(warehouse, [done if g.id == ident else g for g in grants])
    return done


def grant_of(grants: list[Grant], token: str) -> Grant | None:
    """The active entry a token stands for, or None (a wrong, malformed or revoked token)."""
    if not token.startswith(PREFIX) or token.count("_") < 2:
        return None
    ident, secret = token[len(PREFIX) :].split("_", 1)
    for grant in grants:
        if grant.id == ident and grant.revoked is None:
            return grant if hmac.compare_digest(grant.secret_sha256, _sha256(secret)) else None
    return None


def foreign_clubs(club: str, data: bytes, name: str) -> list[str]:
    """The clubs other than ``club`` whose sessions a file holds ("None" for deals with no
    session line): what a club's recorder may not store."""
    from ingest.replay.files import read_log_bytes

    held = {s.session.club if s.session is not None else None for s in read_log_bytes(data, name).sessions}
    return sorted(str(c) for c in held - {club})
