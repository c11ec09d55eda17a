"""The layout of a club's score sheet (记分表): where its header row is, which column holds
what, and its rows grouped into sessions and deals, with a finding for every cell that
cannot be placed (docs/score-sheets.md). ``ingest/sheets/convert.py`` turns the grouped
rows into log v1 lines; :class:`SheetLog` is what a sheet became.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from engine.events import Finding
from engine.messages import Text, say
from engine.rules import Rules
from ingest.sheets.cells import Cell, Grid, column_letter
from ingest.sheets.terms import EVENTS, norm
from ingest.sheets.values import BadCell, cell_text, deal_id_of, header_key

__all__ = [
    "POINTS",
    "SESSION_KEYS",
    "Row",
    "SheetLayout",
    "SheetLog",
    "SheetSession",
    "find_header",
]

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


@dataclass
class Row:
    number: int
    cells: dict[str, str]  # column key -> text (blank cells left out)
    raw: str


@dataclass
class SheetSession:
    row: int
    values: dict[str, str] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    rules: Rules | None = None
    deals: dict[str, list[Row]] = field(default_factory=dict)
    totals: Row | None = None
    last_row: int = 0

    @property
    def seats(self) -> int:
        """The table's seats (the rules' ``seats``): players, points columns and seat
        numbers go as far as it; four where the rules cannot be read."""
        return self.rules.seats if self.rules is not None else 4


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


# --- the header ----------------------------------------------------------------------


def find_header(rows: list[list[Cell]]) -> int | None:
    """Index of the header row: the first with three known columns, one of them the deal,
    the event or a seat's points; or a deal column beside the players' names (two to four)."""
    for index, row in enumerate(rows[:_HEADER_SCAN]):
        keys = {header_key(cell_text(cell)) for cell in row} - {None}
        if len(keys) >= 3 and keys & {"deal", "event", *POINTS}:
            return index
        if "deal" in keys and 2 <= len(_name_columns(row)) <= 4:
            return index
    return None


def _name_columns(row: list[Cell]) -> list[int]:
    """Header cells that are no column name: in a net-only sheet, the players' names."""
    return [i for i, cell in enumerate(row) if cell_text(cell) and header_key(cell_text(cell)) is None]


# --- the layout ----------------------------------------------------------------------


