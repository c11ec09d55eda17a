"""Every page of the dashboard, in 中文 and in English, read as a reader sees it (AppTest
over a small real warehouse): no English on a 中文 page, no Chinese on an English one.

What is read: titles, headers, text, captions, alerts and toasts, every widget's label,
help, placeholder and options, tabs and expanders, metrics' labels, links' and buttons'
labels, tables' column titles and their text cells, charts' titles, and the text of the
HTML a page draws (tags, styles and scripts taken out). Streamlit's own widget words
("Drag and drop", "View 3 more") are not in what AppTest sees: tests/test_phone_browser.py
checks those in Chromium.

The rules, as the house writes the two languages:

* On a 中文 page, a word of three or more ASCII letters is English, except
  - data: a player's, club's, session's, deal's or file's name as stored (people and
    clubs are named as the club wrote them);
  - an id beside its Chinese name (``付分不符 payment_mismatch``, ``成都麻将 chengdu``,
    ``定缺 void_declaration``): the id is what people search and what the CLI takes, so a
    page shows it after the name, never alone in a sentence (``按 chengdu 规则`` fails);
  - code: an inline code span or a code block (a command, a path, a link to copy is
    typed as it is), and a file's ending (``.jsonl``);
  - :data:`ZH_ALLOWED`: file types (CSV, PNG, JSON...), said so in Chinese too; the
    language switch (``语言 / Language``, ``English``), written in both so a reader who
    cannot read the page's language finds it; Novikov, the author a rule set is named for.
* On an English page, a CJK character is Chinese, except
  - data, as above;
  - a word of the table: the Chinese names of the game's terms (engine.vocabulary:
    patterns, payment reasons, win kinds, rule names, rule sets...) and :data:`EN_GLOSSARY`.
    The English pages quote the table's words as players say them ("清一色 pure suit",
    "Cap rate (封顶率)", "花猪 pays 16"), so a player learns the names the table uses; a
    Chinese sentence, or a Chinese label in place of its English one, fails;
  - a tile face (``5万``, ``红中``): what is printed on the tile.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd  # type: ignore[import-untyped]
import pytest
from google.protobuf.message import Message  # type: ignore[import-untyped]
from streamlit.testing.v1 import AppTest

from analytics.queries import Analytics
from dashboard.i18n import LABELS
from dashboard.page_kit import PAGES
from dashboard.warehouse_location import WAREHOUSE_ENV
from engine.events import SessionStart
from engine.vocabulary import VOCABULARY
from ingest.logs.writer import write_lines
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.simulator.tamper import Tamperer

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
TIMEOUT = 60
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
#: a word as the rules count them: a run of letters, digits, ``_ - .`` holding 3 letters
TOKEN = re.compile(r"\.?[A-Za-z0-9_][A-Za-z0-9_.\-]*")
LETTERS = re.compile(r"[A-Za-z]{3}")
#: an id of digits and hex letters (a batch's ``20261207T234311-dac31ff5``): data, whatever
#: word its letters happen to spell
HEX_ID = re.compile(r"(?=.*[0-9])(?:[0-9]{8}T[0-9]{6}-)?[0-9a-f_.\-]+")
#: ASCII words a 中文 page may show, with why (see the module's docstring)
ZH_ALLOWED = {
    "CSV": "a file type, so named in Chinese too",
    "PNG": "a file type",
    "JSON": "a file type and the custom rule set's notation",
    "JSONL": "a file type",
    "XLSX": "a file type",
    "Language": "the language switch is written in both languages",
    "English": "the language switch's option",
    "Novikov": "the author the rule set 四川血战规则 (Novikov) is named for",
    "Elo": "the rating method's name (its author's), written so in Chinese too",
    "Ctrl": "a key, as printed on the keyboard (Ctrl+P to print)",
    "chuanma": "the product's name, as the footer of a shared picture signs it",
    "gzip": "a file type (a .jsonl.gz log)",
}
#: Chinese words of the table an English page may quote beside the terms, with why
EN_GLOSSARY = {
    "语言": "the language switch (语言 / Language) is written in both languages",
    "中文": "the language switch's option",
    "元": "the money's unit, as the club settles it",
    "庄": "the dealer, as the table calls the seat",
    "张": "tiles counted as the table counts them (108 张)",
    "台费": "the table fee, as clubs name it",
    "茶水": "the table fee's other name",
    "封顶率": "the cap rate, beside its English",
    "缺一门": "the rule of two suits at most",
    "血流成河": "the bloody-flow variant's name",
    "花猪": "a hand that keeps three suits to the end",
    "起手": "in the starting hand (起手4红中)",
    "断幺九": "中张's other name",
    "胡": "a win, as the table calls it (wins (胡))",
    "流局": "a deal nobody won",
    "老张": "an example of a nickname: a name as the club writes it",
}
TILE_FACE = re.compile(r"[1-9]\s*[万条筒]|红中")
#: the kinds of element whose text is read, and the proto fields that are words
TEXT_FIELDS = ("body", "label", "help", "placeholder", "caption", "options", "content", "code_text")
SKIPPED = {"iframe"}  # an iframe holds scripts


def app_at(warehouse: Path, monkeypatch: pytest.MonkeyPatch, lang: str, **params: str) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["lang"] = lang
    for key, value in params.items():
        at.query_params[key] = value
    return at


def proto_words(message: Message) -> Iterator[str]:
    """The strings of the fields a reader sees (labels, bodies, options), nested too."""
    for field, value in message.ListFields():
        values = value if isinstance(value, list | tuple) or hasattr(value, "extend") else [value]
        for item in values:
            if isinstance(item, Message):
                yield from proto_words(item)
            elif isinstance(item, str) and field.name in TEXT_FIELDS:
                yield item


def plain(text: str) -> str:
    """Markdown and HTML as words: no styles, scripts, tags, link targets, code, escapes."""
    text = re.sub(r"<(style|script)\b.*?</\1>", " ", text, flags=re.S | re.I)
    text = re.sub(r"<[^>]*>", " ", text)
    text = re.sub(r"```.*?```|`[^`]*`", " ", text, flags=re.S)
    text = re.sub(r"\]\([^)]*\)", "] ", text)
    text = re.sub(r":material/[a-z_]+:", " ", text)
    text = re.sub(r"https?://\S+|\S*\?\S*=\S*", " ", text)  # a link, to open or to copy
    text = re.sub(r":[a-z]+\[", "[", text)  # a colour (:green[...])
    return text.replace("\\", "")


def chart_titles(spec: Any) -> Iterator[str]:
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key == "title" and isinstance(value, str):
                yield value
            elif key == "title" and isinstance(value, dict) and isinstance(value.get("text"), str):
                yield value["text"]
            else:
                yield from chart_titles(value)
    elif isinstance(spec, list):
        for item in spec:
            yield from chart_titles(item)


def table_words(node: Any) -> Iterator[str]:
    """A table's column titles (its label where set, else its name) and its text cells."""
    config = json.loads(node.proto.columns or "{}")
    frame: pd.DataFrame = node.value
    order = list(node.proto.column_order) or list(frame.columns)
    for column in [c for c in frame.columns if c in order]:
        shown = config.get(str(column), {})
        if shown.get("hidden"):
            continue
        kind = shown.get("type_config", {}).get("type")
        yield str(shown.get("label") or column)
        if kind != "link" and frame[column].dtype == object:
            yield from (str(v) for v in frame[column].head(30) if isinstance(v, str))


