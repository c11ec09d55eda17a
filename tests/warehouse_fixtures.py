"""Test data for the warehouse and analytics tests (no tests here).

``sample_logs`` gives the logs the warehouse tests ingest: the files of ``data/sample/``
once that folder exists, simulated logs (fixed seeds) until then; the tests compute what
they expect from the logs themselves, so either source works. ``hand_log`` is a small log
written by hand whose statistics are worked out in ``tests/test_analytics.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.dataset as ds  # type: ignore[import-untyped]

from ingest.logs.writer import write_log
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import table_files
from ingest.warehouse.catalog import batch_files

SAMPLE_DIR = Path(os.environ.get("CHUANMA_SAMPLE", Path(__file__).resolve().parents[1] / "data" / "sample"))


def sample_logs(folder: Path) -> list[Path]:
    """Logs to ingest: ``data/sample/logs/`` (or ``$CHUANMA_SAMPLE``) when it holds any, else
    two small simulated clubs, one plain under standard rules, one gzipped under chengdu."""
    if SAMPLE_DIR.is_dir():
        where = SAMPLE_DIR / "logs" if (SAMPLE_DIR / "logs").is_dir() else SAMPLE_DIR  # not the manifests
        found = sorted(p for p in where.rglob("*") if p.name.endswith((".jsonl", ".jsonl.gz")))
        if found:
            return found
    folder.mkdir(parents=True, exist_ok=True)
    first = folder / "club-standard.jsonl"
    write_log(simulate_club(ClubPlan(players=8, sessions=6, deals_per_session=5, seed=11)), first)
    second = folder / "club-chengdu.jsonl.gz"
    plan = ClubPlan(players=6, sessions=4, deals_per_session=5, rules="chengdu", seed=12, club="second-club")
    write_log(simulate_club(plan), second)
    return [first, second]


def j(**fields: Any) -> str:
    if "from_" in fields:
        fields["from"] = fields.pop("from_")
    return json.dumps(fields, ensure_ascii=False, separators=(",", ":"))


FIRST_HU = {"preset": "standard", "end_condition": "first_hu"}
CAPPED = {"preset": "standard", "end_condition": "first_hu", "max_fan": 4}


def hand_lines() -> list[str]:
    """Two sessions of short deals (first_hu: the first win ends the deal).

    Session s1 (hand-club, 2026-07-04; Ann, Bo, Chen, Du; max_fan 4):
      A  天胡: dealer Ann wins on her 14 dealt tiles, 6 fan capped at 4: each other pays 8.
      B  点炮: dealer Bo discards 9p, Chen wins it, 平胡 1 fan: Bo pays 1.
      C  Ann makes a concealed kong of 5s (each other pays 2), draws 1s and wins 杠上花:
         平胡 + 根 + 杠上花 = 3 fan, each other pays 4.
      F  nobody wins: every seat discards what it draws until the wall is empty (the
         tiles that Ann or Du could win on are drawn early, never among the last four).
         查叫: Bo holds three suits (花猪) and pays 16 to each of the others; Chen is not
         ready and pays 1 to each ready seat (Ann waits 1p/4p, Du 3p/6p: 平胡, 1 fan).
    then one line that is not JSON (stray, to quarantine).
    Session s2 (other-club, 2026-08-10; Eve, Bo, Fang, Gao):
      D  as B (Bo deals in to Fang) but the recorder claims 2 fan: status findings.
      E  Bo discards 9s, which he does not hold: status invalid.
    """
    tianhu_hands = ["123m456m789m123p55p", "123m456m789m123p6p", "123m456m789m456p7p", "123m456m789m456p7p"]
    discard_hands = ["2468m2468p13579s", "13579m13579p2468s", "123m456m789m111p9p", "2468m2468p13579s"]
    kong_hands = ["5555s123m456m789m1s", "2468m2468p23469s", "2468m2468p23469s", "2468m2468p23469s"]
    s1 = ["Ann", "Bo", "Chen", "Du"]
    s2 = ["Eve", "Bo", "Fang", "Gao"]
    return [
        j(type="session", session_id="s1", players=s1, rules=CAPPED, club="hand-club",
          table="t1", started_at="2026-07-04T20:00"),
        j(type="deal", deal_id="A", dealer=0, hands=tianhu_hands),
        j(type="hu", seat=0, tile="5p", from_=None, fan=4, patterns=["tianhu"], deltas=[24, -8, -8, -8]),
        j(type="deal_end", reason="first_hu", scores=[24, -8, -8, -8]),
        j(type="deal", deal_id="B", dealer=1, hands=discard_hands),
        j(type="discard", seat=1, tile="9p"),
        j(type="hu", seat=2, tile="9p", from_=1, fan=1, deltas=[0, -1, 1, 0]),
        j(type="deal_end", reason="first_hu", scores=[0, -1, 1, 0]),
        j(type="deal", deal_id="C", dealer=0, hands=kong_hands),
        j(type="kong", seat=0, tile="5s", kind="concealed", deltas=[6, -2, -2, -2]),
        j(type="draw", seat=0, tile="1s"),
        j(type="hu", seat=0, tile="1s", from_=None, fan=3, patterns=["pinghu", "gen", "gangshanghua"]),
        j(type="deal_end", reason="first_hu", scores=[18, -6, -6, -6]),
        *wall_deal_lines(),
        j(type="session_end", totals=[59, -63, 1, 3]),
        "this line is not an event",
        j(type="session", session_id="s2", players=s2, rules=FIRST_HU, club="other-club",
          table="t2", started_at="2026-08-10T19:00"),
        j(type="deal", deal_id="D", dealer=1, hands=discard_hands),
        j(type="discard", seat=1, tile="9p"),
        j(type="hu", seat=2, tile="9p", from_=1, fan=2),
        j(type="deal_end", reason="first_hu"),
        j(type="deal", deal_id="E", dealer=1, hands=discard_hands),
        j(type="discard", seat=1, tile="9s"),
        j(type="deal_end", reason="first_hu"),
        j(type="session_end"),
    ]  # fmt: skip


WALL_HANDS = ["123m456m789m9m11p23p", "1357m1357p13579s", "12345678m24689p", "222s888s123p45p99p"]


def wall_deal_lines() -> list[str]:
    """Deal F of :func:`hand_lines`: 55 draws, each discarded at once, then 查叫."""
    from engine.tiles import format_tiles, parse_tiles, tile_name

    counts = [4] * 27
    for hand in WALL_HANDS:
        for tile in parse_tiles(hand):
            counts[tile] -= 1
    dangerous = set(parse_tiles("1346p"))  # Ann waits 1p/4p, Du 3p/6p
    wall = [t for t in range(27) if t in dangerous for _ in range(counts[t])]
    wall += [t for t in range(27) if t not in dangerous for _ in range(counts[t])]
    assert len(wall) == 55 and format_tiles(wall[-4:]) == "8999s"
    lines = [j(type="deal", deal_id="F", dealer=0, hands=WALL_HANDS), j(type="discard", seat=0, tile="9m")]
    seat = 0
    for tile in wall:
        seat = (seat + 1) % 4
        lines.append(j(type="draw", seat=seat, tile=tile_name(tile)))
        lines.append(j(type="discard", seat=seat, tile=tile_name(tile)))
    lines.append(
        j(type="deal_end", reason="wall_exhausted", settlement=[17, -48, 14, 17], scores=[17, -48, 14, 17])
    )
    return lines


def hand_log(folder: Path) -> Path:
    path = folder / "hand.jsonl"
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(hand_lines()) + "\n", encoding="utf-8")
    return path


def read_table(warehouse: Path, name: str) -> pa.Table:
    """One warehouse table as the catalog lists it (all recorded batches)."""
    files = table_files(warehouse, name)
    if not files:
        from ingest.warehouse.schema import SCHEMAS

        return SCHEMAS[name].empty_table()
    return ds.dataset(files, format="parquet").to_table()


def sorted_rows(table: pa.Table, keys: list[str]) -> list[dict[str, Any]]:
    """Rows as dicts in a fixed order, to compare tables built different ways."""
    rows: list[dict[str, Any]] = table.to_pylist()
    return sorted(rows, key=lambda row: tuple(json.dumps(row[k], default=str) for k in keys))


def catalog_files(root: str | Path, catalog: dict[str, Any]) -> list[dict[str, Any]]:
    """Every source file the listed batches hold, in catalog order (reads every
    ``batch.json``)."""
    return [f for batch in catalog.get("batches", []) for f in batch_files(root, batch)]
