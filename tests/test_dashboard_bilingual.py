"""The dashboard's language and count fixes, each through the real app (AppTest) on a real warehouse: every word in
both languages (no English label left on any page in 中文), one count of findings and of
deals with findings on every page and in ``chuanma stats``, a clashing upload said as a
warning, the state kept in the URL, and the small display fixes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from analytics.queries import Analytics
from dashboard.i18n import LABELS
from dashboard.safe_text import md
from dashboard.term_labels import code_label, rule_label, rules_label
from dashboard.warehouse_location import WAREHOUSE_ENV
from engine.vocabulary import END_REASONS, FINDING_CODES, PAYMENT_REASONS, PRESET_NAMES, RULE_NAMES
from ingest.logs.writer import log_lines, write_lines
from ingest.replay.validate import validate_paths
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.simulator.tamper import Tamperer
from ingest.warehouse import ingest

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample" / "logs"
CHUANMA = Path(sys.executable).parent / "chuanma"
TIMEOUT = 60
PAGES = ("overview", "players", "fans", "head_to_head", "replay", "audit", "upload")
CJK = re.compile(r"[\u3400-\u9fff]")


def app_at(warehouse: Path, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = value
    return at


def visible_texts(at: AppTest) -> list[str]:
    """What a reader sees as words: titles, headings, text, captions, alerts, metric and
    widget labels, table headers, and every chart's titles."""
    out: list[str] = []
    for kind in (
        "title",
        "header",
        "subheader",
        "markdown",
        "caption",
        "info",
        "warning",
        "error",
        "success",
    ):
        out += [str(getattr(e, "value", "")) for e in at.get(kind)]
    out += [str(m.label) for m in at.metric]
    for kind in ("selectbox", "radio", "button", "checkbox", "slider", "date_input", "file_uploader"):
        out += [str(getattr(e, "label", "")) for e in at.get(kind)]
    for element in at.get("arrow_data_frame"):
        config = json.loads(element.proto.columns or "{}")
        out += [str(c.get("label")) for c in config.values() if isinstance(c, dict) and c.get("label")]
    for element in at.get("vega_lite_chart"):
        spec = json.loads(element.proto.spec)
        out += chart_titles(spec)
    return out


def chart_titles(spec: Any) -> list[str]:
    found: list[str] = []
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key == "title" and isinstance(value, str) and value:
                found.append(value)
            else:
                found += chart_titles(value)
    elif isinstance(spec, list):
        for item in spec:
            found += chart_titles(item)
    return found


#: English words that must not be what a 中文 reader sees: every label's English side
#: that differs from its Chinese one (and is a word, not a format)
ENGLISH = sorted(
    {
        en
        for zh, en in LABELS.values()
        if en and en != zh and not CJK.search(en) and re.search("[A-Za-z]{3}", en)
    },
    key=len,
    reverse=True,
)
#: bits of English the pages once wrote around the labels
ENGLISH_BITS = ("line ", "rule `", " base ", "the deal ends", "seat ", "would have")


def english_left(texts: list[str], engine: list[str]) -> list[str]:
    """The texts that are an English label, or hold one of the English bits; the engine's
    own explanations (``engine``: English until the warehouse has ``message_zh``) are
    taken out first."""
    wrong = []
    for text in texts:
        plain = text.strip()
        for message in engine:
            plain = plain.replace(message, "")
        if plain in ENGLISH:
            wrong.append(plain)
        wrong += [f"{bit!r} in {plain[:80]!r}" for bit in ENGLISH_BITS if bit in plain]
    return wrong


# ------------------------------------------------------------------- both languages
def test_every_label_exists_in_both_languages() -> None:
    for key, (zh, en) in LABELS.items():
        assert zh.strip() and en.strip(), key
        words = re.sub(r"\{[^}]*\}", "", zh)  # a label of fields only ("{p} {kind} {tile}") is fine
        assert CJK.search(zh) or not re.search("[A-Za-z]", words), f"{key}: {zh!r} is not Chinese"
    for table in (FINDING_CODES, END_REASONS, PAYMENT_REASONS, RULE_NAMES, PRESET_NAMES):
        for key, (zh, en) in table.items():
            assert CJK.search(zh) and re.search("[A-Za-z]{3}", en), key
    assert LABELS["last_day"][0] == "最后一天" and LABELS["win_kinds_title"][0] == "胡牌方式"


