"""Files replayed: any file read by its content into sessions (files), each session's deals
replayed and rechecked (session_replay), a clean deal first through the fast check
(fast_check: the engine's one deal state and moves, with fast_state's hand-offs, its
moves played in C: fast_plan and _moves.c), and files turned into a report (validate)."""
