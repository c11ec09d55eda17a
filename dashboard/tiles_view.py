"""Tiles drawn as tiles: small HTML faces (rank over its suit character, 万 red, 筒 blue,
条 green; a 红中 wild tile its red 中) so a hand reads at a glance, with no image or font
fetched from anywhere.

Pure string building (no Streamlit): the replay page passes the HTML to ``st.html``, and
the tests read it back.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Final

from engine.tiles import WILD, WILD_NAMES, rank_of, suit_of
from engine.vocabulary import SUITS

SUIT_CHARS: Final[tuple[str, ...]] = tuple(zh for zh, _ in SUITS.values())
SUIT_CLASSES: Final = ("cm-m", "cm-p", "cm-s")

#: injected once per page (a style-only ``st.html`` goes to the page's event container)
CSS: Final = """<style>
.cm-board{font-family:system-ui,sans-serif;border-collapse:collapse;width:100%}
.cm-board td{padding:4px 6px;vertical-align:middle;border-bottom:1px solid rgba(128,128,128,.25)}
.cm-seat{min-width:9em;font-size:.95em}
.cm-seat b{font-size:1.05em}
.cm-act{background:rgba(249,168,37,.16)}
.cm-tag{display:inline-block;font-size:.72em;padding:0 .4em;margin-left:.3em;border-radius:.6em;
  background:#eee;color:#333}
.cm-tag.cm-won{background:#2e7d32;color:#fff}
.cm-tag.cm-dealer{background:#6a1b9a;color:#fff}
.cm-tiles{display:inline-flex;flex-wrap:wrap;gap:2px;align-items:flex-end}
.cm-finding{padding:.75em 1em;margin:.25em 0;border-radius:.5em;background:rgba(255,43,43,.09);
  color:inherit;line-height:2}
.cm-finding .cm-tile{vertical-align:middle}
.cm-tile{display:inline-flex;flex-direction:column;align-items:center;justify-content:center;
  width:1.75em;height:2.45em;border:1px solid #b9b4a5;border-radius:4px;
  background:linear-gradient(#fffef9,#efe9d6);box-shadow:0 2px 0 #a59f8c;
  font-weight:700;line-height:1;color:#222}
.cm-tile .cm-r{font-size:1.05em}
.cm-tile .cm-u{font-size:.7em;margin-top:2px}
.cm-m{color:#c62828}.cm-p{color:#1565c0}.cm-s{color:#2e7d32}
.cm-z{color:#c62828;font-size:1.2em}
.cm-small{width:1.4em;height:1.95em;font-size:.78em}
.cm-hot{outline:3px solid #f9a825;outline-offset:-1px}
.cm-back{background:linear-gradient(#4f7f5a,#2e5a3a);border-color:#24452d}
.cm-meld{display:inline-flex;gap:1px;margin-right:.5em;padding:1px;border-radius:4px;
  background:rgba(128,128,128,.15)}
.cm-wall{font-size:1.05em;font-weight:600}
.cm-empty{color:#999;font-size:.85em}
@media (max-width:640px){
  .cm-board td{display:block;padding:2px 4px}
  .cm-board tr{display:block;padding:3px 0;border-bottom:1px solid rgba(128,128,128,.25)}
  .cm-board td{border-bottom:none}
  .cm-seat{min-width:0}
  .cm-tiles{flex-wrap:nowrap}
  .cm-tile{width:1.3em;height:1.85em;font-size:.8em}
  .cm-small{width:1.1em;height:1.55em;font-size:.68em}
}
</style>"""


def tile_html(tile: int, *, small: bool = False, hot: bool = False) -> str:
    """One tile face: its rank over its suit character, in the suit's colour; a 红中 its 中."""
    if tile == WILD:
        extra = (" cm-small" if small else "") + (" cm-hot" if hot else "")
        name = WILD_NAMES[0]
        return (
            f'<span class="cm-tile cm-z{extra}" title="{name} 红中" data-tile="{name}">'
            f'<span class="cm-r">{WILD_NAMES[1]}</span></span>'
        )
    suit = suit_of(tile)
    classes = ["cm-tile", SUIT_CLASSES[suit]]
    if small:
        classes.append("cm-small")
    if hot:
        classes.append("cm-hot")
    name = f"{rank_of(tile)}{'mps'[suit]}"
    return (
        f'<span class="{" ".join(classes)}" title="{name}" data-tile="{name}">'
        f'<span class="cm-r">{rank_of(tile)}</span><span class="cm-u">{SUIT_CHARS[suit]}</span></span>'
    )


def back_html(*, small: bool = False) -> str:
    """A face-down tile (the hidden tiles of a concealed kong)."""
    return f'<span class="cm-tile cm-back{" cm-small" if small else ""}"></span>'


def tiles_html(tiles: Sequence[int], *, small: bool = False, hot: int | None = None) -> str:
    """A row of tiles; ``hot`` marks the first copy of one tile (just drawn or claimed)."""
    out = []
    marked = False
    for tile in tiles:
        is_hot = not marked and hot is not None and tile == hot
        marked = marked or is_hot
        out.append(tile_html(tile, small=small, hot=is_hot))
    return f'<span class="cm-tiles">{"".join(out)}</span>' if out else '<span class="cm-empty">—</span>'


def meld_html(kind: str, tile: int) -> str:
    """A pong (three faces), an exposed or added kong (four), a concealed kong (two faces
    between two backs, as it lies on the table)."""
    if kind == "pong":
        faces = [tile_html(tile)] * 3
    elif kind == "concealed":
        faces = [back_html(), tile_html(tile), tile_html(tile), back_html()]
    else:
        faces = [tile_html(tile)] * 4
    return f'<span class="cm-meld" title="{escape(kind)}">{"".join(faces)}</span>'


def board_html(
    players: Sequence[str],
    hands: Sequence[Sequence[int]],
    melds: Sequence[Sequence[tuple[str, int]]],
    discards: Sequence[Sequence[int]],
    *,
    labels: dict[str, str],
    dealer: int,
    won: Sequence[bool],
    void: Sequence[int | None],
    scores: Sequence[int],
    acting: int | None = None,
    hot_tile: int | None = None,
    laid: Sequence[Sequence[int]] = ((), (), (), ()),
    win_counts: Sequence[int] = (),
) -> str:
    """The seats as rows (four, or the table's three or two: one a hand): who (dealer, void
    suit, won, score), the concealed hand, the melds with the tiles laid aside (血流成河:
    each win's tile, the seat plays on) and the discards, the acting seat highlighted."""
    rows = []
    for seat in range(len(hands)):
        tags = []
        if seat == dealer:
            tags.append(f'<span class="cm-tag cm-dealer">{escape(labels["dealer"])}</span>')
        suit = void[seat] if seat < len(void) else None
        if suit is not None:
            tags.append(f'<span class="cm-tag">{escape(labels["void"])} {SUIT_CHARS[suit]}</span>')
        if won[seat]:
            times = win_counts[seat] if seat < len(win_counts) else 1
            again = f" ×{times}" if times > 1 else ""  # 血流成河: the seat won again
            tags.append(f'<span class="cm-tag cm-won">{escape(labels["won"])}{again}</span>')
        score = scores[seat]
        who = (
            f'<td class="cm-seat"><b>{escape(players[seat])}</b> <small>#{seat}</small>{"".join(tags)}'
            f"<br><small>{escape(labels['scores'])} {score:+d}</small></td>"
        )
        hot = hot_tile if seat == acting else None
        hand = f"<td>{tiles_html(hands[seat], hot=hot)}</td>"
        meld = (
            "".join(meld_html(kind, tile) for kind, tile in melds[seat]) or '<span class="cm-empty">—</span>'
        )
        aside = laid[seat] if seat < len(laid) else ()
        if aside:
            names = " ".join(f"{rank_of(t)}{'mps'[suit_of(t)]}" for t in aside)
            meld += (
                f'<br><span class="cm-laid" data-laid="{names}"><small>{escape(labels.get("laid", "胡"))}</small> '
                f"{tiles_html(aside, small=True)}</span>"
            )
        table = tiles_html(discards[seat], small=True)
        css = ' class="cm-act"' if seat == acting else ""
        rows.append(
            f'<tr{css} data-seat="{seat}">{who}{hand}<td>{meld}</td>'
            f"<td><small>{escape(labels['discards'])}</small><br>{table}</td></tr>"
        )
    return f'<table class="cm-board">{"".join(rows)}</table>'