def test_every_finding_code_the_validator_raises_has_a_name() -> None:
    report = validate_paths([SAMPLE])
    codes = {f.code for f in report.all_findings()}
    assert codes, "the sample holds tampered deals"
    assert codes <= set(FINDING_CODES), codes - set(FINDING_CODES)
    assert code_label("payment_mismatch", "zh") == "付分不符 payment_mismatch"
    assert (
        code_label("payment_mismatch", "en") == "payment_mismatch (payment mismatch)"
    )  # named in English too
    assert code_label("no_such_code", "en") == "no_such_code"
    assert rule_label("void_declaration", "zh") == "定缺 void_declaration"
    assert rule_label("void_declaration", "en") == "void_declaration (void declaration)"
    assert rules_label('chengdu+{"max_fan":4}', "zh") == '成都麻将 chengdu+{"max_fan":4}'
    assert rules_label("chengdu", "en") == "chengdu"


def test_every_rule_a_finding_names_has_a_name() -> None:
    """Every ``rule=`` the engine, the reader and the sheet audit give a finding, and every
    knob, is in RULE_NAMES (so the Audit page names it in both languages)."""
    import dataclasses
    import re
    from pathlib import Path

    from engine.rules import Rules

    root = Path(__file__).resolve().parent.parent
    given = {
        rule
        for folder in ("engine", "ingest")
        for path in (root / folder).rglob("*.py")
        for rule in re.findall(r'\brule="([a-z_ ]+)"', path.read_text(encoding="utf-8"))
    }
    knobs = {f.name for f in dataclasses.fields(Rules)} - {"name"}
    assert given and given <= set(RULE_NAMES), given - set(RULE_NAMES)
    assert knobs <= set(RULE_NAMES), knobs - set(RULE_NAMES)


