"""The money inputs (结账: the value of a point, the table fee, the rounding) that the
Session result page and the Record page's close share, drawn under one key prefix, and
the settings they make (:class:`engine.money.MoneyRule`)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import page_kit
from engine.money import FEE_KINDS, ROUNDING, MoneyError, MoneyRule

#: the widgets under a prefix: (suffix, what it holds)
FIELDS = ("point", "fee", "fee_value", "rounding")


def seed(prefix: str, values: dict[str, Any]) -> None:
    """Fill the widgets not yet drawn this session (a link's values, a closing record's)."""
    for name, value in values.items():
        key = f"{prefix}_{name}"
        if key not in st.session_state and value is not None:
            st.session_state[key] = value


def values_of(rule: MoneyRule | None) -> dict[str, Any]:
    """A rule as the widgets' values."""
    if rule is None:
        return {}
    fee = rule.fee / 100 if rule.fee_kind == "fixed" else float(rule.fee)
    return {
        "point": rule.fen_per_point / 100,
        "fee": rule.fee_kind,
        "fee_value": fee,
        "rounding": rule.rounding,
    }


def money_widgets(prefix: str) -> MoneyRule | None:
    """Draw the inputs; the rule they make, or None while no value of a point is set."""
    if st.session_state.get(f"{prefix}_fee") not in FEE_KINDS:
        st.session_state[f"{prefix}_fee"] = "none"
    if st.session_state.get(f"{prefix}_rounding") not in ROUNDING:
        st.session_state[f"{prefix}_rounding"] = "fen"
    t = page_kit.t
    names = {kind: t(f"money_fee_{kind}") for kind in FEE_KINDS}
    rounds = {unit: t(f"money_round_{unit}") for unit in ROUNDING}
    left, middle, right = st.columns(3)
    point = left.number_input(t("money_point"), min_value=0.0, step=0.1, format="%.2f", key=f"{prefix}_point")
    fee_kind = middle.selectbox(t("money_fee"), FEE_KINDS, format_func=names.__getitem__, key=f"{prefix}_fee")
    fee = 0.0
    if fee_kind != "none":
        label = t("money_fee_value") if fee_kind == "fixed" else t("money_fee_percent")
        fee = middle.number_input(label, min_value=0.0, step=1.0, format="%.2f", key=f"{prefix}_fee_value")
    rounding = right.selectbox(
        t("money_rounding"), list(ROUNDING), format_func=rounds.__getitem__, key=f"{prefix}_rounding"
    )
    if not point:
        return None
    try:
        fee_units = round(fee * 100) if fee_kind == "fixed" else round(fee)
        return MoneyRule(round(point * 100), str(fee_kind), fee_units, str(rounding))
    except MoneyError as error:
        st.error(t("money_bad", error=error))
        return None
