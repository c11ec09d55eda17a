"""An ingest's summary as text: where every deal went (read = ok + findings + invalid),
what was skipped, quarantined or moved aside. Shared by ``chuanma ingest`` and the Upload
page, so both say the same thing; the page writes it in its language."""

from __future__ import annotations

from typing import Final

from dashboard.i18n import Lang
from ingest.warehouse import IngestSummary

#: every line of the summary: key -> (中文, English)
TEXT: Final[dict[str, tuple[str, str]]] = {
    "head": (
        "导入 {warehouse}：新文件 {new} 个，已导入过（跳过）{known} 个；{seconds:.1f} 秒{rate}，{workers}",
        "ingest into {warehouse}: {new} new file(s), {known} already ingested (skipped); "
        "{seconds:.1f} s{rate}, workers {workers}",
    ),
    "rate": ("，每秒 {rate:.0f} 局", ", {rate:.0f} deals/s"),
    "in_process": ("本进程内", "in process"),
    "workers": ("工作进程 {n} 个", "{n}"),
    "read": (
        "读到牌局 {read} = 正确 {ok} + 有问题 {findings} + 无法回放 {invalid}",
        "deals read {read} = ok {ok} + findings {findings} + invalid {invalid}",
    ),
    "stored_ok": (
        "  已存：正确 {ok}、有问题 {findings} -> 牌局、座位、事件、账目（问题另入问题表）",
        "  stored: ok {ok}, findings {findings} -> deals, seats, events, ledger (+ findings table)",
    ),
    "stored_invalid": (
        "  已存：无法回放 {invalid} -> 牌局（状态 invalid），原始行入隔离区",
        "  stored: invalid {invalid} -> deals (status invalid), raw lines in quarantine",
    ),
    "duplicates": (
        "  重复（同一牌局编号、内容相同）跳过：{n}",
        "  duplicates (same deal_id, same content) skipped: {n}",
    ),
    "conflicts": (
        "  冲突的重复（同一牌局编号、内容不同）-> 隔离区：{n}",
        "  conflicting duplicates (same deal_id, other content) -> quarantine: {n}",
    ),
    "set_aside": (
        "  无法读取的牌局行（不成牌局；原始行入隔离区）：{n}",
        "  deal lines that could not be read (no deal; lines in quarantine): {n}",
    ),
    "conflict": ("    {deal_id}，位于 {file}:{line}", "    {deal_id} at {file}:{line}"),
    "unreadable": ("  {file}：{status}，未导入", "  {file}: {status}, not ingested"),
    "quarantine": ("  隔离区的行：{counts}", "  quarantine lines: {counts}"),
    "file_findings": (
        "  关于整个文件或场次的错误（gzip 被截断、超过上限、总分不符）：{n}，见问题表",
        "  errors about a whole file or session (cut-off gzip, past a limit, wrong totals): "
        "{n}, in the findings table",
    ),
    "recovered": (
        "  目录里缺少的批次，检查后重新登记：{batches}",
        "  batches not in the catalog, checked and listed again: {batches}",
    ),
    "moved_aside": (
        "  警告：已移到一旁（从不删除）：{note}",
        "  WARNING: moved aside (never deleted): {note}",
    ),
    "batches": ("批次 {batches}：行数 {rows}", "batches {batches}: rows {rows}"),
    "nothing_new": ("没有新内容：数据仓库未改动", "nothing new: the warehouse is unchanged"),
}


def _say(key: str, lang: Lang, **values: object) -> str:
    zh, en = TEXT[key]
    return (zh if lang == "zh" else en).format(**values)


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
