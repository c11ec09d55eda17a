"""A converted record (log lines and the converter's own findings) read as a LogFile.

The lines go through chuanma's reader like any log, so the engine checks them; the
converter's findings (an unreadable part, an inferred 定缺, a rule chuanma cannot
express), each a template and its values, go to the deal they belong to, or to the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from engine.events import Finding
from engine.messages import Text
from ingest.logs.builder import LogBuilder, LogFile
from ingest.logs.play_lines import PLAY_TEXTS


@dataclass
class Converted:
    """What a converter made of one record: lines by number, findings by deal id."""

    name: str
    lines: list[tuple[int, dict[str, Any] | int]] = field(default_factory=list)  # an int: a play code
    findings: list[tuple[str | None, Finding]] = field(default_factory=list)

    def add(self, line: int, obj: dict[str, Any] | int) -> None:
        """A line: its object, or a plain draw, discard or pong as its play code
        (:func:`ingest.logs.play_lines.play_code`), which is read with no JSON in between."""
        self.lines.append((line, obj))

    def objects(self) -> list[tuple[int, dict[str, Any]]]:
        """The lines as objects (a play code as the object its line holds): for a reader of
        the conversion, such as a test; the reader itself takes the codes."""
        return [
            (line, obj if isinstance(obj, dict) else msgspec.json.decode(line_text(obj)))
            for line, obj in self.lines
        ]

    def note(self, deal_id: str | None, finding: Finding) -> None:
        self.findings.append((deal_id, finding))


_DECODE = msgspec.json.Decoder().decode


def parse_document(data: bytes) -> Any:
    """A record's JSON document (a UTF-8 BOM allowed). msgspec, not ``json.loads``: the
    parse is a large part of an export's read (``bench/platforms.py``). Raises
    ``ValueError`` (``msgspec.DecodeError``, ``UnicodeDecodeError``), as ``json`` would."""
    return _DECODE(data[3:] if data.startswith(b"\xef\xbb\xbf") else data)


def finding(
    code: str, line: int | None, name: str, text: Text, warning: bool = False, seat: int | None = None
) -> Finding:
    """A converter's finding, its message a template with its values (engine.read_templates),
    so it reads in the user's language."""
    return Finding(
        code, line, seat, text.en, severity="warning" if warning else "error", rule="platforms",
        file=name, message_zh=text.zh, message_key=text.key, message_values=text.values,
    )  # fmt: skip


def line_text(obj: dict[str, Any] | int) -> str:
    """A converted line as the reader reads it (a play code as the writer writes it)."""
    text = PLAY_TEXTS[obj] if isinstance(obj, int) else msgspec.json.encode(obj).decode()
    assert text is not None
    return text


def log_of(converted: Converted) -> LogFile:
    """Feed the lines to the reader, then hand each finding to its deal (or the file)."""
    builder = LogBuilder(converted.name)
    encode = msgspec.json.Encoder().encode  # json.dumps was a tenth of a record's read (profiled)
    for line, obj in converted.lines:
        if isinstance(obj, int):
            builder.feed_play(line, obj)
        else:
            builder.feed(line, encode(obj).decode())
    log = builder.finish()
    deals = {deal.deal.deal_id: deal for _, deal in log.iter_deals()}
    for deal_id, found in converted.findings:
        deal = deals.get(deal_id) if deal_id is not None else None
        if deal is not None:
            deal.findings.append(found)
        else:
            log.findings.append(found)
    return log
