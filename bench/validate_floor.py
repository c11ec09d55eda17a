"""Validation against the decoding floor of the same file, in one run.

The floor is what any validator must pay to look at every line: read the file and run
``msgspec.json.Decoder().decode`` over each of its lines. Against it, the same file is
validated the way ``chuanma validate FILE`` does (``validate_paths`` then the text report),
in this process and, once per round, as the real command in a subprocess (its Python start
and imports included). Two files: a clean one and one with about 3% of the deals tampered
with (the simulator's ``--tamper``). Rounds are interleaved so machine noise hits every
measure alike; the figures are medians and ratios to the floor of the same round set.
Each measure is taken as wall time and as CPU time (this process's, or the subprocess's):
on a machine shared with other busy processes the CPU ratios are the steadier ones.

``--read`` adds reading alone (``ingest.replay.files.read_log``: the file's sessions and deals,
no replay) to the measures, ``--no-validate`` leaves validation out (a quick look at the
reader). ``--rules`` simulates the logs under any rule set (a preset or JSON);
``--corpus DIR`` keeps them there and reuses them (the simulator is seeded: the same files
for every build). ``--against CHECKOUT`` pairs this build with another one built beside it
(its own ``.venv`` and ``make compile``, e.g. ``git worktree add`` of the commit before):
each round also times that build's validation in process (a subprocess that validates the
file once to warm up, then times a second run, as this process does) and its command, so
before and after share the rounds' machine noise and the floor; this build is then timed
the same way too (``after``: its own warm subprocess), so the two in-process figures differ
only by the build, not by the process they ran in (this one has run every round before).

    .venv/bin/python bench/validate_floor.py [--deals 5000] [--rounds 5] [--tamper 0.03] [--rules standard]
        [--corpus DIR] [--against CHECKOUT] [--read] [--no-validate] [--no-cli] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# bench/ingest.py is named like the package: keep this folder off the import path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import msgspec  # noqa: E402

import engine.deal as engine_deal  # noqa: E402
from dashboard.cli.reports import validation_text  # noqa: E402
from ingest.logs.writer import log_lines, write_lines  # noqa: E402
from ingest.replay.files import read_log  # noqa: E402
from ingest.replay.validate import validate_paths  # noqa: E402
from ingest.simulator.simulate import ClubPlan, simulate_club  # noqa: E402
from ingest.simulator.tamper import Tamperer  # noqa: E402

CHUANMA = Path(sys.executable).with_name("chuanma")


def corpus(deals: int, tamper: float, folder: Path, rules: str = "standard") -> Path:
    """A simulated club log of ``deals`` deals (``rules``, seed 7), ``tamper`` of them
    corrupted; one already in ``folder`` under its name is reused."""
    per_session = 8
    plan = ClubPlan(sessions=max(1, deals // per_session), deals_per_session=per_session, seed=7, rules=rules)
    tag = hashlib.sha256(rules.encode()).hexdigest()[:10]
    path = folder / f"club-{tag}-{deals}-tamper{tamper}.jsonl"
    if path.exists():
        return path
    events = simulate_club(plan)
    write_lines(Tamperer(tamper, 7).lines(events) if tamper > 0 else log_lines(events), path)
    return path


def floor(path: Path) -> int:
    """Read the file and decode every line: the least a validator pays."""
    decode = msgspec.json.Decoder().decode
    count = 0
    for line in path.read_bytes().splitlines():
        if line.strip():
            try:  # noqa: SIM105 - suppress() would cost more than the decode it guards
                decode(line)
            except msgspec.DecodeError:  # a torn line of a tampered file
                pass
            count += 1
    return count


#: the floor as a command: a Python start, msgspec imported, the same loop
FLOOR_COMMAND = """
import sys, msgspec
decode = msgspec.json.Decoder().decode
for line in open(sys.argv[1], "rb").read().splitlines():
    if line.strip():
        try:
            decode(line)
        except msgspec.DecodeError:
            pass
"""


def floor_command(path: Path) -> None:
    subprocess.run([sys.executable, "-c", FLOOR_COMMAND, str(path)], check=True)


def validate_in_process(path: Path) -> str:
    return validation_text(validate_paths([path]))


def validate_cli(path: Path) -> None:
    done = subprocess.run([str(CHUANMA), "validate", str(path)], capture_output=True, check=False)
    if done.returncode not in (0, 3):
        raise SystemExit(f"chuanma validate failed ({done.returncode}): {done.stderr.decode()[-500:]}")


#: validation in process in another build: one warm-up run, then one timed (wall, CPU)
TIMED_VALIDATE = """
import sys, time
from pathlib import Path
from dashboard.cli.reports import validation_text
from ingest.replay.validate import validate_paths
path = Path(sys.argv[1])
validation_text(validate_paths([path]))
wall, cpu = time.perf_counter(), time.process_time()
validation_text(validate_paths([path]))
print(time.perf_counter() - wall, time.process_time() - cpu)
"""


#: this checkout (the build this process imports)
HERE = Path(__file__).resolve().parents[1]


def validate_elsewhere(checkout: Path, path: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one warm ``validate_paths`` in ``checkout``'s build."""
    python = sys.executable if checkout == HERE else str(checkout / ".venv" / "bin" / "python")
    done = subprocess.run(
        [python, "-c", TIMED_VALIDATE, str(path)],
        cwd=checkout,
        capture_output=True,
        check=True,
        text=True,
    )
    wall, cpu = done.stdout.split()
    return float(wall), float(cpu)


