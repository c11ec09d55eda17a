"""The Record page as a club organiser uses it on a phone: facts the rule set cannot have
are neither offered nor priced (起手4红中 only as a self-drawn win before play begins, 花猪
only where a hand can hold a suit too many), and the sheet audit refuses them in a file
too; the page's later parts (rule sets by name, the compact phone layout, the live view,
quick entry) are tested below them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from test_record import APP, TIMEOUT, on_localhost, pick_win  # noqa: F401 (the fixture opens writing)

from dashboard.i18n import Lang, label
from dashboard.warehouse_location import WAREHOUSE_ENV
from engine.moves import flower_pigs_possible
from engine.rules import load_rules
from ingest.replay.validate import validate_paths
from ingest.sheets.record import DealFacts, EndFact, SessionFacts, WinFact, price

HONGZHONG = SessionFacts("hz", ("张伟", "李娜", "王强", "陈静"), "hongzhong", 1, "club", "t1")
SANREN = SessionFacts("sr", ("张伟", "李娜", "陈静"), "sanren", 1, "club", "t1")


# ------------------------------------------------------------------ impossible facts
def test_four_hongzhong_only_self_drawn_before_play_begins() -> None:
    late = DealFacts("hz-01", 0, (WinFact(1, None, ("pinghu",)), WinFact(2, 3, ("sihongzhong",))))
    priced = price(HONGZHONG, late)
    assert [f.code for f in priced.findings] == ["impossible_pattern"]
    assert priced.findings[0].rule == "sihongzhong" and not priced.payments[1]  # nothing charged
    on_discard = DealFacts("hz-01", 0, (WinFact(2, 1, ("sihongzhong",)),))
    assert [f.code for f in price(HONGZHONG, on_discard).findings] == ["impossible_pattern"]
    after_kong = DealFacts("hz-01", 0, (WinFact(2, None, ("sihongzhong",)),))
    assert not price(HONGZHONG, after_kong).findings  # the deal's first move, self-drawn: a win
    both = DealFacts("hz-01", 0, (WinFact(0, None, ("tianhu",)), WinFact(2, None, ("sihongzhong",))))
    assert not price(HONGZHONG, both).findings  # after a win at once play has not begun yet


def test_no_flower_pig_where_two_suits_are_played() -> None:
    assert not flower_pigs_possible(load_rules("sanren")) and not flower_pigs_possible(
        load_rules("duangouka")
    )
    assert flower_pigs_possible(load_rules("standard")) and flower_pigs_possible(load_rules("hongzhong"))
    deal = DealFacts("sr-01", 0, (), EndFact((2, None, None), (1,)))
    priced = price(SANREN, deal)
    assert [(f.code, f.rule, f.seat) for f in priced.findings] == [("bad_record", "flower_pig", 1)]
    assert not any(t.reason == "flower_pig" for t in priced.settlement)  # not charged


def test_a_sheet_file_with_an_impossible_fact_is_refused(tmp_path: Path) -> None:
    lines = [
        {"type": "session", "session_id": "sr", "players": ["张伟", "李娜", "陈静"], "rules": "sanren"},
        {"type": "deal", "deal_id": "sr-01", "record": "sheet", "dealer": 0},
        {"type": "deal_end", "reason": "wall_exhausted", "ready": [2, None, None], "flower_pigs": [1]},
        {"type": "session", "session_id": "hz", "players": ["张伟", "李娜", "王强", "陈静"],
         "rules": "hongzhong"},
        {"type": "deal", "deal_id": "hz-01", "record": "sheet", "dealer": 0},
        {"type": "hu", "seat": 1, "from": None, "patterns": ["pinghu"]},
        {"type": "hu", "seat": 2, "from": 3, "patterns": ["sihongzhong"]},
        {"type": "deal_end", "reason": "wall_exhausted", "ready": [None, None, None, None]},
    ]  # fmt: skip
    log = tmp_path / "sheet.jsonl"
    log.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n", encoding="utf-8")
    found = {(f.code, f.rule) for f in validate_paths([log]).all_findings()}
    assert ("bad_record", "flower_pig") in found and ("impossible_pattern", "sihongzhong") in found
    zh = [f.message_zh for f in validate_paths([log]).all_findings() if f.rule == "flower_pig"]
    assert zh and "这张桌上没有花猪" in zh[0] and "筒条" in zh[0]


def open_record(warehouse: Path, lang: Lang, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("app_pages/record.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def begin(at: AppTest, rules: str, players: tuple[str, ...], session_id: str = "night") -> None:
    at.button_group(key="record_rules").set_value(rules).run()
    for seat, name in enumerate(players):
        at.text_input(key=f"record_player_{seat}").input(name)
    at.text_input(key="record_sid_input").input(session_id).run()
    at.button(key="record_begin").click().run()
    assert not at.exception, [e.value for e in at.exception]


def four_red(at: AppTest, step: int) -> bool:
    """Whether the pattern chips offer 起手4红中 (shown by name, in either language)."""
    return any("起手4红中" in option for option in at.button_group(key=f"record_win_patterns_{step}").options)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_offers_no_impossible_fact(
    lang: Lang, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = open_record(tmp_path / "wh", lang, monkeypatch)
    begin(at, "hongzhong", HONGZHONG.players)
    at.button_group(key="record_win_who_0").set_value(2).run()
    at.button_group(key="record_win_from_0").set_value(-1).run()
    assert four_red(at, 0)  # the deal's first move, 自摸
    at.button_group(key="record_win_from_0").set_value(1).run()  # on a discard: never
    assert not four_red(at, 0)
    pick_win(at, 0, 1, -1, [])
    at.button(key="record_win_add_0").click().run()  # 李娜 自摸: play has begun
    at.button_group(key="record_win_who_1").set_value(2).run()
    at.button_group(key="record_win_from_1").set_value(-1).run()
    assert not four_red(at, 1)

    at = open_record(tmp_path / "wh2", lang, monkeypatch)
    begin(at, "sanren", SANREN.players)
    at.toggle(key="record_wall_open_0").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [w.key for w in at.button_group if w.key and w.key.startswith("record_end_ready_")]
    assert not [w for w in at.button_group if w.key == "record_end_pigs_0"]  # no 花猪 to pick


# ------------------------------------------------------------------ rule sets by name
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rule_sets_are_offered_by_name_with_what_changes_the_money(
    lang: Lang, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.rules import preset_names

    at = open_record(tmp_path / "wh", lang, monkeypatch)
    shown = list(at.button_group(key="record_rules").options)
    assert len(shown) == len(preset_names()) + 1
    for preset in preset_names():
        assert preset not in shown  # never a bare id
    assert ("成都麻将" if lang == "zh" else "Chengdu") in shown
    assert ("标准川麻" if lang == "zh" else "standard Sichuan") in shown
    money = " ".join(c.value for c in at.caption)
    assert label("record_rules_money_standard", lang) in money
    at.button_group(key="record_rules").set_value("chengdu").run()
    money = " ".join(c.value for c in at.caption)
    assert label("record_rules_money_chengdu", lang) in money
    listed = " ".join(m.value for m in at.markdown)
    for preset in preset_names():  # every rule set, one line each
        assert label(f"record_rules_money_{preset}", lang) in listed


# ------------------------------------------------------------------ recording on a phone
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_deal_on_a_phone_confirms_each_event_and_keeps_the_save_apart(
    lang: Lang, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = open_record(tmp_path / "wh", lang, monkeypatch)
    begin(at, "standard", HONGZHONG.players)
    assert not [
        c for c in at.caption if c.value == label("record_help", lang)
    ]  # the first screen is the deal's
    pick_win(at, 0, 1, -1, ["qingyise"])  # 李娜 自摸 清一色: 3 fan, 4 from each
    at.button(key="record_win_add_0").click().run()
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(m.value for m in at.markdown if label("record_just_added", lang) in m.value)
    assert shown, "the event just added is confirmed"
    assert "李娜" in shown and ("张伟 → 李娜 4" in shown) and ("王强 → 李娜 4" in shown)
    save = at.button(key="record_save_1")
    assert save.proto.type != "primary"  # not the look of 记胡
    keys = [b.key for b in at.button]
    assert keys.index("record_save_1") - keys.index("record_win_add_1") > 0
    assert at.divider, "a divider stands between 记胡 and 保存本局"

    at.button(key="record_save_1").click().run()
    buttons = len(at.button)
    for step in (2, 4):  # two more deals, each a 自摸 and a save
        pick_win(at, step, 0, -1, [])
        at.button(key=f"record_win_add_{step}").click().run()
        at.button(key=f"record_save_{step + 1}").click().run()
        assert not at.exception, [e.value for e in at.exception]
    assert len(at.button) == buttons  # a saved deal adds a line, not buttons
    lines = [m.value for m in at.markdown if label("record_deal", lang).format(n="01") in m.value]
    assert lines and lines[0].count("\n") == 2  # three deals, one line each
    assert [t.key for t in at.button if t.key and t.key.startswith("record_correct_")] == ["record_correct_2"]
    assert at.button(key="record_close")  # still there, right after the list


# ------------------------------------------------------------------ the session result
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_session_result_reads_on_a_phone(
    lang: Lang, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Short deal labels instead of ids, the players' columns first, seats counted from 1,
    statuses in the page's language."""
    from dashboard.record_draft import save_deal
    from dashboard.session_result import deal_label

    warehouse = tmp_path / "wh"
    session = SessionFacts("club-2026-12-07-long-table-name", HONGZHONG.players, "standard", 1, "club", "t1")
    for n in (1, 2):
        save_deal(
            warehouse,
            session,
            DealFacts(f"{session.session_id}-{n:02d}", 0, (WinFact(n, None, ("pinghu",)),), EndFact()),
        )
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["lang"] = lang
    at.query_params["session"] = session.session_id
    at.run()
    at.switch_page("app_pages/session.py").run()
    assert not at.exception, [e.value for e in at.exception]
    frames = [t.value for t in at.dataframe]
    deals = next(f for f in frames if "short" in f.columns)
    assert deals["short"].tolist() == [label("live_deal_n", lang).format(n=n) for n in (1, 2)]
    assert list(deals.columns[:5]) == ["short", "net_0", "net_1", "net_2", "net_3"]  # players first
    assert set(deals["status"]) == {label("status_ok", lang)}
    totals = next(f for f in frames if "seat" in f.columns)
    assert sorted(totals["seat"]) == [1, 2, 3, 4]
    payments = next(f for f in frames if "reason_label" in f.columns)
    assert set(payments["deal_id"]) == {label("live_deal_n", lang).format(n=n) for n in (1, 2)}
    assert deal_label(f"{session.session_id}-03~rev2", session.session_id, lang) == label(
        "live_deal_n", lang
    ).format(n=3)


