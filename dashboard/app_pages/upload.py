"""Upload: drop a ``.jsonl`` or ``.jsonl.gz`` log (or a ``.csv``/``.xlsx`` score sheet); it is validated and shown at once, and
ingested into the warehouse on request, with a progress bar.

The upload is validated in memory (``read_log_bytes``, the reader every other path uses);
ingesting writes its bytes under ``<warehouse>/uploads/`` first, because the warehouse
ingests files (their sha256 makes a second ingest of the same log a no-op)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Final

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from dashboard import page_kit, visitor
from dashboard.access import foreign_clubs
from dashboard.findings_view import finding_place, finding_said, named_voice, seat_base
from dashboard.ingest_report import ingest_text
from dashboard.safe_text import md
from dashboard.term_labels import code_label
from dashboard.upload_file import saved_path, write_upload
from dashboard.warehouse_location import warehouse_path
from dashboard.write_access import READ_ONLY_LIMIT, may_write, upload_token
from ingest.logs.source import mb
from ingest.replay.files import read_log_bytes
from ingest.replay.validate import ValidationReport, validate_log
from ingest.warehouse import IngestSummary, Progress, WarehouseError, ingest

UPLOAD_KEY = "upload_file"
DONE_KEY = "upload_done"  # sha256 -> ingest summary text
EXPLAINED = 25


class BarProgress(Progress):
    """The ingest's progress drawn as ``st.progress``."""

    def __init__(self, bar: st.delta_generator.DeltaGenerator, text: str) -> None:
        self.bar = bar
        self.text = text
        self.total = 0
        self.done = 0

    def add_total(self, chunks: int) -> None:
        self.total += chunks
        self._draw()

    def advance(self, chunks: int) -> None:
        self.done += chunks
        self._draw()

    def note(self, text: str) -> None:
        self.text = text
        self._draw()

    def _draw(self) -> None:
        share = self.done / self.total if self.total else 0.0
        self.bar.progress(min(1.0, share), text=self.text[-80:])


REPORT_KEY = "upload_report"  # (sha256, report) of the last upload
NOTES_KEY = "upload_quarantine"  # sha256 -> what went to quarantine and why (or None)


def quarantine_note(summary: IngestSummary) -> str | None:
    """What an ingest stored and what it put in quarantine, and why; None when nothing
    went to quarantine (a clean "Ingested.")."""
    conflicts = len(summary.conflicts)
    stray = summary.quarantine.get("stray", 0)
    invalid = summary.stored.get("invalid", 0)
    if not (conflicts or stray or invalid):
        return None
    stored = summary.stored.get("ok", 0) + summary.stored.get("findings", 0) + invalid
    note = page_kit.t(
        "ingested_with_quarantine", stored=stored, conflicts=conflicts, stray=stray, invalid=invalid
    )
    shown = ", ".join(str(c["deal_id"]) for c in summary.conflicts[:5])
    return note + (f" ({shown}{', …' if conflicts > 5 else ''})" if shown else "")


TOKEN_KEY = "upload_token"
#: this page's own words (中文, English), kept here beside the access rule they explain
WORDS = {
    "token": ("上传口令", "Upload token"),
    "token_help": (
        "入库需要口令（由运行看板的人设定）。",
        "Ingesting needs the upload token (set by whoever runs the dashboard).",
    ),
    "token_wrong": ("口令不对：未入库。", "Wrong token: nothing was ingested."),
    "read_only": (
        "只读：服务器对外开放且未设口令，上传只做校验，不入库（用 --upload-token 开启）。",
        "Read-only: the server listens beyond localhost and has no upload token, so uploads "
        "are validated, not ingested (start it with --upload-token to allow that).",
    ),
}


def words(key: str) -> str:
    zh, en = WORDS[key]
    return zh if page_kit.lang() == "zh" else en


def validated(sha: str, name: str, payload: bytes) -> ValidationReport:
    """The validation report of an upload, kept for this session's reruns (in the session,
    not ``st.cache_data``: the engine's findings are not meant to be pickled)."""
    kept = st.session_state.get(REPORT_KEY)
    if kept is not None and kept[0] == sha:
        report: ValidationReport = kept[1]
        return report
    report = validate_log(read_log_bytes(payload, name))
    st.session_state[REPORT_KEY] = (sha, report)
    return report


#: the files the uploader takes
TYPES: Final = ("jsonl", "gz", "csv", "xlsx")


