"""A finding's message as a template key and its values, rendered at the edge.

The stored ``message``/``message_zh`` are the default voice's rendering, byte for byte the
words the engine wrote before templates (``tests/finding_messages.jsonl``: findings of
the test corpus, each with the text the engine wrote then); a page and the CLI render the
same key and values with the players' names, each seat beside its name counted as the
source counts it (a tile log 0–3, a score sheet and a spreadsheet 1–4), payments per
player, and a warehouse written before the key was stored shows its stored messages.
"""

from __future__ import annotations

import json
from html import unescape
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest

from dashboard.cli.reports import validation_text
from dashboard.findings_view import finding_text, page_tile, row_text
from engine.messages import TEMPLATES, render, say, seat, tile
from engine.voice import DEFAULT, NamedVoice
from ingest.logs.reader import read_lines
from ingest.replay.validate import validate_log

GOLDEN = Path(__file__).parent / "golden"
CORPUS = Path(__file__).parent / "finding_messages.jsonl"


def corpus() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]


def test_the_default_voice_renders_the_messages_as_the_engine_wrote_them() -> None:
    rows = corpus()
    assert len({row["key"] for row in rows}) >= 50
    for row in rows:
        assert render(row["key"], row["values"], "en") == row["message"], row["key"]
        assert render(row["key"], row["values"], "zh") == row["message_zh"], row["key"]


def test_every_template_fills_both_languages_from_the_same_names() -> None:
    for key, (zh, en) in TEMPLATES.items():
        names_en = {part.split("}")[0].split("!")[0] for part in en.split("{")[1:]}
        names_zh = {part.split("}")[0].split("!")[0] for part in zh.split("{")[1:]}
        # a Chinese template may leave out a value the English names (what, a)
        assert names_zh <= names_en, key


def test_a_named_voice_says_names_beside_seats_and_payments_per_player() -> None:
    text = say(
        "kong_payment", seat=seat(2), tile=tile("5m"), rule=say("kong_each", pays=1),
        expected={"amounts": [-1, -1, 3, -1]}, recorded={"amounts": [0, 0, 0, 0]},
    )  # fmt: skip
    assert text.en == (
        "seat 2's kong of 5m: each other seat still in pays 1; expected [-1, -1, 3, -1], recorded [0, 0, 0, 0]"
    )
    voice = NamedVoice(["张三", "李四", "王五", "赵六"], first=1, tile=page_tile)
    assert render(text.key, text.values, "en", voice) == (
        "王五 (seat 3)'s kong of 5万: each other seat still in pays 1; "
        "expected 张三 \u22121, 李四 \u22121, 王五 +3, 赵六 \u22121, recorded no payment"
    )
    assert render(text.key, text.values, "zh", voice) == (
        "王五（3 号位）的杠 5万：其余未胡的每家付 1 底；应为 张三 \u22121, 李四 \u22121, 王五 +3, 赵六 \u22121，记录为 无人付分"
    )
    assert render(text.key, text.values, "en", DEFAULT) == text.en


def test_fixed_english_wordings() -> None:
    from engine.messages import doing, said_text, sheet_from_not_exposed, sheet_play_event

    assert sheet_from_not_exposed("added").en.startswith("an added kong takes")
    assert sheet_from_not_exposed("concealed").en.startswith("a concealed kong takes")
    assert sheet_play_event("exchange").en.startswith("an exchange event")
    assert sheet_play_event("draw").en.startswith("a draw event")
    assert said_text(doing("make an added kong")).zh == "弯杠"


def tampered_kong_log() -> list[str]:
    lines = (GOLDEN / "kongs_standard.jsonl").read_text(encoding="utf-8").splitlines()
    kong = json.loads(lines[5])  # Bo's exposed kong of 2m, fed by Ann: [-1, 1, 0, 0]
    assert kong["type"] == "kong" and kong["seat"] == 1
    kong["deltas"] = [0, 0, 0, 0]
    return [*lines[:5], json.dumps(kong), *lines[6:]]


