"""Import a club's 记分 sheet (``.csv`` / ``.xlsx``) as log v1 sheet deals.

One row per event (docs/score-sheets.md): a kong (杠), a win (胡), the 查叫 step at the
wall's end, a deal's net (本局) or the session's totals (总分), with the seats' recorded
points as one column a seat (four, or as many as the rule set's ``seats``: a three-player
table fills 得分1-3). Session columns (场次, 日期, 玩家1-4, 规则, 底分...)
are given on a session's first row or repeated; a blank cell means "same as above"
(merged cells read that way too), and so does a blank deal number. They may also
stand in a first block of ``key, value`` rows above the header row.

The sheet becomes log lines numbered by their sheet row (a session, deal, synthesised
``deal_end`` or ``session_end`` line takes the number of the row it comes from), grouped
into sessions and deals by the same log builder as any log, told that its lines are rows,
so every finding names its row. A cell that cannot be
read is a ``bad_record`` finding naming row and column; its row is left out, the other
rows and deals go through. A deal recorded only as its net points per seat is a
``net_only`` sheet deal: only its zero-sum and the session totals can be checked.
"""

from __future__ import annotations

import json
from typing import Any

from engine.messages import article, say
from engine.rules import RulesError, load_rules
from ingest.logs.builder import DealLog, LogBuilder, LogFile, file_finding
from ingest.sheets.cells import Grid, SheetError, read_grid
from ingest.sheets.layout import POINTS, Row, SheetLayout, SheetLog, SheetSession, find_header
from ingest.sheets.net_only import NET_ONLY, NET_ONLY_NOTE
from ingest.sheets.terms import END_REASONS, KONG_KINDS, SELF_DRAW, YES_NO, norm
from ingest.sheets.values import (
    LIST_SPLIT,
    BadCell,
    deal_id_of,
    end_reason,
    iso_date,
    pattern_ids,
    ready_fans,
    rules_value,
    seat_of,
    whole_number,
)

__all__ = ["NET_ONLY_NOTE", "SheetLog", "convert_grid", "convert_sheet", "read_sheet_bytes"]


# --- the importer --------------------------------------------------------------------


