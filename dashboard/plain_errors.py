"""What a page says when the warehouse or a file fails: a plain message for every
visitor, and the details (paths, the writer's pid and host, the OS error) in the
server's log only, where whoever runs the dashboard reads them (and the CLI prints them:
``chuanma ingest``, ``chuanma warehouse check``). A page is seen by anyone who can reach
the server; where the warehouse lives and which host writes to it is not theirs to know."""

from __future__ import annotations

import logging

import streamlit as st

from dashboard import page_kit

log = logging.getLogger("chuanma.dashboard")


def plain_error(error: BaseException, doing: str, key: str = "write_failed") -> None:
    """Log ``error`` with what the page was ``doing`` and show the plain message ``key``."""
    log.error("%s failed: %s: %s", doing, type(error).__name__, error)
    st.error(page_kit.t(key), icon=":material/error:")
