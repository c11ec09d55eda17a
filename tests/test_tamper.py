"""``chuanma simulate --tamper RATE --manifest FILE``: every corruption the manifest lists is
reported by the validator with its code at its line, a tampered deal reports nothing but its
corruptions, an untouched deal or session reports nothing at all, every kind of corruption
occurs, and the same seed gives the same bytes.

Over 1,000 deals per preset (standard, chengdu, online); the online run goes through the
real console scripts (``simulate`` then ``validate --json``, gzip) in a background thread
while the other two use the Python API.

A kong made instead of a forced self-drawn win of the last four is reported as
``missed_forced_hu`` at the kong (tested through the tamperer and on a deal written by hand).
"""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
import threading
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dashboard.cli import app
from engine.events import DealEnd, DealStart, Event, Hu, PlayEvent, SessionEnd, SessionStart
from engine.rules import load_rules
from engine.tiles import parse_tile, parse_tiles, tile_name
from ingest.logs.reader import read_lines
from ingest.replay.validate import ValidationReport, validate_log
from ingest.simulator.corruptions import DEFAULT_KINDS, KIND_BY_NAME, KINDS
from ingest.simulator.forced_hu import forced_wins
from ingest.simulator.simulate import STYLES, ClubPlan, simulate_club, simulate_deal
from ingest.simulator.tamper import ManifestEntry, Tamperer, read_manifest
from ingest.simulator.tamper_types import DealRecord

RATE = 0.2
SESSIONS, DEALS_PER_SESSION = 125, 8  # 1,000 deals per preset
SEEDS = {"standard": 101, "chengdu": 202, "online": 303}
CLI_PRESET = "online"
Spot = tuple[str, int]  # (code, line)


@dataclass
class Outcome:
    """What the validator reported, by deal and by session, for one preset's file."""

    preset: str
    manifest: list[ManifestEntry]
    deals: dict[str, set[Spot]] = field(default_factory=dict)
    warnings: dict[str, int] = field(default_factory=dict)
    session_of: dict[str, str] = field(default_factory=dict)
    sessions: dict[str, set[Spot]] = field(default_factory=dict)
    session_end_line: dict[str, int] = field(default_factory=dict)
    file_findings: int = 0
    tampered: int = 0

    def deal_entries(self) -> dict[str, set[Spot]]:
        out: dict[str, set[Spot]] = defaultdict(set)
        for entry in self.manifest:
            if entry.kind != "total":
                assert entry.deal_id is not None
                out[entry.deal_id].add((entry.code, entry.line))
        return out


def _session_end_lines(lines: list[str]) -> list[int]:
    return [n for n, text in enumerate(lines, 1) if '"type":"session_end"' in text]


def _from_report(
    preset: str, manifest: list[ManifestEntry], report: ValidationReport, lines: list[str]
) -> Outcome:
    out = Outcome(preset, manifest)
    for deal in report.deals:
        out.deals[deal.deal_id] = {(f.code, f.line or 0) for f in deal.findings}
        out.warnings[deal.deal_id] = len(deal.warnings)
        out.session_of[deal.deal_id] = deal.session_id or ""
    ends = _session_end_lines(lines)
    for session, end in zip(report.sessions, ends, strict=True):
        key = session.session_id or ""
        out.sessions[key] = {(f.code, f.line or 0) for f in session.findings}
        out.session_end_line[key] = end
    out.file_findings = len(report.file_findings)
    return out


def _from_json(
    preset: str, manifest: list[ManifestEntry], report: dict[str, Any], lines: list[str]
) -> Outcome:
    out = Outcome(preset, manifest)
    for deal in report["deals"]:
        out.deals[deal["deal_id"]] = {(f["code"], f["line"] or 0) for f in deal["findings"]}
        out.warnings[deal["deal_id"]] = len(deal["warnings"])
        out.session_of[deal["deal_id"]] = deal["session_id"] or ""
    ends = _session_end_lines(lines)
    for session, end in zip(report["sessions"], ends, strict=True):
        key = session["session_id"] or ""
        out.sessions[key] = {(f["code"], f["line"] or 0) for f in session["findings"]}
        out.session_end_line[key] = end
    out.file_findings = sum(len(f["findings"]) for f in report["files"])
    return out


