"""Where the dashboard finds its warehouse; no Streamlit here, so the CLI can use it
without starting Streamlit's caches."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from ingest.warehouse import DEFAULT_WAREHOUSE

WAREHOUSE_ENV: Final = "CHUANMA_WAREHOUSE"


def warehouse_path(argv: Sequence[str] | None = None) -> Path:
    """``--warehouse DIR`` after ``--`` on the ``streamlit run`` line, else the
    ``CHUANMA_WAREHOUSE`` variable (what the tests set), else ``data/warehouse``."""
    args = list(sys.argv[1:] if argv is None else argv)
    for index, arg in enumerate(args):
        if arg == "--warehouse" and index + 1 < len(args):
            return Path(args[index + 1]).resolve()
        if arg.startswith("--warehouse="):
            return Path(arg.split("=", 1)[1]).resolve()
    return Path(os.environ.get(WAREHOUSE_ENV) or DEFAULT_WAREHOUSE).resolve()


UPLOAD_TOKEN_ENV: Final = "CHUANMA_UPLOAD_TOKEN"
