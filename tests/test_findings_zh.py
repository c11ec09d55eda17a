"""The warehouse keeps each finding's Chinese explanation (``message_zh``), so the Audit
page in 中文 explains the engine's findings in Chinese, not in English."""

from __future__ import annotations

from analytics.queries import Analytics
from dashboard.findings_view import finding_message


def test_engine_findings_are_stored_with_their_chinese_explanation(api: Analytics) -> None:
    rows = api.sql("select code, message, message_zh from stg_findings where scope = 'deal'")
    explained = rows[rows["message_zh"].notna()]
    assert len(explained) > 0  # the engine writes Chinese for its own findings
    assert all(any("\u4e00" <= ch <= "\u9fff" for ch in text) for text in explained["message_zh"])
    for message, zh in zip(explained["message"], explained["message_zh"], strict=True):
        assert finding_message(message, zh, "zh") == zh and finding_message(message, zh, "en") == message


def test_payment_findings_are_explained_in_chinese(api: Analytics) -> None:
    rows = api.sql("select message_zh from stg_findings where code = 'payment_mismatch'")
    assert len(rows) > 0 and rows["message_zh"].notna().all()
