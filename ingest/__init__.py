"""Reading logs, validating them, simulating clubs and writing the warehouse."""

from pathlib import Path

from engine.compiled import check_fresh

check_fresh(Path(__file__).parent)
