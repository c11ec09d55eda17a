"""The ingest summary in both languages (the Upload page writes it in the page's): the
same figures, every line in Chinese on the 中文 page, and the English text as the CLI has
always printed it."""

from __future__ import annotations

import re
from pathlib import Path

from warehouse_fixtures import hand_log

from dashboard.i18n import LABELS
from dashboard.ingest_report import ingest_text
from ingest.warehouse import ingest

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_the_summary_in_both_languages(tmp_path: Path) -> None:
    summary = ingest([hand_log(tmp_path / "hand")], tmp_path / "wh", workers=0)
    assert summary.findings and summary.invalid and summary.quarantine  # lines of every kind
    en, zh = ingest_text(summary, "en"), ingest_text(summary, "zh")
    assert en.splitlines()[1] == (
        f"deals read {summary.read} = ok {summary.ok} + findings {summary.findings} + invalid {summary.invalid}"
    )
    assert zh.splitlines()[1] == (
        f"读到牌局 {summary.read} = 正确 {summary.ok} + 有问题 {summary.findings} + 无法回放 {summary.invalid}"
    )
    assert len(en.splitlines()) == len(zh.splitlines())
    for line in zh.splitlines():
        assert CJK.search(line), line
    lines = [pair for key, pair in LABELS.items() if key.startswith("ingest_summary_")]
    assert len(lines) > 10
    for zh_text, en_text in lines:  # the same fields in both
        assert set(re.findall(r"\{(\w+)", zh_text)) == set(re.findall(r"\{(\w+)", en_text)), en_text
