"""One money for every output: a club night of two sessions on one date, one
player at both tables, each session closed at 2 元 a point with a 40 元 table fee shared
equally (AA) and rounded to the 元. The expected 元 are worked out here from DuckDB straight
over the Parquet files (``seats.net``), not from the code under test: points × 2 − 10.

- a session's chat text, PNG (the words it draws, and the file), CSV files (standings and
  transfers, English ids and 中文 headers) and the API's session result carry the same 元
  per player; the transfers are between players only, the fee each player's own line;
- the night nets both sessions into one transfer list whose sum per player, less their fee,
  equals the sum of their sessions' 元; ``chuanma night`` (--json keys, --png, --csv, exit
  codes) and the Night page (AppTest, both languages) show it.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from urllib.parse import quote

import duckdb
import msgspec
import pandas as pd  # type: ignore[import-untyped]
import pytest
from page_reading import read_names
from PIL import Image
from streamlit.testing.v1 import AppTest
from test_api import CLI, call, start
from test_dashboard_apptest import APP, TIMEOUT, frame

from analytics.queries import Analytics
from dashboard.closing import money_of, read_closing, write_closing
from dashboard.i18n import Lang
from dashboard.night import build_night, load_night, night_card
from dashboard.night import chat_text as night_chat
from dashboard.session_image import WIDTH, image_height, session_card, session_png
from dashboard.session_result import (
    SessionResult,
    build_result,
    chat_text,
    csv_bytes,
    localised,
    session_money,
    totals_frame,
    transfers_frame,
)
from dashboard.warehouse_location import WAREHOUSE_ENV
from engine.events import SessionStart
from engine.money import MoneyRule
from ingest.logs.writer import write_log
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import ingest

CLUB = "成都川麻会"
NIGHT = date(2026, 5, 1)
RULE = MoneyRule(200, "fixed", 4000, "yuan")  # 2 元 a point, 台费 40 元 AA, 取整 to the 元
CJK = re.compile(r"[\u3400-\u9fff]")
LATIN = re.compile(r"[A-Za-z]")


@pytest.fixture(scope="module")
def night_wh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two tables on one night; the first player of table 1 also sits at table 2 (changed
    tables), in place of that table's first player. Both sessions closed with money."""
    folder = tmp_path_factory.mktemp("night")
    plan = ClubPlan(
        players=8, sessions=2, deals_per_session=6, seed=3, start=NIGHT, days=1, tables=2, club=CLUB
    )
    events = list(simulate_club(plan))
    starts = [e for e in events if isinstance(e, SessionStart)]
    moved = starts[0].players[0]
    events = [
        msgspec.structs.replace(e, players=(moved, *e.players[1:])) if e is starts[1] else e for e in events
    ]
    write_log(events, folder / "logs" / "night.jsonl.gz")
    ingest([folder / "logs" / "night.jsonl.gz"], folder / "wh", workers=0)
    for start_ in starts:
        write_closing(folder / "wh", start_.session_id, (), RULE, "2026-05-01T23:30")
    return folder / "wh"


