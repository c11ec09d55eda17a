"""The fast checker against the explaining engine over many simulated deals.

For each preset (or rules object) it simulates ``--deals`` deals a session at a time, about
``--tamper`` of them corrupted by the simulator's tamperer and ``--mutate`` changed at random
(``tests/mutations.py``), and gives every deal to both paths through
``tests/fast_diff.py``, the comparison ``tests/test_fast_check.py`` uses. Nothing but the
running counts is kept, so memory stays flat. Per preset it reports the deals, the clean
ones (no finding, no warning), the clean deals the fast path handed to the engine, the
flagged ones, the disagreements (a flagged deal called clean, a report that differs, an
exception) and the time of both paths. Exit 1 on any disagreement; their deals, with their
lines, go to ``--dump``.

    .venv/bin/python bench/fast_check.py [--deals 100000] [--tamper 0.03] [--mutate 0.01]
        [--presets standard,chengdu,online] [--seed 14] [--json] [--dump FILE]
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
import time
from pathlib import Path
from typing import Any, cast

# bench/ingest.py is named like the package: keep this folder off the import path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the differential's tooling

from fast_diff import Disagreement, FastReplay, Tally, check_lines, corpus_sessions  # noqa: E402

import engine.deal as engine_deal  # noqa: E402
from engine.rules import load_rules  # noqa: E402
from ingest.simulator.simulate import ClubPlan  # noqa: E402

PER_SESSION = 8


def checker(spec: str) -> FastReplay:
    """``module:function``, e.g. ``ingest.replay.fast_check:fast_replay``."""
    module, _, name = spec.partition(":")
    return cast(FastReplay, getattr(importlib.import_module(module), name or "fast_replay"))


def rules_spec(text: str) -> str | dict[str, Any]:
    """A preset name or a rules object in JSON (``{"preset": "standard", "max_fan": 4}``)."""
    spec: str | dict[str, Any] = json.loads(text) if text.lstrip().startswith("{") else text
    load_rules(spec)  # a clear error now rather than a traceback later
    return spec


def run_preset(
    spec: str | dict[str, Any], seed: int, args: argparse.Namespace, fast: FastReplay, label: str
) -> tuple[Tally, float]:
    """Both paths over one preset's deals; returns the tally and the total wall time."""
    sessions = max(1, math.ceil(args.deals / PER_SESSION))
    plan = ClubPlan(players=12, sessions=sessions, deals_per_session=PER_SESSION, rules=spec, seed=seed)
    tally = Tally(keep=args.keep)
    started = last = time.perf_counter()
    first = 1
    for lines in corpus_sessions(plan, args.tamper, args.mutate):
        check_lines(lines, fast, tally, corpus=label, first=first)
        first += len(lines)
        now = time.perf_counter()
        if now - last >= args.progress:
            last = now
            rate = tally.deals / (now - started)
            print(
                f"  {label}: {tally.deals}/{sessions * PER_SESSION} deals, {rate:.0f} deals/s, "
                f"{tally.disagreed} disagreements",
                file=sys.stderr,
                flush=True,
            )
    return tally, time.perf_counter() - started


def row(label: str, seed: int, tally: Tally, wall: float) -> dict[str, Any]:
    engine_s = tally.engine_read_s + tally.engine_replay_s
    fast_s = tally.fast_decode_s + tally.fast_s
    route_s = tally.route_read_s + tally.route_replay_s
    return {
        "preset": label,
        "seed": seed,
        **tally.to_json(),
        "engine_s": round(engine_s, 3),
        "fast_path_s": round(fast_s, 3),
        "route_s": round(route_s, 3),
        "engine_deals_per_s": round(tally.deals / engine_s) if engine_s else None,
        "fast_deals_per_s": round(tally.deals / fast_s) if fast_s else None,
        "route_deals_per_s": round(tally.deals / route_s) if route_s else None,
        "wall_s": round(wall, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000, help="deals per preset")
    parser.add_argument("--tamper", type=float, default=0.03, help="share of deals the tamperer corrupts")
    parser.add_argument("--mutate", type=float, default=0.01, help="share of deals changed at random")
    parser.add_argument(
        "--presets", default="standard,chengdu,online", help="comma-separated; or one rules JSON"
    )
    parser.add_argument("--seed", type=int, default=14, help="the first preset's; the next ones count on")
    parser.add_argument("--checker", default="ingest.replay.fast_check:fast_replay", help="module:function")
    parser.add_argument(
        "--dump", type=Path, default=None, help="write each disagreement's deal here (JSON lines)"
    )
    parser.add_argument("--keep", type=int, default=100, help="disagreements kept per preset for --dump")
    parser.add_argument(
        "--progress", type=float, default=60.0, help="seconds between progress lines (stderr)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    text = args.presets.strip()
    specs = [rules_spec(text)] if text.startswith("{") else [rules_spec(p) for p in text.split(",") if p]
    fast = checker(args.checker)
    rows = []
    kept: list[tuple[int, Disagreement]] = []
    for index, spec in enumerate(specs):
        label = spec if isinstance(spec, str) else load_rules(spec).name
        seed = args.seed + index  # each preset its own club, so their deals differ
        tally, wall = run_preset(spec, seed, args, fast, label)
        rows.append(row(label, seed, tally, wall))
        kept += [(seed, d) for d in tally.disagreements]
    print(
        f"{args.deals} simulated deals per preset, tamper {args.tamper}, mutate {args.mutate}, seeds from {args.seed}; "
        f"checker {args.checker}; engine compiled with mypyc: {not engine_deal.__file__.endswith('.py')}"
    )
    print(
        f"{'preset':<10} {'seed':>5} {'deals':>8} {'clean':>8} {'hand-offs':>10} {'rate':>7} {'flagged':>8} "
        f"{'disagree':>8} {'engine s':>9} {'fast s':>8} {'speed-up':>8} {'route s':>8} {'speed-up':>8}"
    )
    for r in rows:
        speed = f"{r['engine_s'] / r['fast_path_s']:.1f}x" if r["fast_path_s"] else "-"
        routed = f"{r['engine_s'] / r['route_s']:.1f}x" if r["route_s"] else "-"
        print(
            f"{r['preset'][:10]:<10} {r['seed']:>5} {r['deals']:>8} {r['clean']:>8} {r['handoffs']:>10} "
            f"{100 * r['handoff_rate']:>6.2f}% {r['flagged']:>8} {r['disagreements']:>8} "
            f"{r['engine_s']:>9.1f} {r['fast_path_s']:>8.1f} {speed:>8} {r['route_s']:>8.1f} {routed:>8}"
        )
    for seed, d in kept[:10]:
        print(f"DISAGREEMENT {d.corpus} seed {seed} deal {d.deal_id} (line {d.line}): {d.what[:500]}")
    if args.dump is not None and kept:
        with args.dump.open("w", encoding="utf-8") as out:
            for seed, d in kept:
                out.write(
                    json.dumps({**d.to_json(), "seed": seed, "lines": list(d.lines)}, ensure_ascii=False)
                )
                out.write("\n")
    if args.json:
        print(
            json.dumps(
                {
                    "deals": args.deals,
                    "tamper": args.tamper,
                    "mutate": args.mutate,
                    "seed": args.seed,
                    "presets": rows,
                }
            )
        )
    return 1 if any(r["disagreements"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