def visible(at: AppTest) -> list[str]:
    """Every text of the page as a reader sees it."""
    out: list[str] = []
    for node in at._tree:
        kind = getattr(node, "type", "")
        proto = getattr(node, "proto", None)
        if proto is None or kind in SKIPPED:
            continue
        if kind in ("arrow_data_frame", "dataframe", "table"):
            out += table_words(node)
        elif kind == "vega_lite_chart":
            out += chart_titles(json.loads(proto.spec))
        else:
            out += [plain(text) for text in proto_words(proto)]
    return [text for text in out if text.strip()]


# ------------------------------------------------------------------- the rules
def term_pairs() -> list[tuple[str, str, str]]:
    """Every game term as (中文, English, id)."""
    return [(zh, en, key) for table in VOCABULARY.values() for key, (zh, en) in table.items()]


def english_words(text: str, data: set[str], terms: list[tuple[str, str, str]]) -> list[str]:
    """The English words of a 中文 text (see the module's docstring)."""
    ids_named = {key for zh, _, key in terms if f"{zh} {key}" in text}
    wrong = []
    for token in TOKEN.findall(text):
        if token.startswith("."):
            continue  # a file's ending: what its name ends with
        token = token.strip(".-")
        if not LETTERS.search(token) or token in data or token in ZH_ALLOWED or HEX_ID.fullmatch(token):
            continue
        base = token.split("+", 1)[0]
        if token in ids_named or base in ids_named:
            continue
        wrong.append(token)
    return wrong


def chinese_words(text: str, data: set[str], terms: list[tuple[str, str, str]]) -> list[str]:
    """The Chinese of an English text (see the module's docstring)."""
    rest = text
    words = {name for name in data if CJK.search(name)} | {zh for zh, _, _ in terms} | set(EN_GLOSSARY)
    for word in sorted(words, key=len, reverse=True):
        rest = rest.replace(word, " ")
    return CJK.findall(TILE_FACE.sub(" ", rest))


def data_names(api: Analytics) -> set[str]:
    """Names the club wrote: players, clubs, sessions, deals, files (and each name's words)."""
    found = api.sql(
        "select distinct player as name from stg_seats union select distinct club from stg_deals "
        "union select distinct session_id from stg_deals union select distinct deal_id from stg_deals"
    )
    names = {str(n) for n in found["name"] if n is not None}
    return names | {word for name in names for word in re.split(r"[\s()]+", name) if word}


