"""Reading logs, validating them, simulating clubs and writing the warehouse."""

import engine  # noqa: F401  (its __init__ applies CHUANMA_PURE before an ingest module loads)
