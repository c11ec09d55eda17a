"""The findings made while a log is read (the line parser, the reader, the gzip reader,
the score-sheet importer, the warehouse's last resort) carry a template key and values,
as the engine's do, so they read in the user's language on the pages and in the CLI.

``tests/read_messages.jsonl`` holds findings of :mod:`read_corpus` with the English the
reader wrote before templates (captured by running the corpus on that code and on this
one: the same messages, input for input); the 中文 is the templates'. A page that shows a
finding as its own block draws its tiles as tile faces, the rest of the text escaped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from read_corpus import findings

from dashboard.cli.reports import validation_text
from dashboard.finding_html import drawn, finding_html, row_html
from engine.messages import TEMPLATES, render, say, tile
from engine.read_templates import READ_TEMPLATES, ROW_TWINS
from ingest.logs.reader import read_lines
from ingest.replay.validate import validate_log

FIXTURE = Path(__file__).parent / "read_messages.jsonl"


def fixture() -> list[dict[str, Any]]:
    return [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


def test_the_templates_render_the_messages_the_reader_wrote_before() -> None:
    rows = fixture()
    assert len({row["key"] for row in rows}) >= 20
    for row in rows:
        assert render(row["key"], row["values"], "en") == row["message"], row["key"]
        assert render(row["key"], row["values"], "zh") == row["message_zh"], row["key"]


def test_every_finding_of_the_corpus_carries_its_template() -> None:
    rows = findings()
    assert len(rows) > 500
    for row in rows:
        assert row["key"] in TEMPLATES, row["message"]
        assert render(row["key"], row["values"], "en") == row["message"], row["message"]
        assert render(row["key"], row["values"], "zh") == row["message_zh"], row["message"]
    read = [row for row in rows if row["key"] in READ_TEMPLATES]
    assert len({row["key"] for row in read}) >= 25
    # the Chinese of a reading finding is written, not the code's name before the English
    assert not any("（bad_record）" in row["message_zh"] for row in read)


def test_the_reading_templates_fill_both_languages_from_the_same_names() -> None:
    for key, (zh, en) in READ_TEMPLATES.items():
        names_en = {part.split("}")[0].split("!")[0] for part in en.split("{")[1:] if part[:1] != "{"}
        names_zh = {part.split("}")[0].split("!")[0] for part in zh.split("{")[1:] if part[:1] != "{"}
        assert names_zh <= names_en, key
    assert all(READ_TEMPLATES[twin][1].startswith("row") or " row " in READ_TEMPLATES[twin][1]
               for twin in ROW_TWINS.values())  # fmt: skip


def test_a_bad_line_reads_in_chinese_with_lang_zh() -> None:
    lines = (
        (Path(__file__).parent / "golden" / "kongs_standard.jsonl").read_text(encoding="utf-8").splitlines()
    )
    report = validate_log(
        read_lines([*lines[:3], "{bad", '{"type": "draw", "tile": "5m"}', *lines[3:]], "x.jsonl")
    )
    zh = validation_text(report, "zh")
    assert "第 4 行：不是有效的 JSON" in zh
    assert "第 5 行：draw 事件缺少 'seat' 字段（应为座位号 0-3）" in zh
    assert "line 4: not valid JSON" in validation_text(report)


def test_a_spreadsheet_cell_reads_in_chinese() -> None:
    from test_spreadsheet import sheet

    from ingest.sheets.convert import log_of_sheet

    log = log_of_sheet(sheet([["1", "胡", "Zed", "", "Bo", "平胡"]]))
    found = next(f for _, deal in log.iter_deals() for f in deal.findings if f.code == "bad_record")
    assert (
        found.message
        == "row 4, column C (座位): 'Zed' is no seat: write 1-4 or a player's name (Ann, Bo, Chen, Du)"
    )
    assert render(found.message_key, found.message_values, "zh") == (
        "第 4 行，C 列（座位）：'Zed' 不是座位：请写 1-4 或玩家名字（Ann, Bo, Chen, Du）"
    )


def test_a_sheets_reader_finding_says_row_in_both_languages() -> None:
    from test_spreadsheet import csv_bytes

    from ingest.replay.files import read_log_bytes

    rows = [
        ["场次", "s1"],
        ["玩家", "Ann", "Bo"],
        ["局号", "事件", "得分1", "得分2", "得分3", "得分4"],
        ["1", "本局"],
    ]
    log = read_log_bytes(csv_bytes(rows), "t.csv")
    found = next(f for s in log.sessions for f in s.findings if f.message_key == "read_no_field_rows")
    assert (
        found.message == "row 1: the session event has no 'players' field "
        "(a list of player names (strings), one per seat (2 to 4, as the rules' seats say))"
    )
    assert found.message_zh.startswith("第 1 行：session 事件缺少 'players' 字段")


def test_a_tile_in_a_finding_is_drawn_and_the_rest_escaped() -> None:
    text = say("discard_not_held", seat={"seat": 1}, tile=tile("5m"))
    html = finding_html(
        type("F", (), {"message": text.en, "message_zh": text.zh, "message_key": text.key,
                       "message_values": text.values})(),
        "zh", ["Ann", "<b>Bo</b>", "C", "D"], 0,
    )  # fmt: skip
    assert 'class="cm-tile cm-m cm-small"' in html and 'data-tile="5m"' in html
    assert "&lt;b&gt;Bo&lt;/b&gt;（1 号位）打出" in html and "<b>" not in html
    # a stored message without a key: escaped, no tile drawn
    row = {"message": "<script>x</script>", "message_zh": None, "message_key": None, "message_values": None}
    assert row_html(row, "en") == "&lt;script&gt;x&lt;/script&gt;"
    # a mark written into the data is no HTML
    assert drawn("\ue000<i>\ue001 \ue000") == "&lt;i&gt; "


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_upload_pages_deals_table_shows_no_none(lang: str) -> None:
    from streamlit.testing.v1 import AppTest
    from test_dashboard_apptest import TIMEOUT

    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parent.parent)!r})\n"
        "from dashboard import page_kit\n"
        "from dashboard.app_pages.upload import show_report\n"
        "from ingest.logs.reader import read_lines\n"
        "from ingest.replay.validate import validate_log\n"
        "lines = open(" + repr(str(Path(__file__).parent / "golden" / "kongs_standard.jsonl")) + ").read().splitlines()\n"
        "deal = next(i for i, l in enumerate(lines) if '\"deal\"' in l and 'deal_id' in l)\n"
        "show_report(validate_log(read_lines([*lines[:deal + 1], '{\"type\": \"draw\", \"seat\": 0, \"tile\": \"5x\"}'], 'x.jsonl')))\n"
    )  # fmt: skip
    at = AppTest.from_string(script, default_timeout=TIMEOUT)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    tables = [element.value for element in at.dataframe]
    assert tables and not any("None" in table.astype(str).to_csv() for table in tables)


def test_an_exchange_line_outside_a_deal_reads_an_exchange_event() -> None:
    lines = (
        (Path(__file__).parent / "golden" / "kongs_standard.jsonl").read_text(encoding="utf-8").splitlines()
    )
    exchange = (
        '{"type": "exchange", "direction": "clockwise", "tiles": ["123m", "123m", "456p", "789s"], "zz": 1}'
    )
    log = read_lines([exchange, *lines], "x.jsonl")
    messages = [f.message for f in log.findings]
    assert "line 1: an exchange event outside any deal (no deal has started yet)" in messages
    assert "line 1: unknown field 'zz' on an exchange event; kept, but not checked" in messages


def test_a_kong_kind_written_in_english_takes_its_article() -> None:
    from test_spreadsheet import sheet

    from ingest.sheets.convert import log_of_sheet

    log = log_of_sheet(sheet([["1", "杠", "Ann", "added", "Bo", ""]]))
    messages = [f.message for _, deal in log.iter_deals() for f in deal.findings] + [
        f.message for f in log.findings
    ]
    assert any("an added (added kong) takes no discard" in m for m in messages), messages


def test_the_cli_says_a_reader_and_a_sheet_finding_in_chinese_with_lang_zh(tmp_path: Path) -> None:
    """``chuanma validate --lang zh``: a bad log line and a bad sheet cell in Chinese,
    rendered from their keys; the English report says them as before."""
    import subprocess
    import sys

    from test_spreadsheet import HEADER, PLAYERS, SESSION, csv_bytes

    lines = (
        (Path(__file__).parent / "golden" / "kongs_standard.jsonl").read_text(encoding="utf-8").splitlines()
    )
    (tmp_path / "log.jsonl").write_text("\n".join([*lines[:3], "{bad", *lines[3:]]) + "\n", encoding="utf-8")
    (tmp_path / "sheet.csv").write_bytes(
        csv_bytes([SESSION, PLAYERS, HEADER, ["1", "胡", "Zed", "", "Bo", "平胡"]])
    )
    script = Path(sys.executable).with_name("chuanma")
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "dashboard.cli"]

    def validate(lang: str) -> str:
        done = subprocess.run(
            [*command, "validate", str(tmp_path), "--lang", lang],
            capture_output=True, text=True, encoding="utf-8", timeout=120, check=False,
        )  # fmt: skip
        return done.stdout

    zh, en = validate("zh"), validate("en")
    assert "第 4 行：不是有效的 JSON" in zh and "line 4: not valid JSON" in en
    assert "第 4 行，C 列（座位）：'Zed' 不是座位" in zh
    assert "row 4, column C (座位): 'Zed' is no seat" in en
