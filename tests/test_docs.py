"""The project's documentation (docs/) is complete in a clone: nothing points outside the
repository, every docs/ file and rules.md section the code cites exists, every path a
comment or docstring names exists (the code's, the SQL's and the build files') and none
cites an issue number, no product code's comment holds a benchmark figure, the docs' own links
resolve, and every finding code the code can emit is documented in docs/report.md.
(The tables of docs/presets.md, docs/rules.md and docs/knobs.md: tests/test_rules.py.)"""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

#: folders that are no part of the repository's text (see .gitignore), by name wherever
#: they are
SKIP_DIRS = {
    ".git", ".venv", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache",
    ".hypothesis", ".tmp",
}  # fmt: skip
#: the same by their place in the repository: what the build, the demo and the tests write
#: (``ingest/warehouse/`` is code; ``data/warehouse/`` is not)
SKIP_PLACES = {"build", "tests/artifacts", "data/warehouse", "data/demo"}


def _skipped(folder: Path) -> bool:
    """Whether ``folder`` (under the repository) is no part of its text."""
    place = folder.relative_to(ROOT).as_posix()
    return folder.name in SKIP_DIRS or folder.name.endswith(".egg-info") or place in SKIP_PLACES


#: the team's material outside the repository, spelled so this file does not match itself
OUTSIDE = ("../" + "shared", "/work/" + "shared", "shared" + "/spec", "shared" + "/seeds")


def _text_files() -> Iterator[tuple[Path, str]]:
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if not _skipped(Path(folder) / d))
        for name in sorted(files):
            path = Path(folder) / name
            if path.suffix in (".gz", ".so", ".parquet", ".pyc"):
                continue
            try:
                yield path, path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue  # binary


def test_no_file_references_the_shared_folder() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path, text in _text_files()
        for number, line in enumerate(text.splitlines(), 1)
        if any(needle in line for needle in OUTSIDE)
    ]
    assert offenders == [], "\n".join(offenders)


def test_the_scan_sees_the_code_and_the_docs() -> None:
    """Guards the test above against a scan that reads nothing."""
    seen = {path.relative_to(ROOT).as_posix() for path, _ in _text_files()}
    assert {"README.md", "engine/deal.py", "docs/rules.md", "tests/test_docs.py", "Makefile"} <= seen
    assert "ingest/warehouse/__init__.py" in seen  # code, though data/warehouse/ is not
    assert not any(path.startswith(("data/warehouse/", "build/", "tests/artifacts/")) for path in seen)


def _rules_sections() -> set[str]:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r"^## (\d+)\. ", text, flags=re.MULTILINE))


def test_cited_docs_and_sections_exist() -> None:
    """Every ``docs/<name>.md`` the code, tests or READMEs cite exists, and every
    ``docs/rules.md section N`` (or ``docs/rules.md N``) is a numbered section of it."""
    sections = _rules_sections()
    assert sections == {"1", "2", "3", "4", "5", "6", "7"}
    cited_files: set[str] = set()
    cited_sections: set[str] = set()
    for path, text in _text_files():
        if path.suffix not in (".py", ".md", ".toml") or path.is_relative_to(DOCS):
            continue
        cited_files.update(re.findall(r"docs/([\w-]+\.md)", text))
        for first, rest in re.findall(r"docs/rules\.md,? (?:sections? )?(\d)((?:(?: and|,| /) \d)*)", text):
            cited_sections.update([first, *re.findall(r"\d", rest)])
    assert cited_files >= {"rules.md", "knobs.md", "presets.md", "log-format.md", "report.md"}
    assert {name for name in cited_files if not (DOCS / name).is_file()} == set()
    assert cited_sections and cited_sections <= sections, cited_sections - sections


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_links_between_the_docs_resolve() -> None:
    anchors = {
        path.name: {
            _slug(h) for h in re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.MULTILINE)
        }
        for path in DOCS.glob("*.md")
    }
    broken = []
    for path in DOCS.glob("*.md"):
        for target, anchor in re.findall(
            r"\]\(([\w-]+\.md)(?:#([^)]+))?\)", path.read_text(encoding="utf-8")
        ):
            if target not in anchors or (anchor and anchor not in anchors[target]):
                broken.append(f"{path.name}: {target}#{anchor}")
    assert broken == []


def test_index_links_every_doc() -> None:
    """docs/README.md links every doc, and the README's Documentation list names each."""
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    for path in DOCS.glob("*.md"):
        if path.name != "README.md":
            assert f"]({path.name})" in index, path.name
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert [p.name for p in sorted(DOCS.glob("*.md")) if f"`docs/{p.name}`" not in readme] == []


