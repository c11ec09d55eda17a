"""An ingest's summary as text: where every deal went (read = ok + findings + invalid),
what was skipped, quarantined or moved aside. Shared by ``chuanma ingest`` and the Upload
page, so both say the same thing."""

from __future__ import annotations

from ingest.warehouse import IngestSummary


def ingest_text(summary: IngestSummary) -> str:
    """The summary: read = ok + findings + invalid, and where each kind went."""
    data = summary.to_json()
    deals = data["deals"]
    new = sum(1 for f in summary.files if f.status == "new")
    known = sum(1 for f in summary.files if f.status in ("known", "repeated"))
    rate = f", {data['deals_per_s']:.0f} deals/s" if data["deals_per_s"] else ""
    lines = [
        f"ingest into {summary.warehouse}: {new} new file(s), {known} already ingested (skipped); "
        f"{summary.seconds:.1f} s{rate}, workers {summary.workers or 'in process'}",
        f"deals read {deals['read']} = ok {deals['ok']} + findings {deals['findings']} + invalid {deals['invalid']}",
        f"  stored: ok {summary.stored['ok']}, findings {summary.stored['findings']} "
        "-> deals, seats, events, ledger (+ findings table)",
        f"  stored: invalid {summary.stored['invalid']} -> deals (status invalid), raw lines in quarantine",
        f"  duplicates (same deal_id, same content) skipped: {summary.duplicates}",
        f"  conflicting duplicates (same deal_id, other content) -> quarantine: {len(summary.conflicts)}",
    ]
    if summary.set_aside:
        lines.append(
            f"  deal lines that could not be read (no deal; lines in quarantine): {summary.set_aside}"
        )
    for conflict in summary.conflicts[:10]:
        lines.append(f"    {conflict['deal_id']} at {conflict['file']}:{conflict['line']}")
    for entry in summary.files:
        if entry.status.startswith("unreadable"):
            lines.append(f"  {entry.file}: {entry.status}, not ingested")
    if summary.quarantine:
        counts = ", ".join(f"{reason} {count}" for reason, count in sorted(summary.quarantine.items()))
        lines.append(f"  quarantine lines: {counts}")
    if summary.file_findings:
        lines.append(
            f"  errors about a whole file or session (cut-off gzip, past a limit, wrong totals): "
            f"{summary.file_findings}, in the findings table"
        )
    if summary.recovered:
        lines.append(
            f"  batches not in the catalog, checked and listed again: {', '.join(summary.recovered)}"
        )
    for note in summary.moved_aside:
        lines.append(f"  WARNING: moved aside (never deleted): {note}")
    if summary.batches:
        rows = ", ".join(f"{name} {count}" for name, count in summary.rows.items())
        lines.append(f"batches {', '.join(summary.batches)}: rows {rows}")
    else:
        lines.append("nothing new: the warehouse is unchanged")
    return "\n".join(lines)