def _command() -> list[str]:
    script = Path(sys.executable).with_name("chuanma")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "dashboard.cli"]


def _run_cli(preset: str, folder: Path, box: dict[str, Any]) -> None:
    try:
        log, manifest = folder / f"{preset}.jsonl.gz", folder / f"{preset}.manifest.jsonl"
        simulate = [
            *_command(), "simulate", "--out", str(log), "--sessions", str(SESSIONS),
            "--deals-per-session", str(DEALS_PER_SESSION), "--rules", preset,
            "--seed", str(SEEDS[preset]), "--tamper", str(RATE), "--manifest", str(manifest),
        ]  # fmt: skip
        done = subprocess.run(simulate, capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        box["simulate_stderr"] = done.stderr
        checked = subprocess.run(
            [*_command(), "validate", "--json", str(log)],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert checked.returncode == 3, checked.stderr  # 3: findings
        lines = gzip.decompress(log.read_bytes()).decode("utf-8").splitlines()
        box["outcome"] = _from_json(preset, read_manifest(manifest), json.loads(checked.stdout), lines)
    except BaseException as error:  # handed to the main thread
        box["error"] = error


def _run_api(preset: str) -> Outcome:
    plan = ClubPlan(sessions=SESSIONS, deals_per_session=DEALS_PER_SESSION, rules=preset, seed=SEEDS[preset])
    tamperer = Tamperer(RATE, SEEDS[preset])
    lines = list(tamperer.lines(simulate_club(plan)))
    report = validate_log(read_lines(lines, f"{preset}.jsonl"))
    out = _from_report(preset, tamperer.manifest, report, lines)
    out.tampered = tamperer.tampered
    return out


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    folder = tmp_path_factory.mktemp("tamper")
    box: dict[str, Any] = {}
    worker = threading.Thread(target=_run_cli, args=(CLI_PRESET, folder, box))
    worker.start()
    results = {preset: _run_api(preset) for preset in SEEDS if preset != CLI_PRESET}
    worker.join()
    if "error" in box:
        raise box["error"]
    cli: Outcome = box["outcome"]
    cli.tampered = len(cli.deal_entries())
    assert f"tampered with {cli.tampered} deals " in box["simulate_stderr"], box["simulate_stderr"]
    results[CLI_PRESET] = cli
    return results


# --------------------------------------------------------------------- the big runs
@pytest.mark.parametrize("preset", list(SEEDS))
def test_size_and_rate(outcomes: dict[str, Outcome], preset: str) -> None:
    outcome = outcomes[preset]
    assert len(outcome.deals) >= 1000
    share = outcome.tampered / len(outcome.deals)
    assert 0.15 <= share <= 0.25, share
    assert outcome.file_findings == 0


@pytest.mark.parametrize("preset", list(SEEDS))
def test_every_manifest_entry_is_found(outcomes: dict[str, Outcome], preset: str) -> None:
    outcome = outcomes[preset]
    missed = []
    for entry in outcome.manifest:
        assert entry.deal_id is not None
        if entry.kind == "total":
            session = outcome.session_of[entry.deal_id]
            assert entry.line == outcome.session_end_line[session]
            found = (entry.code, entry.line) in outcome.sessions[session]
        else:
            found = (entry.code, entry.line) in outcome.deals[entry.deal_id]
        if not found:
            missed.append(entry)
    assert not missed, missed


@pytest.mark.parametrize("preset", list(SEEDS))
def test_tampered_deals_report_only_their_corruptions(outcomes: dict[str, Outcome], preset: str) -> None:
    outcome = outcomes[preset]
    extra = {
        deal_id: outcome.deals[deal_id] - expected
        for deal_id, expected in outcome.deal_entries().items()
        if outcome.deals[deal_id] != expected
    }
    assert not extra, extra


@pytest.mark.parametrize("preset", list(SEEDS))
def test_untouched_deals_report_nothing_and_sessions_only_wrong_totals(
    outcomes: dict[str, Outcome], preset: str
) -> None:
    outcome = outcomes[preset]
    tampered = outcome.deal_entries()
    flagged = {d: spots for d, spots in outcome.deals.items() if d not in tampered and spots}
    assert not flagged, flagged
    assert not [d for d in outcome.deals if d not in tampered and outcome.warnings[d]]
    wrong_totals = {outcome.session_of[e.deal_id or ""] for e in outcome.manifest if e.kind == "total"}
    for session, spots in outcome.sessions.items():
        expected = (
            {("score_mismatch", outcome.session_end_line[session])} if session in wrong_totals else set()
        )
        assert spots == expected, (session, spots)


def test_every_kind_occurs(outcomes: dict[str, Outcome]) -> None:
    counts = Counter(e.kind for o in outcomes.values() for e in o.manifest)
    assert {k.kind for k in DEFAULT_KINDS} <= set(counts), counts
    for preset, outcome in outcomes.items():
        kinds = {e.kind for e in outcome.manifest}
        if not load_rules(preset).last_four_must_hu:  # the rules force no win: nothing to miss
            assert "missed_forced_hu" not in kinds, preset
        assert {e.code for e in outcome.manifest} == {KIND_BY_NAME[k].code for k in kinds}


# --------------------------------------------------------------------- one deal, one kind
def _deals(preset: str, seed: int) -> Iterator[tuple[DealStart, list[PlayEvent], DealEnd]]:
    rules = load_rules(preset)
    for n in range(4000):
        start, events, end, _ = simulate_deal(
            random.Random(seed * 100_000 + n), f"d{seed}-{n}", n % 4, rules, STYLES[n % 3 : n % 3 + 4]
        )
        yield start, events, end


def _one_deal_log(start: DealStart, events: list[PlayEvent], end: DealEnd, preset: str) -> list[Event]:
    assert end.scores is not None
    return [
        SessionStart("s1", ("Ann", "Bo", "Chen", "Du"), rules=preset),
        start,
        *events,
        end,
        SessionEnd(end.scores),
    ]


def _find(kind: str, preset: str, form: str | None = None) -> list[Event]:
    """A one-deal session where ``kind`` applies (and, for a missed forced hu, only in
    ``form``: every forced win self-drawn, or every one on a discard)."""
    rules = load_rules(preset)
    corruption = KIND_BY_NAME[kind]
    for start, events, end in _deals(preset, 7):
        record = DealRecord(start, tuple(events), end, rules, last_in_session=True)
        if not corruption.applies(record):
            continue
        if form is not None:
            forced = [record.events[i] for i in forced_wins(record)]
            if not all(isinstance(h, Hu) and (h.from_seat is None) == (form == "self") for h in forced):
                continue
        return _one_deal_log(start, events, end, preset)
    pytest.skip(f"no simulated deal where {kind} ({form}) applies")


def _check_one(kind: str, preset: str, form: str | None = None) -> None:
    log = _find(kind, preset, form)
    tamperer = Tamperer(1.0, 5, kinds=[kind])
    lines = list(tamperer.lines(log))
    assert [e.kind for e in tamperer.manifest] == [kind]
    entry = tamperer.manifest[0]
    assert entry.code == KIND_BY_NAME[kind].code
    report = validate_log(read_lines(lines, "one.jsonl"))
    deal_spots = {(f.code, f.line) for f in report.deals[0].findings}
    session_spots = {(f.code, f.line) for f in report.sessions[0].findings}
    if kind == "total":
        assert entry.line == len(lines)  # the session_end line
        assert deal_spots == set()
        assert session_spots == {(entry.code, entry.line)}
    else:
        assert deal_spots == {(entry.code, entry.line)}, (report.deals[0].findings, entry)
        assert session_spots == set()
    assert not report.file_findings


@pytest.mark.parametrize("kind", [k.kind for k in DEFAULT_KINDS if k.kind != "missed_forced_hu"])
def test_one_kind_on_one_deal(kind: str) -> None:
    _check_one(kind, "online" if kind == "illegal_hu" else "standard")


@pytest.mark.parametrize(
    ("preset", "form"), [("standard", "self"), ("standard", "discard"), ("chengdu", "discard")]
)
def test_missed_forced_hu_on_one_deal(preset: str, form: str) -> None:
    _check_one("missed_forced_hu", preset, form)


def test_kong_instead_of_forced_win() -> None:
    _check_one("missed_forced_hu_kong", "standard")


def test_kinds_table() -> None:
    assert len({k.kind for k in KINDS}) == len(KINDS)
    assert {k.code for k in KINDS} == {
        "payment_mismatch", "fan_mismatch", "illegal_hu", "not_in_hand", "illegal_pong",
        "missed_forced_hu", "score_mismatch", "bad_record", "tile_count",
    }  # fmt: skip
    assert [k.kind for k in KINDS if not k.default] == ["missed_forced_hu_kong"]


def test_rate_zero_changes_nothing() -> None:
    plan = ClubPlan(sessions=2, deals_per_session=4, seed=3)
    from ingest.logs.writer import log_lines

    tamperer = Tamperer(0.0, 3)
    assert list(tamperer.lines(simulate_club(plan))) == list(log_lines(simulate_club(plan)))
    assert tamperer.manifest == []
    with pytest.raises(ValueError):
        Tamperer(1.5, 3)
    with pytest.raises(ValueError):
        Tamperer(0.5, 3, kinds=["nonsense"])


# --------------------------------------------------------------------- the command line
runner = CliRunner()


def _simulate(out: Path, *more: str) -> Any:
    args = ["simulate", "--out", str(out), "--sessions", "3", "--deals-per-session", "6", *more]
    return runner.invoke(app, args)


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
def test_same_seed_same_bytes(tmp_path: Path, suffix: str) -> None:
    outs = []
    for run in ("a", "b", "c"):
        seed = "9" if run != "c" else "10"
        log, manifest = tmp_path / f"{run}{suffix}", tmp_path / f"{run}.manifest{suffix}"
        done = _simulate(log, "--seed", seed, "--tamper", "0.5", "--manifest", str(manifest))
        assert done.exit_code == 0, done.output
        outs.append((log.read_bytes(), manifest.read_bytes()))
    assert outs[0] == outs[1]
    assert outs[0][0] != outs[2][0]
    entries = read_manifest(tmp_path / f"a.manifest{suffix}")
    assert entries and [e.line for e in entries] == sorted(e.line for e in entries)


def test_tamper_zero_with_manifest_is_the_plain_log(tmp_path: Path) -> None:
    assert _simulate(tmp_path / "plain.jsonl", "--seed", "4").exit_code == 0
    done = _simulate(tmp_path / "t.jsonl", "--seed", "4", "--manifest", str(tmp_path / "m.jsonl"))
    assert done.exit_code == 0, done.output
    assert (tmp_path / "plain.jsonl").read_bytes() == (tmp_path / "t.jsonl").read_bytes()
    assert (tmp_path / "m.jsonl").read_bytes() == b""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tamper", "0.2"], "--tamper needs --manifest"),
        (["--tamper", "1.5", "--manifest", "m.jsonl"], "from 0 to 1"),
        (["--tamper", "-0.1", "--manifest", "m.jsonl"], "from 0 to 1"),
        (["--tamper", "nan", "--manifest", "m.jsonl"], "from 0 to 1"),
        (["--tamper", "lots", "--manifest", "m.jsonl"], "--tamper"),
        (["--tamper", "0.2", "--manifest", "SAME"], "different files"),
    ],
)
def test_misuse_exits_2(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "out.jsonl"
    args = [str(out) if a == "SAME" else str(tmp_path / a) if a == "m.jsonl" else a for a in args]
    done = _simulate(out, *args)
    assert done.exit_code == 2
    assert message in done.output
    assert not out.exists()


# --------------------------------------------------------------------- the engine gap, by hand
def _last_four_deal(move: str) -> list[str]:
    """Seat 0 (dealer) holds 1111m 2345678m 55p (and 9s, its first discard); every seat
    discards what it draws. Draw 52, the first of the last four, is seat 0's 9m: a win
    (111m 123m 456m 789m 55p). ``move`` is what seat 0 does then: ``hu``, ``discard`` the
    9m, or ``kong`` its 1m (concealed), draw the replacement and discard that."""
    hands = ["11112345678m55p9s", "9m19p19s2468m246p2s", "3579m3579p3579s1p", "468p468s1357s2p9p8s"]
    left = Counter(t for t in range(27) for _ in range(4))
    left.subtract(Counter(t for hand in hands for t in parse_tiles(hand)))
    nine_m, seven_s = parse_tile("9m"), parse_tile("7s")
    rest = sorted(t for t, n in left.items() for _ in range(n))
    rest.remove(nine_m)
    rest.remove(seven_s)
    wall = [*rest[:51], nine_m, *rest[51:53], seven_s]  # the back (replacement) tile is 7s
    name = [tile_name(t) for t in wall]
    out: list[dict[str, Any]] = [
        {"type": "session", "session_id": "s", "players": ["A", "B", "C", "D"], "rules": "standard"},
        {"type": "deal", "deal_id": "d", "dealer": 0, "hands": hands, "wall": name},
        {"type": "discard", "seat": 0, "tile": "9s"},
    ]

    def turn(seat: int, tile: str) -> None:
        out.extend(
            [{"type": "draw", "seat": seat, "tile": tile}, {"type": "discard", "seat": seat, "tile": tile}]
        )

    for k in range(51):
        turn((k + 1) % 4, name[k])
    out.append({"type": "draw", "seat": 0, "tile": "9m"})
    if move == "hu":
        out.append({"type": "hu", "seat": 0, "tile": "9m", "from": None})
        for seat, k in ((1, 52), (2, 53), (3, 54)):
            turn(seat, name[k])
    elif move == "discard":
        out.append({"type": "discard", "seat": 0, "tile": "9m"})
        for seat, k in ((1, 52), (2, 53), (3, 54)):
            turn(seat, name[k])
    else:
        out.append({"type": "kong", "seat": 0, "tile": "1m", "kind": "concealed"})
        turn(0, name[54])
        for seat, k in ((1, 52), (2, 53)):
            turn(seat, name[k])
    out += [{"type": "deal_end", "reason": "wall_exhausted"}, {"type": "session_end"}]
    return [json.dumps(obj) for obj in out]


def _deal_findings(lines: list[str]) -> set[Spot]:
    report = validate_log(read_lines(lines, "last_four.jsonl"))
    assert not report.file_findings
    return {(f.code, f.line or 0) for f in report.deals[0].findings}


def test_last_four_controls() -> None:
    assert _deal_findings(_last_four_deal("hu")) == set()
    lines = _last_four_deal("discard")
    at = lines.index('{"type": "discard", "seat": 0, "tile": "9m"}') + 1
    assert _deal_findings(lines) == {("missed_forced_hu", at)}


def test_kong_instead_of_forced_win_by_hand() -> None:
    lines = _last_four_deal("kong")
    at = lines.index('{"type": "kong", "seat": 0, "tile": "1m", "kind": "concealed"}') + 1
    assert _deal_findings(lines) == {("missed_forced_hu", at)}
