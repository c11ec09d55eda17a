"""A probe, kept for the record: log lines straight to integer arrays with numba, against
the decoding floor and against what importing numba costs a command.

Not part of the product (numba is no dependency): run it after ``.venv/bin/pip install
numba==0.68.1``. It answers two questions before a compiled fast path is built: how much
cheaper than ``msgspec`` per line can reading get when a deal's lines become integer
arrays with no Python object per line, and what numba itself costs a short command
(whose whole decoding floor is a fraction of a second); the answers are in bench/README.md.

Most lines of a log are draws, discards and pongs written in one fixed form
(``{"type":"draw","seat":1,"tile":"7m","t":6500}``: the writer's key order, no spaces).
:func:`decode_buffer` reads every line of exactly that form into a row of integers and
leaves any other line as ``OTHER`` for the ordinary reader: a decoded row holds only what
``msgspec`` would read, so anything unusual costs speed, never a different answer.
Rows are ``(kind, seat, tile, t, start, end)``; blank lines are rows of kind ``BLANK``.

    .venv/bin/python bench/fastdecode_numba.py [--deals 5000] [--rounds 5]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar, cast

import numpy as np

# bench/ingest.py is named like the package: keep this folder off the import path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

try:
    import numba  # type: ignore[import-untyped,import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - the probe says what to install
    raise SystemExit("this probe needs numba: .venv/bin/pip install numba==0.68.1") from None

F = TypeVar("F", bound=Callable[..., Any])
_njit: Callable[[F], F] = cast(Callable[[F], F], numba.njit(cache=True, nogil=True))

BLANK: Final = -1
OTHER: Final = 0
DRAW: Final = 1
DISCARD: Final = 2
PONG: Final = 3
COLUMNS: Final = 6

# the fixed prefixes, as bytes the compiled code compares against
_PREFIX_DRAW: Final = np.frombuffer(b'{"type":"draw","seat":', dtype=np.uint8)
_PREFIX_DISCARD: Final = np.frombuffer(b'{"type":"discard","seat":', dtype=np.uint8)
_PREFIX_PONG: Final = np.frombuffer(b'{"type":"pong","seat":', dtype=np.uint8)
_TILE_KEY: Final = np.frombuffer(b',"tile":"', dtype=np.uint8)
_T_KEY: Final = np.frombuffer(b',"t":', dtype=np.uint8)
_MAX_T_DIGITS: Final = 15  # far below int64; a longer number is left to the reader


@_njit
def _starts_with(buf: Any, pos: int, end: int, pattern: Any) -> bool:
    n = pattern.shape[0]
    if end - pos < n:
        return False
    for i in range(n):  # noqa: SIM110 - a plain loop is what numba compiles well
        if buf[pos + i] != pattern[i]:
            return False
    return True


@_njit
def _decode_line(buf: Any, pos: int, end: int, row: Any, pd: Any, pc: Any, pp: Any, tk: Any, tt: Any) -> None:
    """Fill ``row`` from the line ``buf[pos:end]`` when it has the fixed form; else leave OTHER."""
    row[0] = 0
    kind = 0
    if _starts_with(buf, pos, end, pd):
        kind = 1
        pos += pd.shape[0]
    elif _starts_with(buf, pos, end, pc):
        kind = 2
        pos += pc.shape[0]
    elif _starts_with(buf, pos, end, pp):
        kind = 3
        pos += pp.shape[0]
    else:
        return
    # one digit seat 0-3 (anything else: the reader and engine say what is wrong)
    if pos >= end or buf[pos] < 48 or buf[pos] > 51:
        return
    seat = buf[pos] - 48
    pos += 1
    if not _starts_with(buf, pos, end, tk):
        return
    pos += tk.shape[0]
    # a tile: rank 1-9 then m, p or s, then the closing quote
    if end - pos < 3 or buf[pos] < 49 or buf[pos] > 57 or buf[pos + 2] != 34:
        return
    rank = buf[pos] - 49
    letter = buf[pos + 1]
    if letter == 109:  # m
        suit = 0
    elif letter == 112:  # p
        suit = 1
    elif letter == 115:  # s
        suit = 2
    else:
        return
    pos += 3
    t = -1
    if _starts_with(buf, pos, end, tt):
        pos += tt.shape[0]
        digits = 0
        value = 0
        while pos < end and 48 <= buf[pos] <= 57 and digits <= _MAX_T_DIGITS:
            if digits == 1 and value == 0:
                return  # a leading zero is no JSON number
            value = value * 10 + (buf[pos] - 48)
            digits += 1
            pos += 1
        if digits == 0 or digits > _MAX_T_DIGITS:
            return
        t = value
    if pos + 1 != end or buf[pos] != 125:  # exactly "}" and the end of the line
        return
    row[0] = kind
    row[1] = seat
    row[2] = suit * 9 + rank
    row[3] = t


@_njit
def _decode(buf: Any, out: Any, pd: Any, pc: Any, pp: Any, tk: Any, tt: Any) -> int:
    n = buf.shape[0]
    line = 0
    pos = 0
    while pos < n:
        end = pos
        while end < n and buf[end] != 10:
            end += 1
        row = out[line]
        row[4] = pos
        row[5] = end
        blank = True
        for i in range(pos, end):
            c = buf[i]
            if c != 32 and c != 9 and c != 13:
                blank = False
                break
        if blank:
            row[0] = -1
        else:
            _decode_line(buf, pos, end, row, pd, pc, pp, tk, tt)
        line += 1
        pos = end + 1
    return line


def decode_buffer(data: bytes) -> np.ndarray[Any, np.dtype[np.int64]]:
    """One row per line of ``data`` (UTF-8 log text, ``\\n`` between lines); see the module
    docstring for the columns."""
    buf = np.frombuffer(data, dtype=np.uint8)
    lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    out = np.zeros((lines, COLUMNS), dtype=np.int64)
    used = _decode(buf, out, _PREFIX_DRAW, _PREFIX_DISCARD, _PREFIX_PONG, _TILE_KEY, _T_KEY)
    return out[:used]


def main() -> None:
    import argparse
    import statistics
    import subprocess
    import tempfile
    import time

    import msgspec

    from ingest.logs.writer import write_log
    from ingest.simulator.simulate import ClubPlan, simulate_club

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    imports = {}
    for name in ("pass", "import numpy", "import numba", "import msgspec"):
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", name], check=True)
            runs.append(time.perf_counter() - started)
        imports[name] = statistics.median(runs)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "probe.jsonl"
        plan = ClubPlan(sessions=max(1, args.deals // 8), deals_per_session=8, seed=7)
        write_log(simulate_club(plan), path)
        data = path.read_bytes()
    decode_buffer(data)  # compile or load the cache
    floor_s: list[float] = []
    numba_s: list[float] = []
    decode = msgspec.json.Decoder().decode
    for _ in range(args.rounds):
        started = time.process_time()  # CPU time: steadier than wall time on a shared machine
        rows = decode_buffer(data)
        numba_s.append(time.process_time() - started)
        started = time.process_time()
        for line in data.splitlines():
            if line.strip():
                decode(line)
        floor_s.append(time.process_time() - started)
    counts = {
        name: int((rows[:, 0] == code).sum())
        for name, code in (("draw", DRAW), ("discard", DISCARD), ("pong", PONG), ("other", OTHER))
    }
    floor_m, numba_m = statistics.median(floor_s), statistics.median(numba_s)
    print(f"{args.deals} deals, {len(rows)} lines: {counts}")
    print(
        f"CPU: msgspec floor {floor_m:.4f} s; numba lines -> arrays {numba_m:.4f} s ({numba_m / floor_m:.1%} of the floor)"
    )
    for name, seconds in imports.items():
        print(f"python -c {name!r}: {seconds:.2f} s")


if __name__ == "__main__":
    main()
