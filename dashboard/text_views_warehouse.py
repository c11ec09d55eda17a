"""Text for ``chuanma ingest`` and ``chuanma stats``: the progress bar, the summary that
says where every deal went, the player table and a player's card."""

from __future__ import annotations

import json
import math
import sys
from types import TracebackType
from typing import Any

import pandas as pd  # type: ignore[import-untyped]
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from ingest.warehouse import IngestSummary
from ingest.warehouse import Progress as IngestProgress


class CliProgress(IngestProgress):
    """A rich bar on stderr, drawn only when stderr is a terminal (logs stay clean)."""

    def __init__(self, *, enabled: bool = True) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def __enter__(self) -> CliProgress:
        if self.enabled:
            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("chunks"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task("ingest", total=0)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self.bar is not None:
            self.bar.stop()

    def add_total(self, chunks: int) -> None:
        if self.bar is not None and self.task is not None:
            total = self.bar.tasks[0].total or 0
            self.bar.update(self.task, total=total + chunks)

    def advance(self, chunks: int) -> None:
        if self.bar is not None and self.task is not None:
            self.bar.advance(self.task, chunks)

    def note(self, text: str) -> None:
        if self.bar is not None and self.task is not None:
            self.bar.update(self.task, description=text[-60:])


def ingest_text(summary: IngestSummary) -> str:
    """The summary: read = ok + findings + invalid, and where each kind went."""
    data = summary.to_json()
    deals = data["deals"]
    new = sum(1 for f in summary.files if f.status == "new")
    known = sum(1 for f in summary.files if f.status in ("known", "repeated"))
    rate = f", {data['deals_per_s']:.0f} deals/s" if data["deals_per_s"] else ""
    lines = [
        f"ingest into {summary.warehouse}: {new} new file(s), {known} already ingested (skipped); "
        f"{summary.seconds:.1f} s{rate}, workers {summary.workers or 'in process'}",
        f"deals read {deals['read']} = ok {deals['ok']} + findings {deals['findings']} + invalid {deals['invalid']}",
        f"  stored: ok {summary.stored['ok']}, findings {summary.stored['findings']} "
        "-> deals, seats, events, ledger (+ findings table)",
        f"  stored: invalid {summary.stored['invalid']} -> deals (status invalid), raw lines in quarantine",
        f"  duplicates (same deal_id, same content) skipped: {summary.duplicates}",
        f"  conflicting duplicates (same deal_id, other content) -> quarantine: {len(summary.conflicts)}",
    ]
    for conflict in summary.conflicts[:10]:
        lines.append(f"    {conflict['deal_id']} at {conflict['file']}:{conflict['line']}")
    for entry in summary.files:
        if entry.status.startswith("unreadable"):
            lines.append(f"  {entry.file}: {entry.status}, not ingested")
    if summary.quarantine:
        counts = ", ".join(f"{reason} {count}" for reason, count in sorted(summary.quarantine.items()))
        lines.append(f"  quarantine lines: {counts}")
    if summary.file_findings:
        lines.append(
            f"  errors about a whole file or session (cut-off gzip, past a limit, wrong totals): "
            f"{summary.file_findings}, in the findings table"
        )
    if summary.recovered:
        lines.append(
            f"  batches not in the catalog, checked and listed again: {', '.join(summary.recovered)}"
        )
    for note in summary.moved_aside:
        lines.append(f"  WARNING: moved aside (never deleted): {note}")
    if summary.batches:
        rows = ", ".join(f"{name} {count}" for name, count in summary.rows.items())
        lines.append(f"batches {', '.join(summary.batches)}: rows {rows}")
    else:
        lines.append("nothing new: the warehouse is unchanged")
    return "\n".join(lines)


def _plain(value: Any) -> Any:
    """numpy/pandas scalars to JSON values; NaN to null."""
    if value is None:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def records_json(frame: pd.DataFrame) -> str:
    """A JSON list, one object per row."""
    rows = [{key: _plain(value) for key, value in row.items()} for row in frame.to_dict(orient="records")]
    return json.dumps(rows, ensure_ascii=False, default=str)


def _pct(value: Any) -> str:
    value = _plain(value)
    return "-" if value is None else f"{100 * value:.1f}%"


def _num(value: Any, digits: int = 2) -> str:
    value = _plain(value)
    if value is None:
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


TABLE_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("player", "player", "text"),
    ("deals", "deals", "num"),
    ("win_rate", "胡牌率", "pct"),
    ("self_draw_rate", "自摸率", "pct"),
    ("deal_in_rate", "点炮率", "pct"),
    ("avg_fan", "avg fan", "num"),
    ("avg_win_points", "pts/win", "num"),
    ("avg_deal_in_loss", "loss/deal-in", "num"),
    ("net_per_deal", "net/deal", "num"),
    ("net", "net", "num"),
    ("kong_rate", "kongs/deal", "num"),
    ("flower_pig_rate", "花猪率", "pct"),
    ("ready_at_end_rate", "流局听牌率", "pct"),
)


def _cell(value: Any, kind: str) -> str:
    if kind == "pct":
        return _pct(value)
    if kind == "num":
        return _num(value)
    return str(value)


def player_table_text(frame: pd.DataFrame) -> str:
    if frame.empty:
        return "no deals in the warehouse match"
    head = [label for _, label, _ in TABLE_COLUMNS]
    rows = [
        [_cell(row[key], kind) for key, _, kind in TABLE_COLUMNS] for row in frame.to_dict(orient="records")
    ]
    widths = [max(_width(h), *(_width(r[i]) for r in rows)) for i, h in enumerate(head)]
    out = ["  ".join(_pad(h, w) for h, w in zip(head, widths, strict=True))]
    out.append("  ".join("-" * w for w in widths))
    out += ["  ".join(_pad(c, w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(out)


def _width(text: str) -> int:
    """Display width: CJK characters take two columns."""
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def player_card_text(row: dict[str, Any]) -> str:
    r = {key: _plain(value) for key, value in row.items()}
    deals = r["deals"]
    lines = [
        f"{r['player']}: {deals} deals, net {r['net']:+d} ({_num(r['net_per_deal'])} per deal)",
        f"  胡牌率 win rate      {_pct(r['win_rate'])}  ({r['wins']} wins; order 1st {r['win_order_1']}, "
        f"2nd {r['win_order_2']}, 3rd {r['win_order_3']}; average win turn {_num(r['avg_win_turn'], 1)})",
        f"  自摸率 self-draws    {_pct(r['self_draw_rate'])} of wins ({r['self_draws']})",
        f"  点炮率 deal-in rate  {_pct(r['deal_in_rate'])} of deals ({r['deal_ins']} wins fed, "
        f"average loss {_num(r['avg_deal_in_loss'])})",
        f"  fan per win {_num(r['avg_fan'])}, points per win {_num(r['avg_win_points'])}; biggest win "
        f"{_num(r['biggest_win'])} points ({_num(r['biggest_win_fan'])} fan, {r['biggest_win_deal'] or '-'})",
        f"  kongs {r['kongs']} ({_num(r['kong_rate'])} per deal: exposed {r['kongs_exposed']}, added "
        f"{r['kongs_added']}, concealed {r['kongs_concealed']}), income {r['kong_income']}",
        f"  花猪率 flower pig    {_pct(r['flower_pig_rate'])} ({r['flower_pigs']})",
        f"  流局听牌率 ready at the wall's end {_pct(r['ready_at_end_rate'])} "
        f"({r['ready_at_end']} of {r['wall_end_deals']})",
        f"  查叫 paid {r['cha_jiao_paid']}, received {r['cha_jiao_received']}",
    ]
    return "\n".join(lines)