def wrong_words(seen: dict[str, list[str]], lang: str, data: set[str]) -> dict[str, list[str]]:
    terms = term_pairs()
    check = english_words if lang == "zh" else chinese_words
    wrong: dict[str, list[str]] = {}
    for where, texts in seen.items():
        for text in texts:
            found = check(text, data, terms)
            if found:
                wrong.setdefault(where, []).append(f"{found} in {text[:160]!r}")
    return wrong


# ------------------------------------------------------------------- the walk
def walk(at: AppTest) -> dict[str, list[str]]:
    """Every page from the sidebar's list (page_kit.PAGES), as it opens."""
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    seen = {"overview": visible(at)}
    for key, path in PAGES.items():
        if key in ("overview", "live"):
            continue
        at.switch_page(path).run()
        assert not at.exception, (key, [e.value for e in at.exception])
        seen[key] = visible(at)
    return seen


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_page_speaks_one_language(
    warehouse: Path, api: Analytics, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    seen = walk(app_at(warehouse, monkeypatch, lang))
    assert len(seen) == len(PAGES) - 1
    wrong = wrong_words(seen, lang, data_names(api))
    assert not wrong, json.dumps(wrong, ensure_ascii=False, indent=1)


# ------------------------------------------------------------------- what a night reaches
def tampered_upload(folder: Path) -> tuple[bytes, set[str]]:
    """A small tampered tile log (findings in its deals) whose last line is cut off, and
    its names (players, session)."""
    log = folder / "night.jsonl"
    club = list(simulate_club(ClubPlan(sessions=1, deals_per_session=3, seed=21)))
    write_lines(Tamperer(1.0, seed=3).lines(club), log)
    starts = [e for e in club if isinstance(e, SessionStart)]
    names = {s.session_id for s in starts} | {str(p) for s in starts for p in s.players}
    return log.read_bytes() + b'{"type":"draw","seat":1,', names | {"night.jsonl"}


def night(at: AppTest, upload: bytes, session: str) -> dict[str, list[str]]:
    """The Upload page with a tampered, cut log; a session begun on the Record page with a
    win recorded; the table's live view by its link."""
    at.run()
    at.switch_page(PAGES["upload"]).run()
    at.file_uploader[0].set_value(("night.jsonl", upload, "application/octet-stream")).run()
    assert not at.exception, [e.value for e in at.exception]
    seen = {"upload report": visible(at)}
    at.switch_page(PAGES["record"]).run()
    for key, value in [("record_club", "club7"), ("record_table", "t3"), ("record_sid_input", session)]:
        at.text_input(key=key).input(value)
    for seat, name in enumerate(("Ann", "Bo", "Chen", "Du")):
        at.text_input(key=f"record_player_{seat}").input(name)
    at.button(key="record_begin").click().run()
    at.button_group(key="record_action_0").set_value("win").run()
    at.button_group(key="record_win_who_0").set_value(1).run()
    at.button_group(key="record_win_from_0").set_value(2).run()
    at.button_group(key="record_win_patterns_0").set_value(["qingyise"]).run()
    at.button(key="record_win_add_0").click().run()
    assert not at.exception, [e.value for e in at.exception]
    seen["record"] = visible(at)
    link = next(c.value for c in at.code if "t=" in c.value)
    at.query_params["t"] = link.split("t=", 1)[1].split("&", 1)[0]
    at.switch_page(PAGES["live"]).run()
    assert not at.exception, [e.value for e in at.exception]
    seen["live"] = visible(at)
    return seen


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_club_nights_pages_speak_one_language(
    warehouse: Path, api: Analytics, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    upload, names = tampered_upload(tmp_path)
    seen = night(app_at(warehouse, monkeypatch, lang), upload, f"night-{lang}")
    texts = " ".join(seen["upload report"])
    assert ("第 1 局第" if lang == "zh" else "deal 1, step") in texts, (
        "a tile deal's finding: its deal and step"
    )
    assert ("内容在中途截断" if lang == "zh" else "Input data was truncated") in texts
    assert len(seen["live"]) > 3, seen["live"]
    names |= {"club7", "Ann", "Bo", "Chen", "Du", f"night-{lang}", "t3"}  # the session begun
    wrong = wrong_words(seen, lang, data_names(api) | names)
    assert not wrong, json.dumps(wrong, ensure_ascii=False, indent=1)


def test_every_label_keeps_to_its_language() -> None:
    """The labels no walk reaches (an error, a read-only server, a clash): each 中文 label
    by the 中文 rule, each English one by the English rule ({fields} are filled with data).
    The CLI's own text (``cli_*``, the ingest summary) is a terminal's, not a page's."""
    terms = term_pairs()
    wrong = []
    for key, (zh, en) in LABELS.items():
        if key.startswith(("cli_", "ingest_summary")):
            continue
        zh_words = english_words(re.sub(r"\{[^}]*\}", " ", plain(zh)), set(), terms)
        en_words = chinese_words(re.sub(r"\{[^}]*\}", " ", plain(en)), set(), terms)
        wrong += [f"{key}: {zh_words} in {zh!r}"] if zh_words else []
        wrong += [f"{key}: {en_words} in {en!r}"] if en_words else []
    assert not wrong, "\n".join(wrong)
