"""Import a club's 记分 sheet (``.csv`` / ``.xlsx``) as log v1 sheet deals.

One row per event (docs/score-sheets.md): a kong (杠), a win (胡), the 查叫 step at the
wall's end, a deal's net (本局) or the session's totals (总分), with the four seats'
recorded points as four columns. Session columns (场次, 日期, 玩家1-4, 规则, 底分...)
are given on a session's first row or repeated; a blank cell means "same as above"
(merged cells read that way too), and so does a blank deal number. They may also
stand in a first block of ``key, value`` rows above the header row.

The sheet becomes JSON lines numbered by their sheet row (a session, deal, synthesised
``deal_end`` or ``session_end`` line takes the number of the row it comes from), read
by the same reader as any log, so every finding names its row. A cell that cannot be
read is a ``bad_record`` finding naming row and column; its row is left out, the other
rows and deals go through. A deal recorded only as its net points per seat is a
``net_only`` sheet deal: only its zero-sum and the session totals can be checked.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from engine.events import Finding
from engine.rules import Rules, RulesError, load_rules
from ingest.reader import DealLog, LogBuilder, LogFile, SessionLog
from ingest.sheets.cells import Cell, Grid, SheetError, column_letter, read_grid
from ingest.sheets.net_only import NET_ONLY, NET_ONLY_NOTE
from ingest.sheets.terms import (
    END_REASONS,
    EVENTS,
    KONG_KINDS,
    SELF_DRAW,
    norm,
)
from ingest.sheets.values import (
    LIST_SPLIT,
    BadCell,
    cell_text,
    deal_id_of,
    end_reason,
    header_key,
    iso_date,
    pattern_ids,
    ready_fans,
    rules_value,
    seat_of,
    whole_number,
)

__all__ = ["NET_ONLY_NOTE", "SheetLog", "convert_grid", "convert_sheet", "read_sheet_bytes"]

SESSION_KEYS: Final = (
    "session",
    "date",
    "club",
    "table",
    "rules",
    "base",
    "players",
    *(f"player{i}" for i in range(1, 5)),
)
POINTS: Final = tuple(f"points{i}" for i in range(1, 5))
_HEADER_SCAN: Final = 30  # rows searched for the header row
#: finding code -> the JSON fields (so the sheet cells) it is about, most specific first
FINDING_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "payment_mismatch": ("deltas", "settlement"),
    "fan_mismatch": ("patterns", "fan"),
    "score_mismatch": ("scores", "totals"),
    "illegal_hu": ("patterns", "seat"),
    "out_of_turn": ("seat",),
    "wrong_end": ("ready", "flower_pigs"),
    "bad_record": ("seat", "from", "patterns", "kind"),
}


@dataclass
class _Row:
    number: int
    cells: dict[str, str]  # column key -> text (blank cells left out)
    raw: str


@dataclass
class _Session:
    row: int
    values: dict[str, str] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    rules: Rules | None = None
    deals: dict[str, list[_Row]] = field(default_factory=dict)
    totals: _Row | None = None
    last_row: int = 0


@dataclass
class SheetLog:
    """What a sheet became: JSON lines by row, the importer's findings, the columns.

    ``fields[row][json_field]`` names the sheet column(s) each field came from, so a
    finding at a row can say which cell to look at.
    """

    name: str
    lines: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    findings: list[tuple[str | None, Finding, str]] = field(
        default_factory=list
    )  # (deal_id, finding, raw row)
    columns: dict[str, str] = field(default_factory=dict)  # column key -> letter
    fields: dict[int, dict[str, tuple[int, str]]] = field(default_factory=dict)  # line -> (row, columns)
    net_only: set[str] = field(default_factory=set)  # deal ids recorded only as nets
    encoding: str | None = None

    def jsonl(self) -> str:
        return "".join(json.dumps(obj, ensure_ascii=False) + "\n" for _, obj in self.lines)

    def column_of(self, line: int, json_field: str) -> str | None:
        """The column(s) a field of the line at this row came from (``S:V`` for points)."""
        source = self.fields.get(line, {}).get(json_field)
        return None if source is None else source[1]

    def row_of(self, line: int, json_field: str) -> int | None:
        """The sheet row a field came from: its line's row, but a deal_end gathers the
        查叫 and 本局 rows."""
        source = self.fields.get(line, {}).get(json_field)
        return None if source is None else source[0]

    def cell_of(self, finding: Finding) -> str | None:
        """ "row N, column X" for a validator's finding on this sheet: the first field its
        code is about that the finding's row recorded (None when no cell is known)."""
        if finding.line is None:
            return None
        for json_field in FINDING_FIELDS.get(finding.code, ()):
            source = self.fields.get(finding.line, {}).get(json_field)
            if source is not None and source[1]:
                return f"row {source[0]}, column {source[1]}"
        return None


