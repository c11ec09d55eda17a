"""The evening's result as a PNG a club posts in its group chat: the totals, from the
biggest winner down, with each player's 元 after the fee beside the points, who pays whom
(in 元 when the session has money settings) and the table fee's own lines. Drawn with
Pillow (installed with Streamlit).

The words are built first (:class:`Card`, every text the picture draws, in the page's
language only: the rule set by its name in that language, no id beside it), then drawn
(:func:`card_png`), so a test reads what the picture says and the club night's picture
(``dashboard/night.py``) is drawn by the same hand.

Chinese names must come out as characters, not boxes, on any machine: the font is
``dashboard/fonts.py``'s, shared with the player card of ``dashboard/export.py``.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from dashboard.fonts import FontType, cjk_font
from dashboard.i18n import Lang, label
from dashboard.session_result import SessionMoney, SessionResult, fee_lines
from engine.money import yuan
from engine.vocabulary import PRESET_NAMES

WIDTH: Final = 1080  # what chat apps show full-width on a phone without scaling up
MARGIN: Final = 56
HEAD: Final = 200  # the green band: title, session, club and date
SECTION: Final = 76  # a section title
ROW: Final = 64  # one player or one transfer
GAP: Final = 28  # between the two sections
FOOT: Final = 84
CASH: Final = 260  # the width of the 元 column at the right of a player's row

GREEN: Final = (22, 96, 64)
INK: Final = (33, 37, 41)
MUTED: Final = (108, 117, 125)
LINE: Final = (222, 226, 230)
WON: Final = (22, 120, 70)
LOST: Final = (176, 42, 55)


@dataclass(frozen=True)
class Card:
    """Every text of a result picture, in one language."""

    title: str
    where: str
    meta: str
    totals_title: str
    #: one per player, biggest winner first: place, name, points, 元 after the fee ("" without money)
    players: tuple[tuple[str, str, str, str], ...]
    #: the sign of each player's result (colours the row): points, or 元 with money
    signs: tuple[int, ...]
    settle_title: str
    transfers: tuple[tuple[str, str], ...]  # the words, the amount
    footer: str

    def texts(self) -> list[str]:
        """Every string the picture draws, in drawing order."""
        out = [self.title, self.where, self.meta, self.totals_title]
        for row in self.players:
            out += [part for part in row if part]
        out.append(self.settle_title)
        for words, amount in self.transfers:
            out += [words] + ([amount] if amount else [])
        return [*out, self.footer]


def image_height(players: int, transfers: int) -> int:
    """Height of the image for this many players and transfer rows (the fee's lines count
    as rows; one row says "square" when nobody owes anything)."""
    return HEAD + SECTION + players * ROW + GAP + SECTION + max(transfers, 1) * ROW + FOOT


def rules_words(name: str, lang: Lang) -> str:
    """A rule set named in ``lang`` only: the preset's name (成都麻将 / Chengdu), marked when
    the session changed some of its rules; an unknown name as stored."""
    preset = name.split("+", 1)[0]
    if preset not in PRESET_NAMES:
        return name
    words = PRESET_NAMES[preset][0 if lang == "zh" else 1]
    return words + (label("card_rules_changed", lang) if "+" in name else "")


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def cash_text(fen: int, lang: Lang, *, sign: bool = True) -> str:
    """``+14 元`` / ``+14 yuan``."""
    return f"{yuan(fen, sign=sign)} {label('yuan_unit', lang)}"


def session_card(result: SessionResult, lang: Lang, money: SessionMoney | None = None) -> Card:
    """The words of a session's picture; with ``money``, the 元 of the chat text and the CSV."""
    where = " · ".join(p for p in (result.club, result.table, result.played_at) if p)
    meta = label("card_meta", lang).format(
        rules=rules_words(result.rules, lang), base=result.base, session=result.session_id
    )
    points_unit = label("points_unit", lang)
    players = []
    signs = []
    for place, seat in enumerate(result.ranking(), start=1):
        total = result.totals[seat]
        cash = cash_text(money.money.amounts[seat], lang) if money else ""
        players.append((str(place), result.players[seat], f"{_signed(total)} {points_unit}", cash))
        signs.append(money.money.amounts[seat] if money else total)
    pays = label("settle_pays_to", lang)
    if result.problem is not None:
        transfers: list[tuple[str, str]] = [(label("settle_unbalanced", lang), "")]
    elif money is not None:
        transfers = [
            (
                pays.format(payer=result.players[t.payer], payee=result.players[t.payee]),
                cash_text(t.amount, lang, sign=False),
            )
            for t in money.money.transfers
        ]
        transfers += [(line, "") for line in fee_lines(result.players, money.money.fees, lang)]
    else:
        transfers = [
            (
                pays.format(payer=result.players[t.payer], payee=result.players[t.payee]),
                f"{t.amount} {points_unit}",
            )
            for t in result.transfers
        ]
    return Card(
        title=label("session_title", lang),
        where=where or result.session_id,
        meta=meta,
        totals_title=label("session_totals", lang),
        players=tuple(players),
        signs=tuple(signs),
        settle_title=label("settle_title", lang),
        transfers=tuple(transfers or [(label("settle_square", lang), "")]),
        footer=label("session_footer", lang).format(deals=len(result.deals)),
    )


