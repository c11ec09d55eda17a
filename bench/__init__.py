"""Benchmarks (run as scripts: ``python bench/<name>.py``); a package only so that
``bench/ingest.py`` and the ``ingest`` package have different module names for mypy."""
