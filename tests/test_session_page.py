"""The evening's result page (``/session``) through AppTest on the small real warehouse of
test_dashboard_apptest, in English and Chinese: every number equals a DuckDB query of our
own straight over the warehouse's Parquet files (the ``seats`` and ``ledger`` tables, not
the page's SQL); and its exports: the CSV files read back, the PNG decodes at its size
with Chinese names drawn as glyphs, not the font's empty box (.notdef)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pandas as pd  # type: ignore[import-untyped]
import pytest
from page_reading import read_names
from PIL import Image, ImageChops, ImageDraw, ImageFont
from streamlit.testing.v1 import AppTest
from test_dashboard_apptest import APP, TIMEOUT, club_logs, frame, metrics

from dashboard.fonts import cjk_font, cjk_font_file, covers
from dashboard.session_image import WIDTH, image_height, session_png
from dashboard.session_result import (
    SessionResult,
    build_result,
    csv_bytes,
    payments_frame,
    totals_frame,
    transfers_frame,
)
from dashboard.term_labels import reason_label
from dashboard.warehouse_location import WAREHOUSE_ENV
from engine.settle_up import Payoff
from ingest.warehouse import ingest


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("session")
    ingest(club_logs(folder / "logs"), folder / "warehouse", workers=0)
    return folder / "warehouse"


@pytest.fixture(scope="module")
def db(warehouse: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """Plain DuckDB views over the Parquet files the catalog lists (no analytics/ code)."""
    catalog = json.loads((warehouse / "catalog.json").read_text())
    connection = duckdb.connect()
    for table in ("sessions", "deals", "seats", "ledger", "findings"):
        files = [
            str(warehouse / "batches" / batch["id"] / part)
            for batch in catalog["batches"]
            for part in batch["parts"].get(table, [])
        ]
        listed = ", ".join(f"'{f}'" for f in files)
        connection.execute(
            f"create view {table} as select * from read_parquet([{listed}], union_by_name=true)"
        )
    yield connection
    connection.close()


def busy_session(db: duckdb.DuckDBPyConnection) -> str:
    """A session with findings, an invalid deal if any has one, and many payments."""
    row = db.execute(
        """
        select d.session_id
        from deals as d left join ledger as l using (deal_id)
        group by d.session_id
        order by count(distinct d.deal_id) filter (where d.status = 'invalid') desc,
            count(distinct d.deal_id) filter (where d.status = 'findings') desc,
            count(l.amount) desc, d.session_id
        limit 1
        """
    ).fetchone()
    assert row is not None
    return str(row[0])


def expected_totals(db: duckdb.DuckDBPyConnection, session: str) -> dict[str, int]:
    rows = db.execute(
        "select player, sum(net) from seats where session_id = ? group by player", [session]
    ).fetchall()
    players = db.execute("select players from sessions where session_id = ? limit 1", [session]).fetchone()
    assert players is not None
    totals = {str(name): 0 for name in players[0]}  # a player of only invalid deals: 0
    totals.update({str(p): int(n) for p, n in rows})
    return totals


def open_session(warehouse: Path, monkeypatch: pytest.MonkeyPatch, session: str, lang: str) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["lang"] = lang
    at.query_params["session"] = session
    at.run()
    at.switch_page("app_pages/session.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_session_page_in_english_equals_duckdb(
    warehouse: Path, db: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = busy_session(db)
    at = open_session(warehouse, monkeypatch, session, "en")
    assert at.title[0].value == "The evening's result"
    assert at.selectbox(key="session_pick").value == session
    totals = expected_totals(db, session)
    shown = metrics(at)
    for player, total in totals.items():
        assert shown[player].replace(",", "") == (f"{total:+d}" if total else "0")
    table = read_names(frame(at, "place", "player", "total"))
    assert dict(zip(table["player"], table["total"], strict=True)) == totals
    assert table["total"].is_monotonic_decreasing

    # every payment of the session, with its reason as the replay page names it
    ledger = db.execute(
        """
        select l.deal_id, l.reason, l.payer_player, l.payee_player, l.amount
        from ledger as l join deals as d using (deal_id)
        where d.session_id = ?
        order by d.line, l.seq
        """,
        [session],
    ).df()
    payments = frame(at, "reason_label", "payer", "payee", "amount")
    assert len(payments) == len(ledger) > 0
    assert payments["amount"].tolist() == ledger["amount"].tolist()
    assert payments["reason_label"].tolist() == [reason_label(r, "en") for r in ledger["reason"]]
    assert payments["payer"].tolist() == ledger["payer_player"].tolist()

    # who pays whom settles the totals, and each deal row links to its replay
    assert any(totals.values())
    # the first such table (before the payments): who pays whom, each name a link
    transfers = read_names(frame(at, "payer", "payee", "amount"), "payer", "payee")
    assert list(transfers.columns) == ["payer", "payee", "amount"]
    paid = {p: 0 for p in totals}
    for row in transfers.to_dict(orient="records"):
        paid[row["payer"]] -= row["amount"]
        paid[row["payee"]] += row["amount"]
    assert paid == totals
    assert len(transfers) <= sum(1 for t in totals.values() if t) - 1
    deals = frame(at, "replay", "status", "findings")
    ids = [
        r[0]
        for r in db.execute(
            "select deal_id from deals where session_id = ? order by line", [session]
        ).fetchall()
    ]
    assert deals["replay"].tolist() == [f"replay?deal={d}" for d in ids]

    # the findings, and the way to the audit page
    count = db.execute(
        "select count(*) from findings where session_id = ? and severity = 'error'", [session]
    ).fetchone()
    assert count is not None and count[0] > 0
    found = frame(at, "code_name", "replay", "explanation")
    assert len(found) == count[0]
    assert any(link.value == "This session on the Audit page" for link in at.page_link)
    assert [e for e in at.get("download_button")], "the exports are offered"


def test_session_page_in_chinese(
    warehouse: Path, db: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = busy_session(db)
    at = open_session(warehouse, monkeypatch, session, "zh")
    assert at.title[0].value == "本场结算"
    assert "总分" in [s.value for s in at.subheader]
    assert "谁付给谁" in [s.value for s in at.subheader]
    payments = frame(at, "reason_label", "payer", "payee", "amount")
    reasons = db.execute(
        "select l.reason from ledger as l join deals as d using (deal_id) where d.session_id = ? "
        "order by d.line, l.seq",
        [session],
    ).fetchall()
    assert payments["reason_label"].tolist() == [reason_label(r[0], "zh") for r in reasons]
    assert all(not any(c.isascii() and c.isalpha() for c in label) for label in payments["reason_label"])
    html = " ".join(str(h.proto.body) for h in at.get("html"))
    totals = expected_totals(db, session)
    if any(totals.values()):
        assert "付给" in html


def test_the_session_picker_and_a_missing_session(
    warehouse: Path, db: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = open_session(warehouse, monkeypatch, "no-such-session", "en")
    assert any("No such session" in w.value for w in at.warning)
    other = str(db.execute("select session_id from sessions order by session_id limit 1").fetchone()[0])  # type: ignore[index]
    at.selectbox(key="session_pick").set_value(other).run()
    assert not at.exception
    assert at.query_params["session"] == other  # the address follows the choice
    table = read_names(frame(at, "place", "player", "total"))
    assert dict(zip(table["player"], table["total"], strict=True)) == expected_totals(db, other)


def test_audit_page_links_to_the_session(
    warehouse: Path, db: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("app_pages/audit.py").run()
    assert not at.exception
    findings = frame(at, "code", "replay", "session")
    assert all(str(s).startswith("session?session=") for s in findings["session"].dropna())
    assert any(link.value == "Session result" for link in at.page_link)


# ----------------------------------------------------------------------- exports
def result_of(db: duckdb.DuckDBPyConnection, session: str, players: list[str] | None = None) -> SessionResult:
    """The page's result object built from our own queries (names replaced if asked)."""
    header = db.execute("select * from sessions where session_id = ? limit 1", [session]).df()
    deals = db.execute("select * from deals where session_id = ? order by line", [session]).df()
    ledger = db.execute(
        "select l.* from ledger as l join deals as d using (deal_id) where d.session_id = ? order by d.line, l.seq",
        [session],
    ).df()
    row = header.iloc[0].to_dict()
    if players is not None:
        row["players"] = players
    return build_result(row, deals, ledger)


