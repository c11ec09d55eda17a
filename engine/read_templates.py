"""The templates of the findings made while a log is read, before any deal is replayed:
the line parser's (a line that is no event), the reader's (a line outside its deal, a
file cut short) and the whole file's (the rules, the totals, a piece set aside).

Kept apart from :mod:`engine.messages` (which merges them into its ``TEMPLATES``) so the
reading layer's words live in one short table. The English is each finding's ``message``
as the reader wrote it before templates, byte for byte (``tests/read_messages.jsonl``);
the 中文 uses the terms of the rest of the product (牌局, 记录, 字段, 号位). Data only:
nothing here imports the engine, so the reader pays nothing to load it.
"""

from __future__ import annotations

import re
from typing import Final

READ_TEMPLATES: Final[dict[str, tuple[str, str]]] = {
    # one line (ingest.line_parser)
    "read_not_json": ("line {line}: not valid JSON ({error})", "第 {line} 行：不是有效的 JSON（{error}）"),
    "read_not_object": (
        "line {line}: expected a JSON object {{...}}, got {got}",
        "第 {line} 行：应为 JSON 对象 {{...}}，实为 {got}",
    ),
    "json_object": ("an object", "对象"),
    "json_array": ("an array", "数组"),
    "json_string": ("a string", "字符串"),
    "json_number": ("a number", "数字"),
    "json_true": ("true", "true"),
    "json_false": ("false", "false"),
    "json_null": ("null", "null"),
    "read_no_type": (
        "line {line}: the object has no 'type' field, so it is no event of the log format",
        "第 {line} 行：对象没有 'type' 字段，不是记录格式中的事件",
    ),
    "read_unknown_type": (
        "line {line}: unknown event type {got}; expected one of {types}",
        "第 {line} 行：未知的事件类型 {got}；应为 {types} 之一",
    ),
    "read_unknown_field": (
        "line {line}: unknown field '{field}' on a {kind} event; kept, but not checked",
        "第 {line} 行：{kind} 事件有未知字段 '{field}'；已保留，未核对",
    ),
    "read_no_field": (
        "line {line}: the {kind} event has no '{field}' field{hint}",
        "第 {line} 行：{kind} 事件缺少 '{field}' 字段{hint}",
    ),
    "read_field_hint": (" ({meaning})", "（应为{meaning}）"),
    "read_bad_field": (
        "line {line}: '{field}' must be {meaning}, got {got}{where}",
        "第 {line} 行：'{field}' 应为{meaning}，实为 {got}{where}",
    ),
    "read_field_at": (" (at {at})", "（位置 {at}）"),
    "read_not_valid": (
        "line {line}: the {kind} event is not valid: {error}",
        "第 {line} 行：{kind} 事件无效：{error}",
    ),
    "read_bad_tile": ("line {line}: '{field}': {error}", "第 {line} 行：'{field}'：{error}"),
    # what is wrong with a tile (engine.tiles.TileError)
    "tile_not_a_tile": (
        "{name!r} is not a tile: write a rank 1-9 then m, p or s, e.g. '5p'",
        "{name!r} 不是牌：请写点数 1-9 再加 m、p 或 s，如 '5p'",
    ),
    "tile_suit_alone": (
        "{text!r}: suit letter {char!r} at position {position} has no digits before it",
        "{text!r}：第 {position} 位的花色字母 {char!r} 前面没有数字",
    ),
    "tile_unexpected": (
        "{text!r}: unexpected {char!r} at position {position}; write digits 1-9 followed by their suit m, p or s, "
        "e.g. '1123m456p'",
        "{text!r}：第 {position} 位出现了 {char!r}；请写数字 1-9 再加花色 m、p 或 s，如 '1123m456p'",
    ),
    "tile_no_suit": (
        "{text!r}: digits at the end have no suit letter (m, p or s)",
        "{text!r}：末尾的数字没有花色字母（m、p 或 s）",
    ),
    # the lines around a deal (ingest.reader)
    "read_long_line": (
        "line {line}: the line is longer than {limit} (the limit: --max-line-kb); its first 200 bytes are kept",
        "第 {line} 行：该行超过 {limit}（上限：--max-line-kb）；只保留前 200 字节",
    ),
    "read_not_utf8": (
        "line {line}: not UTF-8 text (byte {at} is {byte})",
        "第 {line} 行：不是 UTF-8 文本（第 {at} 字节为 {byte}）",
    ),
    "read_deal_unreadable": (
        "line {line}: the deal opened here could not be read, so its lines up to the next "
        "deal or session line are set aside with it",
        "第 {line} 行：此处开始的牌局无法读取，它到下一个 deal 或 session 行为止的各行与它一起被隔离",
    ),
    "read_deal_no_session": (
        "line {line}: deal {deal} comes {where}, so it has no players or rules",
        "第 {line} 行：牌局 {deal} {where}，因此没有玩家和规则",
    ),
    "read_after_session_end": (
        "after the session_end at line {end}, before a new session line",
        "在第 {end} 行的 session_end 之后、新的 session 行之前",
    ),
    "read_before_session": ("before any session line", "在任何 session 行之前"),
    "read_stray_session_end": (
        "line {line}: a session_end with no session line before it",
        "第 {line} 行：session_end 之前没有 session 行",
    ),
    "read_outside_deal": (
        "line {line}: a {kind} event outside any deal ({context})",
        "第 {line} 行：{kind} 事件不在任何牌局内（{context}）",
    ),
    "read_stray_flood": (
        "line {line}: more than {listed} lines of this file belong to no deal; this line and"
        " the stray lines after it are not listed one by one (each is kept in quarantine with"
        " its text)",
        "第 {line} 行：本文件中不属于任何牌局的行超过 {listed} 行；此行及其后的这类行不再逐条列出"
        "（每行连同原文均已隔离保存）",
    ),
    "read_last_deal_ended": ("the last deal ended at line {end}", "上一局在第 {end} 行结束"),
    "read_no_deal_yet": ("no deal has started yet", "还没有开始任何牌局"),
    # the whole file (ingest.reader, ingest.source)
    "read_not_gzip": (
        "{file}: named .gz but is not gzip data; read as plain text",
        "{file}：文件名为 .gz 但不是 gzip 数据；已按纯文本读取",
    ),
    "read_cut": (
        "{file}: {problem}; it stops {lost}, the complete lines before that were read",
        "{file}：{problem}；文件在{lost}中断，之前的完整行已读取",
    ),
    "read_after_line": ("after line {line}", "第 {line} 行之后"),
    "read_before_first": ("before the first line", "第一行之前"),
    "read_too_large": (
        "it is larger than {limit} (the limit: --max-inflated-mb)",
        "文件超过 {limit}（上限：--max-inflated-mb）",
    ),
    "gzip_corrupt": ("the gzip data is corrupt ({error})", "gzip 数据已损坏（{error}）"),
    "gzip_cut": ("the gzip data is cut off (truncated file)", "gzip 数据不完整（文件被截断）"),
    "gzip_trailing": (
        "the gzip data is followed by bytes that are not gzip",
        "gzip 数据之后还有不是 gzip 的字节",
    ),
    "gzip_too_large": (
        "it inflates to more than {limit} (the limit: --max-inflated-mb)",
        "解压后超过 {limit}（上限：--max-inflated-mb）",
    ),
    "gzip_bomb": (
        "it inflates more than {ratio} times its size (a gzip bomb?; the limit: CHUANMA_MAX_GZIP_RATIO)",
        "解压后超过原大小的 {ratio} 倍（疑似 gzip 炸弹；上限：CHUANMA_MAX_GZIP_RATIO）",
    ),
    "read_cannot_open": ("{file}: cannot read the file ({error})", "{file}：无法读取文件（{error}）"),
    # a score sheet's cells (ingest.sheets.layout, values)
    "sheet_at_cell": (
        "row {row}, column {column} ({header}): {text}",
        "第 {row} 行，{column} 列（{header}）：{text}",
    ),
    "sheet_at_row": ("row {row}: {text}", "第 {row} 行：{text}"),
    "sheet_header_ignored": (
        "column {column} header {header!r} {why}; ignored",
        "{column} 列的表头 {header!r}{why}；已忽略",
    ),
    "sheet_header_unknown": ("is not a column of a score sheet", "不是记分表的列"),
    "sheet_header_repeat": ("repeats column {column}", "与 {column} 列重复"),
    "sheet_cell_differs": (
        "{field} {value!r} differs from {known!r} given before for this session; the first is used",
        "{field} {value!r} 与本场之前写的 {known!r} 不同；以第一次为准",
    ),
    "sheet_unknown_event": (
        "unknown event {kind!r}; write 杠/kong, 胡/hu, 查叫/end, 本局/net or 总分/total",
        "未知的事件 {kind!r}；请写 杠/kong、胡/hu、查叫/end、本局/net 或 总分/total",
    ),
    "sheet_no_event": (
        "empty; write 杠/kong, 胡/hu, 查叫/end, 本局/net or 总分/total",
        "为空；请写 杠/kong、胡/hu、查叫/end、本局/net 或 总分/total",
    ),
    "sheet_no_deal": (
        "no deal number on this row or above it in this session",
        "本行及本场此前各行都没有局号",
    ),
    "cell_whole_number": ("{what} must be a whole number, got {got!r}", "{what}须为整数，实为 {got!r}"),
    "what_base": ("the base (底分)", "底分"),
    "what_points": ("points", "分数"),
    "what_fan": ("the fan (番数)", "番数"),
    "cell_date": (
        "the date must read like 2026-11-28 (or 2026/11/28, 2026年11月28日), got {got!r}",
        "日期须写成 2026-11-28（或 2026/11/28、2026年11月28日），实为 {got!r}",
    ),
    "cell_no_seat": (
        "{got!r} is no seat: write 1-4 or a player's name ({known})",
        "{got!r} 不是座位：请写 1-4 或玩家名字（{known}）",
    ),
    "cell_no_players": ("no players named", "没有写玩家名字"),
    "cell_seat_range": (
        "seats on a sheet are numbered 1-4 (seat 1 is the first player), got {got!r}",
        "记分表的座位编号为 1-4（1 号位是第一位玩家），实为 {got!r}",
    ),
    "cell_ready": (
        "{entry!r}: write each ready seat with its fan, e.g. 'Ann 2' or '1:2'",
        "{entry!r}：每个听牌的家请写上番数，如 'Ann 2' 或 '1:2'",
    ),
    "cell_pattern": (
        "unknown pattern {token!r}; write 平胡, 清一色, 对对胡, 根... or their ids",
        "未知番型 {token!r}；请写 平胡、清一色、对对胡、根……或它们的 id",
    ),
    # a score sheet's rows (ingest.sheets.convert)
    "sheet_no_header": (
        "no header row found: the first rows need column names such as 局号/deal, 事件/event, "
        "得分1/points1 (see data/templates/sheet-template.csv)",
        "找不到表头行：前几行须有列名，如 局号/deal、事件/event、得分1/points1（见 data/templates/sheet-template.csv）",
    ),
    "sheet_four_players": (
        "four player names are needed (seat order), got {count}: {listed!r}",
        "需要四个玩家名字（按座位顺序），只有 {count} 个：{listed!r}",
    ),
    "sheet_no_name": ("no name for {missing}", "{missing} 没有写名字"),
    "sheet_one_end_row": (
        "a deal has one {event} row; row {other} is this deal's already",
        "一局只有一行 {event}；第 {other} 行已是本局的",
    ),
    "sheet_points_needed": ("the four seats' points are needed on this row", "本行需要写四家的得分"),
    "sheet_points_all": (
        "points must be given for all four seats or for none",
        "得分要么四家都写，要么都不写",
    ),
    "sheet_kong_seat": (
        "empty; a kong row names who made the kong (seat 1-4 or a player's name)",
        "为空；杠的行须写明谁开的杠（座位 1-4 或玩家名字）",
    ),
    "sheet_kong_kind": (
        "the kong kind must be 直杠, 弯杠/巴杠 or 暗杠 (exposed, added, concealed), got {got!r}",
        "杠的类型须是 直杠、弯杠/巴杠 或 暗杠，实为 {got!r}",
    ),
    "sheet_kong_from": (
        "empty; a 直杠 (exposed kong) names the seat that discarded the tile",
        "为空；直杠须写明放杠者（打出那张牌的座位）",
    ),
    "sheet_kong_no_from": (
        "a {kind_text} ({kind} kong) takes no discard, so 'from' must be empty",
        "{kind_text}不取别家打出的牌，'from' 须为空",
    ),
    "sheet_same_turn_kind": (
        "'same_turn' (drawn this turn) is for a 弯杠 (added kong) only, not a {kind_text}",
        "'same_turn'（当巡摸到）只用于弯杠，不用于{kind_text}",
    ),
    "sheet_same_turn_value": (
        "'same_turn' must be yes or no (是/否, y/n, true/false, 1/0), got {got!r}",
        "'same_turn' 须是 是 或 否（y/n、true/false、1/0），实为 {got!r}",
    ),
    "sheet_hu_seat": (
        "empty; a hu row names the winner (seat 1-4 or a player's name)",
        "为空；胡的行须写明胡牌者（座位 1-4 或玩家名字）",
    ),
    "sheet_hu_from": (
        "empty; write the discarder (seat 1-4 or name), or 自摸 for a self-draw",
        "为空；请写点炮者（座位 1-4 或名字），自摸则写 自摸",
    ),
    "sheet_end_kind": (
        "an end row's kind is how the deal ended (流局, 三家胡), got {got!r}",
        "查叫行的类型是本局如何结束（流局、三家胡），实为 {got!r}",
    ),
    # a file that is no sheet (ingest.sheets.cells)
    "sheet_unreadable": ("{file}: {error}", "{file}：{error}"),
    "sheet_bad_text": (
        "the text is neither UTF-8 nor GB18030 (byte {at} is {byte}); save the sheet as CSV UTF-8",
        "文本既不是 UTF-8 也不是 GB18030（第 {at} 字节为 {byte}）；请把表格另存为 CSV UTF-8",
    ),
    "sheet_bad_csv": ("the CSV cannot be read: {error}", "无法读取该 CSV：{error}"),
    "sheet_bad_xlsx": ("not a readable .xlsx workbook ({error})", "不是可读取的 .xlsx 工作簿（{error}）"),
    "sheet_no_worksheet": ("the workbook has no worksheet", "工作簿中没有工作表"),
    # a sheet's net-only and deleted deals (ingest.sheets.net_only, deleted)
    "net_only_note": (
        "net-only sheet: only zero-sum and totals checked",
        "只记净分的记分表：只核对零和与总分",
    ),
    "net_only_none": (
        "a net-only deal records each seat's net points; this one has none",
        "只记净分的牌局应记下每家的净得分；这一局没有",
    ),
    "net_only_sum": (
        "every point one seat wins another pays, so a deal's nets add up to 0; these add up to {sum}",
        "一家赢的每一分都由别家付出，所以一局的净得分之和为 0；这里加起来是 {sum}",
    ),
    "first_deleted": (
        "a deal_end with reason 'deleted' removes a deal stored before, so it is a revision (2 or more) "
        "of that deal; this is the deal's first recording (revision 1), so there is nothing to delete",
        "reason 为 deleted 的 deal_end 用来删除之前保存过的牌局，必须是该局的第 2 版或以后；"
        "这是该局的第一次记录（第 1 版），没有可删除的",
    ),
    # the warehouse (ingest.warehouse.chunks)
    "store_set_aside": (
        "{file}: this part of the file (lines {first}+) could not be stored ({error}); its lines are kept "
        "in quarantine",
        "{file}：文件的这一部分（第 {first} 行起）无法存储（{error}）；其各行已隔离保存",
    ),
}


def _rows(text: str) -> str:
    return _LINE.sub("row {", text)


_LINE: Final = re.compile(r"\bline \{")
#: a score sheet's lines are its rows: the templates that say "line N", saying "row N"
#: (``ingest.sheets.convert`` swaps a sheet finding's key for its twin; 第 N 行 reads the same)
ROW_TWINS: Final[dict[str, str]] = {
    key: key + "_rows" for key, (en, _) in READ_TEMPLATES.items() if _LINE.search(en)
}
READ_TEMPLATES.update(
    {twin: (_rows(READ_TEMPLATES[key][0]), READ_TEMPLATES[key][1]) for key, twin in ROW_TWINS.items()}
)