def css_text(text: str) -> str:
    """``text`` as a CSS string (for ``content``)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def uploader_words() -> str:
    """Streamlit's uploader says "Upload" and "200MB per file • JSONL, ..." in English
    whatever the page's language (its widgets are not localised): on a 中文 page its own
    words are hidden and ours drawn in their place (CSS ``content``)."""
    limit = int(st.get_option("server.maxUploadSize"))
    limits = page_kit.t("upload_limits", size=limit, types="、".join(t.upper() for t in TYPES))
    zone = '[data-testid="stFileUploaderDropzone"]'
    return (
        f"<style>{zone} button [data-testid='stMarkdownContainer'],"
        f"{zone} [data-testid='stFileUploaderDropzoneInstructions'] span{{display:none}}"
        f"{zone} button > div::after{{content:{css_text(page_kit.t('upload_choose'))};margin-left:0.25rem}}"
        f"{zone} [data-testid='stFileUploaderDropzoneInstructions'] > div::after"
        f"{{content:{css_text(limits)};font-size:0.875rem;opacity:0.7}}</style>"
    )


def deal_places(report: ValidationReport) -> dict[int, tuple[int, int]]:
    """Each tile deal's finding (by id) -> its deal's line and number in its session."""
    numbers: dict[str | None, int] = {}
    out: dict[int, tuple[int, int]] = {}
    for deal in report.deals:
        numbers[deal.session_id] = numbers.get(deal.session_id, 0) + 1
        if deal.record == "tiles":
            out.update((id(f), (deal.line, numbers[deal.session_id])) for f in deal.findings)
    return out


def show_report(report: ValidationReport) -> None:
    summary = report.summary()
    cols = st.columns(5)
    cols[0].metric(page_kit.t("deals"), page_kit.count(summary["deals"]))
    cols[1].metric(page_kit.t("ok_deals"), page_kit.count(summary["ok"]))
    cols[2].metric(page_kit.t("deals_with_findings"), page_kit.count(summary["findings"]))
    cols[3].metric(page_kit.t("invalid_deals"), page_kit.count(summary["invalid"]))
    cols[4].metric(page_kit.t("findings"), page_kit.count(summary["finding_count"]))
    if summary["by_code"]:
        page_kit.dataframe(
            pd.DataFrame(
                {
                    "code": [code_label(c, page_kit.lang()) for c in summary["by_code"]],
                    "findings": list(summary["by_code"].values()),
                }
            ),
            hide_index=True,
            column_config={"code": page_kit.t("code"), "findings": page_kit.t("findings")},
            key="upload_codes",
        )
    deals = pd.DataFrame(
        {
            "deal_id": [d.deal_id for d in report.deals],
            "session_id": [d.session_id for d in report.deals],
            "status": [page_kit.t("status_" + d.status) for d in report.deals],
            "findings": [len(d.findings) for d in report.deals],
            "codes": [sorted({f.code for f in d.findings}) for d in report.deals],
            # text, so a deal with no net reads "–" beside the others (page_kit.blanks), never None
            "scores": [", ".join(map(str, d.scores)) if d.replayed else None for d in report.deals],
            "line": [d.line for d in report.deals],
        }
    )
    page_kit.dataframe(
        page_kit.blanks(deals),
        hide_index=True,
        height=page_kit.table_height(len(deals)),
        column_config={
            "deal_id": page_kit.t("deal_id"),
            "session_id": page_kit.t("session"),
            "status": page_kit.t("status"),
            "findings": page_kit.t("findings"),
            "codes": page_kit.t("code"),
            "scores": page_kit.t("scores"),
            "line": page_kit.t("line"),
        },
        key="upload_deals",
    )
    players = {s.session_id: s.players for s in report.sessions}
    voiced = {  # each deal's finding: its session's players, its seats counted as its source counts
        id(f): (players.get(d.session_id, ()), seat_base(d.record, d.file))
        for d in report.deals
        for f in d.findings
    }
    for session in report.sessions:  # a wrong session total names the players too
        voiced.update((id(f), (session.players, seat_base(None, f.file))) for f in session.findings)
    placed = deal_places(report)
    for number, finding in enumerate(report.all_findings()):
        if number >= EXPLAINED:
            break
        names, first = voiced.get(id(finding), ((), seat_base(None, finding.file)))
        voice = named_voice(names, first)
        # a sheet counts rows (docs/score-sheets.md), a tile deal its steps, a log lines
        deal_line, deal_no = placed.get(id(finding), (None, None))
        rows = seat_base(None, finding.file) == 1
        where = finding_place(finding.line, deal_line, deal_no, rows, page_kit.lang()) or finding.file or ""
        if finding.seat is None:
            seat = ""
        elif voice is not None and voice.name(finding.seat) is not None:
            seat = f" · {md(voice.seat(finding.seat, page_kit.lang()))}"
        else:
            seat = f" · {page_kit.t('seat_n', n=finding.seat + first)}"
        message = finding_said(finding, page_kit.lang(), names, first)
        st.error(
            f"**{code_label(finding.code, page_kit.lang())}** · {md(where)}{seat}: {md(message)}",
            icon=":material/error:",
        )


def ingest_upload(sha: str, name: str, payload: bytes, done: dict[str, str]) -> None:
    """Keep the upload under ``<warehouse>/uploads/`` (temp file + rename: a torn file at
    that name is replaced) and ingest it; a failure shows a plain message, its details go
    to the server's log."""
    warehouse = warehouse_path()
    only = visitor.club()
    others = foreign_clubs(only, payload, name) if only is not None else []
    if others:  # a club's recorder stores its club's sessions only
        st.error(page_kit.t("access_other_club", club=md(str(only)), others=md(", ".join(others))))
        return
    path = saved_path(warehouse, sha, name)
    bar = st.progress(0.0, text=page_kit.t("ingesting"))
    try:
        write_upload(path, payload)
        summary = ingest([path], warehouse, workers=0, progress=BarProgress(bar, page_kit.t("ingesting")))
    except (WarehouseError, OSError) as error:
        bar.empty()
        page_kit.plain_error(error, f"ingesting upload {name!r}")
        return
    bar.progress(1.0, text=page_kit.t("ingested"))
    text = ingest_text(summary, page_kit.lang())  # the warehouse's folder is not the page's to show
    for folder in {summary.warehouse, str(warehouse)}:
        text = text.replace(folder, "<warehouse>")
    stored = summary.stored
    plain = page_kit.t(
        "ingest_plain", stored=stored["ok"] + stored["findings"] + stored["invalid"], ok=stored["ok"],
        findings=stored["findings"], invalid=stored["invalid"], known=summary.duplicates,
    )  # fmt: skip
    done[sha] = f"{plain}\n{text}"
    st.session_state.setdefault(NOTES_KEY, {})[sha] = quarantine_note(summary)


