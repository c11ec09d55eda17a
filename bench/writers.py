"""Several recorders saving at the same moment: ``--recorders`` processes (4) each save
``--deals`` deals (200) one by one through the Record page's ``save_deal`` into one fresh
warehouse (the recorder of ``tests/test_warehouse_writers.py``); prints the wall time,
the failed saves of each, the deals stored and distinct, and ``chuanma warehouse check``.

    .venv/bin/python bench/writers.py [--recorders 4] [--deals 200] [--warehouse DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT / "tests"))

from test_warehouse_writers import RECORDER  # noqa: E402

from analytics.queries import Analytics  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--recorders", type=int, default=4)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--warehouse", type=Path)
    args = parser.parse_args()
    warehouse = args.warehouse or Path(tempfile.mkdtemp(prefix="chuanma-writers-")) / "warehouse"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    began = time.perf_counter()
    recorders = [
        subprocess.Popen(
            [sys.executable, "-c", RECORDER, str(warehouse), f"table{n}", str(args.deals)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(args.recorders)
    ]
    failed = [json.loads(process.communicate()[0].splitlines()[-1])["failed"] for process in recorders]
    seconds = time.perf_counter() - began
    analytics = Analytics(warehouse)
    try:
        counts = analytics.sql("select count(*) as n, count(distinct deal_id) as ids from raw_deals")
    finally:
        analytics.close()
    check = subprocess.run(
        [sys.executable, "-m", "dashboard.cli", "warehouse", "check", "--warehouse", str(warehouse)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    print(f"{args.recorders} recorders x {args.deals} saves in {seconds:.1f} s; failed saves: {failed}")
    print(f"deals stored {counts['n'][0]}, distinct {counts['ids'][0]}; check: {check.stdout.strip()}")


if __name__ == "__main__":
    main()