@pytest.fixture(scope="module")
def raw(night_wh: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """Plain DuckDB views over the Parquet files the catalog lists (no analytics/ code)."""
    catalog = json.loads((night_wh / "catalog.json").read_text())
    connection = duckdb.connect()
    for table in ("sessions", "seats"):
        files = [
            str(night_wh / "batches" / batch["id"] / part)
            for batch in catalog["batches"]
            for part in batch["parts"].get(table, [])
        ]
        listed = ", ".join(f"'{f}'" for f in files)
        connection.execute(
            f"create view {table} as select * from read_parquet([{listed}], union_by_name=true)"
        )
    yield connection
    connection.close()


def session_ids(raw: duckdb.DuckDBPyConnection) -> list[str]:
    return [str(r[0]) for r in raw.execute("select distinct session_id from sessions order by 1").fetchall()]


def expected_yuan(raw: duckdb.DuckDBPyConnection, session: str) -> dict[str, int]:
    """Each player's 元 after the fee, by hand: 2 元 a point, 40 元 / 4 players = 10 each."""
    players = raw.execute("select players from sessions where session_id = ? limit 1", [session]).fetchone()
    assert players is not None
    points = {str(name): 0 for name in players[0]}
    rows = raw.execute("select player, sum(net) from seats where session_id = ? group by player", [session])
    points.update({str(p): int(n) for p, n in rows.fetchall()})
    return {name: 2 * total - 10 for name, total in points.items()}


def result_of(warehouse: Path, session: str) -> SessionResult:
    """The session's result as the API and the page build it (analytics/sql/pages)."""
    api = Analytics(warehouse, materialize=False)
    try:
        header = api.page("session_header", session_id=session)
        deals = api.page("session_deals", session_id=session)
        ledger = api.page("session_ledger", session_id=session)
    finally:
        api.close()
    return build_result(header.iloc[0].to_dict(), deals, ledger)


def signed(value: float) -> str:
    return f"+{value:g}" if value > 0 else f"{value:g}"


# ----------------------------------------------------------------------- one session
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_chat_png_and_csv_agree_on_the_yuan(
    night_wh: Path, raw: duckdb.DuckDBPyConnection, tmp_path: Path, lang: Lang
) -> None:
    session = session_ids(raw)[0]
    want = expected_yuan(raw, session)
    assert any(want.values()) and set(want.values()) != {-10}  # a session with winners and losers
    result = result_of(night_wh, session)
    closed = read_closing(night_wh, session)
    assert closed is not None
    money = session_money(result, money_of(closed))
    assert money is not None
    unit = "元" if lang == "zh" else "yuan"
    fee_line = "每人台费 10 元" if lang == "zh" else "Table fee: 10 yuan each"

    # the chat text: each player with points and 元; the fee its own line; no debt to 台费
    chat = chat_text(result, lang, money)
    for name, cash in want.items():
        assert f" {name} " in chat and f"({signed(cash)} {unit})" in chat, (name, cash)
    assert f"- {fee_line}" in chat
    assert not re.search(r"(付给 台费|pays the table fee)", chat)

    # the PNG: the words it draws, then the file
    card = session_card(result, lang, money)
    assert {row[1]: row[3] for row in card.players} == {n: f"{signed(c)} {unit}" for n, c in want.items()}
    assert (fee_line, "") in card.transfers
    paid = dict.fromkeys(want, 0)
    pays = re.compile(r"^(.+) (?:付给|pays) (.+)$")
    for words, amount in card.transfers:
        found = pays.match(words)
        if found:  # a transfer between two players, in 元
            payer, payee = found.groups()
            assert payer in want and payee in want, words
            value = int(amount.removesuffix(f" {unit}"))
            paid[payer] -= value
            paid[payee] += value
    assert {n: paid[n] - 10 for n in want} == want  # transfers before the fee, less the fee: the 元
    words = " ".join(card.texts())
    data = [*want, CLUB, session, str(result.table), str(result.played_at)]
    own = card.texts()
    for text in data:  # names, the club and ids are the data's: the words around them are the page's
        own = [t.replace(text, "") for t in own]
    if lang == "zh":
        assert not any(LATIN.search(t) for t in own if t != card.footer), own  # no "base 1"
        assert "底分 1" in card.meta and "标准川麻" in card.meta
    else:
        assert not any(CJK.search(t) for t in own), own
        assert "base 1" in card.meta and "standard Sichuan" in card.meta
    assert words
    path = tmp_path / "card.png"
    path.write_bytes(session_png(result, lang, money))
    image = Image.open(path)
    assert image.format == "PNG" and image.size == (WIDTH, image_height(len(want), len(card.transfers)))

    # the CSV files: the standings' 元 and the transfers in 元, read back
    totals = pd.read_csv(io.BytesIO(csv_bytes(totals_frame(result, lang, money))), encoding="utf-8-sig")
    assert list(totals.columns[:4]) == ["place", "seat", "player", "total"]  # the contract, kept
    assert dict(zip(totals["player"], totals["yuan"], strict=True)) == want
    assert set(totals["fee"]) == {10}
    moved = pd.read_csv(io.BytesIO(csv_bytes(transfers_frame(result, money))), encoding="utf-8-sig")
    assert list(moved.columns) == ["payer", "payee", "amount", "yuan"]
    net = dict.fromkeys(want, 0.0)
    for row in moved.to_dict(orient="records"):
        assert row["payer"] in want and row["payee"] in want  # nobody owes "台费"
        assert row["yuan"] == 2 * row["amount"]  # 2 元 a point
        net[row["payer"]] -= row["yuan"]
        net[row["payee"]] += row["yuan"]
    assert {n: net[n] - 10 for n in want} == want
    shown = localised(totals_frame(result, lang, money), lang)
    zh_headers = pd.read_csv(io.BytesIO(csv_bytes(shown)), encoding="utf-8-sig").columns
    if lang == "zh":
        assert list(zh_headers[:4]) == ["名次", "座位", "玩家", "总分"] and "元（扣台费后）" in zh_headers
    else:
        assert list(zh_headers) == list(totals.columns)


def test_the_api_session_result_carries_the_same_yuan(night_wh: Path, raw: duckdb.DuckDBPyConnection) -> None:
    process, server = start(night_wh)
    try:
        for session in session_ids(raw):
            want = expected_yuan(raw, session)
            answer = call(f"{server.url}/v1/sessions/{quote(session)}?lang=zh")
            assert answer.status == 200, answer.body
            body = answer.body
            assert body["yuan"] == want
            assert body["fees"] == dict.fromkeys(want, 10) and body["fee_total"] == 40
            assert body["fee_lines"] == ["每人台费 10 元"]
            assert body["money"] == {"yuan_per_point": 2, "fee_kind": "fixed", "fee": 40, "rounding": "yuan"}
            net = dict.fromkeys(want, 0.0)
            for t in body["yuan_transfers"]:
                net[t["payer"]] -= t["yuan"]
                net[t["payee"]] += t["yuan"]
            assert {n: net[n] - 10 for n in want} == want
            assert body["yuan_before_fee"] == {n: v + 10 for n, v in want.items()}
            result = result_of(night_wh, session)
            closed = read_closing(night_wh, session)
            assert closed is not None
            assert body["chat_text"] == chat_text(result, "zh", session_money(result, money_of(closed)))
            assert {"totals", "transfers", "ranking", "payments"} <= set(body)  # the keys before stay
    finally:
        process.terminate()
        process.wait(timeout=30)


# ----------------------------------------------------------------------- the night
def test_the_night_nets_both_tables_into_one_list(night_wh: Path, raw: duckdb.DuckDBPyConnection) -> None:
    sessions = session_ids(raw)
    per_session = [expected_yuan(raw, s) for s in sessions]
    in_all: dict[str, int] = {}
    for cash in per_session:
        for name, value in cash.items():
            in_all[name] = in_all.get(name, 0) + value
    moved = set(per_session[0]) & set(per_session[1])
    assert len(moved) == 1 and len(in_all) == 7  # one player sat at both tables

    api = Analytics(night_wh, materialize=False)
    try:
        night = load_night(
            lambda f: api.query("session_list", f, limit=None),
            lambda name, sid: api.page(name, session_id=sid),
            night_wh,
            CLUB,
            NIGHT,
        )
    finally:
        api.close()
    assert night is not None and not night.points_only
    assert {p: night.cash_total(p) for p in night.players} == {p: 100 * v for p, v in in_all.items()}
    net = dict.fromkeys(in_all, 0)
    for t in night.transfers:
        assert t.payer in in_all and t.payee in in_all and t.amount > 0
        net[t.payer] -= t.amount
        net[t.payee] += t.amount
    (player,) = moved
    assert night.fees[player] == 2000  # 10 元 at each table
    assert {p: net[p] - night.fees[p] for p in in_all} == {p: 100 * v for p, v in in_all.items()}
    assert len(night.transfers) <= sum(1 for v in net.values() if v) - 1  # once, netted
    text = night_chat(night, "zh")
    assert f"{player} " in text and "付给" in text and "台费" in text


def test_a_session_without_money_counts_in_points_only(
    night_wh: Path, raw: duckdb.DuckDBPyConnection
) -> None:
    first, second = (result_of(night_wh, s) for s in session_ids(raw))
    night = build_night(CLUB, NIGHT, [(first, session_money(first, RULE)), (second, None)])
    assert night.points_only == (second.session_id,)
    assert all(p not in night.cash or second.session_id not in night.cash[p] for p in second.players)
    apart = dict.fromkeys(second.players, 0)
    for t in night.points_transfers:
        apart[t.payer] -= t.amount
        apart[t.payee] += t.amount
    assert [apart[p] for p in second.players] == list(second.totals)
    cases: tuple[tuple[Lang, str], ...] = (("zh", "只计分"), ("en", "points only"))
    for lang, says in cases:
        assert says in night_chat(night, lang)
        card = night_card(night, lang)
        assert any(says in words for words, _ in card.transfers)


def test_chuanma_night_json_png_csv_and_exit_codes(night_wh: Path, tmp_path: Path) -> None:
    run = subprocess.run(
        [*CLI, "night", "--club", CLUB, "--date", NIGHT.isoformat(), "--warehouse", str(night_wh), "--json",
         "--lang", "zh", "--png", str(tmp_path / "night.png"), "--csv", str(tmp_path / "night.csv")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    body = json.loads(run.stdout)
    assert set(body) == {
        "club", "date", "sessions", "points_only_sessions", "players", "transfers", "points_transfers",
        "fee_lines", "fee_total", "problem", "chat_text",
    }  # fmt: skip
    assert body["club"] == CLUB and body["date"] == "2026-05-01" and body["fee_total"] == 80
    assert set(body["players"][0]) == {"player", "points", "yuan", "fee", "yuan_before_fee", "sessions"}
    assert set(body["transfers"][0]) == {"payer", "payee", "yuan"}
    assert set(body["sessions"][0]) == {"session_id", "table", "played_at", "deals", "points_only", "money"}
    assert sum(p["yuan"] for p in body["players"]) == -80  # what the players end with: less the fees
    assert Image.open(tmp_path / "night.png").format == "PNG"
    players = pd.read_csv(tmp_path / "night.csv", encoding="utf-8-sig")
    assert dict(zip(players["player"], players["yuan"], strict=True)) == {
        p["player"]: p["yuan"] for p in body["players"]
    }
    moved = pd.read_csv(tmp_path / "night-transfers.csv", encoding="utf-8-sig")
    assert list(moved.columns) == ["payer", "payee", "yuan", "amount"] and len(moved) == len(
        body["transfers"]
    )
    text = subprocess.run(
        [*CLI, "night", "--club", CLUB, "--date", NIGHT.isoformat(), "--warehouse", str(night_wh)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert text.returncode == 0 and text.stdout.startswith("The club's night") and "yuan" in text.stdout
    for args, says in (
        (["--club", "nobody", "--date", "2026-05-01"], "no club 'nobody'"),
        (["--club", CLUB, "--date", "2026-05-02"], "played no session on 2026-05-02"),
        (["--club", CLUB, "--date", "May 1"], "is not a date"),
    ):
        failed = subprocess.run(
            [*CLI, "night", *args, "--warehouse", str(night_wh)], capture_output=True, text=True, check=False
        )
        assert failed.returncode == 2 and says in failed.stderr, failed.stderr


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_night_page(night_wh: Path, monkeypatch: pytest.MonkeyPatch, lang: Lang) -> None:
    monkeypatch.setenv(WAREHOUSE_ENV, str(night_wh))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["lang"] = lang
    at.query_params.update(night=NIGHT.isoformat())
    at.run()
    at.switch_page("app_pages/night.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == ("今晚结算" if lang == "zh" else "The club's night")
    assert at.selectbox(key="night_club").value == CLUB
    assert at.selectbox(key="night_date").value == NIGHT
    api = Analytics(night_wh, materialize=False)
    try:
        night = load_night(
            lambda f: api.query("session_list", f, limit=None),
            lambda name, sid: api.page(name, session_id=sid),
            night_wh, CLUB, NIGHT,
        )  # fmt: skip
    finally:
        api.close()
    assert night is not None
    table = read_names(frame(at, "player", "points", "yuan"))
    assert dict(zip(table["player"], table["yuan"], strict=True)) == {
        p: (night.cash_total(p) or 0) / 100
        for p in night.players  # every player sat at a money table
    }
    assert at.code[0].value == night_chat(night, lang)
    words = [at.title[0].value, *(s.value for s in at.subheader), *(c.value for c in at.caption)]
    # the chat app's name is the same in both languages; the sidebar's warehouse path is data
    words = [w.replace("QQ", "") for w in words if "`" not in w]
    if lang == "zh":
        assert not [w for w in words if LATIN.search(w)], words
    else:
        assert not [w for w in words if CJK.search(w)], words
    assert len(at.get("download_button")) == 3


def test_a_share_of_the_takings_is_a_line_per_winner() -> None:
    # 2 元 a point, 抽水 10% of a winner's takings, to the 元: 刘洋 +12 -> 24 元, 2.4 元 of fee
    # and 张伟 +5 -> 10 元, 1 元: 3.4 元 of fee to the 元 is 3 元 (2 + 1); losers pay none
    names = ("刘洋", "李娜", "张伟", "王芳")
    totals = (12, -12, 5, -5)
    result = SessionResult(
        "s",
        CLUB,
        "t1",
        None,
        "chengdu",
        1,
        names,
        totals,
        None,
        pd.DataFrame({"status": []}),
        pd.DataFrame(),
        (),
    )
    money = session_money(result, MoneyRule(200, "share", 10, "yuan"))
    assert money is not None and money.money.fees == (200, 0, 100, 0)
    chat = chat_text(result, "zh", money)
    assert "- 刘洋 台费 2 元" in chat and "- 张伟 台费 1 元" in chat and "每人台费" not in chat
    assert "- 李娜 付给 刘洋 24 元" in chat and "台费 付给" not in chat
    assert "1. 刘洋 +12 (+22 元)" in chat  # 24 元 less his 2 元 of fee