def show_ingested(sha: str, report: ValidationReport, done: dict[str, str]) -> None:
    note = st.session_state.get(NOTES_KEY, {}).get(sha)
    if note:
        st.warning(note, icon=":material/warning:")
    else:
        st.success(page_kit.t("ingested"))
    plain, details = done[sha].split("\n", 1) if "\n" in done[sha] else (done[sha], "")
    st.markdown(plain)
    if details:
        with st.expander(page_kit.t("ingest_details")):
            st.text(details)  # not st.code: nothing to copy, and no English "Copy" button
    flagged = [d.session_id for d in report.deals if d.findings and d.session_id]
    sessions = [s.session_id for s in report.sessions if s.session_id]
    target = next(iter(flagged or sessions), None)
    st.page_link(
        page_kit.PAGES["audit"],
        label=page_kit.t("see_audit"),
        icon=":material/search:",
        query_params={"session": target} if target else None,
    )


st.title(page_kit.t("page_upload"))
st.caption(page_kit.t("upload_help"))
TEMPLATE = Path(__file__).resolve().parents[2] / "data" / "templates" / "sheet-template.csv"
if TEMPLATE.is_file():  # a club that keeps paper sheets starts from this one
    st.download_button(
        page_kit.t("sheet_template"), TEMPLATE.read_bytes(), file_name=TEMPLATE.name, mime="text/csv",
        help=page_kit.t("sheet_template_help"), icon=":material/download:", key="sheet_template",
    )  # fmt: skip
token = upload_token()
# The door before the work: with a token set, the file field appears only once the token
# is right, so a visitor without it cannot make the server take in or read a byte.
allowed = may_write(words("token"), words("token_help"), words("read_only"), TOKEN_KEY)
if token is not None and not allowed:
    st.info(page_kit.t("token_first"), icon=":material/lock:")
    st.stop()
upload = st.file_uploader(page_kit.t("upload_label"), type=list(TYPES), key=UPLOAD_KEY)
if page_kit.lang() == "zh":
    st.html(uploader_words())
if upload is not None:
    if not allowed and upload.size > READ_ONLY_LIMIT:  # read-only: validate small files only
        st.error(page_kit.t("upload_too_big_read_only", limit=mb(READ_ONLY_LIMIT), size=mb(upload.size)))
        st.stop()
    payload = upload.getvalue()
    sha = hashlib.sha256(payload).hexdigest()
    st.subheader(f"{page_kit.t('validated')}: {md(upload.name)}")
    report = validated(sha, upload.name, payload)
    show_report(report)
    done: dict[str, str] = st.session_state.setdefault(DONE_KEY, {})
    clicked = st.button(
        page_kit.t("ingest"), type="primary", key="upload_ingest", disabled=sha in done or not allowed
    )
    if clicked and allowed:
        ingest_upload(sha, upload.name, payload, done)
    if sha in done:
        show_ingested(sha, report, done)
