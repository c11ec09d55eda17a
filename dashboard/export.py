"""Export: every table as CSV beside it (one helper for every page) and the player card
as a PNG drawn with Pillow (already installed with Streamlit; no other dependency).

The CSV holds the table's own columns and values (UTF-8 with a BOM, so a spreadsheet
opens 中文 names correctly); lists become ``a|b`` text.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from functools import cache
from typing import Any

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st
from PIL import Image, ImageDraw, ImageFont

from dashboard import ui

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
    """A safe file name: letters, digits, dots, dashes."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or fallback


def download_csv(frame: pd.DataFrame, name: str, *, key: str) -> None:
    """A "Download CSV" button for a table (``name``.csv)."""
    st.download_button(
        ui.t("download_csv"),
        csv_bytes(frame),
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
    st.dataframe(frame, hide_index=True, key=key, **options)
    download_csv(frame if full is None else full, name, key=key)


@cache
def _font_file() -> str | None:
    """A system font that has Chinese glyphs (``fc-list :lang=zh``; ``fc-match`` would
    answer with a Latin font when it has no better match), if there is one."""
    if shutil.which("fc-list") is None:
        return None
    found = subprocess.run(["fc-list", ":lang=zh", "file"], check=False, capture_output=True, text=True)
    files = sorted(line.split(":")[0].strip() for line in found.stdout.splitlines() if line.strip())
    return files[0] if files else None


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = _font_file()
    if path is not None:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            pass
    return ImageFont.load_default(size)


def card_png(title: str, rows: list[tuple[str, str]], footer: str = "") -> bytes:
    """A player card: the name, then one ``label  value`` line per statistic."""
    height = MARGIN * 2 + 56 + ROW * len(rows) + (ROW if footer else 0)
    image = Image.new("RGB", (WIDTH, height), "#ffffff")
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 8), fill="#c62828")
    draw.text((MARGIN, MARGIN), title, fill="#1a1a1a", font=_font(32))
    y = MARGIN + 56
    for number, (name, value) in enumerate(rows):
        if number % 2 == 0:
            draw.rectangle((MARGIN - 8, y - 4, WIDTH - MARGIN + 8, y + ROW - 6), fill="#f3f3f3")
        draw.text((MARGIN, y), name, fill="#333333", font=_font(18))
        right = _font(18)
        width = draw.textlength(value, font=right)
        draw.text((WIDTH - MARGIN - width, y), value, fill="#111111", font=right)
        y += ROW
    if footer:
        draw.text((MARGIN, y + 4), footer, fill="#777777", font=_font(14))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def download_card(player: str, row: pd.Series, *, key: str = "player_card") -> None:
    """The player card (the leaderboard's row) as a PNG download."""
    rows = [
        (ui.t("deals"), ui.count(row.get("deals"))),
        (ui.t("net"), ui.count(row.get("net"))),
        (ui.t("rating"), ui.num(row.get("rating"), 0)),
        (ui.t("avg_placement"), ui.num(row.get("avg_placement"))),
        (ui.t("placement_1_rate"), ui.pct(row.get("placement_1_rate"))),
        (ui.t("win_rate"), ui.pct(row.get("win_rate"))),
        (ui.t("self_draw_rate"), ui.pct(row.get("self_draw_rate"))),
        (ui.t("deal_in_rate"), ui.pct(row.get("deal_in_rate"))),
        (ui.t("avg_fan"), ui.num(row.get("avg_fan"))),
        (ui.t("biggest_win"), ui.count(row.get("biggest_win"))),
    ]
    png = card_png(player, rows, footer="chuanma")
    st.download_button(
        ui.t("download_card"),
        png,
        file_name=f"{file_name(player, 'player')}-card.png",
        mime="image/png",
        key=key,
        icon=":material/image:",
    )