# ------------------------------------------------------------------ the table on every phone
def live_page(warehouse: Path, token: str, lang: Lang, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The live view as a player's phone opens it: a new browser session with the link."""
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["lang"] = lang
    at.query_params["t"] = token
    at.run()
    at.switch_page("app_pages/live.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_table_follows_the_session_by_its_link(
    lang: Lang, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import segno

    from dashboard.access import add_grant
    from dashboard.live_link import TOKEN_SHAPE, index_path, live_url, qr_png
    from dashboard.record_draft import load_draft

    warehouse = tmp_path / "wh"
    at = open_record(warehouse, lang, monkeypatch)
    begin(at, "standard", HONGZHONG.players)
    draft = load_draft(warehouse, "night")
    assert draft is not None and draft.live_token is not None and TOKEN_SHAPE.fullmatch(draft.live_token)
    token = draft.live_token
    assert index_path(warehouse, token).is_file() and token not in index_path(warehouse, token).name
    link = " ".join(c.value for c in at.code)
    assert f"live?t={token}" in link
    assert at.get("image"), "the QR code is shown"
    assert qr_png(live_url("", token, lang)).startswith(b"\x89PNG") and segno.make(live_url("", token, lang))
    at.number_input(key="record_live_money_point").set_value(0.5).run()
    kept = load_draft(warehouse, "night")
    assert kept is not None and kept.money is not None and kept.money["fen_per_point"] == 50
    pick_win(at, 0, 1, -1, ["qingyise"])  # 李娜 自摸 清一色: 4 from each
    at.button(key="record_win_add_0").click().run()
    at.button(key="record_close").click().run()  # the close starts from the live view's money
    assert at.number_input(key="record_money_point").value == 0.5
    at.button(key="record_close_no").click().run()

    add_grant(warehouse, "club", "viewer")  # club tokens on: every other page asks for one
    live = live_page(warehouse, token, lang, monkeypatch)
    text = " ".join(m.value for m in live.markdown)
    assert "**+12**" in text and "**-4**" in text and "+6" in text and "-2" in text  # points and 元
    assert "张伟 → 李娜 4" in text  # the deal under way, with its payments
    assert not live.text_input  # no token asked
    assert live.title[0].value == label("live_title", lang)

    wrong = live_page(warehouse, token[:-1] + ("A" if token[-1] != "A" else "B"), lang, monkeypatch)
    assert wrong.warning and wrong.warning[0].value == label("live_unknown", lang)
    assert "李娜" not in " ".join(m.value for m in wrong.markdown)
    by_id = live_page(warehouse, "night", lang, monkeypatch)  # the session's id is no key
    assert by_id.warning and "李娜" not in " ".join(m.value for m in by_id.markdown)


# ------------------------------------------------------------------ quick entry (nets only)
def test_a_quick_deal_is_a_net_only_sheet_deal_the_audit_warns_of(tmp_path: Path) -> None:
    from ingest.sheets.record import deal_lines, log_text

    deal = DealFacts("hz-01", 0, (), EndFact(), nets=(8, -4, -4, 0))
    records = [json.loads(line) for line in deal_lines(HONGZHONG, deal)]
    assert records == [
        {"type": "deal", "deal_id": "hz-01", "record": "sheet", "dealer": 0},
        {"type": "deal_end", "reason": "net_only", "scores": [8, -4, -4, 0]},
    ]
    assert price(HONGZHONG, deal).scores == (8, -4, -4, 0)
    log = tmp_path / "quick.jsonl"
    log.write_text(log_text(HONGZHONG, [deal]), encoding="utf-8")
    report = validate_paths([log])
    assert not list(report.all_findings())  # nothing wrong: only what could not be checked
    [dealt] = report.deals
    assert [w.code for w in dealt.warnings] == ["net_only"] and dealt.scores == (8, -4, -4, 0)
    with pytest.raises(ValueError, match="add up to zero"):
        deal_lines(HONGZHONG, DealFacts("hz-02", 0, (), EndFact(), nets=(8, -4, -4, 1)))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_quick_entry_on_the_page_counts_everywhere(
    lang: Lang, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from analytics.queries import Analytics
    from dashboard.record_draft import load_draft

    warehouse = tmp_path / "wh"
    at = open_record(warehouse, lang, monkeypatch)
    begin(at, "standard", HONGZHONG.players)
    at.button_group(key="record_mode").set_value("nets").run()
    for seat, points in enumerate((8, -4, -4, 1)):
        at.number_input(key=f"record_net_{seat}_0").set_value(points).run()
    assert at.warning and "+1" in at.warning[0].value
    assert at.button(key="record_net_save_0").disabled  # not zero: not saved
    at.number_input(key="record_net_3_0").set_value(0).run()
    at.button(key="record_net_save_0").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.success and at.success[0].value.startswith(label("record_saved", lang).split("{")[0])
    assert at.button_group(key="record_mode").value == "nets"  # the next deal too
    pick = {str(m.label): str(m.value) for m in at.metric}
    assert pick == {"张伟": "+8", "李娜": "-4", "王强": "-4", "陈静": "+0"}
    draft = load_draft(warehouse, "night")
    assert draft is not None and draft.saved[0].nets == (8, -4, -4, 0)

    api = Analytics(warehouse)
    try:
        deals = api.sql("select status, end_reason, scores from stg_deals")
        assert deals["end_reason"].tolist() == ["net_only"] and list(deals["scores"].iloc[0]) == [
            8,
            -4,
            -4,
            0,
        ]
        warned = api.sql("select code, severity from stg_findings")
        assert ("net_only", "warning") in set(zip(warned["code"], warned["severity"], strict=True))
        board = api.query("player_stats").set_index("player")
        assert board.loc["张伟", "net"] == 8 and board.loc["李娜", "net"] == -4
    finally:
        api.close()