def test_csv_exports_read_back(db: duckdb.DuckDBPyConnection) -> None:
    session = busy_session(db)
    result = result_of(db, session, ["张三", "李四", "王五", 'Ann, "the" dealer'])
    totals = pd.read_csv(io.BytesIO(csv_bytes(totals_frame(result, "zh"))), encoding="utf-8-sig")
    assert set(totals["player"]) == {"张三", "李四", "王五", 'Ann, "the" dealer'}
    assert sorted(totals["total"]) == sorted(expected_totals(db, session).values())
    payments = pd.read_csv(io.BytesIO(csv_bytes(payments_frame(result, "zh"))), encoding="utf-8-sig")
    ledger = db.execute(
        "select count(*), sum(amount) from ledger join deals using (deal_id) where session_id = ?", [session]
    ).fetchone()
    assert ledger is not None and (len(payments), int(payments["amount"].sum())) == (ledger[0], ledger[1])
    assert {"deal_id", "reason", "reason_label", "payer", "payee", "amount"} <= set(payments.columns)
    transfers = pd.read_csv(io.BytesIO(csv_bytes(transfers_frame(result))), encoding="utf-8-sig")
    net = {name: 0 for name in result.players}
    for row in transfers.to_dict(orient="records"):
        net[row["payer"]] -= row["amount"]
        net[row["payee"]] += row["amount"]
    assert [net[name] for name in result.players] == list(result.totals)


