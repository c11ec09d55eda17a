"""The one font loader of the dashboard's images (the session result, the player card):
Chinese names must come out as characters, not boxes, on any machine, and a fresh
machine has no CJK font (a Debian image has DejaVu only). :func:`cjk_font` therefore
loads Noto Sans CJK SC from the ``noto-cjk-sans-otc`` wheel (pinned in pyproject.toml:
Google's Noto Sans CJK collection, SIL Open Font License, no dependencies, installed by
``pip`` with everything else), and only when that package is missing falls back to a CJK
font the system has (``fc-match :lang=zh``), then to Pillow's own font.
"""

from __future__ import annotations

import shutil
import subprocess
from functools import cache
from typing import Final

from PIL import Image, ImageDraw, ImageFont

NOTO_SC_INDEX: Final = 2  # in NotoSansCJK-Regular.ttc: JP, KR, SC, TC, HK, ...

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
        if found.returncode == 0 and path and covers(path, int(index or 0), "胡"):
            return path, int(index or 0)
    return None


def covers(path: str, index: int, text: str) -> bool:
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
