"""What the commands share: the exit codes, the options several of them take (rules,
language, the reader's limits, the warehouse) and the one way to stop with a usage error."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Final, Literal

import typer

if TYPE_CHECKING:
    from engine.rules import Rules

EXIT_USAGE = 2
EXIT_FINDINGS = 3

#: the presets, named from the files (engine/presets/*.toml) without importing the engine:
#: --help reads well without paying for the rules' import at every command's start
PRESETS: Final = ", ".join(
    sorted(p.stem for p in (Path(__file__).parents[2] / "engine" / "presets").glob("*.toml"))
)

RulesOption = Annotated[
    str,
    typer.Option(
        "--rules",
        help=f"Preset name ({PRESETS}) or a JSON object of overrides, "
        'e.g. \'{"preset": "standard", "max_fan": 4}\'.',
    ),
]


def fail(message: str) -> typer.Exit:
    typer.echo(f"chuanma: {message}", err=True)
    return typer.Exit(EXIT_USAGE)


MaxInflatedOption = Annotated[
    float | None,
    typer.Option(
        "--max-inflated-mb",
        help="Read at most this many MB of text per file (a gzip bomb stops there, with a "
        "bad_record finding); default 256, or CHUANMA_MAX_INFLATED_MB.",
    ),
]
MaxLineOption = Annotated[
    float | None,
    typer.Option(
        "--max-line-kb",
        help="A longer line is a bad_record finding, read no further; default 1024, or CHUANMA_MAX_LINE_KB.",
    ),
]


LangOption = Annotated[
    str,
    typer.Option(
        "--lang", metavar="en|zh", help="Language of the text report: en or zh (中文); --json is the same."
    ),
]


def language_or_fail(value: str) -> Literal["en", "zh"]:
    if value not in ("en", "zh"):
        raise fail(f"--lang {value!r}: give en or zh")
    return "zh" if value == "zh" else "en"


WarehouseOption = Annotated[
    Path, typer.Option("--warehouse", help="Warehouse folder (Parquet batches + catalog.json).")
]


def set_limits(max_inflated_mb: float | None, max_line_kb: float | None) -> None:
    """The reader's limits go through the environment, so worker processes see them too."""
    import os

    for name, value in (("CHUANMA_MAX_INFLATED_MB", max_inflated_mb), ("CHUANMA_MAX_LINE_KB", max_line_kb)):
        if value is not None:
            if value <= 0:
                raise fail(
                    f"--{'max-inflated-mb' if 'INFLATED' in name else 'max-line-kb'} must be more than 0"
                )
            os.environ[name] = str(value)


def echo_text(text: str) -> None:
    """Readable output with terminal control sequences (from names in the data) removed."""
    from dashboard.safe_text import strip_controls

    typer.echo(strip_controls(text))


def rules_or_fail(spec: str | None) -> Rules | None:
    from engine.rules import RulesError, load_rules

    if spec is None:
        return None
    try:
        return load_rules(spec)
    except RulesError as error:
        raise fail(str(error)) from None


#: seconds a writing command waits for another writer: ``ingest.warehouse.lock.DEFAULT_WAIT``
#: (not imported here: the CLI starts without pyarrow; a test holds the two equal)
DEFAULT_WAIT_S = 600.0
WaitOption = Annotated[
    float,
    typer.Option(
        "--wait",
        help=f"Seconds to wait for another writer (a page's save, an upload, an ingest) to finish "
        f"(default {DEFAULT_WAIT_S:.0f}: a save must not fail while an ingest of a few minutes runs); "
        "0: give up at once. Past it: exit 2, naming the writer.",
        min=0,
    ),
]
