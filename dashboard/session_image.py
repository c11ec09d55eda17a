"""The evening's result as a PNG a club posts in its group chat: the totals, from the
biggest winner down, and who pays whom. Drawn with Pillow (installed with Streamlit).

Chinese names must come out as characters, not boxes, on any machine: the font is
``dashboard/fonts.py``'s, shared with the player card of ``dashboard/export.py``.
"""

from __future__ import annotations

import io
from typing import Final

from PIL import Image, ImageDraw

from dashboard.fonts import FontType, cjk_font
from dashboard.i18n import Lang, label
from dashboard.session_result import SessionResult

WIDTH: Final = 1080  # what chat apps show full-width on a phone without scaling up
MARGIN: Final = 56
HEAD: Final = 200  # the green band: title, session, club and date
SECTION: Final = 76  # a section title
ROW: Final = 64  # one player or one transfer
GAP: Final = 28  # between the two sections
FOOT: Final = 84

GREEN: Final = (22, 96, 64)
INK: Final = (33, 37, 41)
MUTED: Final = (108, 117, 125)
LINE: Final = (222, 226, 230)
WON: Final = (22, 120, 70)
LOST: Final = (176, 42, 55)


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