def _emitted_codes() -> set[str]:
    """Finding codes written where findings are made: ``IllegalEvent("code", ...)``,
    ``Finding("code", ...)``, ``finding("code", ...)`` in the product's code."""
    pattern = re.compile(r"(?<!\w)(?:IllegalEvent|Finding|finding)\(\s*(?:code=)?\"([a-z_]+)\"")
    codes: set[str] = set()
    for path, text in _text_files():
        if path.suffix == ".py" and not path.is_relative_to(ROOT / "tests"):
            codes.update(pattern.findall(text))
    return codes


def test_every_finding_code_is_documented() -> None:
    codes = _emitted_codes()
    assert {"bad_record", "illegal_hu", "payment_mismatch", "unknown_field"} <= codes  # the scan works
    report = (DOCS / "report.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^### `(\w+)`", report, re.MULTILINE)) | {
        code for pair in re.findall(r"^### `(\w+)`, `(\w+)`", report, re.MULTILINE) for code in pair
    }
    assert codes - documented == set()


# --- what the code's comments and docstrings cite ------------------------------------------

#: the folders whose comments and docstrings are checked
CODE_DIRS = ("engine", "ingest", "analytics", "dashboard", "bench", "tests")
#: where the build, the demo and the tests write (see .gitignore): cited, never committed
GENERATED = ("build/", "data/demo", "data/warehouse", "tests/artifacts")
#: a path as the code cites it: folders, then a file or a folder; not a tail of a longer path
#: (``<warehouse>/uploads/``) nor a URL
_CITED_PATH = re.compile(r"(?<![\w./<~:-])((?:[\w-]+/)+(?:[\w*-]+(?:\.[\w*-]+)*)?)")
_FILE_SUFFIX = re.compile(r"\.(?:py|md|c|h|sql|toml|txt|json|jsonl|csv|xlsx)$")
_ISSUE = re.compile(r"\bissues? ?#?\d+", re.IGNORECASE)


def _comments_and_docstrings(path: Path, text: str) -> Iterator[tuple[int, str]]:
    """(line, text) of each comment and docstring of a Python file (every string that is a
    statement of its own), or of each comment of a C, SQL or build file (the Makefile,
    pyproject.toml, compiled-modules.txt, the CI's script)."""
    if path.suffix == ".py":
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                yield token.start[0], token.string
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Expr) or not isinstance(node.value, ast.Constant):
                continue
            if isinstance(node.value.value, str):
                yield node.lineno, node.value.value
    else:
        comment = {".c": r"/\*.*?\*/|//[^\n]*", ".h": r"/\*.*?\*/|//[^\n]*", ".sql": r"--[^\n]*"}
        for match in re.finditer(comment.get(path.suffix, r"#[^\n]*"), text, flags=re.DOTALL):
            yield text.count("\n", 0, match.start()) + 1, match.group()


#: the build's files, commented like code
BUILD_FILES = ("Makefile", "pyproject.toml", "compiled-modules.txt", ".ci/run")


def _code_files() -> Iterator[Path]:
    for top in CODE_DIRS:
        for path in sorted((ROOT / top).rglob("*")):
            folders = path.relative_to(ROOT).parents[:-1]  # its folders, the repository's own aside
            if path.suffix in (".py", ".c", ".h", ".sql") and not any(_skipped(ROOT / f) for f in folders):
                yield path
    yield from (ROOT / name for name in BUILD_FILES)


def _code_comments() -> Iterator[tuple[str, int, str]]:
    for path in _code_files():
        for line, piece in _comments_and_docstrings(path, path.read_text(encoding="utf-8")):
            yield path.relative_to(ROOT).as_posix(), line, piece


def _exists(path: str, where: str) -> bool:
    """Whether a cited path is in the repository, from its root or from the citing file's
    folder (a SQL file names another from its own folder); a ``*`` matches as a glob."""
    for base in (ROOT, (ROOT / where).parent):
        if any(base.glob(path)) if "*" in path else (base / path).exists():
            return True
    return False


def _cited_paths(piece: str) -> Iterator[str]:
    """The repository paths a comment names: those under a top-level folder of the
    repository (or under spec, which is not one), and any other that names a file by its
    suffix (a SQL file named from its own folder, say)."""
    tops = {p.name for p in ROOT.iterdir() if p.is_dir()} | {"spec"}
    for path in _CITED_PATH.findall(piece):
        path = path.rstrip(".")
        if path.split("/")[0] in tops or _FILE_SUFFIX.search(path):
            yield path


def test_paths_cited_in_code_exist() -> None:
    """A comment or docstring that names a file or a folder (a doc, a module of the
    engine or of ingest and its folders, a benchmark, a test, something under data)
    names one that exists; a ``*`` matches as a glob."""
    missing = [
        f"{where}:{line}: {path}"
        for where, line, piece in _code_comments()
        for path in _cited_paths(piece)
        if not path.startswith(GENERATED) and not _exists(path, where)
    ]
    assert missing == [], "\n".join(missing)


