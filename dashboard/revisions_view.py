"""The Audit page's list of corrected deals: every revision of each, the latest marked.
A correction never overwrites: statistics count the latest revision, earlier ones stay
here (``dashboard/sql/deal_revisions.sql`` over ``stg_deal_revisions``)."""

from __future__ import annotations

import streamlit as st

from dashboard import data, ui


def show_revisions(src: data.Source, session_id: str | None = None) -> None:
    """A table of every revision of the corrected deals (nothing when there are none)."""
    frame = data.sql("deal_revisions", src=src, session_id=session_id)
    if frame.empty:
        return
    st.header(ui.t("revisions_title"))
    st.caption(ui.t("revisions_help"))
    st.dataframe(
        frame,
        hide_index=True,
        height=ui.table_height(len(frame)),
        column_config={
            "deal_id": ui.t("deal_id"),
            "revision": ui.t("revision"),
            "is_latest": st.column_config.CheckboxColumn(ui.t("revision_latest")),
            "stored_id": ui.t("revision_stored_id"),
            "session_id": ui.t("session"),
            "status": ui.t("status"),
            "findings": ui.t("findings"),
            "scores": ui.t("scores"),
            "file": None,
            "line": ui.t("line"),
        },
        key="audit_revisions",
    )
