"""Recording at the table: the pure line builder (facts -> sheet-deal lines priced by the
engine, validated with no findings), deal revisions through the real warehouse (the
latest counts, every revision listed, nothing quarantined), and the Record page through
AppTest in English and Chinese (a kong and a 自摸, the priced payments and totals, saved
into the warehouse, and the draft surviving a reload)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

from analytics.queries import Analytics
from dashboard.record_draft import Draft, draft_path, load_draft, save_deal, save_draft
from dashboard.token_guard import GUARD
from dashboard.warehouse_location import UPLOAD_TOKEN_ENV, WAREHOUSE_ENV
from ingest.logs.revisions import revision_id, split_revision
from ingest.replay.files import read_log_bytes
from ingest.replay.validate import validate_log
from ingest.sheets.record import (
    DealFacts,
    EndFact,
    KongFact,
    SessionFacts,
    WinFact,
    deal_lines,
    log_text,
    picked_patterns,
    price,
)
from ingest.warehouse import ingest

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
TIMEOUT = 60
EVENING = SessionFacts("club7-2026-11-28-t3", ("Ann", "Bo", "Chen", "Du"), "standard", 1, "club7", "t3")

# The example evening of docs/score-sheets.md, worked out by hand there (standard, base 1).
DEAL_1 = DealFacts(
    "club7-2026-11-28-t3-01",
    0,
    (
        KongFact(2, "exposed", 1),  # Chen 直杠 from Bo: Bo pays 1
        WinFact(2, None, ("duiduihu",)),  # Chen 自摸 对对胡 + 根 (his kong) = 3 fan: 4 from each
        WinFact(0, 3, ("qingyise",)),  # Ann on Du's discard, 清一色 3 fan: 4
        KongFact(1, "concealed"),  # Bo 暗杠: 2 from Du, the only other seat still in
    ),
    EndFact((None, 2, None, None), (3,)),  # Du 花猪 pays Bo 16
)
DEAL_2 = DealFacts(
    "club7-2026-11-28-t3-02",
    2,
    (
        KongFact(3, "added"),  # Du 弯杠: 1 from each
        WinFact(0, 1, ("qidui",)),  # 一炮多响 on Bo: Ann 七对 3 fan, 4
        WinFact(2, 1, ("pinghu",)),  # ... and Chen 平胡, 1
        KongFact(1, "concealed"),  # Bo 暗杠: 2 from Du
        WinFact(3, None, ("qingyise",)),  # Du 自摸 清一色 + 根 = 4 fan: 8 from Bo
    ),
    EndFact(),
)
DEAL_3 = DealFacts(
    "club7-2026-11-28-t3-03",
    0,
    (
        KongFact(0, "exposed", 2),  # Ann 直杠 from Chen: 1
        WinFact(1, 0, ("pinghu", "gangshangpao")),  # 平胡 + 杠上炮 = 2 fan: 2, plus the kong's 1
    ),
    EndFact((None, None, 1, None), ()),  # Chen ready at 1: Ann and Du pay 1 each; Ann's 退税 0
)
HAND_DELTAS = {
    DEAL_1.deal_id: [[0, -1, 1, 0], [-4, -4, 12, -4], [4, 0, 0, -4], [0, 2, 0, -2]],
    DEAL_2.deal_id: [[-1, -1, -1, 3], [4, -4, 0, 0], [0, -1, 1, 0], [0, 2, 0, -2], [0, -8, 0, 8]],
    DEAL_3.deal_id: [[1, 0, -1, 0], [-3, 3, 0, 0]],
}
HAND_SETTLEMENT = {
    DEAL_1.deal_id: [0, 16, 0, -16],
    DEAL_2.deal_id: [0, 0, 0, 0],
    DEAL_3.deal_id: [-1, 0, 2, -1],
}
HAND_SCORES = {
    DEAL_1.deal_id: [0, 13, 13, -26],
    DEAL_2.deal_id: [3, -12, 0, 9],
    DEAL_3.deal_id: [-3, 3, 1, -1],
}


@pytest.fixture(autouse=True)
def on_localhost(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Writing is open on localhost without a token (the Upload page's rule); the address
    is Streamlit's process-wide option, so it is put back."""
    previous = config.get_option("server.address")
    config.set_option("server.address", "localhost")
    monkeypatch.delenv(UPLOAD_TOKEN_ENV, raising=False)
    yield
    config.set_option("server.address", previous)


