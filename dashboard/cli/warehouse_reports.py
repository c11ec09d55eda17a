"""Text for ``chuanma ingest`` and ``chuanma stats``: the progress bar, the player table
and a player's card; the summary that says where every deal went is
``dashboard/ingest_report.py``, shared with the Upload page."""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Iterable, Iterator
from types import TracebackType
from typing import Any, TypeVar

import pandas as pd  # type: ignore[import-untyped]
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from dashboard.i18n import Lang, label
from engine.events import DealStart
from ingest.warehouse import Progress as IngestProgress

T = TypeVar("T")


#: ``CHUANMA_PROGRESS=lines``: where stderr is not a terminal (``make demo`` piped to a file,
#: a CI log), progress is printed as a plain line every few seconds instead of not at all
PROGRESS_ENV = "CHUANMA_PROGRESS"
LINE_EVERY_S = 3.0


def progress_style(enabled: bool = True) -> str | None:
    """``"bar"`` on a terminal, ``"lines"`` when asked for by ``CHUANMA_PROGRESS=lines``,
    else None: a script's stderr stays clean unless it asks."""
    if not enabled:
        return None
    if sys.stderr.isatty():
        return "bar"
    return "lines" if os.environ.get(PROGRESS_ENV, "").strip().lower() == "lines" else None


class ProgressLines:
    """Plain progress for a log: ``what: done/total unit (pct%), seconds`` on stderr, at
    most every :data:`LINE_EVERY_S` seconds, and once at the end."""

    def __init__(self, what: str, unit: str) -> None:
        self.what, self.unit = what, unit
        self.done = self.total = 0
        self.began = self.last = time.monotonic()

    def update(self, *, done: int | None = None, total: int | None = None, stage: str | None = None) -> None:
        if stage is not None:
            self.what = stage
        self.done = self.done if done is None else done
        self.total = self.total if total is None else total
        now = time.monotonic()
        if now - self.last >= LINE_EVERY_S:
            self.last = now
            self.print()

    def print(self) -> None:
        share = f" ({self.done / self.total:.0%})" if self.total else ""
        elapsed = time.monotonic() - self.began
        print(
            f"{self.what}: {self.done:,}/{self.total:,} {self.unit}{share}, {elapsed:.0f} s", file=sys.stderr
        )


class CliProgress(IngestProgress):
    """A rich bar on stderr when stderr is a terminal, plain lines when
    ``CHUANMA_PROGRESS=lines`` asks for them, else nothing (logs stay clean)."""

    def __init__(self, *, enabled: bool = True, what: str = "ingest", unit: str = "chunks") -> None:
        self.style = progress_style(enabled)
        self.enabled = self.style == "bar"
        self.what, self.unit = what, unit
        self.bar: Progress | None = None
        self.task: TaskID | None = None
        self.lines = ProgressLines(what, unit) if self.style == "lines" else None

    def __enter__(self) -> CliProgress:
        if self.enabled:
            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(self.unit),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task(self.what, total=0)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self.bar is not None:
            self.bar.stop()
        if self.lines is not None and kind is None:
            self.lines.print()

    def add_total(self, chunks: int) -> None:
        if self.bar is not None and self.task is not None:
            total = self.bar.tasks[0].total or 0
            self.bar.update(self.task, total=total + chunks)
        if self.lines is not None:
            self.lines.update(total=self.lines.total + chunks)

    def advance(self, chunks: int) -> None:
        if self.bar is not None and self.task is not None:
            self.bar.advance(self.task, chunks)
        if self.lines is not None:
            self.lines.update(done=self.lines.done + chunks)

    def note(self, text: str) -> None:
        if self.bar is not None and self.task is not None:
            self.bar.update(self.task, description=text[-60:])
        if self.lines is not None:
            self.lines.update(stage=text[-60:])