# --- the header ----------------------------------------------------------------------


def _find_header(rows: list[list[Cell]]) -> int | None:
    """Index of the header row: the first with three known columns, one of them the deal,
    the event or a seat's points; or a deal column beside the four players' names."""
    for index, row in enumerate(rows[:_HEADER_SCAN]):
        keys = {header_key(cell_text(cell)) for cell in row} - {None}
        if len(keys) >= 3 and keys & {"deal", "event", *POINTS}:
            return index
        if "deal" in keys and len(_name_columns(row)) == 4:
            return index
    return None


def _name_columns(row: list[Cell]) -> list[int]:
    """Header cells that are no column name: in a net-only sheet, the players' names."""
    return [i for i, cell in enumerate(row) if cell_text(cell) and header_key(cell_text(cell)) is None]


# --- the importer --------------------------------------------------------------------


class _Importer:
    def __init__(self, name: str, grid: Grid) -> None:
        self.name = name
        self.grid = grid
        self.out = SheetLog(name, encoding=grid.encoding)
        self.letters: dict[str, str] = {}
        self.headers: dict[str, str] = {}
        self.sessions: list[_Session] = []

    # findings

    def finding(self, row: int, key: str | None, message: str, *, warning: bool = False) -> Finding:
        if key is not None:
            letter = self.letters.get(key, "?")
            where = f"row {row}, column {letter} ({self.headers.get(key, key)})"
        else:
            where = f"row {row}"
        return Finding(
            "unknown_field" if warning else "bad_record",
            row,
            None,
            f"{where}: {message}",
            severity="warning" if warning else "error",
            file=self.name,
            rule="score sheet",
            extra={"row": row, "column": self.letters.get(key) if key else None},
        )

    def bad(self, deal_id: str | None, row: _Row, error: BadCell) -> None:
        self.out.findings.append((deal_id, self.finding(row.number, error.key, error.message), row.raw))

    # reading

    def run(self) -> SheetLog:
        rows = self.grid.rows
        header = _find_header(rows)
        if header is None:
            message = (
                "no header row found: the first rows need column names such as 局号/deal, 事件/event, "
                "得分1/points1 (see data/templates/sheet-template.csv)"
            )
            self.out.findings.append((None, self.finding(1, None, message), ""))
            return self.out
        block = self._first_block(rows[:header])
        self._columns(rows[header], header + 1)
        self._rows(rows, header, block)
        self._emit()
        return self.out

    def _first_block(self, rows: list[list[Cell]]) -> dict[str, tuple[int, list[str]]]:
        """``key, value`` rows above the header: the session fields of the whole sheet."""
        block: dict[str, tuple[int, list[str]]] = {}
        for number, row in enumerate(rows, 1):
            texts = [cell_text(c) for c in row]
            key = header_key(texts[0]) if texts else None
            values = [t for t in texts[1:] if t]
            if key in SESSION_KEYS and values:
                block[key] = (number, values)
        return block

    def _columns(self, row: list[Cell], number: int) -> None:
        self.index: dict[str, int] = {}
        self.named: list[str] = []  # players named by the points columns' headers
        names = _name_columns(row)
        known = {header_key(cell_text(cell)) for cell in row}
        if len(names) == 4 and not known & {*POINTS, "players", "player1"}:
            self.named = [cell_text(row[i]) for i in names]
            for seat, index in enumerate(names):
                points = POINTS[seat]
                self.index[points], self.letters[points] = index, column_letter(index)
                self.headers[points] = self.named[seat]
        for index, cell in enumerate(row):
            if index in self.index.values():
                continue
            text = cell_text(cell)
            key = header_key(text)
            if not text:
                continue
            letter = column_letter(index)
            if key is None or key in self.index:
                why = (
                    "is not a column of a score sheet"
                    if key is None
                    else f"repeats column {self.letters[key]}"
                )
                finding = self.finding(
                    number, None, f"column {letter} header {text!r} {why}; ignored", warning=True
                )
                self.out.findings.append((None, finding, ""))
                continue
            self.index[key] = index
            self.letters[key] = letter
            self.headers[key] = text
        self.out.columns = dict(self.letters)

    def _rows(self, rows: list[list[Cell]], header: int, block: dict[str, tuple[int, list[str]]]) -> None:
        sticky: dict[str, str] = {}
        for key, (_, values) in block.items():
            sticky[key] = values[0] if key != "players" or len(values) == 1 else ",".join(values)
        session: _Session | None = None
        first_block_row = min((n for n, _ in block.values()), default=None)
        for offset, row in enumerate(rows[header + 1 :], header + 2):
            texts = [cell_text(c) for c in row]
            if not any(texts):
                continue
            cells = {key: texts[i] for key, i in self.index.items() if i < len(texts) and texts[i]}
            raw = ",".join(texts).rstrip(",")
            current = _Row(offset, cells, raw)
            opens = session is None or ("session" in cells and cells["session"] != sticky.get("session"))
            for key in SESSION_KEYS:
                if key in cells:
                    sticky[key] = cells[key]
            if opens:
                line = first_block_row if session is None and first_block_row is not None else offset
                session = _Session(line)
                session.values = dict(sticky)
                self.sessions.append(session)
                sticky.pop("deal", None)
            assert session is not None
            self._session_cells(session, current)
            self._place(session, current, sticky)

    def _session_cells(self, session: _Session, row: _Row) -> None:
        """A session field given again on a later row must agree with the first one."""
        for key in SESSION_KEYS:
            value = row.cells.get(key)
            if value is None:
                continue
            known = session.values.get(key)
            if known is None:
                session.values[key] = value
            elif known != value and key != "session":
                message = (
                    f"{key} {value!r} differs from {known!r} given before for this session; the first is used"
                )
                self.out.findings.append((None, self.finding(row.number, key, message), row.raw))

    def _place(self, session: _Session, row: _Row, sticky: dict[str, str]) -> None:
        session.last_row = row.number
        if "event" not in row.cells and EVENTS.get(norm(row.cells.get("deal", ""))) == "total":
            row.cells["event"] = row.cells.pop("deal")  # a net-only sheet's 总分 row, in the deal column
        if "deal" in row.cells:
            sticky["deal"] = row.cells["deal"]
        kind_text = row.cells.get("event", "")
        event = EVENTS.get(norm(kind_text)) if kind_text else None
        if kind_text and event is None:
            message = f"unknown event {kind_text!r}; write 杠/kong, 胡/hu, 查叫/end, 本局/net or 总分/total"
            self.out.findings.append(
                (self._open_deal_id(session, sticky), self.finding(row.number, "event", message), row.raw)
            )
            return
        if event is None:
            if not any(p in row.cells for p in POINTS):
                return  # a row of session fields only
            event = "net" if "seat" not in row.cells else ""
            if not event:
                message = "empty; write 杠/kong, 胡/hu, 查叫/end, 本局/net or 总分/total"
                self.out.findings.append((None, self.finding(row.number, "event", message), row.raw))
                return
        row.cells["event"] = event
        if event == "total":
            session.totals = row
            return
        deal = sticky.get("deal")
        if deal is None:
            message = "no deal number on this row or above it in this session"
            self.out.findings.append((None, self.finding(row.number, "deal", message), row.raw))
            return
        session.deals.setdefault(deal, []).append(row)

    def _open_deal_id(self, session: _Session, sticky: dict[str, str]) -> str | None:
        deal = sticky.get("deal")
        return None if deal is None else deal_id_of(self._session_id(session), deal)

    def _session_id(self, session: _Session) -> str:
        given = session.values.get("session")
        if given:
            return given
        stem = Path(self.name).name.split(".")[0] or "sheet"
        date = session.values.get("date")
        return f"{stem}-{date}" if date else f"{stem}-{self.sessions.index(session) + 1}"

    # emitting lines

    def _emit(self) -> None:
        for session in self.sessions:
            self._emit_session(session)

    def _add(
        self,
        row: int,
        obj: dict[str, Any],
        columns: dict[str, str] | None = None,
        rows: dict[str, int] | None = None,
    ) -> None:
        """One line at this row; ``columns`` (and ``rows``, where a field comes from
        another row) say where each field stands on the sheet."""
        self.out.lines.append((row, obj))
        if columns:
            cells = self.out.fields.setdefault(row, {})
            for key, letters in columns.items():
                cells[key] = ((rows or {}).get(key, row), letters)

    def _col(self, *keys: str) -> str:
        letters = [self.letters[k] for k in keys if k in self.letters]
        if len(letters) > 1 and len(keys) == 4:
            return f"{letters[0]}:{letters[-1]}"
        return ",".join(letters)

    def _emit_session(self, session: _Session) -> None:
        values = session.values
        obj: dict[str, Any] = {"type": "session", "session_id": self._session_id(session)}
        columns: dict[str, str] = {"session_id": self._col("session")}
        players = self._players(session)
        if players is not None:
            obj["players"] = players
            session.players = players
            columns["players"] = self._col("players", "player1", "player2", "player3", "player4")
        rules_text = values.get("rules")
        if rules_text:
            obj["rules"] = rules_value(rules_text)
            columns["rules"] = self._col("rules")
        try:
            session.rules = load_rules(obj.get("rules", "standard"))
        except RulesError:
            session.rules = None  # the validator says why; sheet terms read under standard
        for key, json_key, convert in (
            ("base", "base", None),
            ("club", "club", str),
            ("table", "table", str),
        ):
            text = values.get(key)
            if not text:
                continue
            if convert is None:
                try:
                    obj[json_key] = whole_number(key, text, "the base (底分)")
                except BadCell as error:
                    row = _Row(session.row, {}, "")
                    self.bad(None, row, error)
                    continue
            else:
                obj[json_key] = text
            columns[json_key] = self._col(key)
        if values.get("date"):
            try:
                obj["started_at"] = iso_date(values["date"])
                columns["started_at"] = self._col("date")
            except BadCell as error:
                self.bad(None, _Row(session.row, {}, ""), error)
        self._add(session.row, obj, columns)
        for deal, rows in session.deals.items():
            self._emit_deal(session, deal, rows)
        end: dict[str, Any] = {"type": "session_end"}
        end_row = session.last_row
        if session.totals is not None:
            end_row = session.totals.number
            try:
                end["totals"] = self._points(session.totals, required=True)
                self._add(end_row, end, {"totals": self._col(*POINTS)})
                return
            except BadCell as error:
                self.bad(None, session.totals, error)
        self._add(end_row, end)

    def _players(self, session: _Session) -> list[str] | None:
        if self.named:
            return list(self.named)
        values = session.values
        seats = [values.get(f"player{i}") for i in range(1, 5)]
        if all(seats):
            return [s for s in seats if s]
        listed = values.get("players")
        if listed:
            names = [n for n in LIST_SPLIT.split(listed) if n]
            if len(names) == 4:
                return names
            error = BadCell(
                "players", f"four player names are needed (seat order), got {len(names)}: {listed!r}"
            )
            self.bad(None, _Row(session.row, {}, ""), error)
            return None
        if any(seats):
            missing = ", ".join(f"player{i}" for i, s in enumerate(seats, 1) if not s)
            self.bad(
                None,
                _Row(session.row, {}, ""),
                BadCell(f"player{seats.index(None) + 1}", f"no name for {missing}"),
            )
        return None

    def _emit_deal(self, session: _Session, deal: str, rows: list[_Row]) -> None:
        deal_id = deal_id_of(self._session_id(session), deal)
        start: dict[str, Any] = {"type": "deal", "deal_id": deal_id, "record": "sheet"}
        columns = {"deal_id": self._col("deal")}
        for row in rows:
            if "dealer" in row.cells:
                try:
                    start["dealer"] = self._seat(session, row, "dealer")
                    columns["dealer"] = self._col("dealer")
                except BadCell as error:
                    self.bad(deal_id, row, error)
                break
        kinds = {row.cells["event"] for row in rows}
        net_only = kinds == {"net"}
        if net_only:
            self.out.net_only.add(deal_id)
        self._add(rows[0].number, start, columns)
        end: dict[str, Any] = {"type": "deal_end"}
        end_columns: dict[str, str] = {}
        end_sources: dict[str, int] = {}  # field -> the 查叫 or 本局 row it came from
        end_rows: dict[str, _Row] = {}
        winners: set[int] = set()
        for row in rows:
            event = row.cells["event"]
            try:
                if event in ("end", "net"):
                    if event in end_rows:
                        other = end_rows[event].number
                        raise BadCell(
                            "event", f"a deal has one {event} row; row {other} is this deal's already"
                        )
                    self._end_fields(session, row, end, end_columns)
                    for key in end_columns:
                        end_sources.setdefault(key, row.number)
                    end_rows[event] = row
                    continue
                obj, obj_columns = self._kong(session, row) if event == "kong" else self._hu(session, row)
            except BadCell as error:
                self.bad(deal_id, row, error)
                continue
            if obj["type"] == "hu":
                winners.add(obj["seat"])
            self._add(row.number, obj, obj_columns)
        if "reason" not in end:
            end["reason"] = NET_ONLY if net_only else end_reason(winners, session.rules)
        end = {
            "type": "deal_end",
            "reason": end.pop("reason"),
            **{k: v for k, v in end.items() if k != "type"},
        }
        end_row = max((r.number for r in end_rows.values()), default=rows[-1].number)
        self._add(end_row, end, end_columns, end_sources)

    def _points(self, row: _Row, *, required: bool = False) -> list[int] | None:
        given = [row.cells.get(key) for key in POINTS]
        if not any(given):
            if required:
                raise BadCell("points1", "the four seats' points are needed on this row")
            return None
        for key, text in zip(POINTS, given, strict=True):
            if not text:
                raise BadCell(key, "points must be given for all four seats or for none")
        return [whole_number(key, text or "", "points") for key, text in zip(POINTS, given, strict=True)]

    def _seat(self, session: _Session, row: _Row, key: str) -> int:
        return seat_of(row.cells[key], session.players, key)

    def _kong(self, session: _Session, row: _Row) -> tuple[dict[str, Any], dict[str, str]]:
        if "seat" not in row.cells:
            raise BadCell("seat", "empty; a kong row names who made the kong (seat 1-4 or a player's name)")
        seat = self._seat(session, row, "seat")
        kind_text = row.cells.get("kind", "")
        kind = KONG_KINDS.get(norm(kind_text)) if kind_text else None
        if kind is None:
            raise BadCell(
                "kind",
                f"the kong kind must be 直杠, 弯杠/巴杠 or 暗杠 (exposed, added, concealed), got {kind_text!r}",
            )
        obj: dict[str, Any] = {"type": "kong", "seat": seat, "kind": kind}
        columns = {"seat": self._col("seat"), "kind": self._col("kind")}
        if kind == "exposed":
            if "from" not in row.cells:
                raise BadCell("from", "empty; a 直杠 (exposed kong) names the seat that discarded the tile")
            obj["from"] = self._seat(session, row, "from")
            columns["from"] = self._col("from")
        elif "from" in row.cells:
            raise BadCell("from", f"a {kind_text} ({kind} kong) takes no discard, so 'from' must be empty")
        self._optional(row, obj, columns, "deltas")
        return obj, columns

    def _hu(self, session: _Session, row: _Row) -> tuple[dict[str, Any], dict[str, str]]:
        if "seat" not in row.cells:
            raise BadCell("seat", "empty; a hu row names the winner (seat 1-4 or a player's name)")
        seat = self._seat(session, row, "seat")
        patterns, marked_self = pattern_ids(row.cells.get("patterns", ""))
        kind = norm(row.cells.get("kind", ""))
        from_text = row.cells.get("from", "")
        if norm(from_text) in SELF_DRAW or (not from_text and (marked_self or kind in SELF_DRAW)):
            from_seat: int | None = None
        elif not from_text:
            raise BadCell("from", "empty; write the discarder (seat 1-4 or name), or 自摸 for a self-draw")
        else:
            from_seat = self._seat(session, row, "from")
        rules = session.rules
        if (
            from_seat is None
            and rules is not None
            and rules.self_draw_bonus == "add_fan"
            and "zimo" not in patterns
        ):
            patterns.append("zimo")  # 自摸加番: the self-draw is the extra under this rule set
        obj: dict[str, Any] = {"type": "hu", "seat": seat, "from": from_seat, "patterns": patterns}
        columns = {"seat": self._col("seat"), "from": self._col("from"), "patterns": self._col("patterns")}
        if "fan" in row.cells:
            obj["fan"] = whole_number("fan", row.cells["fan"], "the fan (番数)")
            columns["fan"] = self._col("fan")
        self._optional(row, obj, columns, "deltas")
        return obj, columns

    def _optional(self, row: _Row, obj: dict[str, Any], columns: dict[str, str], name: str) -> None:
        if "tile" in row.cells:
            obj["tile"] = row.cells["tile"]
            columns["tile"] = self._col("tile")
        points = self._points(row)
        if points is not None:
            obj[name] = points
            columns[name] = self._col(*POINTS)

    def _end_fields(self, session: _Session, row: _Row, end: dict[str, Any], columns: dict[str, str]) -> None:
        if row.cells["event"] == "net":
            scores = self._points(row, required=True)
            end["scores"] = scores
            columns["scores"] = self._col(*POINTS)
            return
        kind_text = row.cells.get("kind")
        if kind_text:
            reason = END_REASONS.get(norm(kind_text))
            if reason is None:
                raise BadCell(
                    "kind", f"an end row's kind is how the deal ended (流局, 三家胡), got {kind_text!r}"
                )
            end["reason"] = reason
        ready = row.cells.get("ready")
        if ready:
            end["ready"] = ready_fans(ready, session.players)
            columns["ready"] = self._col("ready")
        pigs = row.cells.get("flower_pigs")
        if pigs:
            end["flower_pigs"] = sorted(
                {seat_of(p, session.players, "flower_pigs") for p in LIST_SPLIT.split(pigs) if p}
            )
            columns["flower_pigs"] = self._col("flower_pigs")
        settlement = self._points(row)
        if settlement is not None:
            end["settlement"] = settlement
            columns["settlement"] = self._col(*POINTS)


