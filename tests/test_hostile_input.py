"""Hostile and odd input: gzip bombs in bounded memory,
numbers beyond the warehouse's int32 as findings, file names that are not UTF-8, FIFOs,
unreadable folders, cut-off gzip, unreachable schedulers, absurd worker counts, terminal
escapes in names, ties in ``stats``, and SIGTERM to ``chuanma dashboard``."""

from __future__ import annotations

import gzip
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from warehouse_fixtures import catalog_files

from ingest.logs.builder import STRAY_LISTED
from ingest.logs.source import Limits, file_name, name_bytes
from ingest.logs.writer import write_log
from ingest.replay.files import read_log_bytes
from ingest.replay.validate import validate_paths
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import ingest, read_catalog

ROOT = Path(__file__).resolve().parents[1]
MB = 1 << 20
PEAK_LIMIT_MB = 300
UPLOAD_GROWTH_MB = 100  # what one upload may add to the dashboard's memory (a 1 GB bomb)
#: an expression a child evaluates to its peak resident memory in KB
HWM = "int(next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM')))"


def chuanma(
    *args: str | Path, timeout: float = 180, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "dashboard.cli", *map(str, args)]
    return subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False, env=env
    )


def peak_rss_mb(*args: str | Path) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Run ``chuanma ARGS`` in a child that reports its own peak RSS (``VmHWM``, KB: unlike
    ``ru_maxrss``, which Linux carries over an exec from the forking pytest process)."""
    script = (
        "import sys\n"
        "from dashboard.cli import main\n"
        "sys.argv = ['chuanma', *sys.argv[1:]]\n"
        "try:\n    main()\n"
        "except SystemExit as done:\n"
        f"    print({HWM}, file=sys.stderr)\n"
        "    raise\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *map(str, args)], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )  # fmt: skip
    return int(done.stderr.strip().splitlines()[-1]) / 1024, done


def small_log(path: Path, seed: int = 3, club: str = "c") -> Path:
    write_log(simulate_club(ClubPlan(players=4, sessions=1, deals_per_session=2, seed=seed, club=club)), path)
    return path


def bomb(path: Path, block: bytes, gigabytes: float = 1.0) -> Path:
    """``gigabytes`` of ``block`` repeated, as gzip members of 1 MB each: about 1 MB on disk."""
    member = gzip.compress(block * (MB // len(block)), compresslevel=9)
    with open(path, "wb") as out:
        for _ in range(int(gigabytes * 1024)):
            out.write(member)
    return path


# ------------------------------------------------------------------ gzip bombs
@pytest.mark.parametrize(
    "block",
    [b"\x00" * 1024, b"a" * 1023 + b"\n", b'{"type":"draw","seat":0,"tile":"1m"}\n'],
    ids=["zeros", "long-lines", "stray-events"],
)
def test_a_gzip_bomb_costs_bounded_memory(block: bytes, tmp_path: Path) -> None:
    path = bomb(tmp_path / "bomb.jsonl.gz", block)
    assert path.stat().st_size < 4 * MB
    peak, done = peak_rss_mb("validate", path, "--json")
    assert done.returncode == 3, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert any(f["code"] == "bad_record" for f in report["files"][0]["findings"]), report["files"]
    assert peak < PEAK_LIMIT_MB, f"validate peaked at {peak:.0f} MB"
    peak, done = peak_rss_mb("ingest", path, "--warehouse", tmp_path / "wh", "--workers", "0", "--json")
    assert done.returncode == 3, done.stderr[-2000:]
    assert json.loads(done.stdout.splitlines()[-1])["file_findings"] >= 1
    assert peak < PEAK_LIMIT_MB, f"ingest peaked at {peak:.0f} MB"


def test_a_flood_of_stray_lines_is_listed_up_to_a_bound_and_kept_whole(tmp_path: Path) -> None:
    """Stray lines once cost a finding each (the stray-events bomb's memory): past
    STRAY_LISTED they share one finding, and every line is still quarantined."""
    extra = 5
    stray = b'{"type":"draw","seat":0,"tile":"1m"}\n' * (STRAY_LISTED + extra)
    path = tmp_path / "flood.jsonl"
    path.write_bytes(small_log(tmp_path / "log.jsonl").read_bytes() + stray)
    log = read_log_bytes(path.read_bytes(), "flood.jsonl", Limits())
    assert len(log.stray) == STRAY_LISTED + extra
    first_unlisted = log.stray[STRAY_LISTED]
    assert [f.line for f in log.findings][-2:] == [log.stray[STRAY_LISTED - 1][0], first_unlisted[0]]
    assert len(log.findings) == STRAY_LISTED + 1
    flood = log.findings[-1]
    assert flood.code == "bad_record" and f"more than {STRAY_LISTED} lines" in flood.message
    assert flood.message_key == "read_stray_flood" and "逐条" in flood.message_zh
    assert all(reason is flood for _, _, reason in log.stray[STRAY_LISTED:])
    done = chuanma("ingest", path, "--warehouse", tmp_path / "wh", "--workers", "0", "--json")
    assert done.returncode == 3, done.stderr[-2000:]
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["files"][0]["stray_lines"] == STRAY_LISTED + extra
    assert result["files"][0]["deals"] == 2


def test_limits_are_configurable_and_name_themselves(tmp_path: Path) -> None:
    log = small_log(tmp_path / "log.jsonl")
    data = log.read_bytes()
    size = len(data)
    cut = read_log_bytes(gzip.compress(data), "x.jsonl.gz", Limits(max_inflated=size // 2))
    assert any("--max-inflated-mb" in f.message for f in cut.findings)
    assert read_log_bytes(gzip.compress(data), "x.jsonl.gz", Limits()).findings == []
    long_line = b'{"type":"session_end","pad":"' + b"x" * 5000 + b'"}\n'
    read = read_log_bytes(data + long_line, "x.jsonl", Limits(max_line=1024))
    assert any("--max-line-kb" in f.message for f in read.findings)
    done = chuanma(
        "validate", log, "--json", env={**os.environ, "CHUANMA_MAX_INFLATED_MB": str(size / 2 / MB)}
    )
    assert done.returncode == 3 and "--max-inflated-mb" in done.stdout
    done = chuanma("ingest", log, "--warehouse", tmp_path / "wh", "--workers", "0", "--max-line-kb", "0.1")
    assert done.returncode == 3, done.stderr  # every line is longer than 100 bytes
    assert chuanma("ingest", log, "--warehouse", tmp_path / "wh2", "--workers", "0").returncode == 0


# ------------------------------------------------------------------ numbers and names
@pytest.mark.parametrize("field", ["base", "scores", "deltas", "settlement", "totals"])
def test_a_number_beyond_int32_is_a_bad_record_everywhere(field: str, tmp_path: Path) -> None:
    lines = small_log(tmp_path / "log.jsonl").read_text().splitlines()
    for number, line in enumerate(lines):
        record = json.loads(line)
        if field in record and record[field] is not None:
            if isinstance(record[field], list):
                record[field][0] = 2**31
            else:
                record[field] = 2**31
            lines[number] = json.dumps(record)
            break
    else:
        pytest.fail(f"no {field} in the log")
    path = tmp_path / f"{field}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert "bad_record" in validate_paths([path]).summary()["by_code"]
    done = chuanma("ingest", path, "--warehouse", tmp_path / "wh", "--workers", "0", "--json")
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr
    assert json.loads(done.stdout)["deals"]["read"] == 2  # the file's other deal is stored


def test_a_file_name_that_is_not_utf8_is_stored_losslessly(tmp_path: Path) -> None:
    raw = os.fsencode(tmp_path) + b"/caf\xe9-\xff.jsonl"
    small_log(Path(os.fsdecode(raw)))
    stored = file_name(os.fsdecode(raw))
    stored.encode("utf-8")  # valid UTF-8
    assert name_bytes(stored) == raw
    for command in (
        ("validate", tmp_path, "--json"),
        ("ingest", tmp_path, "--warehouse", tmp_path / "wh", "--workers", "0", "--json"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "dashboard.cli", *map(str, command)], cwd=ROOT, capture_output=True, timeout=180, check=False
        )  # fmt: skip
        assert done.returncode == 0, done.stderr.decode(errors="replace")
        text = done.stdout.decode("utf-8")  # valid UTF-8
        assert json.dumps(stored)[1:-1] in text
    files = [f["file"] for f in catalog_files(tmp_path / "wh", read_catalog(tmp_path / "wh"))]
    assert files == [stored]


# ------------------------------------------------------------------ odd files and folders
def test_a_cut_off_gzip_is_a_finding_and_exit_3_in_ingest(tmp_path: Path) -> None:
    log = small_log(tmp_path / "log.jsonl")
    data = gzip.compress(log.read_bytes())
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(data[: len(data) * 2 // 3])
    assert chuanma("validate", cut).returncode == 3
    done = chuanma("ingest", cut, "--warehouse", tmp_path / "wh", "--workers", "0", "--json")
    assert done.returncode == 3, done.stdout
    assert json.loads(done.stdout)["file_findings"] == 1


def test_a_fifo_is_skipped_and_said(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    small_log(folder / "good.jsonl")
    os.mkfifo(folder / "pipe.jsonl")
    for command in (
        ("validate", folder / "pipe.jsonl"),
        ("ingest", folder, "--warehouse", tmp_path / "wh", "--workers", "0"),
    ):
        done = chuanma(*command, timeout=60)  # a blocking read would hang here
        assert done.returncode == 3, done.stdout
        assert "not a regular file" in done.stdout + done.stderr
    catalog = read_catalog(tmp_path / "wh")
    assert [Path(f["file"]).name for f in catalog_files(tmp_path / "wh", catalog)] == ["good.jsonl"]


def test_an_unreadable_folder_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    small_log(folder / "good.jsonl")
    locked = folder / "locked"
    small_log(locked / "hidden.jsonl", seed=4, club="d")
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip("running as root: every folder is readable")
        done = chuanma("ingest", folder, "--warehouse", tmp_path / "wh", "--workers", "0")
        validated = chuanma("validate", folder)
    finally:
        locked.chmod(0o755)
    assert done.returncode == 3 and "locked" in done.stdout
    assert validated.returncode == 3 and "locked" in validated.stdout


def test_find_logs_reports_what_it_cannot_look_into(tmp_path: Path) -> None:
    """As root no folder is unreadable; a folder that vanishes is, for every user."""
    from ingest.replay.walk import walk_logs

    folder = tmp_path / "logs"
    small_log(folder / "good.jsonl")
    (folder / "loop").symlink_to(folder / "gone")  # dangling: neither file nor folder
    os.mkfifo(folder / "pipe.jsonl")
    found = walk_logs([folder])
    names = sorted(p.name for p in found)
    assert names == ["good.jsonl", "pipe.jsonl"]  # the FIFO is listed, so the reader says why it is skipped


# ------------------------------------------------------------------ the Dask options
def test_an_unreachable_or_malformed_scheduler_fails_fast(tmp_path: Path) -> None:
    log = small_log(tmp_path / "log.jsonl")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed once the block ends: nothing listens there
    for address in (f"tcp://127.0.0.1:{port}", "tcp://nowhere:notaport", "nonsense"):
        started = time.perf_counter()
        done = chuanma("ingest", log, "--warehouse", tmp_path / "wh", "--scheduler", address, timeout=60)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr and "scheduler" in done.stderr
        assert time.perf_counter() - started < 20
    # the lock was released: the next ingest runs
    assert chuanma("ingest", log, "--warehouse", tmp_path / "wh", "--workers", "0").returncode == 0


def test_workers_are_capped_at_the_cores(tmp_path: Path) -> None:
    log = small_log(tmp_path / "log.jsonl")
    done = chuanma(
        "ingest", log, "--warehouse", tmp_path / "wh", "--workers", "100000", "--json", timeout=120
    )
    assert done.returncode == 0, done.stderr
    cores = os.cpu_count() or 1
    assert f"using {cores}" in done.stderr
    assert json.loads(done.stdout)["workers"] == cores


# ------------------------------------------------------------------ what reaches the terminal
def test_terminal_escapes_in_names_never_reach_the_terminal(tmp_path: Path) -> None:
    text = small_log(tmp_path / "log.jsonl").read_text()
    players = json.loads(text.splitlines()[0])["players"]
    evil = "\x1b]0;pwned\x07\x1b[2J" + players[0]
    path = tmp_path / "evil.jsonl"
    path.write_text(text.replace(json.dumps(players[0]), json.dumps(evil)))
    assert chuanma("ingest", path, "--warehouse", tmp_path / "wh", "--workers", "0").returncode == 0
    table = chuanma("stats", "--warehouse", tmp_path / "wh")
    card = chuanma("stats", "--warehouse", tmp_path / "wh", "--player", evil)
    for done in (table, card):
        assert done.returncode == 0, done.stderr
        assert "\x1b" not in done.stdout and "\x07" not in done.stdout
        assert players[0] in done.stdout
    rows = json.loads(chuanma("stats", "--warehouse", tmp_path / "wh", "--json").stdout)
    assert evil in [row["player"] for row in rows]  # JSON keeps the data exactly (escaped by JSON)


def test_stats_breaks_ties_by_a_stated_order(tmp_path: Path) -> None:
    """Two wins of equal points: the higher fan, then the first deal_id, every call."""
    from analytics.queries import Analytics

    logs = [small_log(tmp_path / f"l{n}.jsonl", seed=n, club=f"c{n}") for n in range(6)]
    ingest(logs, tmp_path / "wh", workers=0)
    api = Analytics(tmp_path / "wh", materialize=False)
    try:
        # players are per club: a name in several clubs is one player per club, "Name (club)"
        expected = api.sql(
            "with shared as (select s.player from stg_seats s join stg_deals d using (deal_id) "
            "where d.club is not null group by s.player having count(distinct d.club) > 1) "
            "select case when s.player in (select player from shared) then s.player || ' (' || d.club || ')' "
            "else s.player end as player, "
            "first(s.deal_id order by s.win_points desc, s.fan desc, s.deal_id) as deal, "
            "first(s.fan order by s.win_points desc, s.fan desc, s.deal_id) as fan "
            "from stg_seats s join stg_deals d using (deal_id) "
            "where s.win_points is not null group by all order by player"
        )
    finally:
        api.close()
    for _ in range(3):
        rows = json.loads(chuanma("stats", "--warehouse", tmp_path / "wh", "--json").stdout)
        got = sorted(
            (r["player"], r["biggest_win_deal"], r["biggest_win_fan"]) for r in rows if r["biggest_win_deal"]
        )
        assert got == [tuple(r) for r in expected.itertuples(index=False)]


# ------------------------------------------------------------------ the dashboard process
def test_sigterm_to_the_dashboard_stops_its_server(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "dashboard.cli", "dashboard", "--warehouse", str(tmp_path / "wh"), "--port", str(port)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.3)
        else:
            pytest.fail("the dashboard never listened")
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        time.sleep(0.5)
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", port)) != 0, "the server outlived chuanma dashboard"
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)


def test_a_gzip_bomb_uploaded_to_the_dashboard_costs_bounded_memory(tmp_path: Path) -> None:
    """The Upload page (AppTest in a child process, so its peak RSS is its own). What the
    upload of a 1 GB bomb adds to the page's own peak is measured: AppTest's harness with
    every page module loaded already holds about 230 MB before any upload (a real server
    process holds less), so the growth is the figure that tells bounded from not."""
    path = bomb(tmp_path / "bomb.jsonl.gz", b'{"type":"draw","seat":0,"tile":"1m"}\n')
    script = (
        "import os, sys\n"
        "from streamlit.testing.v1 import AppTest\n"
        "at = AppTest.from_file(sys.argv[1], default_timeout=120)\n"
        "at.run()\n"
        "at.switch_page('app_pages/upload.py').run()\n"
        f"before = {HWM} // 1024\n"
        "data = open(sys.argv[2], 'rb').read()\n"
        "at.file_uploader[0].set_value(('bomb.jsonl.gz', data, 'application/octet-stream')).run()\n"
        "print(len(at.exception), sum('bad_record' in e.value for e in at.error), before,\n"
        f"      {HWM} // 1024)\n"
    )
    env = {**os.environ, "CHUANMA_WAREHOUSE": str(tmp_path / "wh")}
    app = ROOT / "dashboard" / "app.py"
    done = subprocess.run(
        [sys.executable, "-c", script, str(app), str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    exceptions, bad_records, before, peak = map(int, done.stdout.split()[-4:])
    assert exceptions == 0 and bad_records >= 1
    assert peak - before < UPLOAD_GROWTH_MB, f"the upload took the page from {before} to {peak} MB"
