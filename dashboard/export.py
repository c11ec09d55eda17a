"""Export: every table as CSV beside it (one helper for every page) and the player card
as a PNG drawn with Pillow, in the pinned CJK font (``dashboard/fonts.py``).

The CSV holds the table's own columns and values (UTF-8 with a BOM, so a spreadsheet
opens 中文 names correctly); lists become ``a|b`` text. On the 中文 pages its headers are
the table's Chinese column titles; on the English pages they stay the column ids that
scripts read (``win_rate``, ``net``, ...). File names keep letters of any script.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st
from PIL import Image, ImageDraw

from dashboard import page_kit
from dashboard.fonts import cjk_font

WIDTH, ROW, MARGIN = 640, 34, 28
#: Streamlit's row height in a table (px), and the most rows shown whole
ROW_PX, WHOLE_ROWS = 35, 40


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """The table as CSV text (lists joined by ``|``), UTF-8 with a BOM."""
    flat = frame.copy()
    for column in flat.columns:
        if flat[column].map(lambda v: isinstance(v, list | tuple) or hasattr(v, "tolist")).any():
            flat[column] = flat[column].map(_joined)
    text: str = flat.to_csv(index=False)
    return text.encode("utf-8-sig")


def _joined(value: Any) -> Any:
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, list | tuple):
        return "|".join(str(v) for v in value)
    return value


def file_name(name: str, fallback: str = "table") -> str:
    """A safe file name: letters and digits of any script (a Chinese name stays), ``._-``."""
    return re.sub(r"[^\w.-]+", "-", name).strip("-.") or fallback


def column_titles(column_config: Any) -> dict[str, str]:
    """Column id -> the title a table shows (a plain string, or a column config's label)."""
    titles: dict[str, str] = {}
    for column, config in (column_config or {}).items():
        title = (
            config if isinstance(config, str) else config.get("label") if isinstance(config, dict) else None
        )
        if title:
            titles[str(column)] = str(title)
    return titles


def page_csv(frame: pd.DataFrame, titles: dict[str, str], lang: str) -> bytes:
    """The CSV of a page's table: in 中文 its headers are the shown titles."""
    if lang == "zh":
        frame = frame.rename(columns={c: t for c, t in titles.items() if c in frame.columns})
    return csv_bytes(frame)


def download_csv(frame: pd.DataFrame, name: str, *, key: str, titles: dict[str, str] | None = None) -> None:
    """A "Download CSV" button for a table (``name``.csv); on the 中文 pages the headers
    are ``titles`` (the shown column titles) where given."""
    st.download_button(
        page_kit.t("download_csv"),
        page_csv(frame, titles or {}, page_kit.lang()),
        file_name=f"{file_name(name)}.csv",
        mime="text/csv",
        key=f"csv_{key}",
        icon=":material/download:",
    )


def table(
    frame: pd.DataFrame, name: str, *, key: str, full: pd.DataFrame | None = None, **options: Any
) -> None:
    """``st.dataframe`` with its CSV download below it (``full``: the whole table when the
    page shows only its first rows); a table of up to :data:`WHOLE_ROWS` rows is tall
    enough to show every row without a scroll."""
    if len(frame) <= WHOLE_ROWS and "height" not in options:
        options["height"] = ROW_PX * (len(frame) + 1) + 3
    page_kit.dataframe(frame, hide_index=True, key=key, **options)
    titles = column_titles(options.get("column_config"))
    download_csv(frame if full is None else full, name, key=key, titles=titles)


def card_png(title: str, rows: list[tuple[str, str]], footer: str = "") -> bytes:
    """A player card: the name, then one ``label  value`` line per statistic."""
    height = MARGIN * 2 + 56 + ROW * len(rows) + (ROW if footer else 0)
    image = Image.new("RGB", (WIDTH, height), "#ffffff")
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 8), fill="#c62828")
    draw.text((MARGIN, MARGIN), title, fill="#1a1a1a", font=cjk_font(32))
    y = MARGIN + 56
    for number, (name, value) in enumerate(rows):
        if number % 2 == 0:
            draw.rectangle((MARGIN - 8, y - 4, WIDTH - MARGIN + 8, y + ROW - 6), fill="#f3f3f3")
        draw.text((MARGIN, y), name, fill="#333333", font=cjk_font(18))
        right = cjk_font(18)
        width = draw.textlength(value, font=right)
        draw.text((WIDTH - MARGIN - width, y), value, fill="#111111", font=right)
        y += ROW
    if footer:
        draw.text((MARGIN, y + 4), footer, fill="#777777", font=cjk_font(14))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def download_card(player: str, row: pd.Series, *, key: str = "player_card") -> None:
    """The player card (the leaderboard's row) as a PNG download."""
    rows = [
        (page_kit.t("deals"), page_kit.count(row.get("deals"))),
        (page_kit.t("net"), page_kit.count(row.get("net"))),
        (page_kit.t("rating"), page_kit.num(row.get("rating"), 0)),
        (page_kit.t("avg_placement"), page_kit.num(row.get("avg_placement"))),
        (page_kit.t("placement_1_rate"), page_kit.pct(row.get("placement_1_rate"))),
        (page_kit.t("win_rate"), page_kit.pct(row.get("win_rate"))),
        (page_kit.t("self_draw_rate"), page_kit.pct(row.get("self_draw_rate"))),
        (page_kit.t("deal_in_rate"), page_kit.pct(row.get("deal_in_rate"))),
        (page_kit.t("avg_fan"), page_kit.num(row.get("avg_fan"))),
        (page_kit.t("biggest_win"), page_kit.count(row.get("biggest_win"))),
    ]
    png = card_png(player, rows, footer="chuanma")
    st.download_button(
        page_kit.t("download_card"),
        png,
        file_name=f"{file_name(player, 'player')}-card.png",
        mime="image/png",
        key=key,
        icon=":material/image:",
    )