def test_every_page_in_chinese_shows_no_english_label(
    warehouse: Path, api: Analytics, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``?lang=zh`` (the language from the URL), every page; the replay at a deal with a
    finding, the audit with its explained findings."""
    deal = str(
        api.sql("select deal_id from stg_findings where scope = 'deal' and severity = 'error' limit 1")[
            "deal_id"
        ].iloc[0]
    )
    at = app_at(warehouse, monkeypatch, lang="zh")
    at.run()
    assert not at.exception
    assert at.title[0].value == "概览"
    seen: dict[str, list[str]] = {"overview": visible_texts(at)}
    for page in PAGES[1:]:
        if page == "replay":
            at.query_params["deal"] = deal
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception, page
        seen[page] = visible_texts(at)
    at.switch_page("app_pages/replay.py").run()
    at.button[3].click().run()  # End: the end reason in words
    seen["replay end"] = visible_texts(at)
    messages = {str(m) for m in api.sql("select message from stg_findings")["message"]}
    # the engine's English explanations where no Chinese one is stored, as pages show them
    # (escaped: data is never rendered as markdown)
    engine = sorted(messages | {md(m) for m in messages}, key=len, reverse=True)
    wrong = {page: english_left(texts, engine) for page, texts in seen.items() if english_left(texts, engine)}
    assert not wrong
    assert any("第" in t and "行" in t for t in seen["audit"]), "findings say 第 N 行"
    assert any(CJK.search(t) for t in seen["replay end"] if "结束" in t)


def test_chart_dates_are_written_in_the_language(warehouse: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for lang, wanted in (("zh", "%m月%d日"), ("en", "%b %d")):
        at = app_at(warehouse, monkeypatch, lang=lang)
        at.run()
        spec = next(
            json.loads(e.proto.spec)
            for e in at.get("vega_lite_chart")
            if "week" in json.dumps(json.loads(e.proto.spec).get("encoding", {}))
        )
        assert spec["encoding"]["x"]["axis"]["format"] == wanted
        assert spec["mark"]["width"] == {"band": 0.85}  # a week wide, not a hairline


# ------------------------------------------------------------------- one count
def test_overview_audit_and_stats_count_findings_alike(
    warehouse: Path, api: Analytics, monkeypatch: pytest.MonkeyPatch
) -> None:
    # counted here from the stored findings themselves, not through the shared query
    errors = api.sql("select * from stg_findings where severity = 'error'")
    findings = len(errors)
    deals = errors["deal_id"].dropna().nunique()
    sessions_total = int((errors["scope"] == "session").sum())
    per_code_deals = int(errors.dropna(subset=["deal_id"]).groupby("code")["deal_id"].nunique().sum())
    assert deals <= per_code_deals  # a deal with two codes is one deal with findings

    at = app_at(warehouse, monkeypatch)
    at.run()
    overview = {m.label: m.value for m in at.metric}
    at.switch_page("app_pages/audit.py").run()
    audit = {m.label: m.value for m in at.metric}
    assert overview["Findings"] == audit["Findings"] == f"{findings:,}"
    assert overview["Deals with findings"] == audit["Deals with findings"] == f"{deals:,}"

    out = subprocess.run(
        [str(CHUANMA), "stats", "--warehouse", str(warehouse)], capture_output=True, text=True, check=True
    ).stdout
    assert f"findings {findings} (session totals {sessions_total} of them) in {deals} deals" in out
    out = subprocess.run(
        [str(CHUANMA), "stats", "--warehouse", str(warehouse), "--lang", "zh"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert f"问题 {findings} 个" in out and f"涉及 {deals} 个牌局" in out
    assert "胡牌率" in out and "avg fan" not in out


# ------------------------------------------------------------------- upload
def test_an_upload_that_clashes_is_a_warning_that_says_what_went_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = ClubPlan(sessions=1, deals_per_session=4, seed=31)
    first = tmp_path / "first.jsonl"
    write_lines(log_lines(simulate_club(plan)), first)
    warehouse = tmp_path / "warehouse"
    ingest([first], warehouse, workers=0)
    # another evening of the same club: other tiles, other deals, under the same deal ids
    other = list(log_lines(simulate_club(ClubPlan(sessions=1, deals_per_session=4, seed=32))))
    ids_first = [json.loads(x)["deal_id"] for x in first.read_text().splitlines() if '"type":"deal"' in x]
    ids_other = [json.loads(x)["deal_id"] for x in other if '"type":"deal"' in x]
    clash = "\n".join(other)
    for mine, theirs in zip(ids_other, ids_first, strict=True):
        clash = clash.replace(f'"deal_id":"{mine}"', f'"deal_id":"{theirs}"')
    at = app_at(warehouse, monkeypatch)
    at.run()
    at.switch_page("app_pages/upload.py").run()
    at.file_uploader[0].set_value(("clash.jsonl", clash.encode(), "application/octet-stream")).run()
    at.button(key="upload_ingest").click().run()
    assert not at.exception
    assert not [s.value for s in at.success], "a clash is not a green 'Ingested.'"
    warning = " ".join(w.value for w in at.warning)
    assert "conflicting_duplicate" in warning and "quarantine" in warning
    assert f"{len(ids_first)} deal id(s) already in the warehouse" in warning
    assert ids_first[0] in warning


# ------------------------------------------------------------------- small ones
def test_audit_cards_and_tables_show_no_nan_or_none(
    warehouse: Path, api: Analytics, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = app_at(warehouse, monkeypatch)
    at.run()
    at.switch_page("app_pages/audit.py").run()
    cards = [m.value for m in at.markdown]
    assert cards and not [c for c in cards if re.search(r"\bnan\b|\bNone\b", c)]
    table = next(e.value for e in at.dataframe if "explanation" in e.value.columns)
    for column in ("player", "rule", "session"):
        assert "None" not in {str(v) for v in table[column]}, column


def test_rescore_sentence_says_less_when_a_player_scores_less() -> None:
    from dashboard.i18n import label

    assert "lost" not in label("less", "en") and "less" in label("less", "en")
    assert "少" in label("less", "zh")


def test_a_deal_not_re_scored_says_why_in_both_languages() -> None:
    """A score sheet has no tiles to re-score; an invalid deal was not replayed to its end:
    the Audit page says so in the page's language."""
    import pandas as pd  # type: ignore[import-untyped]

    from dashboard.rescore import rescore_session

    deals = pd.DataFrame(
        {
            "deal_id": ["sheet-1", "broken-1"],
            "players": [["A", "B", "C", "D"]] * 2,
            "scores": [[2, -2, 0, 0], [0, 0, 0, 0]],
            "record": ["sheet", "tiles"],
            "status": ["ok", "invalid"],
            "base": [1, 1],
        }
    )
    result = rescore_session("s", deals, pd.DataFrame(), "chengdu")
    sheet, broken = result.deals
    assert sheet.problem_in("en") == "a score sheet: no tiles to re-score"
    assert sheet.problem_in("zh") == "记分表：没有牌可重算"
    assert broken.problem_in("zh") == "无效：未能回放到终局" and broken.problem_in("en") != broken.problem_in(
        "zh"
    )


def test_audit_link_opens_the_replay_at_the_clicked_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deal with findings on two lines: the link of the second opens at the second."""
    log = tmp_path / "tampered.jsonl"
    tamperer = Tamperer(1.0, seed=3)  # every deal, every kind: some deals break on two lines
    write_lines(tamperer.lines(simulate_club(ClubPlan(sessions=1, deals_per_session=8, seed=21))), log)
    warehouse = tmp_path / "warehouse"
    ingest([log], warehouse, workers=0)
    api = Analytics(warehouse)
    rows = api.sql(
        "select deal_id, list_sort(list_distinct(list(line))) as lines from stg_findings "
        "where scope = 'deal' and severity = 'error' and line is not null "
        "group by deal_id having count(distinct line) > 1 order by deal_id limit 1"
    )
    api.close()
    assert not rows.empty, "the tampered log holds a deal with findings on two lines"
    deal, lines = str(rows["deal_id"].iloc[0]), [int(x) for x in rows["lines"].iloc[0]]
    for line in (lines[-1], lines[0]):
        at = app_at(warehouse, monkeypatch, deal=deal, line=str(line))
        at.run()
        at.switch_page("app_pages/replay.py").run()
        assert not at.exception
        caption = next(c.value for c in at.caption if "step " in c.value)
        assert caption.endswith(f"line {line}"), (line, caption)


def test_players_page_says_when_two_clubs_share_a_name(
    warehouse: Path, api: Analytics, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fixture's two clubs (sample-club and east) draw names from the same list: players
    are per club, so such a name is one player per club, shown "Name (club)"."""
    seats = api.sql(
        "select distinct s.player, d.club from stg_seats s join stg_deals d using (deal_id) where d.is_complete"
    )
    shared = sorted(n for n, clubs in seats.groupby("player")["club"] if clubs.nunique() > 1)
    assert shared, "the two clubs share names"
    board = set(api.player_stats()["player"])
    for name in shared:
        clubs = seats[seats["player"] == name]["club"]
        assert {f"{name} ({club})" for club in clubs} <= board and name not in board
    at = app_at(warehouse, monkeypatch)
    at.run()
    at.switch_page("app_pages/players.py").run()
    warning = " ".join(w.value for w in at.warning)
    assert all(f"{name} (" in warning for name in shared), warning
    at = app_at(warehouse, monkeypatch, player=shared[0])  # the bare name: several players
    at.run()
    at.switch_page("app_pages/players.py").run()
    warning = " ".join(w.value for w in at.warning)
    assert "plays in several clubs" in warning and f"{shared[0]} (east)" in warning, warning
    at = app_at(warehouse, monkeypatch, club="east")
    at.run()
    at.switch_page("app_pages/players.py").run()
    assert not [w.value for w in at.warning if "more than one club" in w.value]


def test_dates_and_rules_from_the_url_filter_every_page(
    warehouse: Path, api: Analytics, monkeypatch: pytest.MonkeyPatch
) -> None:
    days = api.sql(
        "select distinct played_date from stg_deals where played_date is not null and rules = 'standard' order by 1"
    )
    first, last = days["played_date"].iloc[3].date(), days["played_date"].iloc[-4].date()
    at = app_at(
        warehouse, monkeypatch, **{"from": first.isoformat(), "to": last.isoformat(), "rules": "standard"}
    )
    at.run()
    assert not at.exception
    shown = {m.label: m.value for m in at.metric}
    assert shown["First day"] == first.isoformat() and shown["Last day"] == last.isoformat()
    expected = api.sql(
        "select count(*) as n from stg_deals where played_date between $a and $b and rules = 'standard'",
        {"a": first, "b": last},
    )["n"].iloc[0]
    assert shown["Deals"] == f"{int(expected):,}"
    assert at.query_params["from"] == [first.isoformat()] or at.query_params["from"] == first.isoformat()
