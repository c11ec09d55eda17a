"""A spreadsheet file as a grid of cells: ``.csv`` with the stdlib, ``.xlsx`` with openpyxl.

Only the cells' values matter (a 记分 sheet's formatting carries no facts), so the
workbook is opened read-only and values-only (formulas give their cached result). A
CSV is read as UTF-8 (with or without BOM), else as GB18030, the encoding of Chinese
Excel and WPS exports. A file that cannot be read at all is a :class:`SheetError`.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from dataclasses import dataclass
from typing import Final

from engine.messages import Text, say

#: what one cell may hold: text, a number, a date (xlsx), or nothing
Cell = str | int | float | dt.datetime | dt.date | dt.time | None

_XLSX_MAGIC: Final = b"PK\x03\x04"


class SheetError(Exception):
    """A file that is no readable sheet (bad zip, no worksheet, undecodable text): why, as
    a template and its values (the finding reads in the user's language)."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.en)
        self.text = text


@dataclass
class Grid:
    """The rows of one sheet, numbered from 1 as the spreadsheet shows them."""

    rows: list[list[Cell]]
    encoding: str | None = None  # for CSV: the encoding it was read with
    sheet: str | None = None  # for XLSX: the worksheet's name


def column_letter(index: int) -> str:
    """Spreadsheet column name of a 0-based index: 0 -> A, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def read_grid(data: bytes, name: str) -> Grid:
    """The first worksheet of an ``.xlsx`` (by content: a zip), or a CSV's rows."""
    if data.startswith(_XLSX_MAGIC) or name.lower().endswith(".xlsx"):
        return _read_xlsx(data, name)
    return _read_csv(data)


def _decode(data: bytes) -> tuple[str, str]:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as utf8_error:
        try:
            return data.decode("gb18030"), "gb18030"
        except UnicodeDecodeError:
            byte = f"{data[utf8_error.start]:#04x}"
            raise SheetError(say("sheet_bad_text", at=utf8_error.start, byte=byte)) from None


def _read_csv(data: bytes) -> Grid:
    text, encoding = _decode(data)
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:
        rows: list[list[Cell]] = [list(row) for row in csv.reader(io.StringIO(text, newline=""), dialect)]
    except csv.Error as error:
        raise SheetError(say("sheet_bad_csv", error=str(error))) from None
    return Grid(rows, encoding=encoding)


def _read_xlsx(data: bytes, name: str) -> Grid:
    import openpyxl

    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError, TypeError) as error:
        raise SheetError(say("sheet_bad_xlsx", error=str(error))) from None
    try:
        sheet = book.worksheets[0] if book.worksheets else None
        if sheet is None:
            raise SheetError(say("sheet_no_worksheet"))
        rows: list[list[Cell]] = []
        for values in sheet.iter_rows(values_only=True):
            rows.append([_cell(v) for v in values])
        return Grid(rows, sheet=sheet.title)
    finally:
        book.close()


def _cell(value: object) -> Cell:
    if value is None or isinstance(value, str | int | float | dt.datetime | dt.date | dt.time):
        return value
    return str(value)  # booleans, errors such as #DIV/0!: read as their text
