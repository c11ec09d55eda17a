"""``chuanma review --warehouse DIR --store`` and ``chuanma ingest --review``: the review
step after ingest (dashboard/stored_reviews.py), with a progress bar on stderr."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

import typer

from dashboard.cli.options import fail

if TYPE_CHECKING:
    from dashboard.stored_reviews import StoreSummary


def store_bar() -> Any:
    """A :class:`dashboard.stored_reviews.StoreProgress` that draws a rich bar on a terminal,
    plain lines with ``CHUANMA_PROGRESS=lines``, else nothing."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from dashboard.cli.warehouse_reports import ProgressLines, progress_style
    from dashboard.stored_reviews import StoreProgress

    class Bar(StoreProgress):
        def __init__(self) -> None:
            style = progress_style(True)
            columns = (TextColumn("review"), BarColumn(), MofNCompleteColumn(), TextColumn("deals"))
            self.bar = (
                Progress(*columns, TimeElapsedColumn(), console=Console(stderr=True), transient=True)
                if style == "bar"
                else None
            )
            self.task = self.bar.add_task("review", total=0) if self.bar is not None else None
            self.lines = ProgressLines("review", "deals") if style == "lines" else None

        def __enter__(self) -> Bar:
            if self.bar is not None:
                self.bar.start()
            return self

        def __exit__(
            self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
        ) -> None:
            if self.bar is not None:
                self.bar.stop()
            if self.lines is not None and kind is None:
                self.lines.print()

        def total(self, deals: int) -> None:
            if self.bar is not None and self.task is not None:
                self.bar.update(self.task, total=deals)
            if self.lines is not None:
                self.lines.update(total=deals)

        def advance(self, deals: int) -> None:
            if self.bar is not None and self.task is not None:
                self.bar.advance(self.task, deals)
            if self.lines is not None:
                self.lines.update(done=self.lines.done + deals)

    return Bar()


def run_store(warehouse: Path, workers: int | None, wait: float, *, bar: bool = True) -> StoreSummary:
    """Run the review step, or exit 2 (no warehouse, locked, unwritable)."""
    from dashboard.stored_reviews import StoreProgress, store_reviews
    from ingest.warehouse import WarehouseError

    if not (warehouse / "catalog.json").is_file():
        raise fail(f"no warehouse at {warehouse} (no catalog.json)")
    if workers is not None and workers < 0:
        raise fail("--workers must be 0 (in process) or more")
    try:
        if not bar:
            return store_reviews(warehouse, workers=workers, wait=wait, progress=StoreProgress())
        with store_bar() as progress:
            return store_reviews(warehouse, workers=workers, wait=wait, progress=progress)
    except WarehouseError as error:
        raise fail(str(error)) from None


def store_text(summary: StoreSummary, language: Any) -> str:
    """The step's one line, in the language asked."""
    from dashboard.cli.reports import say

    return say(
        "cli_review_store_done", language, deals=summary.reviewed, tile_deals=summary.tile_deals,
        seconds=f"{summary.seconds:.1f}", marts=summary.marts or "-",
    )  # fmt: skip


def echo_store(summary: StoreSummary, language: Any, as_json: bool) -> None:
    import json

    if as_json:
        typer.echo(json.dumps(summary.to_json(), ensure_ascii=False))
    else:
        typer.echo(store_text(summary, language))
