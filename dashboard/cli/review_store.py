"""``chuanma review --warehouse DIR --store`` and ``chuanma ingest --review``: the review
step after ingest (dashboard/stored_reviews.py), with a progress bar on stderr."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from dashboard.cli.options import fail

if TYPE_CHECKING:
    from dashboard.stored_reviews import StoreSummary


def store_bar() -> Any:
    """A :class:`dashboard.stored_reviews.StoreProgress` drawn as ingest's is
    (:class:`dashboard.cli.warehouse_reports.CliProgress`): a rich bar on a terminal, plain
    lines with ``CHUANMA_PROGRESS=lines``, else nothing."""
    from dashboard.cli.warehouse_reports import CliProgress
    from dashboard.stored_reviews import StoreProgress

    class Bar(CliProgress, StoreProgress):
        def total(self, deals: int) -> None:
            self.add_total(deals)  # told once, from nothing

    return Bar(what="review", unit="deals")


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
