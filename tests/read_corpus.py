"""Inputs that make the reading layer speak: every finding the line parser, the reader,
the gzip reader, the score-sheet importer and the warehouse's last resort write.

The golden logs with bad lines put where they fall differently (the first line, inside a
session before a deal, inside a deal, after a deal, after the session), files cut short
or not gzip, spreadsheets with bad cells and files that are no sheet. ``findings()``
reads them all and gives every finding with its message and, where it has one, its
template. Run as a script (``python tests/read_corpus.py OUT``) it writes them as JSON
lines: run on the code before templates and after, the two must hold the same messages
(how ``tests/read_messages.jsonl`` was made); it imports only what both have.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).parent / "golden"

BAD_LINES = [
    "{bad",
    "[1]",
    '"text"',
    "1.5",
    "true",
    "false",
    "null",
    '{"a": 1}',
    '{"type": "zz"}',
    '{"type": 5, "seat": 1}',
    '{"type": "draw", "seat": 0, "tile": "5x"}',
    '{"type": "draw", "seat": 0, "tile": "0m"}',
    '{"type": "discard", "seat": 0, "tile": 7}',
    '{"type": "draw", "seat": 9, "tile": "5m"}',
    '{"type": "draw", "tile": "5m"}',
    '{"type": "draw", "seat": 0, "tile": "5m", "zz": 1}',
    '{"type": "pong", "seat": 0}',
    '{"type": "kong", "seat": 0, "tile": "5m", "kind": "weird"}',
    '{"type": "kong", "seat": 0, "tile": "5m", "kind": "added", "deltas": [1, 2]}',
    '{"type": "hu", "seat": 0, "tile": "5m", "deltas": "x"}',
    '{"type": "hu", "seat": 0, "tile": "5m", "from": 7}',
    '{"type": "void", "seat": 0, "suit": "x"}',
    '{"type": "exchange", "direction": "up", "tiles": []}',
    '{"type": "exchange", "direction": "clockwise", "tiles": ["123m", "1x", "456p", "789s"]}',
    '{"type": "deal_end", "reason": 3}',
    '{"type": "deal_end", "reason": "wall_exhausted", "scores": [1, 2, 3, 4, 5]}',
    '{"type": "session_end", "totals": [0, 0, 0]}',
    '{"type": "session_end"}',
    '{"type": "session", "session_id": "", "players": []}',
    '{"type": "session", "session_id": "z", "players": ["a", "b", "c", "d"], "rules": "nope"}',
    '{"type": "deal", "deal_id": "x", "dealer": 0, "hands": ["1m"]}',
    '{"type": "deal", "deal_id": "x", "dealer": 0, "hands": ["1x", "1m", "1m", "1m"]}',
    '{"type": "deal", "deal_id": "x", "dealer": 5, "hands": ["1m", "1m", "1m", "1m"], "t": 1}',
    '{"type": "deal", "deal_id": ["line 3"], "dealer": 0}',
]


def _golden(name: str = "kongs_standard.jsonl") -> list[str]:
    return (GOLDEN / name).read_text(encoding="utf-8").splitlines()


def _placed(lines: list[str], bad: str) -> Iterator[list[str]]:
    """``bad`` at the first line, after the session line, inside the first deal, after
    its end, after the session's end, and twice (a deal's unknown field said once)."""
    end = next(i for i, line in enumerate(lines) if '"deal_end"' in line)
    yield [bad, *lines]
    yield [lines[0], bad, *lines[1:]]
    yield [*lines[:3], bad, *lines[3:]]
    yield [*lines[: end + 1], bad, *lines[end + 1 :]]
    yield [*lines, bad]
    yield [*lines[:3], bad, bad, *lines[3:]]


def _log_texts() -> Iterator[tuple[str, list[str]]]:
    for path in sorted(GOLDEN.glob("*.jsonl")):
        yield path.name, _golden(path.name)
    base = _golden()
    for n, bad in enumerate(BAD_LINES):
        for m, lines in enumerate(_placed(base, bad)):
            yield f"bad{n}-{m}.jsonl", lines
    deal = next(i for i, line in enumerate(base) if '"type": "deal"' in line or '"type":"deal"' in line)
    yield "deal-before-session.jsonl", base[deal:]
    end = next(i for i, line in enumerate(base) if "session_end" in line)
    yield "deal-after-session-end.jsonl", [*base[: end + 1], *base[deal:]]
    yield "stray-session-end.jsonl", [base[end], *base]
    yield "deal-unreadable.jsonl", [*base[:deal], BAD_LINES[31], *base[deal + 1 :]]
    sheet_deal = '{"type": "deal", "deal_id": "d1", "record": "sheet", "dealer": 0}'
    deleted = '{"type": "deal_end", "reason": "deleted"}'
    yield "first-deleted.jsonl", [base[0], sheet_deal, deleted, base[end]]


def _byte_files() -> Iterator[tuple[str, bytes, Any]]:
    from ingest.logs.source import Limits

    text = ("\n".join(_golden()) + "\n").encode()
    packed = gzip.compress(text)
    yield "cut.jsonl.gz", packed[: len(packed) // 2], None
    yield "corrupt.jsonl.gz", packed[:20] + b"\xff" * 40 + packed[60:], None
    yield "trailing.jsonl.gz", packed + b"not gzip", None
    yield "plain.jsonl.gz", text, None
    yield "large.jsonl", text, Limits(max_inflated=2048)
    yield "large.jsonl.gz", packed, Limits(max_inflated=2048)
    yield "larger.jsonl.gz", gzip.compress(text * 40), Limits(max_inflated=1 << 14)
    yield "large-empty.jsonl", b"x" * 5000, Limits(max_inflated=1024)
    bomb = gzip.compress(b"\n" * (4 << 20))
    yield "bomb.jsonl.gz", bomb, Limits(max_ratio=10.0)
    yield "long.jsonl", text.replace(b'"kongs', b'"' + b"k" * 5000 + b"kongs", 1), Limits(max_line=1024)
    lines = text.split(b"\n")
    yield "latin1.jsonl", b"\n".join([*lines[:3], b'{"type": "draw", "name": "\xe9"}', *lines[3:]]), None
    yield "bom.jsonl", b"\xef\xbb\xbf" + text, None
    yield "nul.jsonl", text + b"\x00\x00", None


HEADER = ["局号", "事件", "座位", "杠型", "来自", "番型", "得分1", "得分2", "得分3", "得分4", "听牌", "花猪"]
SESSION = ["场次", "s1"]
PLAYERS = ["玩家", "Ann", "Bo", "Chen", "Du"]
SHEET_ROWS: list[list[Any]] = [
    ["1", "胡", "Ann", "", "Bo", "清一色", "-4", "4", "x", ""],
    ["1", "胡", "Zed", "", "Bo", "平胡"],
    ["1", "胡", "7", "", "Bo", "平胡"],
    ["1", "胡", "", "", "Bo", "平胡"],
    ["1", "胡", "Ann", "", "", "平胡"],
    ["1", "胡", "Ann", "", "Bo", "不知道"],
    ["1", "胡", "Ann", "", "Bo", "平胡", "1.5", "0", "0", "-1.5"],
    ["1", "杠", "", "直杠"],
    ["1", "杠", "Ann", "怪杠"],
    ["1", "杠", "Ann", "直杠"],
    ["1", "杠", "Ann", "暗杠", "Bo"],
    ["1", "查叫", "", "不知道"],
    ["1", "查叫", "", "流局", "", "", "", "", "", "", "Ann x"],
    ["1", "查叫"],
    ["1", "查叫"],
    ["1", "飞"],
    ["", "", "Ann", "", "", "", "1", "1", "1", "-3"],
    ["2", "本局", "", "", "", "", "1", "1", "1", "1"],
    ["3", "本局"],
    ["4", "本局", "", "", "", "", "1", "", "", ""],
]


def _csv(rows: list[list[Any]]) -> bytes:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode("utf-8")


def _sheet_files() -> Iterator[tuple[str, bytes]]:
    yield "cells.csv", _csv([SESSION, PLAYERS, HEADER, *SHEET_ROWS])
    for n, row in enumerate(SHEET_ROWS):
        yield f"cell{n}.csv", _csv([SESSION, PLAYERS, HEADER, row])
    yield "no-header.csv", _csv([["a", "b"], ["1", "2"]])
    yield (
        "header.csv",
        _csv(
            [SESSION, PLAYERS, [*HEADER, "怪列", "局号"], ["1", "本局", "", "", "", "", "1", "-1", "0", "0"]]
        ),
    )
    yield "base.csv", _csv([SESSION, PLAYERS, ["底分", "x"], ["日期", "yesterday"], HEADER, ["1", "本局"]])
    yield "players.csv", _csv([SESSION, ["玩家", "Ann", "Bo"], HEADER, ["1", "本局"]])
    yield "player2.csv", _csv([SESSION, ["玩家1", "Ann"], HEADER, ["1", "本局"]])
    yield (
        "differs.csv",
        _csv(
            [
                SESSION,
                PLAYERS,
                ["场次", "日期", *HEADER],
                ["s1", "2026-01-01", "1", "本局"],
                ["s1", "2026-01-02", "2", "本局"],
            ]
        ),
    )
    yield (
        "totals.csv",
        _csv(
            [
                SESSION,
                PLAYERS,
                HEADER,
                ["1", "本局", "", "", "", "", "1", "-1", "0", "0"],
                ["", "总分", "", "", "", "", "1"],
            ]
        ),
    )
    yield "deleted.csv", _csv([SESSION, PLAYERS, HEADER, ["1", "删除"]])
    yield "net.csv", _csv([SESSION, PLAYERS, HEADER, ["1", "本局", "", "", "", "", "1", "-1", "0", "0"]])
    yield "sum.csv", _csv([SESSION, PLAYERS, HEADER, ["1", "本局", "", "", "", "", "1", "1", "0", "0"]])
    yield "gbk.csv", "场次,s1\n".encode("gb18030") + b"\xff\xfe\x80"
    yield "bad.xlsx", b"PK\x03\x04 not a zip"
    yield "quote.csv", b'"a,b\n"c'


def findings() -> list[dict[str, Any]]:
    """Every finding the inputs give, in order, with the input's name."""
    from ingest.logs.reader import read_lines
    from ingest.replay.files import read_log, read_log_bytes
    from ingest.replay.validate import validate_log

    out: list[dict[str, Any]] = []

    def take(name: str, log: Any) -> None:
        report = validate_log(log)
        warnings = [w for deal in report.deals for w in deal.warnings]
        for found in [*log.findings, *report.all_findings(), *warnings]:
            out.append(
                {
                    "input": name, "code": found.code, "message": found.message, "message_zh": found.message_zh,
                    "key": getattr(found, "message_key", ""), "values": getattr(found, "message_values", None),
                }
            )  # fmt: skip

    for name, lines in _log_texts():
        take(name, read_lines(lines, name))
    for name, data, limits in _byte_files():
        take(name, read_log_bytes(data, name, limits=limits))
    for name, data in _sheet_files():
        take(name, read_log_bytes(data, name))
    take("missing.jsonl", read_log("/nonexistent/missing.jsonl"))
    from ingest.warehouse.chunks import _set_aside

    take("set-aside.jsonl", _set_aside(read_lines(_golden(), "set-aside.jsonl"), OverflowError("too big")))
    return _unique(out)


def _unique(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each finding once (validate repeats the read findings it reports)."""
    seen: set[str] = set()
    kept = []
    for row in rows:
        mark = json.dumps(row, sort_keys=True, ensure_ascii=False, default=str)
        if mark not in seen:
            seen.add(mark)
            kept.append(row)
    return kept


if __name__ == "__main__":
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        for row in findings():
            handle.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
