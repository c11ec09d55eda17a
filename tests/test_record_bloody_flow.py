"""Recording a 血流成河 deal (``end_condition: bloody_flow``) at the table: a seat that has
won is still offered as a winner, a discarder and for kongs, three winners do not end the
deal, 查叫 at the wall's end is only for the seats that never won, and the saved sheet
validates with the hand-worked payments. Under 血战 (standard) a winner still leaves.
The pure seat rule (:func:`ingest.sheets.record.seats_after`) is the Settler's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from test_record import APP, TIMEOUT, add_kong, on_localhost, pick_win, totals  # noqa: F401 (autouse)

from dashboard.warehouse_location import WAREHOUSE_ENV
from engine.rules import load_rules
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
    seats_after,
)

FLOW = {"preset": "standard", "end_condition": "bloody_flow"}


def test_seats_after_follows_the_rule_set() -> None:
    wins = (WinFact(1, None, ("pinghu",)), WinFact(2, 1, ("pinghu",)))
    # 血流成河: nobody leaves; 查叫 for the two that never won
    assert seats_after(load_rules(FLOW), wins) == ([0, 1, 2, 3], [0, 3])
    # 血战到底 (standard): the winners have left
    assert seats_after(load_rules("standard"), wins) == ([0, 3], [0, 3])


def test_a_repeated_win_is_priced_and_validates() -> None:
    session = SessionFacts("flow", ("A", "B", "C", "D"), FLOW, 1)
    deal = DealFacts(
        "flow-01",
        0,
        (
            WinFact(1, None, ("pinghu",)),  # B 自摸 平胡 1 fan: 1 from each of A, C, D
            KongFact(2, "concealed"),  # C 暗杠: 2 from each of A, B (still in), D
            WinFact(1, 0, ("duiduihu",)),  # B again, on A's discard, 对对胡 2 fan: A pays 2
            WinFact(1, None, ("pinghu",)),  # B a third time, 自摸 平胡: 1 from each
        ),
        # 查叫 among A, C, D (B won): D 花猪 pays 16 to each of A and C; A not ready pays
        # C 2^(2-1) = 2; 退税 nothing (A has no kong) -> settlement [14, 0, 18, -32]
        EndFact((None, None, 2, None), (3,)),
    )
    records = [json.loads(line) for line in deal_lines(session, deal)]
    assert [r["deltas"] for r in records[1:-1]] == [
        [-1, 3, -1, -1],
        [-2, -2, 6, -2],
        [-2, 2, 0, 0],
        [-1, 3, -1, -1],
    ]
    assert records[-1]["reason"] == "wall_exhausted"
    assert records[-1]["settlement"] == [14, 0, 18, -32]
    assert records[-1]["scores"] == [8, 6, 22, -36]
    report = validate_log(read_log_bytes(log_text(session, [deal]).encode(), "flow.jsonl"))
    assert report.summary()["finding_count"] == 0 and report.summary()["ok"] == 1


def start_flow(at: AppTest, session_id: str, rules: dict[str, str] | None) -> None:
    """Open the Record page and begin a session of A, B, C, D (A deals), under the given
    custom rule set (None: the standard preset)."""
    at.run()
    at.switch_page("app_pages/record.py").run()
    for key, value in [
        ("record_sid_input", session_id),
        *((f"record_player_{n}", "ABCD"[n]) for n in range(4)),
    ]:
        at.text_input(key=key).input(value)
    if rules is not None:
        at.button_group(key="record_rules").set_value("custom").run()
        at.text_area(key="record_override").input(json.dumps(rules))
    at.button(key="record_begin").click().run()
    assert not at.exception, [e.value for e in at.exception]


def offered(at: AppTest, key: str) -> list[str]:
    return [str(option) for option in at.button_group(key=key).options]


def test_a_seat_wins_again_on_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    warehouse = tmp_path / "wh"
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    start_flow(at, "flow", FLOW)
    # Hand-worked (standard + bloody_flow, base 1; 平胡 1 fan = 1 a payer, 2 fan = 2):
    pick_win(at, 0, 1, -1, ["pinghu"])  # B 自摸 平胡: 1 from each of A, C, D -> [-1, +3, -1, -1]
    at.button(key="record_win_add_0").click().run()
    assert totals(at) == {"A": "-1", "B": "+3", "C": "-1", "D": "-1"}
    assert offered(at, "record_win_who_1") == ["A", "B", "C", "D"]  # B stays in
    pick_win(at, 1, 2, -1, ["pinghu"])  # C 自摸 平胡: 1 from each of A, B (still in), D
    assert "B" in offered(at, "record_win_from_1")
    at.button(key="record_win_add_1").click().run()
    assert totals(at) == {"A": "-2", "B": "+2", "C": "+2", "D": "-2"}
    pick_win(at, 2, 3, 0, ["pinghu"])  # D on A's discard, 平胡: A pays 1 -> three have won
    at.button(key="record_win_add_2").click().run()
    assert totals(at) == {"A": "-3", "B": "+2", "C": "+2", "D": "-1"}
    assert not at.success  # the deal is not over after three winners
    add_kong(at, 3, 1, "concealed")  # B 暗杠 after its win: 2 from each of A, C, D
    assert totals(at) == {"A": "-5", "B": "+8", "C": "+0", "D": "-3"}
    pick_win(at, 4, 1, 2, ["pinghu"])  # B again on C's discard: 平胡 + 根 (its kong) = 2 fan, C pays 2
    assert "### 2 fan" in [str(m.value) for m in at.markdown]
    at.button(key="record_win_add_4").click().run()
    assert totals(at) == {"A": "-5", "B": "+10", "C": "-2", "D": "-3"}
    # the wall's end: 查叫 only for A, the one seat that never won (alone, A pays nobody)
    at.toggle(key="record_wall_open_5").set_value(True).run()
    assert offered(at, "record_end_pigs_5") == ["A"]
    ready = [g.key for g in at.button_group if str(g.key).startswith("record_end_ready_")]
    assert ready == ["record_end_ready_0_5"]
    at.button(key="record_save_5").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.success and at.success[0].value.startswith("Saved")
    uploads = list((warehouse / "uploads").glob("record-flow-01-r1-*.jsonl"))
    assert len(uploads) == 1
    report = validate_log(read_log_bytes(uploads[0].read_bytes(), uploads[0].name))
    assert report.summary()["finding_count"] == 0 and report.summary()["ok"] == 1
    assert [list(d.scores) for d in report.deals] == [[-5, 10, -2, -3]]
    written = [json.loads(line) for line in uploads[0].read_text(encoding="utf-8").splitlines()]
    assert [r["seat"] for r in written if r["type"] == "hu"] == [1, 2, 3, 1]


def test_under_bloody_a_winner_still_leaves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(WAREHOUSE_ENV, str(tmp_path / "wh"))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    start_flow(at, "blood", None)
    pick_win(at, 0, 1, -1, ["pinghu"])
    at.button(key="record_win_add_0").click().run()
    assert offered(at, "record_win_who_1") == ["A", "C", "D"]  # B has left
    pick_win(at, 1, 2, -1, ["pinghu"])
    assert "B" not in offered(at, "record_win_from_1")  # nor discards