# ------------------------------------------------------------------ the line builder
def test_lines_carry_the_hand_worked_payments_and_validate_clean() -> None:
    for deal in (DEAL_1, DEAL_2, DEAL_3):
        records = [json.loads(line) for line in deal_lines(EVENING, deal)]
        assert records[0] == {
            "type": "deal",
            "deal_id": deal.deal_id,
            "record": "sheet",
            "dealer": deal.dealer,
        }
        assert [r["deltas"] for r in records[1:-1]] == HAND_DELTAS[deal.deal_id]
        assert records[-1]["settlement"] == HAND_SETTLEMENT[deal.deal_id]
        assert records[-1]["scores"] == HAND_SCORES[deal.deal_id]
    text = log_text(EVENING, [DEAL_1, DEAL_2, DEAL_3])
    report = validate_log(read_log_bytes(text.encode(), "evening.jsonl"))
    assert report.summary()["finding_count"] == 0 and report.summary()["ok"] == 3
    assert {d.deal_id: list(d.scores) for d in report.deals} == HAND_SCORES
    assert all(d.record == "sheet" for d in report.deals)


def test_the_evening_ingests_clean(tmp_path: Path) -> None:
    log = tmp_path / "evening.jsonl"
    log.write_text(log_text(EVENING, [DEAL_1, DEAL_2, DEAL_3]), encoding="utf-8")
    summary = ingest([log], tmp_path / "wh", workers=0)
    assert (summary.read, summary.ok, summary.findings, summary.invalid) == (3, 3, 0, 0)
    assert summary.all_ok and not summary.quarantine


def test_lines_write_the_patterns_as_scored() -> None:
    records = [json.loads(line) for line in deal_lines(EVENING, DEAL_1)]
    assert records[2]["patterns"] == ["duiduihu", "gen"] and records[2]["fan"] == 3  # 根 of his kong
    ended = [json.loads(line) for line in deal_lines(EVENING, DEAL_2)][-1]
    assert ended["reason"] == "three_won" and "ready" not in ended


def test_picked_chips_make_one_base_pattern() -> None:
    assert picked_patterns([]) == ("pinghu",)
    assert picked_patterns(["qingyise", "duiduihu"], 2) == ("qingdui", "gen", "gen")
    assert picked_patterns(["gangshanghua", "qidui"]) == ("qidui", "gangshanghua")


def test_the_fan_is_capped_by_the_session_rules() -> None:
    capped = SessionFacts("s", ("A", "B", "C", "D"), {"preset": "standard", "max_fan": 2})
    deal = DealFacts("s-01", 0, (WinFact(0, None, ("qingdui",)),))
    assert price(capped, deal).fans == [2]
    assert price(EVENING, deal).fans == [4]


def test_an_unended_deal_is_not_written() -> None:
    with pytest.raises(ValueError, match="has not ended"):
        deal_lines(EVENING, DealFacts("x", 0, (KongFact(0, "concealed"),)))


def test_an_impossible_fact_is_a_finding_not_a_price() -> None:
    deal = DealFacts(
        "s-01", 0, (WinFact(0, None, ("pinghu",)), KongFact(0, "concealed"))
    )  # a kong after winning
    priced = price(EVENING, deal)
    assert [f.code for f in priced.findings] == ["out_of_turn"]
    with pytest.raises(ValueError, match="cannot be recorded"):
        deal_lines(EVENING, DealFacts("s-01", 0, deal.events, EndFact()))


# ------------------------------------------------------------------ revisions
def test_revision_ids_round_trip() -> None:
    assert revision_id("d-01", 1) == "d-01" and revision_id("d-01", 3) == "d-01~rev3"
    assert split_revision("d-01~rev3") == ("d-01", 3) and split_revision("d-01") == ("d-01", 1)
    bad = '{"type":"session","session_id":"s","players":["A","B","C","D"]}\n'
    bad += '{"type":"deal","deal_id":"s-1","record":"sheet","revision":0}\n{"type":"deal_end","reason":"wall_exhausted"}\n'
    report = validate_log(read_log_bytes(bad.encode(), "bad.jsonl"))
    assert report.summary()["by_code"].get("bad_record")


