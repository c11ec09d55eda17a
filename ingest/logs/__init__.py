"""The log format (docs/log-format.md, v1), read and written: its records, one line parsed,
a file's lines grouped into sessions and deals (the reader and its log builder), the file
and its limits (source), plain play lines scanned in C (play_lines), a deal's revisions,
and the writer, the reader's pair."""
