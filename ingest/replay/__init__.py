"""Files replayed: any file read by its content into sessions (files), each session's deals
replayed and rechecked (session_replay, the fast check first), and files turned into a
report (validate)."""
