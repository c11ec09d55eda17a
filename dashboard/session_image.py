"""The evening's result as a PNG a club posts in its group chat: the totals, from the
biggest winner down, and who pays whom. Drawn with Pillow (installed with Streamlit).

Chinese names must come out as characters, not boxes, on any machine, and a fresh
machine has no CJK font (a Debian image has DejaVu only). :func:`cjk_font` therefore
loads Noto Sans CJK SC from the ``noto-cjk-sans-otc`` wheel (pinned in pyproject.toml:
Google's Noto Sans CJK collection, SIL Open Font License, no dependencies, installed by
``pip`` with everything else), and only when that package is missing falls back to a CJK
font the system has (``fc-match :lang=zh``), then to Pillow's own font.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from functools import cache
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from dashboard.i18n import Lang, label
from dashboard.session_result import SessionResult

WIDTH: Final = 1080  # what chat apps show full-width on a phone without scaling up
MARGIN: Final = 56
HEAD: Final = 200  # the green band: title, session, club and date
SECTION: Final = 76  # a section title
ROW: Final = 64  # one player or one transfer
GAP: Final = 28  # between the two sections
FOOT: Final = 84
NOTO_SC_INDEX: Final = 2  # in NotoSansCJK-Regular.ttc: JP, KR, SC, TC, HK, ...

GREEN: Final = (22, 96, 64)
INK: Final = (33, 37, 41)
MUTED: Final = (108, 117, 125)
LINE: Final = (222, 226, 230)
WON: Final = (22, 120, 70)
LOST: Final = (176, 42, 55)

FontType = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def cjk_font_file() -> tuple[str, int] | None:
    """(path, face index) of a font with Chinese glyphs: the pinned Noto Sans CJK, else
    the system's; None when there is none."""
    try:
        import noto_cjk_sans_otc  # type: ignore[import-untyped]

        return str(noto_cjk_sans_otc.FONT_PATH), NOTO_SC_INDEX
    except ImportError:
        pass
    if shutil.which("fc-match"):
        found = subprocess.run(
            ["fc-match", "-f", "%{file}\n%{index}", ":lang=zh"], capture_output=True, text=True, check=False
        )
        path, _, index = found.stdout.partition("\n")
        if found.returncode == 0 and path and _covers(path, int(index or 0), "胡"):
            return path, int(index or 0)
    return None


def _covers(path: str, index: int, text: str) -> bool:
    """The font draws ``text`` as something else than its .notdef box (what it draws for
    a private-use code point): ``fc-match`` answers with a Latin font when it has no
    Chinese one."""
    try:
        font = ImageFont.truetype(path, 32, index=index)
    except OSError:
        return False

    def drawn(chars: str) -> bytes:
        image = Image.new("L", (96, 48), 0)
        ImageDraw.Draw(image).text((4, 4), chars, font=font, fill=255)
        return image.tobytes()

    return drawn(text) != drawn("\ue000")


@cache
def cjk_font(size: int) -> FontType:
    """A font of ``size`` pixels that draws Chinese and Latin text: the one loader the
    dashboard's images share."""
    found = cjk_font_file()
    if found is not None:
        return ImageFont.truetype(found[0], size, index=found[1])
    return ImageFont.load_default(size)


def image_height(players: int, transfers: int) -> int:
    """Height of the image for this many players and transfers (one row says "square"
    when nobody owes anything)."""
    return HEAD + SECTION + players * ROW + GAP + SECTION + max(transfers, 1) * ROW + FOOT


def _fit(text: str, font: FontType, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels (a long name keeps the
    amount beside it readable)."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def session_png(result: SessionResult, lang: Lang) -> bytes:
    """The result card as PNG bytes, ``WIDTH`` wide."""
    height = image_height(len(result.players), len(result.transfers))
    image = Image.new("RGB", (WIDTH, height), "white")
    draw = ImageDraw.Draw(image)
    right = WIDTH - MARGIN

    draw.rectangle((0, 0, WIDTH, HEAD), fill=GREEN)
    draw.text((MARGIN, 34), label("session_title", lang), font=cjk_font(52), fill="white")
    where = " · ".join(p for p in (result.club, result.table, result.played_at) if p)
    rules = f"{label('rules', lang)}: {result.rules} · base {result.base} · {result.session_id}"
    draw.text(
        (MARGIN, 110),
        _fit(where or result.session_id, cjk_font(28), WIDTH - 2 * MARGIN),
        font=cjk_font(28),
        fill=(214, 236, 224),
    )
    draw.text(
        (MARGIN, 150), _fit(rules, cjk_font(24), WIDTH - 2 * MARGIN), font=cjk_font(24), fill=(214, 236, 224)
    )

    y = HEAD
    draw.text((MARGIN, y + 24), label("session_totals", lang), font=cjk_font(34), fill=INK)
    y += SECTION
    for place, seat in enumerate(result.ranking(), start=1):
        draw.line((MARGIN, y, right, y), fill=LINE, width=2)
        total = result.totals[seat]
        draw.text((MARGIN, y + ROW / 2), f"{place}", font=cjk_font(30), fill=MUTED, anchor="lm")
        name = _fit(result.players[seat], cjk_font(34), WIDTH - 2 * MARGIN - 56 - 200)
        draw.text((MARGIN + 56, y + ROW / 2), name, font=cjk_font(34), fill=INK, anchor="lm")
        colour = WON if total > 0 else LOST if total < 0 else INK
        draw.text((right, y + ROW / 2), _signed(total), font=cjk_font(36), fill=colour, anchor="rm")
        y += ROW
    y += GAP
    draw.text((MARGIN, y + 24), label("settle_title", lang), font=cjk_font(34), fill=INK)
    y += SECTION
    pays = label("settle_pays_to", lang)
    rows = [
        (pays.format(payer=result.players[t.payer], payee=result.players[t.payee]), str(t.amount))
        for t in result.transfers
    ] or [(label("settle_square", lang), "")]
    if result.problem is not None:
        rows = [(label("settle_unbalanced", lang), "")]
    for text, amount in rows:
        draw.line((MARGIN, y, right, y), fill=LINE, width=2)
        text = _fit(text, cjk_font(34), WIDTH - 2 * MARGIN - 200)
        draw.text((MARGIN, y + ROW / 2), text, font=cjk_font(34), fill=INK, anchor="lm")
        draw.text((right, y + ROW / 2), amount, font=cjk_font(36), fill=INK, anchor="rm")
        y += ROW
    footer = label("session_footer", lang).format(deals=len(result.deals))
    draw.text((MARGIN, height - FOOT / 2), footer, font=cjk_font(22), fill=MUTED, anchor="lm")

    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