def test_paths_cited_in_the_docs_exist() -> None:
    """The same for the README, the benchmarks' README and every doc (analytics/README.md,
    which names its SQL files from its own folder, aside)."""
    docs = [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted(DOCS.glob("*.md"))]
    missing = [
        f"{doc.relative_to(ROOT)}:{number}: {path}"
        for doc in docs
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1)
        for path in _cited_paths(line)
        if not path.startswith(GENERATED)
        and not (any(ROOT.glob(path)) if "*" in path else (ROOT / path).exists())
    ]
    assert missing == [], "\n".join(missing)


def test_the_front_doors_stay_short() -> None:
    """The README is a front door (what chuanma is, the two commands, the flow, where to
    start reading): the reference lives in docs/; the benchmarks' README holds the current
    figures, not their history."""
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 150
    assert len((ROOT / "bench" / "README.md").read_text(encoding="utf-8").splitlines()) <= 300


def test_no_comment_cites_an_issue() -> None:
    """A comment or docstring says what a thing is and why, not which issue asked for it
    (the issue tracker is not part of a clone)."""
    cited = [
        f"{where}:{line}: {match}"
        for where, line, piece in _code_comments()
        for match in _ISSUE.findall(piece)
    ]
    assert cited == [], "\n".join(cited)


def test_the_comment_scan_sees_comments_and_paths() -> None:
    """Guards the two tests above against a scan that reads nothing."""
    pieces = list(_code_comments())
    assert {where for where, _, _ in pieces} >= {
        "engine/deal.py", "ingest/replay/_moves.c", "tests/test_docs.py", "ingest/warehouse/run.py",
        "analytics/sql/20_marts.sql", "Makefile", "pyproject.toml",
    }  # fmt: skip
    paths = {path for _, _, piece in pieces for path in _cited_paths(piece)}
    assert {"docs/rules.md", "engine/move_codes.py", "ingest/replay/_moves.c", "bench/fast_check.py"} <= paths
    assert list(_cited_paths("in <warehouse>/uploads/ or https://example.org/a/b.md")) == []
    assert _ISSUE.findall("as issue 14 asked, Issue 13's pages") == ["issue 14", "Issue 13"]


#: the product code and the build, whose comments and docstrings say why, not how fast
PRODUCT_DIRS = ("engine/", "ingest/", "dashboard/", "analytics/", *BUILD_FILES)
_NUMBER = r"(?:\d[\d,.]*|two|three|four|five|six|seven|eight|nine|ten|a hundred)"
#: a measured figure: a time, a throughput, a ratio of speeds or costs, a share of a cost
_FIGURE = re.compile(
    rf"\d\s?(?:ms|µs|ns)\b|\d\s?s (?:of CPU|a |per |each)|\b[KMG]B/s|deals?/s\b|\d\s?x\b"
    rf"|{_NUMBER}[ -]?(?:times|fold) (?:as|faster|slower|more|less|the)|\d\s?s\s?(?:->|→)"
    rf"|\b(?:took|cost|costs|takes) (?:about |~)?\d"
    rf"|\d\s?% of (?:its|a|the) (?:\w+'s )?(?:CPU|time|writing|memory)\b"
    rf"|\b(?:seconds?|minutes?) of CPU",
    re.IGNORECASE,
)


def test_no_benchmark_figures_in_product_code() -> None:
    """Benchmark figures live in bench/README.md, measured beside their baselines; in a
    comment or docstring they go stale with the next change of the code around them."""
    figures = [
        f"{where}:{line + offset}: {text.strip()}"
        for where, line, piece in _code_comments()
        if where.startswith(PRODUCT_DIRS)
        for offset, text in enumerate(piece.splitlines())
        if _FIGURE.search(text)
    ]
    assert figures == [], "\n".join(figures)


def test_the_figure_scan_sees_figures() -> None:
    """Guards the test above: the forms the figures took, and what is no figure."""
    for figure in (
        "5x faster for 10% more bytes", "about ten times as fast", "0.35-0.45 s of CPU for every worker",
        "3-5 ms a chunk", "~850 MB/s", "7,251 deals/s", "1.39 s -> 0.26 s", "took 0.4 s a refresh",
        "a block per 8 MB cost five times as much", "about 1.2 µs a deal", "~250 ns a row",
        "events: 13% of its writing", "3-5% of a worker's CPU", "~85 ms a command",
        "about three minutes of CPU", "a tenth of a second of CPU per process",
    ):  # fmt: skip
        assert _FIGURE.search(figure), figure
    for prose in (
        "0 m, 1 p, 2 s", "1 s, 2 s, 4 s ... up to", "``26`` is ``9s``", "a log of 1 MB is ~150 deals",
        "3% of them tampered with on purpose", "a share over 100%",
    ):  # fmt: skip
        assert not _FIGURE.search(prose), prose