# --- entry points ----------------------------------------------------------------------


def convert_grid(grid: Grid, name: str) -> SheetLog:
    return _Importer(name, grid).run()


def convert_sheet(data: bytes, name: str) -> SheetLog:
    """A sheet's bytes as log lines; a file that is no sheet is one finding."""
    try:
        grid = read_grid(data, name)
    except SheetError as error:
        log = SheetLog(name)
        log.findings.append((None, Finding("bad_record", None, None, f"{name}: {error}", file=name), ""))
        return log
    return convert_grid(grid, name)


def read_sheet_bytes(data: bytes, name: str) -> LogFile:
    """A sheet read as a log: its lines through the reader, numbered by sheet row; each
    message names rows, and the importer's findings go to their deal (or stray)."""
    return log_of_sheet(convert_sheet(data, name))


def log_of_sheet(sheet: SheetLog) -> LogFile:
    builder = LogBuilder(sheet.name)
    for row, obj in sheet.lines:
        builder.feed(row, json.dumps(obj, ensure_ascii=False))
    log = builder.finish()
    deals = {deal.deal.deal_id: deal for _, deal in log.iter_deals()}
    sessions = {session.line: session for session in log.sessions if session.line is not None}
    for deal_id, finding, raw in sheet.findings:
        deal = deals.get(deal_id) if deal_id is not None else None
        if deal is not None:
            deal.findings.append(finding)
            if raw:
                _keep_in_order(deal, finding.line or 0, raw)
        elif not raw and finding.line in sessions:  # a session cell (date, base, players)
            sessions[finding.line].findings.append(finding)
        elif finding.severity == "warning" and deals:
            next(iter(deals.values())).findings.append(finding)
        elif raw and finding.line is not None:
            log.stray.append((finding.line, raw, finding))
            log.findings.append(finding)
        else:
            log.findings.append(finding)
    _rows_not_lines(log)
    return log


def _keep_in_order(deal: DealLog, row: int, raw: str) -> None:
    at = next((i for i, n in enumerate(deal.line_numbers) if n > row), len(deal.line_numbers))
    deal.line_numbers.insert(at, row)
    deal.texts.insert(at, raw)


_LINE_WORD: Final = re.compile(r"\bline (\d+)")


def _as_rows(finding: Finding) -> Finding:
    message = _LINE_WORD.sub(r"row \1", finding.message)
    return finding if message == finding.message else replace(finding, message=message)


def _rows_not_lines(log: LogFile) -> None:
    """The reader says "line N"; in a sheet that line is row N."""
    log.findings[:] = [_as_rows(f) for f in log.findings]
    log.stray[:] = [(n, text, _as_rows(f)) for n, text, f in log.stray]
    for session in log.sessions:
        _rows_in_session(session)


def _rows_in_session(session: SessionLog) -> None:
    session.findings[:] = [_as_rows(f) for f in session.findings]
    for deal in session.deals:
        deal.findings[:] = [_as_rows(f) for f in deal.findings]