def test_a_correction_is_a_revision_the_latest_counts(tmp_path: Path) -> None:
    warehouse = tmp_path / "wh"
    _, first = save_deal(warehouse, EVENING, DEAL_3)
    corrected = DealFacts(
        DEAL_3.deal_id, 0, (KongFact(0, "exposed", 2),), EndFact((None, None, 1, None), ()), 2
    )
    _, second = save_deal(warehouse, EVENING, corrected)
    assert not first.conflicts and not second.conflicts and not second.quarantine
    expected = list(price(EVENING, corrected).scores)
    assert expected != HAND_SCORES[DEAL_3.deal_id]
    api = Analytics(warehouse)
    try:
        deals = api.sql("select deal_id, scores from stg_deals")
        assert deals["deal_id"].tolist() == [f"{DEAL_3.deal_id}~rev2"]
        assert list(deals["scores"].iloc[0]) == expected
        ledger = api.sql("select payee, payer, amount from stg_ledger")
        net = [0, 0, 0, 0]
        for payee, payer, amount in ledger.itertuples(index=False):
            net[payee] += amount
            net[payer] -= amount
        assert net == expected  # the payments of the latest revision only
        revisions = api.sql(
            "select deal_id, revision, is_latest, scores from stg_deal_revisions order by revision"
        )
        assert revisions["deal_id"].tolist() == [DEAL_3.deal_id] * 2
        assert revisions["revision"].tolist() == [1, 2] and revisions["is_latest"].tolist() == [False, True]
        assert list(revisions["scores"].iloc[0]) == HAND_SCORES[DEAL_3.deal_id]  # kept, not overwritten
        assert api.sql("select count(*) as n from stg_quarantine")["n"].iloc[0] == 0
    finally:
        api.close()
    # the same revision number with other content overwrites nothing: it is quarantined
    other = DealFacts(DEAL_3.deal_id, 0, (KongFact(0, "concealed"),), EndFact((None, None, 1, None), ()), 2)
    _, clash = save_deal(warehouse, EVENING, other)
    assert [c["deal_id"] for c in clash.conflicts] == [f"{DEAL_3.deal_id}~rev2"]


def test_the_audit_page_lists_both_revisions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    warehouse = tmp_path / "wh"
    save_deal(warehouse, EVENING, DEAL_3)
    save_deal(warehouse, EVENING, DealFacts(DEAL_3.deal_id, 0, DEAL_3.events[:1], DEAL_3.end, 2))
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("app_pages/audit.py").run()
    assert not at.exception, [e.value for e in at.exception]
    tables = [t.value for t in at.dataframe if "is_latest" in t.value.columns]
    assert len(tables) == 1
    assert tables[0]["revision"].tolist() == [2, 1] and tables[0]["is_latest"].tolist() == [True, False]


# ------------------------------------------------------------------ the page
TEXT = {
    "en": {"title": "Record", "kong": "Bo → Chen 1 (直杠 exposed kong)", "self": "Ann → Chen 4 (自摸 self-draw win)",
           "fan": "### 3 fan", "saved": "Saved"},
    "zh": {"title": "记分", "kong": "Bo → Chen 1（直杠）", "self": "Ann → Chen 4（自摸）", "fan": "### 3 番",
           "saved": "已保存"},
}  # fmt: skip


def markdown(at: AppTest) -> str:
    return "\n".join(str(m.value) for m in at.markdown)


