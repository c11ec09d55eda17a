"""An ingest's summary as text: where every deal went (read = ok + findings + invalid),
what was skipped, quarantined or moved aside. Shared by ``chuanma ingest`` and the Upload
page, so both say the same thing; the page writes it in its language."""

from __future__ import annotations

from dashboard.i18n import Lang, label
from ingest.warehouse import IngestSummary


def _say(key: str, lang: Lang, **values: object) -> str:
    """A line of the summary: ``ingest_summary_<key>`` of dashboard/i18n.py, filled in."""
    return label(f"ingest_summary_{key}", lang).format(**values)


def ingest_text(summary: IngestSummary, lang: Lang = "en") -> str:
    """The summary: read = ok + findings + invalid, and where each kind went."""
    data = summary.to_json()
    deals = data["deals"]
    new = sum(1 for f in summary.files if f.status == "new")
    known = sum(1 for f in summary.files if f.status in ("known", "repeated"))
    rate = _say("rate", lang, rate=data["deals_per_s"]) if data["deals_per_s"] else ""
    workers = _say("workers", lang, n=summary.workers) if summary.workers else _say("in_process", lang)
    lines = [
        _say("head", lang, warehouse=summary.warehouse, new=new, known=known, seconds=summary.seconds,
             rate=rate, workers=workers),
        _say("read", lang, read=deals["read"], ok=deals["ok"], findings=deals["findings"], invalid=deals["invalid"]),
        _say("stored_ok", lang, ok=summary.stored["ok"], findings=summary.stored["findings"]),
        _say("stored_invalid", lang, invalid=summary.stored["invalid"]),
        _say("duplicates", lang, n=summary.duplicates),
        _say("conflicts", lang, n=len(summary.conflicts)),
    ]  # fmt: skip
    if summary.set_aside:
        lines.append(_say("set_aside", lang, n=summary.set_aside))
    for conflict in summary.conflicts[:10]:
        lines.append(
            _say("conflict", lang, deal_id=conflict["deal_id"], file=conflict["file"], line=conflict["line"])
        )
    for entry in summary.files:
        if entry.status.startswith("unreadable"):
            lines.append(_say("unreadable", lang, file=entry.file, status=entry.status))
    if summary.quarantine:
        counts = ", ".join(f"{reason} {count}" for reason, count in sorted(summary.quarantine.items()))
        lines.append(_say("quarantine", lang, counts=counts))
    if summary.file_findings:
        lines.append(_say("file_findings", lang, n=summary.file_findings))
    if summary.recovered:
        lines.append(_say("recovered", lang, batches=", ".join(summary.recovered)))
    for note in summary.moved_aside:
        lines.append(_say("moved_aside", lang, note=note))
    if summary.batches:
        rows = ", ".join(f"{name} {count}" for name, count in summary.rows.items())
        lines.append(_say("batches", lang, batches=", ".join(summary.batches), rows=rows))
    else:
        lines.append(_say("nothing_new", lang))
    return "\n".join(lines)
