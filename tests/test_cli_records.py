"""What ``validate``, ``ingest`` and ``replay`` read, run as the real console script: a
folder holds every kind of record (a platform's ``.json`` export too, told by its content,
not a notes file beside it), and reading nothing at all is a usage error (exit 2), never a
clean report. ``validate --json`` findings carry ``text`` naming the players; ``--help``
names every preset."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from engine.rules import preset_names

GOLDEN = Path(__file__).parent / "golden"
SAMPLE = Path(__file__).parents[1] / "data" / "sample" / "logs" / "club-standard.jsonl.gz"


def chuanma(*args: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("chuanma")
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "dashboard.cli"]
    return subprocess.run(
        [*command, *args], capture_output=True, text=True, encoding="utf-8", timeout=120, check=False
    )


def report(*args: str) -> dict[str, Any]:
    done = chuanma("validate", "--json", *args)
    assert done.returncode in (0, 3), done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def test_a_folder_reads_a_platforms_json_export_and_not_a_notes_file(tmp_path: Path) -> None:
    """A dcmshi export named ``.json`` in a folder is read (3 rounds, one session); a
    settings file beside it is no record and is not read as a broken log."""
    shutil.copy(GOLDEN / "platforms" / "dcmshi_replays.json", tmp_path / "match.json")
    (tmp_path / "notes.json").write_text('{"club": "sample", "fee": 40}', encoding="utf-8")
    data = report(str(tmp_path))
    assert [Path(f["file"]).name for f in data["files"]] == ["match.json"]
    assert data["summary"]["deals"] == 3 and data["summary"]["sessions"] == 1


def test_an_empty_folder_is_an_error_for_every_reader(tmp_path: Path) -> None:
    (tmp_path / "notes.json").write_text("{}", encoding="utf-8")
    for args in (
        ("validate", "--json", str(tmp_path)),
        ("ingest", str(tmp_path), "--warehouse", str(tmp_path / "wh"), "--workers", "0"),
        ("replay", str(tmp_path), "--deal", "d1"),
    ):
        done = chuanma(*args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert "no record to read" in done.stderr and done.stdout == "", args


def test_an_empty_file_is_nothing_read(tmp_path: Path) -> None:
    empty = tmp_path / "night.jsonl"
    empty.write_bytes(b"")
    validated = chuanma("validate", "--json", str(empty))
    ingested = chuanma("ingest", str(empty), "--warehouse", str(tmp_path / "wh"), "--workers", "0", "--json")
    for done in (validated, ingested):
        assert done.returncode == 2, done.stdout
        assert "nothing to read" in done.stderr


def test_replay_finds_a_deal_in_a_folder_and_says_what_it_holds(tmp_path: Path) -> None:
    shutil.copy(GOLDEN / "platforms" / "dcmshi_replays.json", tmp_path / "match.json")
    shutil.copy(SAMPLE, tmp_path / "club.jsonl.gz")
    deal = report(str(tmp_path / "match.json"))["deals"][0]["deal_id"]
    shown = chuanma("replay", str(tmp_path), "--deal", deal)
    assert shown.returncode in (0, 3), shown.stderr
    assert f"deal {deal}" in shown.stdout
    missing = chuanma("replay", str(tmp_path), "--deal", "no-such-deal")
    assert (
        missing.returncode == 2
        and "no-such-deal" in missing.stderr
        and "it holds sample-club-" in missing.stderr
    )


def test_validate_json_findings_name_the_players_in_text() -> None:
    """``text`` names the player beside the seat, in ``--lang``; ``message`` is unchanged."""
    data = report("--lang", "zh", str(SAMPLE))
    players = {s["session_id"]: s["players"] for s in data["sessions"]}
    seated = [
        (finding, players[deal["session_id"]][finding["seat"]])
        for deal in data["deals"]
        for finding in deal["findings"]
        if finding["seat"] is not None
    ]
    assert seated
    for finding, name in seated:
        assert name in finding["text"] and name not in finding["message"]
        assert "号位" in finding["text"]


def test_help_names_every_preset() -> None:
    shown = chuanma("hand", "--help")
    flat = " ".join(word for word in shown.stdout.split() if word not in "│╭╮╰╯")
    for name in preset_names():
        assert f"{name}," in flat or f"{name})" in flat, name