def totals(at: AppTest) -> dict[str, str]:
    return {str(m.label): str(m.value) for m in at.metric}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_record_a_deal_on_the_page(lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    warehouse = tmp_path / "wh"
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["lang"] = lang
    at.run()
    at.switch_page("app_pages/record.py").run()
    assert at.title[0].value == TEXT[lang]["title"]
    for key, value in [("record_club", "club7"), ("record_table", "t3"), ("record_sid_input", "night")]:
        at.text_input(key=key).input(value)
    for seat, name in enumerate(("Ann", "Bo", "Chen", "Du")):
        at.text_input(key=f"record_player_{seat}").input(name)
    at.button(key="record_begin").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.query_params["record"] == ["night"] or at.query_params["record"] == "night"

    # Chen 直杠 from Bo
    at.button_group(key="record_action_0").set_value("kong").run()
    at.button_group(key="record_kong_who_0").set_value(2).run()
    at.button_group(key="record_kong_kind_0").set_value("exposed").run()
    at.button_group(key="record_kong_from_0").set_value(1).run()
    at.button(key="record_kong_add_0").click().run()
    assert TEXT[lang]["kong"] in markdown(at)
    assert totals(at) == {"Ann": "+0", "Bo": "-1", "Chen": "+1", "Du": "+0"}

    # Chen 自摸 对对胡: the fan (with the 根 of his kong) shows as the chips are picked
    at.button_group(key="record_win_who_1").set_value(2).run()
    at.button_group(key="record_win_from_1").set_value(-1).run()
    at.button_group(key="record_win_patterns_1").set_value(["duiduihu"]).run()
    assert TEXT[lang]["fan"] in [m.value for m in at.markdown]
    at.button(key="record_win_add_1").click().run()
    assert TEXT[lang]["self"] in markdown(at)
    assert totals(at) == {"Ann": "-4", "Bo": "-5", "Chen": "+13", "Du": "-4"}

    # the wall's end: nobody ready, so Ann, Bo and Du pay nothing more; then save
    at.button(key="record_save_2").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.success and at.success[0].value.startswith(TEXT[lang]["saved"])
    uploads = list((warehouse / "uploads").glob("record-night-01-r1-*.jsonl"))
    assert len(uploads) == 1
    api = Analytics(warehouse)
    try:
        stored = api.sql("select deal_id, session_id, status, scores from stg_deals")
        assert stored["deal_id"].tolist() == ["night-01"] and stored["status"].tolist() == ["ok"]
        assert list(stored["scores"].iloc[0]) == [-4, -5, 13, -4]
    finally:
        api.close()

    # a reload (a new browser session with the address) finds the draft and its totals
    again = AppTest.from_file(APP, default_timeout=TIMEOUT)
    again.session_state["lang"] = lang
    again.query_params["record"] = "night"
    again.run()
    again.switch_page("app_pages/record.py").run()
    assert not again.exception, [e.value for e in again.exception]
    assert totals(again) == {"Ann": "-4", "Bo": "-5", "Chen": "+13", "Du": "-4"}
    assert again.header[0].value == ("Deal 02" if lang == "en" else "第 02 局")

    # closing the session (it asks first) keeps its draft; starting another under the same id
    # overwrites nothing
    again.button(key="record_close").click().run()
    again.button(key="record_close_yes").click().run()
    assert "record" not in again.query_params
    for key, value in [("record_sid_input", "night"), *((f"record_player_{n}", "ABCD"[n]) for n in range(4))]:
        again.text_input(key=key).input(value)
    again.button(key="record_begin").click().run()
    assert again.error and "night" in again.error[0].value
    kept = load_draft(warehouse, "night")
    assert kept is not None and [d.deal_id for d in kept.saved] == ["night-01"]
    assert kept.session.players == ("Ann", "Bo", "Chen", "Du")


def test_the_draft_round_trips(tmp_path: Path) -> None:
    draft = Draft(EVENING, [DEAL_1, DEAL_2], DealFacts(DEAL_3.deal_id, 0, DEAL_3.events, None, 2))
    save_draft(tmp_path, draft)
    assert draft_path(tmp_path, EVENING.session_id).is_file()
    back = load_draft(tmp_path, EVENING.session_id)
    assert back == draft
    assert back is not None and back.next_dealer() == 0  # Ann won first in deal 2: she deals next


# ------------------------------------------------------------------ who may record
def record_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, address: str, token: str | None) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(tmp_path / "wh"))
    if token is not None:
        monkeypatch.setenv(UPLOAD_TOKEN_ENV, token)
    config.set_option("server.address", address)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("app_pages/record.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_recording_is_read_only_beyond_localhost_without_a_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = record_page(tmp_path, monkeypatch, "0.0.0.0", None)
    assert at.info and "Read-only" in at.info[0].value
    assert not [b for b in at.button if b.key == "record_begin"]
    assert not (tmp_path / "wh").exists()


def test_recording_asks_for_the_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = record_page(tmp_path, monkeypatch, "0.0.0.0", "s3cret")
    assert not [b for b in at.button if b.key == "record_begin"]
    at.text_input(key="record_token").input("wrong").run()
    assert not [b for b in at.button if b.key == "record_begin"]
    GUARD.clients.clear()  # the wait a wrong token earns: tests/test_upload_safety.py
    at.text_input(key="record_token").input("s3cret").run()
    assert [b for b in at.button if b.key == "record_begin"]


def test_correct_a_saved_deal_on_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    warehouse = tmp_path / "wh"
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("app_pages/record.py").run()
    for key, value in [("record_sid_input", "fix"), *((f"record_player_{n}", "ABCD"[n]) for n in range(4))]:
        at.text_input(key=key).input(value)
    at.button(key="record_begin").click().run()

    def self_draw(step: int, patterns: list[str]) -> None:
        at.button_group(key=f"record_win_who_{step}").set_value(0).run()
        at.button_group(key=f"record_win_from_{step}").set_value(-1).run()
        at.button_group(key=f"record_win_patterns_{step}").set_value(patterns).run()
        at.button(key=f"record_win_add_{step}").click().run()

    self_draw(0, [])  # A 自摸 平胡: 1 from each
    at.button(key="record_save_1").click().run()
    at.button(key="record_correct_0").click().run()  # it was a 清一色
    assert at.header[0].value == "Correcting deal 01 (revision 2)"
    at.button(key="record_undo_3").click().run()
    self_draw(4, ["qingyise"])
    at.button(key="record_save_5").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.success[0].value.startswith("Saved") and "revision 2" in at.success[0].value
    assert totals(at) == {"A": "+12", "B": "-4", "C": "-4", "D": "-4"}
    api = Analytics(warehouse)
    try:
        latest = api.sql("select deal_id, scores from stg_deals")
        assert latest["deal_id"].tolist() == ["fix-01~rev2"] and list(latest["scores"].iloc[0]) == [
            12,
            -4,
            -4,
            -4,
        ]
        every = api.sql("select revision, scores from stg_deal_revisions order by revision")
        assert [list(s) for s in every["scores"]] == [[3, -1, -1, -1], [12, -4, -4, -4]]
        assert api.sql("select count(*) as n from stg_quarantine")["n"].iloc[0] == 0
    finally:
        api.close()


# ------------------------------------------------------------------ checks and corrections
def start(at: AppTest, session_id: str, lang: str = "en") -> None:
    """Open the Record page and begin a standard session of A, B, C, D (A deals)."""
    at.session_state["lang"] = lang
    at.run()
    at.switch_page("app_pages/record.py").run()
    for key, value in [
        ("record_sid_input", session_id),
        *((f"record_player_{n}", "ABCD"[n]) for n in range(4)),
    ]:
        at.text_input(key=key).input(value)
    at.button(key="record_begin").click().run()
    assert not at.exception, [e.value for e in at.exception]


def pick_win(at: AppTest, step: int, who: int, source: int, patterns: list[str], prefix: str = "") -> None:
    at.button_group(key=f"record_{prefix}win_who_{step}").set_value(who).run()
    at.button_group(key=f"record_{prefix}win_from_{step}").set_value(source).run()
    at.button_group(key=f"record_{prefix}win_patterns_{step}").set_value(patterns).run()


def add_kong(at: AppTest, step: int, who: int, kind: str, source: int | None = None) -> None:
    at.button_group(key=f"record_action_{step}").set_value("kong").run()
    at.button_group(key=f"record_kong_who_{step}").set_value(who).run()
    at.button_group(key=f"record_kong_kind_{step}").set_value(kind).run()
    if source is not None:
        at.button_group(key=f"record_kong_from_{step}").set_value(source).run()
    at.button(key=f"record_kong_add_{step}").click().run()


WRONG = {  # the sheet audit's message, shown under the chips (by name, the seat counted 1-4)
    "en": ("B (seat 2) claims 杠上花 (bloom after a kong)", "right after the winner's own kong",
           "B (seat 2) claims 天胡 (heavenly win), but B (seat 2) is not the dealer"),
    "zh": ("B（2 号位）记杠上花", "自己开杠后紧接着自摸", "B（2 号位）记天胡，但 B（2 号位）不是庄家"),
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_shows_the_audits_finding_before_a_win(
    lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WAREHOUSE_ENV, str(tmp_path / "wh"))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    start(at, "checks", lang)
    pick_win(at, 0, 1, -1, ["gangshanghua"])  # B 杠上花 with no kong of B before
    bloom, rule, heavenly = WRONG[lang]
    assert len(at.warning) == 1 and bloom in at.warning[0].value and rule in at.warning[0].value
    assert at.button(key="record_win_add_0").disabled
    pick_win(at, 0, 1, -1, ["tianhu"])  # B is no dealer
    assert len(at.warning) == 1 and heavenly in at.warning[0].value
    assert at.button(key="record_win_add_0").disabled
    pick_win(at, 0, 0, -1, ["tianhu"])  # A deals: 天胡 6 fan, 32 from each
    assert not at.warning and not at.button(key="record_win_add_0").disabled
    at.button(key="record_win_add_0").click().run()
    assert totals(at) == {"A": "+96", "B": "-32", "C": "-32", "D": "-32"}
    # after a kong of B, B's 自摸 may be a 杠上花: 平胡 + 根 + 杠上花 = 3 fan, 4 from each of C, D
    add_kong(at, 1, 1, "concealed")  # 2 from each of C, D (A has won): B -32 + 4 + 8 = -20
    pick_win(at, 2, 1, -1, ["gangshanghua"])
    assert not at.warning
    at.button(key="record_win_add_2").click().run()
    assert totals(at) == {"A": "+96", "B": "-20", "C": "-38", "D": "-38"}


def test_edit_and_remove_an_event_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    warehouse = tmp_path / "wh"
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    start(at, "edits")
    add_kong(at, 0, 2, "exposed", 1)  # C 直杠 from B: B pays 1
    pick_win(at, 1, 2, -1, ["duiduihu"])  # C 自摸 对对胡 + 根 = 3 fan: 4 from each
    at.button(key="record_win_add_1").click().run()
    assert totals(at) == {"A": "-4", "B": "-5", "C": "+13", "D": "-4"}

    # it was a 清对: event 2's chips open as recorded, one more chip and Replace
    at.button_group(key="record_edit_pick_2").set_value(1).run()
    assert at.button_group(key="record_edit1_win_patterns_2").value == ["duiduihu"]
    assert at.button_group(key="record_edit1_win_from_2").value == -1
    at.button_group(key="record_edit1_win_patterns_2").set_value(["qingyise", "duiduihu"]).run()
    at.button(key="record_edit_replace_2").click().run()
    assert not at.exception, [e.value for e in at.exception]
    # 清对 4 + 根 1 = 5 fan: 16 from each of A, B, D; B's 1 for the kong stays
    assert totals(at) == {"A": "-16", "B": "-17", "C": "+49", "D": "-16"}
    kept = load_draft(warehouse, "edits")
    assert kept is not None and kept.current is not None
    assert kept.current.events == (KongFact(2, "exposed", 1), WinFact(2, None, ("qingdui",)))

    # and there was no kong: removing it leaves 清对 4 fan, 8 from each
    at.button_group(key="record_edit_pick_3").set_value(0).run()
    at.button(key="record_edit_remove_3").click().run()
    assert totals(at) == {"A": "-8", "B": "-8", "C": "+24", "D": "-8"}
    kept = load_draft(warehouse, "edits")
    assert kept is not None and kept.current is not None
    assert kept.current.events == (WinFact(2, None, ("qingdui",)),)


def test_an_edit_that_breaks_a_later_event_shows_its_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WAREHOUSE_ENV, str(tmp_path / "wh"))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    start(at, "later")
    add_kong(at, 0, 1, "concealed")
    pick_win(at, 1, 1, -1, ["gangshanghua"])  # B 杠上花 right after B's kong
    at.button(key="record_win_add_1").click().run()
    # the kong was C's: B's 杠上花 no longer follows its own kong, and the deal cannot be saved
    at.button_group(key="record_edit_pick_2").set_value(0).run()
    at.button_group(key="record_edit0_kong_who_2").set_value(2).run()
    at.button(key="record_edit_replace_2").click().run()
    assert any("杠上花" in e.value for e in at.error), [e.value for e in at.error]
    assert at.button(key="record_save_3").disabled


def test_an_empty_deal_asks_before_it_is_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    warehouse = tmp_path / "wh"
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    start(at, "empty", "zh")
    at.button(key="record_save_0").click().run()
    assert at.warning and "流局" in at.warning[0].value and "没人胡" in at.warning[0].value
    assert not (warehouse / "uploads").exists()  # nothing written yet
    at.button(key="record_save_empty_no_0").click().run()
    assert not at.warning and not (warehouse / "uploads").exists()
    at.button(key="record_save_0").click().run()
    at.button(key="record_save_empty_0").click().run()
    assert at.success and at.success[0].value.startswith("已保存")
    assert len(list((warehouse / "uploads").glob("record-empty-01-r1-*.jsonl"))) == 1
    assert at.header[0].value == "第 02 局"


def test_the_totals_count_the_wall_end_as_soon_as_it_is_entered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    warehouse = tmp_path / "wh"
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    start(at, "wall")
    add_kong(at, 0, 1, "concealed")  # B 暗杠: 2 from each of A, C, D -> [-2, 6, -2, -2]
    assert totals(at) == {"A": "-2", "B": "+6", "C": "-2", "D": "-2"}
    assert not [g for g in at.button_group if g.key == "record_end_pigs_1"]  # only at the wall's end
    at.toggle(key="record_wall_open_1").set_value(True).run()
    assert not [g for g in at.button_group if g.key == "record_action_1"]  # the 查叫 step's inputs alone
    at.button_group(key="record_end_pigs_1").set_value([3]).run()
    at.button_group(key="record_end_ready_2_1").set_value(2).run()
    # Hand-worked 查叫 (standard, base 1), D 花猪, C ready at 2 fan, A and B not ready:
    #   查花猪: D pays 16 to each of A, B, C                  -> [+16, +16, +16, -48]
    #   查大叫: A and B each pay C 2^(2-1) = 2                 -> [-2, -2, +4, 0]
    #   退税: B is not ready and returns its kong's 2 to each -> [+2, -6, +2, +2]
    #   settlement [16, 8, 22, -46]; with the kong: [14, 14, 20, -48]
    assert totals(at) == {"A": "+14", "B": "+14", "C": "+20", "D": "-48"}
    kept = load_draft(warehouse, "wall")
    assert kept is not None and kept.current is not None
    assert kept.current.end == EndFact((None, None, 2, None), (3,))  # kept in the draft at once
    # a reload shows the chips and totals as entered
    again = AppTest.from_file(APP, default_timeout=TIMEOUT)
    again.query_params["record"] = "wall"
    again.run()
    again.switch_page("app_pages/record.py").run()
    assert totals(again) == {"A": "+14", "B": "+14", "C": "+20", "D": "-48"}
    assert again.button_group(key="record_end_ready_2_0").value == 2


def test_correct_a_saved_deal_while_another_is_under_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    warehouse = tmp_path / "wh"
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    start(at, "aside")
    pick_win(at, 0, 0, -1, [])  # A 自摸 平胡: 1 from each
    at.button(key="record_win_add_0").click().run()
    at.button(key="record_save_1").click().run()
    add_kong(at, 2, 1, "concealed")  # deal 2 under way: B 暗杠, 2 from each
    assert totals(at) == {"A": "+1", "B": "+5", "C": "-3", "D": "-3"}

    at.button(key="record_correct_0").click().run()  # deal 1 was a 清一色
    assert at.header[0].value == "Correcting deal 01 (revision 2)"
    assert at.info and "Deal 02 is kept aside" in at.info[0].value
    assert totals(at) == {"A": "+1", "B": "+5", "C": "-3", "D": "-3"}  # deal 2 still counts
    at.button_group(key="record_edit_pick_4").set_value(0).run()
    at.button_group(key="record_edit0_win_patterns_4").set_value(["qingyise"]).run()
    at.button(key="record_edit_replace_4").click().run()
    at.button(key="record_save_5").click().run()
    assert not at.exception, [e.value for e in at.exception]
    # deal 2 is back with its kong: 清一色 3 fan, 4 from each, plus the 暗杠's 2 from each
    assert at.header[0].value == "Deal 02"
    assert "B: 暗杠 concealed" in markdown(at)
    assert totals(at) == {"A": "+10", "B": "+2", "C": "-6", "D": "-6"}
    kept = load_draft(warehouse, "aside")
    assert kept is not None and kept.held is None and kept.current is not None
    assert kept.current.events == (KongFact(1, "concealed"),) and kept.saved[0].revision == 2


def test_a_draft_of_before_held_reads(tmp_path: Path) -> None:
    draft = Draft(EVENING, [DEAL_1], DealFacts(DEAL_2.deal_id, 2, DEAL_2.events[:1]))
    path = save_draft(tmp_path, draft)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data.pop("held") is None
    path.write_text(json.dumps(data), encoding="utf-8")  # as a draft written before
    assert load_draft(tmp_path, EVENING.session_id) == draft


# ------------------------------------------------------------------ deleting a saved deal
def test_a_deleted_deal_counts_nowhere_and_stays_listed(tmp_path: Path) -> None:
    warehouse = tmp_path / "wh"
    save_deal(warehouse, EVENING, DEAL_1)
    save_deal(warehouse, EVENING, DEAL_3)
    gone = DealFacts(DEAL_3.deal_id, 0, DEAL_3.events, DEAL_3.end, 2, deleted=True)
    assert [json.loads(line) for line in deal_lines(EVENING, gone)] == [
        {"type": "deal", "deal_id": DEAL_3.deal_id, "record": "sheet", "dealer": 0, "revision": 2},
        {"type": "deal_end", "reason": "deleted"},
    ]
    path, summary = save_deal(warehouse, EVENING, gone)
    assert not summary.conflicts and not summary.quarantine and summary.findings == 0
    report = validate_log(read_log_bytes(path.read_bytes(), path.name))
    (deal,) = report.deals
    assert (deal.deal_id, deal.end_reason, list(deal.scores)) == (
        f"{DEAL_3.deal_id}~rev2",
        "deleted",
        [0] * 4,
    )
    assert report.summary()["finding_count"] == 0
    api = Analytics(warehouse)
    try:
        deals = api.sql("select deal_id, scores from stg_deals")
        assert deals["deal_id"].tolist() == [DEAL_1.deal_id]  # neither revision of deal 3 counts
        ledger = api.sql("select payee, payer, amount from stg_ledger")
        net = [0, 0, 0, 0]
        for payee, payer, amount in ledger.itertuples(index=False):
            net[payee] += amount
            net[payer] -= amount
        assert net == HAND_SCORES[DEAL_1.deal_id]  # deal 3's payments are gone from the marts
        revisions = api.sql(
            "select revision, is_latest, deleted, scores from stg_deal_revisions order by revision"
        )
        assert revisions["revision"].tolist() == [1, 2] and revisions["deleted"].tolist() == [False, True]
        assert list(revisions["scores"].iloc[0]) == HAND_SCORES[DEAL_3.deal_id]  # kept, not erased
    finally:
        api.close()


def test_deleting_a_first_recording_is_a_finding() -> None:
    text = log_text(EVENING, []) + '{"type":"deal","deal_id":"x-1","record":"sheet"}\n'
    text += '{"type":"deal_end","reason":"deleted"}\n'
    report = validate_log(read_log_bytes(text.encode(), "first.jsonl"))
    (finding,) = report.all_findings()
    assert (finding.code, finding.line, finding.rule) == ("bad_record", 3, "revisions")
    assert "nothing to delete" in finding.message and finding.message_zh
    with pytest.raises(ValueError, match="only a deal saved before"):
        deal_lines(EVENING, DealFacts("x-1", 0, (), EndFact(), 1, deleted=True))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_delete_a_saved_deal_on_the_page(lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    warehouse = tmp_path / "wh"
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    start(at, "oops", lang)
    pick_win(at, 0, 0, -1, [])  # A 自摸 平胡: 1 from each
    at.button(key="record_win_add_0").click().run()
    at.button(key="record_save_1").click().run()
    add_kong(at, 2, 1, "concealed")  # deal 2 under way: B 暗杠, 2 from each
    assert totals(at) == {"A": "+1", "B": "+5", "C": "-3", "D": "-3"}
    at.button(key="record_delete_0").click().run()
    assert at.warning and ("revision" in at.warning[0].value or "版本" in at.warning[0].value)
    assert len(list((warehouse / "uploads").glob("*.jsonl"))) == 1  # nothing written before the yes
    at.button(key="record_delete_yes_0").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.success and at.success[0].value.startswith("Deleted" if lang == "en" else "已删除")
    # deal 1 counts no more; deal 2 is still under way with its kong
    assert totals(at) == {"A": "-2", "B": "+6", "C": "-2", "D": "-2"}
    assert at.header[0].value == ("Deal 02" if lang == "en" else "第 02 局")
    assert not [b for b in at.button if b.key == "record_correct_0"]  # a deleted deal is only listed
    kept = load_draft(warehouse, "oops")
    assert kept is not None and kept.saved[0].deleted and kept.saved[0].revision == 2
    assert kept.current is not None and kept.current.events == (KongFact(1, "concealed"),)
    # the Audit page lists both revisions, the deletion marked
    at.switch_page("app_pages/audit.py").run()
    assert not at.exception, [e.value for e in at.exception]
    (table,) = [t.value for t in at.dataframe if "is_latest" in t.value.columns]
    assert table["revision"].tolist() == [2, 1] and table["deleted"].tolist() == [True, False]
