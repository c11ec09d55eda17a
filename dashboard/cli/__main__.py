"""``python -m dashboard.cli``: the same as the ``chuanma`` script."""

from dashboard.cli import main

main()