def validate_cli_elsewhere(checkout: Path, path: Path) -> None:
    done = subprocess.run(
        [str(checkout / ".venv" / "bin" / "chuanma"), "validate", str(path)],
        cwd=checkout,
        capture_output=True,
        check=False,
    )
    if done.returncode not in (0, 3):
        raise SystemExit(
            f"{checkout}: chuanma validate failed ({done.returncode}): {done.stderr.decode()[-500:]}"
        )


def seconds(fn: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of one call (CPU of this process and of the children it waited for)."""

    def cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    started, cpu_started = time.perf_counter(), cpu()
    fn()
    return time.perf_counter() - started, cpu() - cpu_started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tamper", type=float, default=0.03)
    parser.add_argument("--no-cli", action="store_true", help="skip the subprocess runs")
    parser.add_argument("--read", action="store_true", help="also time read_log alone")
    parser.add_argument(
        "--no-validate", action="store_true", help="skip validation (with --read: the reader only)"
    )
    parser.add_argument("--rules", default="standard", help="the rule set the logs are simulated under")
    parser.add_argument("--corpus", type=Path, help="keep the simulated logs here and reuse them")
    parser.add_argument(
        "--against",
        type=Path,
        help="another checkout with its own built .venv: its figures in the same rounds",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results: dict[str, dict[str, float]] = {}
    against: Path | None = args.against.resolve() if args.against else None
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.corpus or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        files = {
            "clean": corpus(args.deals, 0.0, folder, args.rules),
            "tampered": corpus(args.deals, args.tamper, folder, args.rules),
        }
        times: dict[str, dict[str, list[tuple[float, float]]]] = {name: {} for name in files}
        for path in files.values():  # warm-up: page cache, imports, lazily built tables
            floor(path)
            read_log(path)
            if not args.no_validate:
                validate_in_process(path)
        for _ in range(args.rounds):
            for name, path in files.items():
                runs = times[name]
                runs.setdefault("floor", []).append(seconds(lambda p=path: floor(p)))  # type: ignore[misc]
                if args.read:
                    runs.setdefault("read", []).append(seconds(lambda p=path: read_log(p)))  # type: ignore[misc]
                if not args.no_validate:
                    runs.setdefault("validate", []).append(seconds(lambda p=path: validate_in_process(p)))  # type: ignore[misc]
                if against is not None and not args.no_validate:
                    runs.setdefault("after", []).append(validate_elsewhere(HERE, path))
                    runs.setdefault("before", []).append(validate_elsewhere(against, path))
                if not args.no_cli and not args.no_validate:
                    runs.setdefault("cli", []).append(seconds(lambda p=path: validate_cli(p)))  # type: ignore[misc]
                    runs.setdefault("floor_cmd", []).append(seconds(lambda p=path: floor_command(p)))  # type: ignore[misc]
                    if against is not None:
                        runs.setdefault("before_cli", []).append(
                            seconds(lambda p=path: validate_cli_elsewhere(against, p))  # type: ignore[misc]
                        )
        for name, runs in times.items():
            row: dict[str, float] = {"lines": floor(files[name])}
            for clock, index in (("", 0), ("cpu_", 1)):
                medians = {kind: statistics.median(v[index] for v in values) for kind, values in runs.items()}
                for kind, value in medians.items():
                    row[f"{kind}_{clock}s"] = round(value, 4)
                    if kind not in ("floor", "floor_cmd"):
                        row[f"{kind}_{clock}ratio"] = round(value / medians["floor"], 2)
                for cli in ("cli", "before_cli"):  # command against command: both pay a Python start
                    if cli in medians:
                        row[f"{cli}_{clock}cmd_ratio"] = round(medians[cli] / medians["floor_cmd"], 2)
            results[name] = row
    print(f"{args.deals} simulated deals per file, median of {args.rounds} interleaved rounds")
    print(f"rules {args.rules}; compiled with mypyc: {not engine_deal.__file__.endswith('.py')}")
    if against is not None:
        print(f"before: the build in {against} (validate in process and its command), in the same rounds")
    kinds = [
        kind
        for kind in ("read", "validate", "after", "before", "cli", "before_cli")
        if f"{kind}_s" in next(iter(results.values()))
    ]
    header = "".join(f" {kind + ' s':>12} {'ratio':>7}" for kind in kinds)
    clis = [cli for cli in ("cli", "before_cli") if cli in kinds]
    if clis:
        header += f" {'floor cmd s':>11}" + "".join(f" {cli + '/cmd':>14}" for cli in clis)
    print(f"{'file':<10} {'clock':<5} {'floor s':>9}{header}")
    for name, row in results.items():
        for clock, label in (("", "wall"), ("cpu_", "cpu")):
            cells = "".join(
                f" {row[f'{kind}_{clock}s']:>12.3f} {row[f'{kind}_{clock}ratio']:>6.2f}x" for kind in kinds
            )
            if clis:
                cells += f" {row[f'floor_cmd_{clock}s']:>11.3f}" + "".join(
                    f" {row[f'{cli}_{clock}cmd_ratio']:>13.2f}x" for cli in clis
                )
            print(f"{name:<10} {label:<5} {row[f'floor_{clock}s']:>9.3f}{cells}")
    if args.json:
        print(
            json.dumps(
                {
                    "deals": args.deals,
                    "rounds": args.rounds,
                    "tamper": args.tamper,
                    "rules": args.rules,
                    "against": str(against) if against else None,
                    **results,
                }
            )
        )


if __name__ == "__main__":
    main()
