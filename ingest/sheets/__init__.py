"""Club score sheets (记分表, ``.csv`` / ``.xlsx``) turned into log v1 sheet deals: cells,
terms, values, the sheet's layout and the conversion (docs/score-sheets.md)."""