def glyph(font: ImageFont.FreeTypeFont | ImageFont.ImageFont, text: str) -> Image.Image:
    image = Image.new("L", (200, 80), 0)
    ImageDraw.Draw(image).text((10, 10), text, font=font, fill=255)
    return image


def differs(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is not None


def test_the_font_draws_chinese_not_boxes() -> None:
    assert cjk_font_file() is not None, "the pinned noto-cjk-sans-otc font is installed"
    font = cjk_font(48)
    notdef = glyph(font, "\ue000")  # a private-use code point: no font has it, .notdef is drawn
    assert not differs(notdef, glyph(font, "\u0378"))  # as for an unassigned one: the same box
    assert notdef.getbbox() is not None  # and the box is drawn (not an empty space)
    for char in "张三李四胡杠":
        assert differs(glyph(font, char), notdef), char
    # the check itself sees boxes: DejaVu has no Chinese, so its 张 is its .notdef
    dejavu = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if dejavu.exists():
        plain = ImageFont.truetype(str(dejavu), 48)
        assert not differs(glyph(plain, "张"), glyph(plain, "\ue000"))
        # and the system-font fallback refuses such a font (fc-match offers one when it has no CJK)
        assert not covers(str(dejavu), 0, "胡")
    found = cjk_font_file()
    assert found is not None and covers(found[0], found[1], "胡")


def test_png_decodes_at_its_size_with_the_names_drawn(db: duckdb.DuckDBPyConnection) -> None:
    session = busy_session(db)
    names = ["张三", "李四", "王五", "赵六"]
    result = result_of(db, session, names)
    png = session_png(result, "zh")
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    assert image.size == (WIDTH, image_height(4, len(result.transfers)))
    # the same card with names the font cannot draw (boxes) must look different
    boxes = result_of(db, session, ["\ue000\ue000", "\ue001\ue001", "\ue002\ue002", "\ue003\ue003"])
    boxed = Image.open(io.BytesIO(session_png(boxes, "zh")))
    assert differs(image.convert("RGB"), boxed.convert("RGB"))
    # and each name is drawn as its own glyphs: rendering the card with one name changed
    # changes the picture (a font without 张 would draw both as the same box)
    swapped = result_of(db, session, ["张四", "李四", "王五", "赵六"])
    assert differs(image.convert("RGB"), Image.open(io.BytesIO(session_png(swapped, "zh"))).convert("RGB"))


def test_png_height_follows_the_transfers() -> None:
    deals = pd.DataFrame({"deal_id": ["d1"], "status": ["ok"], "findings": [0], "scores": [[-30, 10, 15, 5]]})
    ledger = pd.DataFrame(
        columns=["deal_id", "seq", "line", "reason", "payer_player", "payee_player", "amount"]
    )
    header = {"session_id": "s1", "players": ["A", "B", "C", "D"], "rules": "standard", "base": 1}
    result = build_result(header, deals, ledger)
    assert result.transfers == (Payoff(0, 2, 15), Payoff(0, 1, 10), Payoff(0, 3, 5))
    image = Image.open(io.BytesIO(session_png(result, "en")))
    assert image.size == (WIDTH, image_height(4, 3))
    square = build_result(header, deals.assign(scores=[[0, 0, 0, 0]]), ledger)
    assert Image.open(io.BytesIO(session_png(square, "en"))).size == (WIDTH, image_height(4, 0))
    assert image_height(4, 3) - image_height(4, 2) > 0


def test_an_empty_warehouse_says_how_to_load_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(WAREHOUSE_ENV, str(tmp_path / "nothing-yet"))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["session"] = "any"
    at.run()
    at.switch_page("app_pages/session.py").run()
    assert not at.exception
    assert any("The warehouse is empty" in i.value for i in at.info)