class _Importer(SheetLayout):
    """A sheet's rows, once :class:`SheetLayout` has grouped them, written as log lines."""

    def run(self) -> SheetLog:
        rows = self.grid.rows
        header = find_header(rows)
        if header is None:
            self.out.findings.append((None, self.finding(1, None, say("sheet_no_header")), ""))
            return self.out
        block = self.first_block(rows[:header])
        self.read_columns(rows[header], header + 1)
        self.read_rows(rows, header, block)
        self._emit()
        return self.out

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

    def _emit_session(self, session: SheetSession) -> None:
        values = session.values
        obj: dict[str, Any] = {"type": "session", "session_id": self.session_id_of(session)}
        columns: dict[str, str] = {"session_id": self._col("session")}
        rules_text = values.get("rules")
        rules_spec: Any = rules_value(rules_text) if rules_text else None
        try:
            session.rules = load_rules(rules_spec if rules_spec is not None else "standard")
        except RulesError:
            session.rules = None  # the validator says why; sheet terms read under standard
        players = self._players(session)
        if players is not None:
            obj["players"] = players
            session.players = players
            columns["players"] = self._col("players", "player1", "player2", "player3", "player4")
        if rules_spec is not None:
            obj["rules"] = rules_spec
            columns["rules"] = self._col("rules")
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
                    obj[json_key] = whole_number(key, text, say("what_base"))
                except BadCell as error:
                    row = Row(session.row, {}, "")
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
                self.bad(None, Row(session.row, {}, ""), error)
        self._add(session.row, obj, columns)
        for deal, rows in session.deals.items():
            self._emit_deal(session, deal, rows)
        end: dict[str, Any] = {"type": "session_end"}
        end_row = session.last_row
        if session.totals is not None:
            end_row = session.totals.number
            try:
                end["totals"] = self._points(session.totals, session.seats, required=True)
                self._add(end_row, end, {"totals": self._col(*POINTS)})
                return
            except BadCell as error:
                self.bad(None, session.totals, error)
        self._add(end_row, end)

    def _players(self, session: SheetSession) -> list[str] | None:
        """The players in seat order: one a seat of the rule set's table (``seats``)."""
        if self.named:
            return list(self.named)
        values = session.values
        count = session.seats
        seats = [values.get(f"player{i}") for i in range(1, count + 1)]
        if all(seats) and not any(values.get(f"player{i}") for i in range(count + 1, 5)):
            return [s for s in seats if s]
        listed = values.get("players")
        if listed:
            names = [n for n in LIST_SPLIT.split(listed) if n]
            if len(names) == count:
                return names
            if count == 4:
                error = BadCell("players", say("sheet_four_players", count=len(names), listed=listed))
            else:
                error = BadCell(
                    "players", say("sheet_table_players", seats=count, count=len(names), listed=listed)
                )
            self.bad(None, Row(session.row, {}, ""), error)
            return None
        extra = [i for i in range(count + 1, 5) if values.get(f"player{i}")]
        if extra and all(seats):  # a name for a seat the table does not have
            names = [values.get(f"player{i}") or "" for i in range(1, 5) if values.get(f"player{i}")]
            error = BadCell(
                f"player{extra[0]}",
                say("sheet_table_players", seats=count, count=len(names), listed=", ".join(names)),
            )
            self.bad(None, Row(session.row, {}, ""), error)
            return None
        if any(seats):
            missing = ", ".join(f"player{i}" for i, s in enumerate(seats, 1) if not s)
            self.bad(
                None,
                Row(session.row, {}, ""),
                BadCell(f"player{seats.index(None) + 1}", say("sheet_no_name", missing=missing)),
            )
        return None

    def _emit_deal(self, session: SheetSession, deal: str, rows: list[Row]) -> None:
        deal_id = deal_id_of(self.session_id_of(session), deal)
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
        end_rows: dict[str, Row] = {}
        winners: set[int] = set()
        for row in rows:
            event = row.cells["event"]
            try:
                if event in ("end", "net"):
                    if event in end_rows:
                        other = end_rows[event].number
                        raise BadCell("event", say("sheet_one_end_row", event=event, other=other))
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

    def _points(self, row: Row, seats: int, *, required: bool = False) -> list[int] | None:
        """The row's points, one a seat of the table (``seats``), or None when none are given."""
        keys = POINTS[:seats]
        given = [row.cells.get(key) for key in keys]
        beyond = [key for key in POINTS[seats:] if row.cells.get(key)]
        if not any(given) and not beyond:
            if required:
                raise BadCell("points1", say("sheet_points_needed"))
            return None
        if beyond:
            raise BadCell(beyond[0], say("sheet_points_table", seats=seats, extra=beyond[0][-1]))
        for key, text in zip(keys, given, strict=True):
            if not text:
                if seats == 4:
                    raise BadCell(key, say("sheet_points_all"))
                raise BadCell(key, say("sheet_points_table", seats=seats, extra=seats + 1))
        return [
            whole_number(key, text or "", say("what_points")) for key, text in zip(keys, given, strict=True)
        ]

    def _seat(self, session: SheetSession, row: Row, key: str) -> int:
        return seat_of(row.cells[key], session.players, key, session.seats)

    def _kong(self, session: SheetSession, row: Row) -> tuple[dict[str, Any], dict[str, str]]:
        if "seat" not in row.cells:
            raise BadCell("seat", say("sheet_kong_seat"))
        seat = self._seat(session, row, "seat")
        kind_text = row.cells.get("kind", "")
        kind = KONG_KINDS.get(norm(kind_text)) if kind_text else None
        if kind is None:
            raise BadCell("kind", say("sheet_kong_kind", got=kind_text))
        obj: dict[str, Any] = {"type": "kong", "seat": seat, "kind": kind}
        columns = {"seat": self._col("seat"), "kind": self._col("kind")}
        if kind == "exposed":
            if "from" not in row.cells:
                raise BadCell("from", say("sheet_kong_from"))
            obj["from"] = self._seat(session, row, "from")
            columns["from"] = self._col("from")
        elif "from" in row.cells:
            raise BadCell(
                "from", say("sheet_kong_no_from", a=article(kind_text), kind_text=kind_text, kind=kind)
            )
        late = self._late_added(row, kind, kind_text)
        self._optional(session, row, obj, columns, "deltas")
        if late:  # a late 弯杠: ``same_turn: false`` (true is left out, as the writer does)
            obj["same_turn"] = False
            columns["same_turn"] = self._col("same_turn")
        return obj, columns

    @staticmethod
    def _late_added(row: Row, kind: str, kind_text: str) -> bool:
        """The ``same_turn`` cell says no: an added kong whose tile was not drawn this turn."""
        text = row.cells.get("same_turn")
        if not text:
            return False
        if kind != "added":
            raise BadCell("same_turn", say("sheet_same_turn_kind", a=article(kind_text), kind_text=kind_text))
        same_turn = YES_NO.get(norm(text))
        if same_turn is None:
            raise BadCell("same_turn", say("sheet_same_turn_value", got=text))
        return not same_turn

    def _hu(self, session: SheetSession, row: Row) -> tuple[dict[str, Any], dict[str, str]]:
        if "seat" not in row.cells:
            raise BadCell("seat", say("sheet_hu_seat"))
        seat = self._seat(session, row, "seat")
        summing = session.rules is not None and session.rules.fan_combination == "sum"
        patterns, marked_self = pattern_ids(row.cells.get("patterns", ""), summing)
        kind = norm(row.cells.get("kind", ""))
        from_text = row.cells.get("from", "")
        if norm(from_text) in SELF_DRAW or (not from_text and (marked_self or kind in SELF_DRAW)):
            from_seat: int | None = None
        elif not from_text:
            raise BadCell("from", say("sheet_hu_from"))
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
            obj["fan"] = whole_number("fan", row.cells["fan"], say("what_fan"))
            columns["fan"] = self._col("fan")
        self._optional(session, row, obj, columns, "deltas")
        return obj, columns

    def _optional(
        self, session: SheetSession, row: Row, obj: dict[str, Any], columns: dict[str, str], name: str
    ) -> None:
        if "tile" in row.cells:
            obj["tile"] = row.cells["tile"]
            columns["tile"] = self._col("tile")
        points = self._points(row, session.seats)
        if points is not None:
            obj[name] = points
            columns[name] = self._col(*POINTS)

    def _end_fields(
        self, session: SheetSession, row: Row, end: dict[str, Any], columns: dict[str, str]
    ) -> None:
        if row.cells["event"] == "net":
            scores = self._points(row, session.seats, required=True)
            end["scores"] = scores
            columns["scores"] = self._col(*POINTS)
            return
        kind_text = row.cells.get("kind")
        if kind_text:
            reason = END_REASONS.get(norm(kind_text))
            if reason is None:
                raise BadCell("kind", say("sheet_end_kind", got=kind_text))
            end["reason"] = reason
        ready = row.cells.get("ready")
        if ready:
            end["ready"] = ready_fans(ready, session.players, session.seats)
            columns["ready"] = self._col("ready")
        pigs = row.cells.get("flower_pigs")
        if pigs:
            end["flower_pigs"] = sorted(
                {
                    seat_of(p, session.players, "flower_pigs", session.seats)
                    for p in LIST_SPLIT.split(pigs)
                    if p
                }
            )
            columns["flower_pigs"] = self._col("flower_pigs")
        settlement = self._points(row, session.seats)
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
        text = say("sheet_unreadable", file=name, error=error.text)
        log.findings.append((None, file_finding(text, name), ""))
        return log
    return convert_grid(grid, name)


def read_sheet_bytes(data: bytes, name: str) -> LogFile:
    """A sheet's bytes read as a log (:func:`log_of_sheet` of :func:`convert_sheet`)."""
    return log_of_sheet(convert_sheet(data, name))


def log_of_sheet(sheet: SheetLog) -> LogFile:
    """A sheet's lines through the log builder, numbered by their rows (so the builder's
    findings say "row N"), then the importer's findings to their deal, session or file."""
    builder = LogBuilder(sheet.name, rows=True)
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
    return log


def _keep_in_order(deal: DealLog, row: int, raw: str) -> None:
    at = next((i for i, n in enumerate(deal.line_numbers) if n > row), len(deal.line_numbers))
    deal.line_numbers.insert(at, row)
    deal.texts.insert(at, raw)
