"""Revisions of a deal (a correction recorded later): one id scheme for every layer.

A ``deal`` line may carry ``"revision": N`` (a whole number, 1 by default). Revision 1
keeps its ``deal_id``; revision N >= 2 of deal ``D`` is read, validated and stored as
``D~revN``, so every table of the warehouse still has one deal per id, a correction is
never a ``conflicting_duplicate`` of its original, and nothing stored is overwritten.
The analytics staging (``analytics/sql/10_staging.sql``) shows the marts only the
latest revision of each deal and keeps every revision in ``stg_deal_revisions`` for the
Audit page. The same revision seen again with other content is still a
``conflicting_duplicate`` (quarantined): a correction needs a new number.
"""

from __future__ import annotations

import re
from typing import Final

SUFFIX: Final = "~rev"
_PATTERN: Final = re.compile(r"^(?P<deal>.+)~rev(?P<n>[0-9]+)$")


def revision_id(deal_id: str, revision: int) -> str:
    """The id revision ``revision`` of ``deal_id`` is stored under."""
    return deal_id if revision <= 1 else f"{deal_id}{SUFFIX}{revision}"


def split_revision(stored_id: str) -> tuple[str, int]:
    """(deal_id, revision) of a stored id (the inverse of :func:`revision_id`)."""
    found = _PATTERN.match(stored_id)
    if found is None or int(found["n"]) < 2:
        return stored_id, 1
    return found["deal"], int(found["n"])
