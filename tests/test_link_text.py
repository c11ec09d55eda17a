"""The text of a table's deal and session links is the id alone: the address after it
(``&lang=zh``, the filters) is not shown. Every ``LinkColumn`` of the pages takes its text
with a regex over the link (Streamlit shows the first group), so each regex is applied here
to a link that carries the language and a filter."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from dashboard import page_kit

PAGES = Path(page_kit.__file__).parent / "app_pages"
LINKS = {
    "replay": "replay?deal=C-2026-05-01-03&line=12&lang=zh&club=%E5%B7%9D&from=2026-05-01",
    "session": "session?session=C-2026-05-01&lang=zh&rules=standard",
}
IDS = {"replay": "C-2026-05-01-03", "session": "C-2026-05-01"}


def _display_regexes() -> list[tuple[str, str]]:
    """(page, regex) of every ``display_text=`` given as a string or ``page_kit.REPLAY_TEXT``."""
    found = []
    for path in sorted(PAGES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "display_text":
                value = node.value
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    found.append((path.stem, value.value))
                elif isinstance(value, ast.Attribute) and value.attr == "REPLAY_TEXT":
                    found.append((path.stem, page_kit.REPLAY_TEXT))
    return found


def test_every_link_column_shows_only_the_id() -> None:
    regexes = _display_regexes()
    assert {page for page, _ in regexes} >= {"search", "session", "audit", "head_to_head"}
    for page, regex in regexes:
        kind = "replay" if regex.startswith("replay") else "session"
        match = re.search(regex, LINKS[kind])
        assert match is not None, (page, regex)
        assert match.group(1) == IDS[kind], (page, regex, match.group(1))
