"""Records of other platforms (平台牌谱) read as chuanma logs: each converter turns one
platform's record into log v1 lines, so the engine audits it unchanged (docs/platforms.md)."""