def _fit(text: str, font: FontType, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels (a long name keeps the
    amount beside it readable)."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def card_png(card: Card) -> bytes:
    """A result picture as PNG bytes, ``WIDTH`` wide."""
    height = image_height(len(card.players), len(card.transfers))
    image = Image.new("RGB", (WIDTH, height), "white")
    draw = ImageDraw.Draw(image)
    right = WIDTH - MARGIN
    has_cash = any(row[3] for row in card.players)

    draw.rectangle((0, 0, WIDTH, HEAD), fill=GREEN)
    draw.text((MARGIN, 34), card.title, font=cjk_font(52), fill="white")
    draw.text(
        (MARGIN, 110),
        _fit(card.where, cjk_font(28), WIDTH - 2 * MARGIN),
        font=cjk_font(28),
        fill=(214, 236, 224),
    )
    draw.text(
        (MARGIN, 150),
        _fit(card.meta, cjk_font(24), WIDTH - 2 * MARGIN),
        font=cjk_font(24),
        fill=(214, 236, 224),
    )

    y = HEAD
    draw.text((MARGIN, y + 24), card.totals_title, font=cjk_font(34), fill=INK)
    y += SECTION
    points_right = right - CASH if has_cash else right
    for (place, name, points, cash), sign in zip(card.players, card.signs, strict=True):
        draw.line((MARGIN, y, right, y), fill=LINE, width=2)
        draw.text((MARGIN, y + ROW / 2), place, font=cjk_font(30), fill=MUTED, anchor="lm")
        name = _fit(name, cjk_font(34), points_right - MARGIN - 56 - 200)
        draw.text((MARGIN + 56, y + ROW / 2), name, font=cjk_font(34), fill=INK, anchor="lm")
        colour = WON if sign > 0 else LOST if sign < 0 else INK
        draw.text(
            (points_right, y + ROW / 2),
            points,
            font=cjk_font(32),
            fill=MUTED if cash else colour,
            anchor="rm",
        )
        if cash:
            draw.text((right, y + ROW / 2), cash, font=cjk_font(36), fill=colour, anchor="rm")
        y += ROW
    y += GAP
    draw.text((MARGIN, y + 24), card.settle_title, font=cjk_font(34), fill=INK)
    y += SECTION
    for text, amount in card.transfers:
        draw.line((MARGIN, y, right, y), fill=LINE, width=2)
        text = _fit(text, cjk_font(34), WIDTH - 2 * MARGIN - (CASH if amount else 0))
        draw.text((MARGIN, y + ROW / 2), text, font=cjk_font(34), fill=INK, anchor="lm")
        draw.text((right, y + ROW / 2), amount, font=cjk_font(36), fill=INK, anchor="rm")
        y += ROW
    draw.text((MARGIN, height - FOOT / 2), card.footer, font=cjk_font(22), fill=MUTED, anchor="lm")

    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def session_png(result: SessionResult, lang: Lang, money: SessionMoney | None = None) -> bytes:
    """The session's result card as PNG bytes (:func:`session_card`, drawn)."""
    return card_png(session_card(result, lang, money))
