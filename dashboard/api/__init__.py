"""chuanma's HTTP API (``chuanma serve``): other programs (recorder apps, automatic tables,
chat bots) send a deal or ask for a result over HTTP. The routes are thin: they call the
same functions the CLI and the pages call (``ingest.replay.validate``, ``ingest.warehouse``,
``analytics``), so an answer is never computed a second way. See docs/api.md."""
