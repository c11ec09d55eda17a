"""Progress where stderr is not a terminal: silent by default (a script's log stays
clean), plain lines with ``CHUANMA_PROGRESS=lines`` (what ``make demo`` sets), so a demo
piped to a file still shows how far simulate and ingest are."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


def _chuanma(*args: str | Path, progress: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CHUANMA_PROGRESS"}
    if progress is not None:
        env["CHUANMA_PROGRESS"] = progress
    script = Path(sys.executable).with_name("chuanma")
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "dashboard.cli"]
    return subprocess.run(
        [*command, *map(str, args)], capture_output=True, text=True, encoding="utf-8", env=env, timeout=120
    )


@pytest.mark.parametrize("progress", [None, "lines"])
def test_simulate_and_ingest_print_plain_progress_only_when_asked(
    tmp_path: Path, progress: str | None
) -> None:
    log = tmp_path / "club.jsonl"
    made = _chuanma(
        "simulate", "--out", log, "--players", "4", "--sessions", "2", "--deals-per-session", "3",
        "--seed", "5", progress=progress,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    stored = _chuanma("ingest", log, "--warehouse", tmp_path / "wh", "--workers", "0", progress=progress)
    assert stored.returncode in (0, 3), stored.stderr
    simulate_lines = re.findall(r"^simulate: (\d+)/(\d+) deals \((\d+)%\)", made.stderr, re.M)
    ingest_lines = re.findall(r"^\S.*: (\d+)/(\d+) chunks \((\d+)%\)", stored.stderr, re.M)
    if progress is None:
        assert simulate_lines == [] and ingest_lines == []
        assert "chunks" not in stored.stderr
    else:
        assert simulate_lines[-1] == ("6", "6", "100")  # the last line: every deal played
        done, total, share = ingest_lines[-1]
        assert done == total and int(total) >= 1 and share == "100"
