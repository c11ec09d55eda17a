"""The command line builds its app for the command asked: ``chuanma validate`` imports the
audit commands alone, never another command's module nor a heavy package; the whole app
(``--help``, ``dashboard.cli.app``) still lists every command in its order."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

#: what a validate run must not import (other commands' modules, the warehouse's packages)
NOT_FOR_VALIDATE = (
    "dashboard.cli.warehouse",
    "dashboard.cli.serve",
    "dashboard.cli.roster",
    "dashboard.cli.season",
    "dashboard.cli.access",
    "dashboard.cli.backup",
    "dashboard.cli.night",
    "dashboard.cli.hand",
    "dashboard.cli.simulate",
    "pandas",
    "duckdb",
    "pyarrow",
    "streamlit",
    "rich",
    "numpy",
)

PROBE = """
import sys
sys.argv = ["chuanma", "validate", sys.argv[1]]
from dashboard.cli import main
try:
    main()
except SystemExit:
    pass
print(" ".join(sorted(sys.modules)))
"""


def test_validate_imports_its_command_alone(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(empty)], capture_output=True, text=True, check=True
    )
    loaded = set(done.stdout.split())
    assert "dashboard.cli.audit" in loaded
    assert not loaded & set(NOT_FOR_VALIDATE), sorted(loaded & set(NOT_FOR_VALIDATE))


def test_the_whole_app_lists_every_command_in_order() -> None:
    from typer.main import get_command

    from dashboard.cli import COMMANDS, GROUPS, app

    group = get_command(app)
    assert list(group.commands) == [*COMMANDS, *GROUPS]  # type: ignore[attr-defined]
    warehouse = group.commands["warehouse"]  # type: ignore[attr-defined]
    assert list(warehouse.commands)[-2:] == ["backup", "restore"]