def test_validate_names_the_players_of_a_tile_log_with_seats_0_to_3() -> None:
    report = validate_log(read_lines(tampered_kong_log(), "kongs.jsonl"))
    finding = next(f for f in report.all_findings() if f.code == "payment_mismatch")
    assert finding.message.startswith("seat 1's kong of 2m")  # stored: the default voice
    assert finding.to_json()["message_key"] == "kong_payment"
    text = validation_text(report)
    assert "line 6 Bo (seat 1) payment_mismatch (payment mismatch): Bo (seat 1)'s kong of 2m:" in text
    assert "expected Ann \u22121, Bo +1, recorded no payment" in text
    zh = validation_text(report, "zh")
    assert "Bo（1 号位）的杠 2m" in zh and "应为 Ann \u22121, Bo +1，记录为 无人付分" in zh


def test_validate_names_the_players_of_a_spreadsheet_with_seats_1_to_4() -> None:
    from test_spreadsheet import sheet

    from ingest.sheets.convert import log_of_sheet

    rows = [["1", "胡", "Ann", "", "Chen", "清一色"], ["1", "胡", "Bo", "", "自摸", "杠上花"], ["1", "查叫"]]
    report = validate_log(log_of_sheet(sheet(rows)))
    finding = next(f for f in report.all_findings() if f.code == "impossible_pattern")
    assert finding.seat == 1 and finding.message.startswith("seat 1 claims 杠上花")
    text = validation_text(report)
    assert (
        "Bo (seat 2) impossible_pattern (impossible pattern): Bo (seat 2) claims 杠上花 (bloom after a kong)"
        in text
    )
    assert "no kong of Bo (seat 2)" in text
    assert "seat 1" not in text.split("impossible_pattern", 1)[1].splitlines()[0]


def test_a_stored_finding_without_a_key_shows_its_stored_message() -> None:
    row = {"message": "old words", "message_zh": "旧的话", "message_key": None, "message_values": None}
    assert row_text(row, "en") == "old words" and row_text(row, "zh") == "旧的话"
    assert row_text({**row, "message_key": float("nan"), "message_values": float("nan")}, "en") == "old words"
    # a key this engine does not know (a newer one's): the stored words too
    assert finding_text("old words", None, "from_the_future", "{}", "en") == "old words"


def test_a_warehouse_written_before_the_key_columns_still_shows_its_messages(tmp_path: Path) -> None:
    from analytics.queries import Analytics
    from ingest.warehouse import ingest

    log = tmp_path / "kongs.jsonl"
    log.write_text("\n".join(tampered_kong_log()) + "\n", encoding="utf-8")
    warehouse = tmp_path / "warehouse"
    ingest([log], warehouse, workers=0)
    for path in warehouse.rglob("*.parquet"):
        table = pq.read_table(path)
        if "message_key" in table.column_names:  # as a batch written before the columns
            pq.write_table(table.drop_columns(["message_key", "message_values"]), path)
    api = Analytics(warehouse)
    try:
        rows = api.sql("select * from mart_findings where code = 'payment_mismatch'").to_dict(
            orient="records"
        )
    finally:
        api.close()
    assert rows and all(row["message_key"] is None for row in rows)
    assert row_text(rows[0], "en").startswith("seat 1's kong of 2m")