def with_deal_progress(events: Iterable[T], total: int, *, enabled: bool = True) -> Iterator[T]:
    """The events of a simulation, passed on unchanged, with a rich bar on stderr that
    counts their deal lines (a terminal), or plain lines (``CHUANMA_PROGRESS=lines``)."""
    style = progress_style(enabled)
    if style is None:
        yield from events
        return
    if style == "lines":
        lines = ProgressLines("simulate", "deals")
        lines.total = total
        for event in events:
            if isinstance(event, DealStart):
                lines.update(done=lines.done + 1)
            yield event
        lines.print()
        return
    bar = Progress(
        TextColumn("simulate"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("deals"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with bar:
        task = bar.add_task("simulate", total=total)
        for event in events:
            if isinstance(event, DealStart):
                bar.advance(task)
            yield event


def _plain(value: Any) -> Any:
    """numpy/pandas scalars to JSON values, arrays to lists; NaN to null."""
    if value is None:
        return None
    if getattr(value, "ndim", 0) > 0:  # a list column (table_sizes): a JSON list
        return [_plain(v) for v in value.tolist()]
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


#: (column, header: a label key of dashboard.i18n or the header itself, kind)
TABLE_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("player", "cli_player", "text"),
    ("deals", "cli_deals", "num"),
    ("win_rate", "胡牌率", "pct"),
    ("self_draw_rate", "自摸率", "pct"),
    ("deal_in_rate", "点炮率", "pct"),
    ("avg_fan", "cli_avg_fan", "num"),
    ("avg_win_points", "cli_pts_win", "num"),
    ("avg_deal_in_loss", "cli_loss_deal_in", "num"),
    ("net_per_deal", "cli_net_deal", "num"),
    ("net", "cli_net_col", "num"),
    ("kong_rate", "cli_kongs_deal", "num"),
    ("flower_pig_rate", "花猪率", "pct"),
    ("ready_at_end_rate", "流局听牌率", "pct"),
)


def _cell(value: Any, kind: str) -> str:
    if kind == "pct":
        return _pct(value)
    if kind == "num":
        return _num(value)
    return str(value)


def player_table_text(frame: pd.DataFrame, lang: Lang = "en") -> str:
    if frame.empty:
        return label("cli_no_match", lang)
    head = [label(key, lang) for _, key, _ in TABLE_COLUMNS]
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


def player_card_text(row: dict[str, Any], lang: Lang = "en") -> str:
    r = {key: _plain(value) for key, value in row.items()}
    sheets = int(r.get("sheet_deals_excluded") or 0)
    note = "\n" + label("cli_sheet_card", lang).format(n=sheets) if sheets else ""
    return _card(r, lang) + note


def _card(r: dict[str, Any], lang: Lang) -> str:
    orders = label("cli_win_orders", lang).format(o1=r["win_order_1"], o2=r["win_order_2"])
    if 4 in (r.get("table_sizes") or [4]):  # a third winner: only at a table of four
        orders += label("cli_win_order_3", lang).format(o3=r["win_order_3"])
    return label("cli_card", lang).format(
        player=r["player"], deals=r["deals"], net=r["net"], net_per_deal=_num(r["net_per_deal"]),
        win_rate=_pct(r["win_rate"]), wins=r["wins"], orders=orders,
        turn=_num(r["avg_win_turn"], 1), self_draw_rate=_pct(r["self_draw_rate"]),
        self_draws=r["self_draws"], deal_in_rate=_pct(r["deal_in_rate"]), deal_ins=r["deal_ins"],
        loss=_num(r["avg_deal_in_loss"]), avg_fan=_num(r["avg_fan"]), avg_win_points=_num(r["avg_win_points"]),
        biggest=_num(r["biggest_win"]), biggest_fan=_num(r["biggest_win_fan"]),
        biggest_deal=r["biggest_win_deal"] or "-", kongs=r["kongs"], kong_rate=_num(r["kong_rate"]),
        ke=r["kongs_exposed"], ka=r["kongs_added"], kc=r["kongs_concealed"], income=r["kong_income"],
        flower_pig_rate=_pct(r["flower_pig_rate"]), flower_pigs=r["flower_pigs"],
        ready_rate=_pct(r["ready_at_end_rate"]), ready=r["ready_at_end"], wall_end=r["wall_end_deals"],
        cj_paid=r["cha_jiao_paid"], cj_received=r["cha_jiao_received"],
    )  # fmt: skip


def audit_text(summary: pd.DataFrame, lang: Lang = "en") -> str:
    """The audit's counts (analytics ``findings_summary``: the dashboard's definitions)."""
    row = {key: _plain(value) or 0 for key, value in summary.iloc[0].to_dict().items()}
    findings = label("cli_audit", lang).format(
        findings=row["findings"],
        session=row["session_findings"],
        deals=row["deals_with_findings"],
        sessions=row["sessions_with_findings"],
    )
    statuses = label("cli_deal_statuses", lang).format(
        deals=row["ok_deals"] + row["findings_deals"] + row["invalid_deals"],
        ok=row["ok_deals"],
        findings=row["findings_deals"],
        invalid=row["invalid_deals"],
    )
    return f"{findings}\n{statuses}"
