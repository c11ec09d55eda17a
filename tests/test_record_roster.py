"""The Record page picks a club's players from its roster, in English
and in Chinese (``?lang=zh``): a club with a roster offers its players only (no free text,
so a typo cannot make a new player), a new name is added by the explicit "add to the
roster" step (a name the club has is refused), and the session begins with the picked
names; a club with no roster keeps the free text inputs."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from test_record import APP, TIMEOUT, on_localhost  # noqa: F401 (the fixture opens writing)

from analytics.roster import add_player, club_names, load_roster
from dashboard.closing import read_closing
from dashboard.i18n import Lang, label
from dashboard.record_draft import load_draft
from dashboard.session_result import build_result
from dashboard.warehouse_location import WAREHOUSE_ENV


def open_page(warehouse: Path, lang: Lang, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if lang == "zh":
        at.query_params["lang"] = "zh"
    at.run()
    at.switch_page("app_pages/record.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_players_are_picked_from_the_roster(
    lang: Lang, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    warehouse = tmp_path / "wh"
    for name in ("Ann", "Bo", "Chen"):
        add_player(warehouse, "club7", name)
    at = open_page(warehouse, lang, monkeypatch)
    at.text_input(key="record_club").input("club7").run()
    assert not [w for w in at.text_input if w.key == "record_player_0"]  # no free text
    pick = at.selectbox(key="record_pick_0")
    assert pick.label == label("record_player", lang).format(n=1)
    assert list(pick.options) == ["Ann", "Bo", "Chen"]

    at.text_input(key="record_new_player").input("Ann").run()  # the club has Ann: refused
    at.button(key="record_add_player").click().run()
    assert at.error and at.error[0].value.startswith(label("record_roster_refused", lang).split("{")[0])
    at.text_input(key="record_new_player").input("Du").run()
    at.button(key="record_add_player").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert club_names(load_roster(warehouse), "club7") == ["Ann", "Bo", "Chen", "Du"]
    assert list(at.selectbox(key="record_pick_3").options) == ["Ann", "Bo", "Chen", "Du"]

    for seat, name in enumerate(("Ann", "Bo", "Chen", "Du")):
        at.selectbox(key=f"record_pick_{seat}").select(name)
    at.text_input(key="record_sid_input").input("night").run()
    at.button(key="record_begin").click().run()
    assert not at.exception, [e.value for e in at.exception]
    draft = load_draft(warehouse, "night")
    assert draft is not None and draft.session.players == ("Ann", "Bo", "Chen", "Du")


def test_a_seat_left_empty_does_not_begin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    warehouse = tmp_path / "wh"
    for name in ("Ann", "Bo", "Chen", "Du"):
        add_player(warehouse, "club7", name)
    at = open_page(warehouse, "en", monkeypatch)
    at.text_input(key="record_club").input("club7").run()
    for seat, name in enumerate(("Ann", "Bo", "Chen")):
        at.selectbox(key=f"record_pick_{seat}").select(name)
    at.text_input(key="record_sid_input").input("night").run()
    at.button(key="record_begin").click().run()
    assert at.error and at.error[0].value == label("record_bad_players", "en")
    assert load_draft(warehouse, "night") is None


def test_a_club_without_a_roster_types_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(tmp_path / "wh", "zh", monkeypatch)
    at.text_input(key="record_club").input("club9").run()
    assert [w.key for w in at.text_input if w.key and w.key.startswith("record_player_")] == [
        f"record_player_{n}" for n in range(4)
    ]
    assert not at.selectbox


def test_a_substitute_takes_a_seat_between_deals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann leaves after deal 1 and Eve takes her seat: deal 2 is stored with Eve, deal 1
    keeps Ann, the totals are per player (Ann keeps deal 1's points, Eve has deal 2's) and
    the warehouse counts each deal for who played it."""
    from test_record import pick_win

    from analytics.queries import Analytics
    from ingest.sheets.record import price

    def self_draw(step: int) -> None:  # seat 0 自摸 对对胡, then the deal is saved
        pick_win(at, step, 0, -1, ["duiduihu"])
        at.button(key=f"record_win_add_{step}").click().run()
        at.button(key=f"record_save_{step + 1}").click().run()
        assert not at.exception, [e.value for e in at.exception]

    warehouse = tmp_path / "wh"
    at = open_page(warehouse, "en", monkeypatch)
    for key, value in [("record_club", "club9"), ("record_sid_input", "sub")]:
        at.text_input(key=key).input(value)
    for seat, name in enumerate(("Ann", "Bo", "Chen", "Du")):
        at.text_input(key=f"record_player_{seat}").input(name)
    at.button(key="record_begin").click().run()
    self_draw(0)  # Ann 自摸

    at.selectbox(key="record_sub_seat").select(0)
    at.text_input(key="record_sub_name").input("Bo").run()  # already at the table: refused
    at.button(key="record_substitute").click().run()
    assert at.error and at.error[0].value.startswith("The seat was not changed")
    at.text_input(key="record_sub_name").input("Eve").run()
    at.button(key="record_substitute").click().run()
    assert not at.exception, [e.value for e in at.exception]
    step = int(at.session_state["record_step"])
    self_draw(step)  # Eve 自摸 in Ann's seat

    draft = load_draft(warehouse, "sub")
    assert draft is not None and draft.session.players == ("Eve", "Bo", "Chen", "Du")
    assert draft.session_for("sub-01").players == ("Ann", "Bo", "Chen", "Du")
    won = price(draft.session, draft.saved[0]).scores  # both deals score alike
    assert won[0] > 0
    metrics = {str(m.label): str(m.value) for m in at.metric}
    assert metrics == {
        "Eve": f"{won[0]:+d}",
        "Bo": f"{2 * won[1]:+d}",
        "Chen": f"{2 * won[2]:+d}",
        "Du": f"{2 * won[3]:+d}",
        "Ann": f"{won[0]:+d}",
    }
    api = Analytics(warehouse, materialize=False)
    try:
        seats = api.sql("select deal_id, player, net from stg_seats where seat = 0 order by deal_id")
        pages = Path(__file__).resolve().parent.parent / "analytics" / "sql" / "pages"
        asked = {"session_id": "sub"}
        header, deals, ledger = (
            api.sql((pages / f"session_{name}.sql").read_text(encoding="utf-8"), asked)
            for name in ("header", "deals", "ledger")
        )
    finally:
        api.close()
    assert seats.values.tolist() == [["sub-01", "Ann", won[0]], ["sub-02", "Eve", won[0]]]
    result = build_result(header.iloc[0].to_dict(), deals, ledger)  # the Session result page's
    assert dict(zip(result.players, result.totals, strict=True)) == {
        "Ann": won[0],
        "Bo": 2 * won[1],
        "Chen": 2 * won[2],
        "Du": 2 * won[3],
        "Eve": won[0],
    }
    assert result.problem is None and sum(t.amount for t in result.transfers) > 0
    at.button(key="record_close").click().run()  # the close keeps each player's total
    assert f"Ann {won[0]:+d}" in " ".join(str(m.value) for m in at.markdown)
    at.button(key="record_close_yes").click().run()
    assert not at.exception, [e.value for e in at.exception]
    record = read_closing(warehouse, "sub")
    assert record is not None and record["player_totals"]["Ann"] == won[0]
    assert record["totals"] == [2 * won[0], 2 * won[1], 2 * won[2], 2 * won[3]]  # by seat, as before


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_new_club_makes_and_edits_its_roster_on_the_page(
    lang: Lang, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first night needs no laptop. A club with no roster is told so without
    the CLI, puts the typed names on a roster in one tap, then renames (the old name stays an
    alias), gives an alias and removes a player, all on the page."""
    from analytics.roster import find_player

    warehouse = tmp_path / "wh"
    at = open_page(warehouse, lang, monkeypatch)
    at.text_input(key="record_club").input("新会").run()
    notes = " ".join(c.value for c in at.caption)
    assert "chuanma" not in notes and label("record_roster_none_page", lang).format(club="新会") in notes
    for seat, name in enumerate(("张伟", "李娜", "王强", "陈静")):
        at.text_input(key=f"record_player_{seat}").input(name)
    at.run()
    at.button(key="record_roster_add_typed").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert club_names(load_roster(warehouse), "新会") == sorted(["张伟", "李娜", "王强", "陈静"])
    assert list(at.selectbox(key="record_pick_0").options) == sorted(["张伟", "李娜", "王强", "陈静"])

    at.button_group(key="record_roster_action").set_value("rename").run()
    at.selectbox(key="record_roster_who").select("王强")
    at.text_input(key="record_roster_to").input("王小强").run()
    at.button(key="record_roster_do").click().run()
    assert not at.exception, [e.value for e in at.exception]
    renamed = find_player(load_roster(warehouse), "新会", "王强")
    assert renamed is not None and renamed.name == "王小强" and renamed.aliases == ("王强",)

    at.button_group(key="record_roster_action").set_value("alias").run()
    at.selectbox(key="record_roster_who").select("张伟")
    at.text_input(key="record_roster_to").input("老张").run()
    at.button(key="record_roster_do").click().run()
    player = find_player(load_roster(warehouse), "新会", "老张")
    assert player is not None and player.name == "张伟"

    at.button_group(key="record_roster_action").set_value("rename").run()  # a name the club has
    at.selectbox(key="record_roster_who").select("李娜")
    at.text_input(key="record_roster_to").input("老张").run()
    at.button(key="record_roster_do").click().run()
    assert at.error and at.error[0].value.startswith(label("record_roster_refused", lang).split("{")[0])

    at.button_group(key="record_roster_action").set_value("remove").run()
    at.selectbox(key="record_roster_who").select("陈静").run()
    at.button(key="record_roster_do").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert club_names(load_roster(warehouse), "新会") == sorted(["张伟", "李娜", "王小强"])
