"""The Audit page's list of corrected deals: every revision of each, the latest marked.
A correction never overwrites: statistics count the latest revision, earlier ones stay
here (``analytics/sql/pages/deal_revisions.sql`` over ``stg_deal_revisions``); a revision
that deletes its deal is marked, and none of that deal's revisions count."""

from __future__ import annotations

import streamlit as st

from dashboard import cached_queries, page_kit


def show_revisions(src: cached_queries.Source, session_id: str | None = None) -> None:
    """A table of every revision of the corrected deals (nothing when there are none)."""
    frame = cached_queries.sql("deal_revisions", src=src, session_id=session_id)
    if frame.empty:
        return
    st.header(page_kit.t("revisions_title"))
    st.caption(page_kit.t("revisions_help"))
    page_kit.dataframe(
        frame,
        hide_index=True,
        height=page_kit.table_height(len(frame)),
        column_config={
            "deal_id": page_kit.t("deal_id"),
            "revision": page_kit.t("revision"),
            "is_latest": st.column_config.CheckboxColumn(page_kit.t("revision_latest")),
            "deleted": st.column_config.CheckboxColumn(page_kit.t("revision_deleted")),
            "stored_id": page_kit.t("revision_stored_id"),
            "session_id": page_kit.t("session"),
            "status": page_kit.t("status"),
            "findings": page_kit.t("findings"),
            "scores": page_kit.t("scores"),
            "file": None,
            "line": page_kit.t("line"),
        },
        key="audit_revisions",
    )
