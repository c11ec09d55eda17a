"""The project's documentation (docs/) is complete in a clone: nothing points outside the
repository, every docs/ file and rules.md section the code cites exists, the docs' own
links resolve, and every finding code the code can emit is documented in docs/report.md.
(The tables of docs/presets.md, docs/rules.md and docs/knobs.md: tests/test_rules.py.)"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

#: folders that are no part of the repository's text (see .gitignore)
SKIP_DIRS = {
    ".git", ".venv", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache",
    ".hypothesis", "build", "artifacts", "warehouse", "demo",
}  # fmt: skip
#: the team's material outside the repository, spelled so this file does not match itself
OUTSIDE = ("../" + "shared", "/work/" + "shared", "shared" + "/spec", "shared" + "/seeds")


def _text_files() -> Iterator[tuple[Path, str]]:
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info"))
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
