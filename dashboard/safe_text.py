"""Text from the data (player names, session and deal ids, file names) and from the URL,
made safe where it meets markdown or a terminal: it is always shown as the text it is.

Streamlit renders markdown in titles, captions, alerts, metrics' labels and ``st.markdown``;
a player named ``**Ann**`` or a ``?deal=[x](https://x.example)`` would otherwise become
bold text, a working link or an external image. The terminal interprets escape sequences;
a name holding ``\\x1b]0;...`` could retitle it or hide lines.
"""

from __future__ import annotations

import re
from typing import Final

#: every character markdown (CommonMark + GitHub + Streamlit's :color[...] / :icon:
#: directives and $math$) may read as syntax
_MARKDOWN: Final = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~:$=&^\"'])")
#: ANSI/VT escape sequences (CSI, OSC, other ESC forms), then every other control character
_ESCAPES: Final = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])|\x9b[0-?]*[ -/]*[@-~]"
)
_CONTROLS: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def md(value: object) -> str:
    """``value`` as markdown that renders as exactly its text: every markdown character
    escaped with a backslash, line breaks as spaces (a name is one line)."""
    text = strip_controls(str(value)).replace("\n", " ").replace("\r", " ")
    return _MARKDOWN.sub(r"\\\1", text)


def strip_controls(text: str) -> str:
    """``text`` without terminal escape sequences or control characters (tabs and line
    breaks kept): what the CLI prints of names from the data. Every escape sequence
    starts with a control character, so text without one is returned as it is (one scan
    of a long report instead of two substitutions)."""
    if _CONTROLS.search(text) is None:
        return text
    return _CONTROLS.sub("", _ESCAPES.sub("", text))