def test_a_new_warehouse_renders_its_findings_with_the_deals_players(tmp_path: Path) -> None:
    from analytics.queries import Analytics
    from ingest.warehouse import ingest

    log = tmp_path / "kongs.jsonl"
    log.write_text("\n".join(tampered_kong_log()) + "\n", encoding="utf-8")
    warehouse = tmp_path / "warehouse"
    ingest([log], warehouse, workers=0)
    api = Analytics(warehouse)
    try:
        rows = api.sql("select * from mart_findings where code = 'payment_mismatch'").to_dict(
            orient="records"
        )
    finally:
        api.close()
    assert rows[0]["message_key"] == "kong_payment"
    assert row_text(rows[0], "en").startswith("Bo (seat 1)'s kong of 2万")
    assert row_text(rows[0], "zh").startswith("Bo（1 号位）的杠 2万")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_forgotten_players_name_never_appears_in_a_rendered_finding(lang: str, tmp_path: Path) -> None:
    from analytics.queries import Analytics
    from analytics.roster import forget_player
    from ingest.warehouse import ingest

    lines = tampered_kong_log()
    session = json.loads(lines[0])
    session["club"] = "west"
    log = tmp_path / "kongs.jsonl"
    log.write_text("\n".join([json.dumps(session), *lines[1:]]) + "\n", encoding="utf-8")
    warehouse = tmp_path / "warehouse"
    ingest([log], warehouse, workers=0)
    shown = forget_player(warehouse, "west", "Bo").shown
    api = Analytics(warehouse)
    try:
        rows = api.sql("select * from mart_findings").to_dict(orient="records")
    finally:
        api.close()
    texts = [row_text(row, lang) for row in rows]  # type: ignore[arg-type]
    assert any(shown in text for text in texts)
    assert not any("Bo" in text for text in texts)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_audit_session_and_replay_pages_name_the_player_in_a_finding(
    lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.testing.v1 import AppTest
    from test_dashboard_apptest import APP, TIMEOUT

    from dashboard.warehouse_location import WAREHOUSE_ENV
    from ingest.warehouse import ingest

    log = tmp_path / "kongs.jsonl"
    log.write_text("\n".join(tampered_kong_log()) + "\n", encoding="utf-8")
    warehouse = tmp_path / "warehouse"
    ingest([log], warehouse, workers=0)
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("app_pages/audit.py").run()
    assert not at.exception, [e.value for e in at.exception]
    said = "Bo (seat 1)'s kong of 2万" if lang == "en" else "Bo（1 号位）的杠 2万"
    tables = [element.value for element in at.dataframe]
    assert any(said in str(text) for table in tables for text in table.get("explanation", []))
    # the explained card draws the tile as the page draws tiles; the table keeps "2万"
    face = 'data-tile="2m"><span class="cm-r">2</span><span class="cm-u">万</span>'
    drawn = said.replace("2万", "")
    assert any(drawn in unescape(h.value) and face in h.value for h in at.html), [h.value for h in at.html]
    assert not any("None" in table.astype(str).to_csv() for table in tables)
    at.switch_page("app_pages/session.py").run()
    assert not at.exception, [e.value for e in at.exception]
    tables = [element.value for element in at.dataframe]
    assert any(said in str(text) for table in tables for text in table.get("explanation", []))
    at.query_params["deal"] = "kongs-standard-1"
    at.switch_page("app_pages/replay.py").run()  # opens at the deal's first finding
    assert not at.exception, [e.value for e in at.exception]
    blocks = [h.value for h in at.html if "cm-finding" in h.value]
    assert any(drawn in unescape(block) and face in block for block in blocks), blocks


def test_replay_names_the_players_in_its_findings(tmp_path: Path) -> None:
    from test_session_replay import run_replay

    log = tmp_path / "kongs.jsonl"
    log.write_text("\n".join(tampered_kong_log()) + "\n", encoding="utf-8")
    done = run_replay(str(log), "--deal", "kongs-standard-1")
    assert done.returncode == 3, done.stderr
    assert (
        "!! line 6 Bo (seat 1) payment_mismatch (payment mismatch): Bo (seat 1)'s kong of 2m" in done.stdout
    )
    assert "expected Ann \u22121, Bo +1, recorded no payment" in done.stdout
    zh = run_replay(str(log), "--deal", "kongs-standard-1", "--lang", "zh")
    assert "Bo（1 号位）的杠 2m" in zh.stdout


def test_validate_json_keeps_its_keys_and_adds_the_template() -> None:
    report = validate_log(read_lines(tampered_kong_log(), "kongs.jsonl"))
    found = report.to_json()["deals"][0]["findings"][0]
    assert list(found)[:7] == ["code", "line", "seat", "message", "message_zh", "expected", "recorded"]
    assert found["message_key"] == "kong_payment"
    values = found["message_values"]
    assert values["seat"] == {"seat": 1} and values["expected"] == {"amounts": [-1, 1, 0, 0]}
    assert render(found["message_key"], json.loads(json.dumps(values)), "en") == found["message"]