class SheetLayout:
    """Reads a grid's layout: the header, the columns and the rows of each session (the
    importer in ``ingest/sheets/convert.py`` goes on to write their lines)."""

    def __init__(self, name: str, grid: Grid) -> None:
        self.name = name
        self.grid = grid
        self.out = SheetLog(name, encoding=grid.encoding)
        self.letters: dict[str, str] = {}
        self.headers: dict[str, str] = {}
        self.sessions: list[SheetSession] = []

    # findings

    def finding(self, row: int, key: str | None, message: str | Text, *, warning: bool = False) -> Finding:
        """A finding at a row (and the column of ``key``); a ``message`` that is a template
        keeps its key and values, so the finding reads in the user's language."""
        inner = message if isinstance(message, Text) else Text(message, message)
        if key is not None:
            letter = self.letters.get(key, "?")
            text = say("sheet_at_cell", row=row, column=letter, header=self.headers.get(key, key), text=inner)
        else:
            text = say("sheet_at_row", row=row, text=inner)
        keyed = isinstance(message, Text) and bool(message.key)
        return Finding(
            "unknown_field" if warning else "bad_record",
            row,
            None,
            text.en,
            severity="warning" if warning else "error",
            file=self.name,
            rule="score sheet",
            extra={"row": row, "column": self.letters.get(key) if key else None},
            message_zh=text.zh if keyed else "",
            message_key=text.key if keyed else "",
            message_values=text.values if keyed else None,
        )

    def bad(self, deal_id: str | None, row: Row, error: BadCell) -> None:
        message = error.text if error.text is not None else error.message
        self.out.findings.append((deal_id, self.finding(row.number, error.key, message), row.raw))

    def first_block(self, rows: list[list[Cell]]) -> dict[str, tuple[int, list[str]]]:
        """``key, value`` rows above the header: the session fields of the whole sheet."""
        block: dict[str, tuple[int, list[str]]] = {}
        for number, row in enumerate(rows, 1):
            texts = [cell_text(c) for c in row]
            key = header_key(texts[0]) if texts else None
            values = [t for t in texts[1:] if t]
            if key in SESSION_KEYS and values:
                block[key] = (number, values)
        return block

    def read_columns(self, row: list[Cell], number: int) -> None:
        self.index: dict[str, int] = {}
        self.named: list[str] = []  # players named by the points columns' headers
        names = _name_columns(row)
        known = {header_key(cell_text(cell)) for cell in row}
        if 2 <= len(names) <= 4 and not known & {*POINTS, "players", "player1"}:
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
                    say("sheet_header_unknown")
                    if key is None
                    else say("sheet_header_repeat", column=self.letters[key])
                )
                message = say("sheet_header_ignored", column=letter, header=text, why=why)
                finding = self.finding(number, None, message, warning=True)
                self.out.findings.append((None, finding, ""))
                continue
            self.index[key] = index
            self.letters[key] = letter
            self.headers[key] = text
        self.out.columns = dict(self.letters)

    def read_rows(self, rows: list[list[Cell]], header: int, block: dict[str, tuple[int, list[str]]]) -> None:
        sticky: dict[str, str] = {}
        for key, (_, values) in block.items():
            sticky[key] = values[0] if key != "players" or len(values) == 1 else ",".join(values)
        session: SheetSession | None = None
        first_block_row = min((n for n, _ in block.values()), default=None)
        for offset, row in enumerate(rows[header + 1 :], header + 2):
            texts = [cell_text(c) for c in row]
            if not any(texts):
                continue
            cells = {key: texts[i] for key, i in self.index.items() if i < len(texts) and texts[i]}
            raw = ",".join(texts).rstrip(",")
            current = Row(offset, cells, raw)
            opens = session is None or ("session" in cells and cells["session"] != sticky.get("session"))
            for key in SESSION_KEYS:
                if key in cells:
                    sticky[key] = cells[key]
            if opens:
                line = first_block_row if session is None and first_block_row is not None else offset
                session = SheetSession(line)
                session.values = dict(sticky)
                self.sessions.append(session)
                sticky.pop("deal", None)
            assert session is not None
            self._session_cells(session, current)
            self._place(session, current, sticky)

    def _session_cells(self, session: SheetSession, row: Row) -> None:
        """A session field given again on a later row must agree with the first one."""
        for key in SESSION_KEYS:
            value = row.cells.get(key)
            if value is None:
                continue
            known = session.values.get(key)
            if known is None:
                session.values[key] = value
            elif known != value and key != "session":
                message = say("sheet_cell_differs", field=key, value=value, known=known)
                self.out.findings.append((None, self.finding(row.number, key, message), row.raw))

    def _place(self, session: SheetSession, row: Row, sticky: dict[str, str]) -> None:
        session.last_row = row.number
        if "event" not in row.cells and EVENTS.get(norm(row.cells.get("deal", ""))) == "total":
            row.cells["event"] = row.cells.pop("deal")  # a net-only sheet's 总分 row, in the deal column
        if "deal" in row.cells:
            sticky["deal"] = row.cells["deal"]
        kind_text = row.cells.get("event", "")
        event = EVENTS.get(norm(kind_text)) if kind_text else None
        if kind_text and event is None:
            message = say("sheet_unknown_event", kind=kind_text)
            self.out.findings.append(
                (self._open_deal_id(session, sticky), self.finding(row.number, "event", message), row.raw)
            )
            return
        if event is None:
            if not any(p in row.cells for p in POINTS):
                return  # a row of session fields only
            event = "net" if "seat" not in row.cells else ""
            if not event:
                message = say("sheet_no_event")
                self.out.findings.append((None, self.finding(row.number, "event", message), row.raw))
                return
        row.cells["event"] = event
        if event == "total":
            session.totals = row
            return
        deal = sticky.get("deal")
        if deal is None:
            message = say("sheet_no_deal")
            self.out.findings.append((None, self.finding(row.number, "deal", message), row.raw))
            return
        session.deals.setdefault(deal, []).append(row)

    def _open_deal_id(self, session: SheetSession, sticky: dict[str, str]) -> str | None:
        deal = sticky.get("deal")
        return None if deal is None else deal_id_of(self.session_id_of(session), deal)

    def session_id_of(self, session: SheetSession) -> str:
        given = session.values.get("session")
        if given:
            return given
        stem = Path(self.name).name.split(".")[0] or "sheet"
        date = session.values.get("date")
        return f"{stem}-{date}" if date else f"{stem}-{self.sessions.index(session) + 1}"
