"""The templates of the findings made while a log is read, before any deal is replayed:
the line parser's (a line that is no event), the reader's (a line outside its deal, a
file cut short) and the whole file's (the rules, the totals, a piece set aside).

Kept apart from :mod:`engine.messages` (which merges them into its ``TEMPLATES``) so the
reading layer's words live in one short table. Each is ``(中文, English)``. The English is each finding's ``message``
byte for byte as stored findings hold it (``tests/read_messages.jsonl``), so they render the same;
the 中文 uses the terms of the rest of the product (牌局, 记录, 字段, 号位). Data only:
nothing here imports the engine, so the reader pays nothing to load it.
"""

from __future__ import annotations

import re
from typing import Final

READ_TEMPLATES: Final[dict[str, tuple[str, str]]] = {
    # one line (ingest.logs.line_parser)
    "read_not_json": ("第 {line} 行：不是有效的 JSON（{error}）", "line {line}: not valid JSON ({error})"),
    "read_not_object": (
        "第 {line} 行：应为 JSON 对象 {{...}}，实为 {got}",
        "line {line}: expected a JSON object {{...}}, got {got}",
    ),
    "json_object": ("对象", "an object"),
    "json_array": ("数组", "an array"),
    "json_string": ("字符串", "a string"),
    "json_number": ("数字", "a number"),
    "json_true": ("true", "true"),
    "json_false": ("false", "false"),
    "json_null": ("null", "null"),
    "read_no_type": (
        "第 {line} 行：对象没有 'type' 字段，不是记录格式中的事件",
        "line {line}: the object has no 'type' field, so it is no event of the log format",
    ),
    "read_unknown_type": (
        "第 {line} 行：未知的事件类型 {got}；应为 {types} 之一",
        "line {line}: unknown event type {got}; expected one of {types}",
    ),
    "read_unknown_field": (
        "第 {line} 行：{kind} 事件有未知字段 '{field}'；已保留，未核对",
        "line {line}: unknown field '{field}' on {a} {kind} event; kept, but not checked",
    ),
    "read_no_field": (
        "第 {line} 行：{kind} 事件缺少 '{field}' 字段{hint}",
        "line {line}: the {kind} event has no '{field}' field{hint}",
    ),
    "read_field_hint": ("（应为{meaning}）", " ({meaning})"),
    "read_bad_field": (
        "第 {line} 行：'{field}' 应为{meaning}，实为 {got}{where}",
        "line {line}: '{field}' must be {meaning}, got {got}{where}",
    ),
    "read_field_at": ("（位置 {at}）", " (at {at})"),
    "read_not_valid": (
        "第 {line} 行：{kind} 事件无效：{error}",
        "line {line}: the {kind} event is not valid: {error}",
    ),
    "read_bad_tile": ("第 {line} 行：'{field}'：{error}", "line {line}: '{field}': {error}"),
    # what is wrong with a tile (engine.tiles.TileError)
    "tile_not_a_tile": (
        "{name!r} 不是牌：请写点数 1-9 再加 m、p 或 s，如 '5p'",
        "{name!r} is not a tile: write a rank 1-9 then m, p or s, e.g. '5p'",
    ),
    "tile_suit_alone": (
        "{text!r}：第 {position} 位的花色字母 {char!r} 前面没有数字",
        "{text!r}: suit letter {char!r} at position {position} has no digits before it",
    ),
    "tile_unexpected": (
        "{text!r}：第 {position} 位出现了 {char!r}；请写数字 1-9 再加花色 m、p 或 s，如 '1123m456p'",
        "{text!r}: unexpected {char!r} at position {position}; write digits 1-9 followed by their suit m, p or s, "
        "e.g. '1123m456p'",
    ),
    "tile_no_suit": (
        "{text!r}：末尾的数字没有花色字母（m、p 或 s）",
        "{text!r}: digits at the end have no suit letter (m, p or s)",
    ),
    # the lines around a deal (ingest.logs.builder, ingest.logs.reader)
    "read_long_line": (
        "第 {line} 行：该行超过 {limit}（上限：--max-line-kb）；只保留前 200 字节",
        "line {line}: the line is longer than {limit} (the limit: --max-line-kb); its first 200 bytes are kept",
    ),
    "read_not_utf8": (
        "第 {line} 行：不是 UTF-8 文本（第 {at} 字节为 {byte}）",
        "line {line}: not UTF-8 text (byte {at} is {byte})",
    ),
    "read_deal_unreadable": (
        "第 {line} 行：此处开始的牌局无法读取，它到下一个 deal 或 session 行为止的各行与它一起被隔离",
        "line {line}: the deal opened here could not be read, so its lines up to the next "
        "deal or session line are set aside with it",
    ),
    "read_deal_no_session": (
        "第 {line} 行：牌局 {deal} {where}，因此没有玩家和规则",
        "line {line}: deal {deal} comes {where}, so it has no players or rules",
    ),
    "read_after_session_end": (
        "在第 {end} 行的 session_end 之后、新的 session 行之前",
        "after the session_end at line {end}, before a new session line",
    ),
    "read_before_session": ("在任何 session 行之前", "before any session line"),
    "read_stray_session_end": (
        "第 {line} 行：session_end 之前没有 session 行",
        "line {line}: a session_end with no session line before it",
    ),
    "read_outside_deal": (
        "第 {line} 行：{kind} 事件不在任何牌局内（{context}）",
        "line {line}: {a} {kind} event outside any deal ({context})",
    ),
    "read_stray_flood": (
        "第 {line} 行：本文件中不属于任何牌局的行超过 {listed} 行；此行及其后的这类行不再逐条列出"
        "（每行连同原文均已隔离保存）",
        "line {line}: more than {listed} lines of this file belong to no deal; this line and"
        " the stray lines after it are not listed one by one (each is kept in quarantine with"
        " its text)",
    ),
    "read_last_deal_ended": ("上一局在第 {end} 行结束", "the last deal ended at line {end}"),
    "read_no_deal_yet": ("还没有开始任何牌局", "no deal has started yet"),
    # the whole file (ingest.logs.reader, ingest.logs.source, ingest.replay.files)
    "read_not_gzip": (
        "{file}：文件名为 .gz 但不是 gzip 数据；已按纯文本读取",
        "{file}: named .gz but is not gzip data; read as plain text",
    ),
    "read_cut": (
        "{file}：{problem}；文件在{lost}中断，之前的完整行已读取",
        "{file}: {problem}; it stops {lost}, the complete lines before that were read",
    ),
    "read_after_line": ("第 {line} 行之后", "after line {line}"),
    "read_before_first": ("第一行之前", "before the first line"),
    "read_too_large": (
        "文件超过 {limit}（上限：--max-inflated-mb）",
        "it is larger than {limit} (the limit: --max-inflated-mb)",
    ),
    "gzip_corrupt": ("gzip 数据已损坏（{error}）", "the gzip data is corrupt ({error})"),
    "gzip_cut": ("gzip 数据不完整（文件被截断）", "the gzip data is cut off (truncated file)"),
    "gzip_trailing": (
        "gzip 数据之后还有不是 gzip 的字节",
        "the gzip data is followed by bytes that are not gzip",
    ),
    "gzip_too_large": (
        "解压后超过 {limit}（上限：--max-inflated-mb）",
        "it inflates to more than {limit} (the limit: --max-inflated-mb)",
    ),
    "gzip_bomb": (
        "解压后超过原大小的 {ratio} 倍（疑似 gzip 炸弹；上限：CHUANMA_MAX_GZIP_RATIO）",
        "it inflates more than {ratio} times its size (a gzip bomb?; the limit: CHUANMA_MAX_GZIP_RATIO)",
    ),
    "read_cannot_open": ("{file}：无法读取文件（{error}）", "{file}: cannot read the file ({error})"),
    # a score sheet's cells (ingest.sheets.layout, values)
    "sheet_at_cell": (
        "第 {row} 行，{column} 列（{header}）：{text}",
        "row {row}, column {column} ({header}): {text}",
    ),
    "sheet_at_row": ("第 {row} 行：{text}", "row {row}: {text}"),
    "sheet_header_ignored": (
        "{column} 列的表头 {header!r}{why}；已忽略",
        "column {column} header {header!r} {why}; ignored",
    ),
    "sheet_header_unknown": ("不是记分表的列", "is not a column of a score sheet"),
    "sheet_header_repeat": ("与 {column} 列重复", "repeats column {column}"),
    "sheet_cell_differs": (
        "{field} {value!r} 与本场之前写的 {known!r} 不同；以第一次为准",
        "{field} {value!r} differs from {known!r} given before for this session; the first is used",
    ),
    "sheet_unknown_event": (
        "未知的事件 {kind!r}；请写 杠/kong、胡/hu、查叫/end、本局/net 或 总分/total",
        "unknown event {kind!r}; write 杠/kong, 胡/hu, 查叫/end, 本局/net or 总分/total",
    ),
    "sheet_no_event": (
        "为空；请写 杠/kong、胡/hu、查叫/end、本局/net 或 总分/total",
        "empty; write 杠/kong, 胡/hu, 查叫/end, 本局/net or 总分/total",
    ),
    "sheet_no_deal": (
        "本行及本场此前各行都没有局号",
        "no deal number on this row or above it in this session",
    ),
    "cell_whole_number": ("{what}须为整数，实为 {got!r}", "{what} must be a whole number, got {got!r}"),
    "what_base": ("底分", "the base (底分)"),
    "what_points": ("分数", "points"),
    "what_fan": ("番数", "the fan (番数)"),
    "cell_date": (
        "日期须写成 2026-11-28（或 2026/11/28、2026年11月28日），实为 {got!r}",
        "the date must read like 2026-11-28 (or 2026/11/28, 2026年11月28日), got {got!r}",
    ),
    "cell_no_seat": (
        "{got!r} 不是座位：请写 1-4 或玩家名字（{known}）",
        "{got!r} is no seat: write 1-4 or a player's name ({known})",
    ),
    "cell_no_players": ("没有写玩家名字", "no players named"),
    "cell_seat_range": (
        "记分表的座位编号为 1-4（1 号位是第一位玩家），实为 {got!r}",
        "seats on a sheet are numbered 1-4 (seat 1 is the first player), got {got!r}",
    ),
    "cell_seat_table": (
        "本桌有 {seats} 个座位，记分表的座位编号为 1-{seats}（1 号位是第一位玩家），实为 {got!r}",
        "the table has {seats} seats: seats on this sheet are numbered 1-{seats} (seat 1 is the first "
        "player), got {got!r}",
    ),
    "cell_ready": (
        "{entry!r}：每个听牌的家请写上番数，如 'Ann 2' 或 '1:2'",
        "{entry!r}: write each ready seat with its fan, e.g. 'Ann 2' or '1:2'",
    ),
    "cell_pattern": (
        "未知番型 {token!r}；请写 平胡、清一色、对对胡、根……或它们的 id",
        "unknown pattern {token!r}; write 平胡, 清一色, 对对胡, 根... or their ids",
    ),
    # a score sheet's rows (ingest.sheets.convert)
    "sheet_no_header": (
        "找不到表头行：前几行须有列名，如 局号/deal、事件/event、得分1/points1（见 data/templates/sheet-template.csv）",
        "no header row found: the first rows need column names such as 局号/deal, 事件/event, "
        "得分1/points1 (see data/templates/sheet-template.csv)",
    ),
    "sheet_four_players": (
        "需要四个玩家名字（按座位顺序），只有 {count} 个：{listed!r}",
        "four player names are needed (seat order), got {count}: {listed!r}",
    ),
    "sheet_table_players": (
        "本桌有 {seats} 个座位，需要 {seats} 个玩家名字（按座位顺序），实为 {count} 个：{listed!r}",
        "the table has {seats} seats: {seats} player names are needed (seat order), got {count}: {listed!r}",
    ),
    "sheet_points_table": (
        "得分要么本桌 {seats} 家都写，要么都不写（得分{extra} 列是本桌没有的座位，须为空）",
        "points must be given for all {seats} seats of the table or for none (column points{extra} is "
        "no seat of this table and must be empty)",
    ),
    "sheet_no_name": ("{missing} 没有写名字", "no name for {missing}"),
    "sheet_one_end_row": (
        "一局只有一行 {event}；第 {other} 行已是本局的",
        "a deal has one {event} row; row {other} is this deal's already",
    ),
    "sheet_points_needed": ("本行需要写四家的得分", "the four seats' points are needed on this row"),
    "sheet_points_all": (
        "得分要么四家都写，要么都不写",
        "points must be given for all four seats or for none",
    ),
    "sheet_kong_seat": (
        "为空；杠的行须写明谁开的杠（座位 1-4 或玩家名字）",
        "empty; a kong row names who made the kong (seat 1-4 or a player's name)",
    ),
    "sheet_kong_kind": (
        "杠的类型须是 直杠、弯杠/巴杠 或 暗杠，实为 {got!r}",
        "the kong kind must be 直杠, 弯杠/巴杠 or 暗杠 (exposed, added, concealed), got {got!r}",
    ),
    "sheet_kong_from": (
        "为空；直杠须写明放杠者（打出那张牌的座位）",
        "empty; a 直杠 (exposed kong) names the seat that discarded the tile",
    ),
    "sheet_kong_no_from": (
        "{kind_text}不取别家打出的牌，'from' 须为空",
        "{a} {kind_text} ({kind} kong) takes no discard, so 'from' must be empty",
    ),
    "sheet_same_turn_kind": (
        "'same_turn'（当巡摸到）只用于弯杠，不用于{kind_text}",
        "'same_turn' (drawn this turn) is for a 弯杠 (added kong) only, not {a} {kind_text}",
    ),
    "sheet_same_turn_value": (
        "'same_turn' 须是 是 或 否（y/n、true/false、1/0），实为 {got!r}",
        "'same_turn' must be yes or no (是/否, y/n, true/false, 1/0), got {got!r}",
    ),
    "sheet_hu_seat": (
        "为空；胡的行须写明胡牌者（座位 1-4 或玩家名字）",
        "empty; a hu row names the winner (seat 1-4 or a player's name)",
    ),
    "sheet_hu_from": (
        "为空；请写点炮者（座位 1-4 或名字），自摸则写 自摸",
        "empty; write the discarder (seat 1-4 or name), or 自摸 for a self-draw",
    ),
    "sheet_end_kind": (
        "查叫行的类型是本局如何结束（流局、三家胡），实为 {got!r}",
        "an end row's kind is how the deal ended (流局, 三家胡), got {got!r}",
    ),
    # a file that is no sheet (ingest.sheets.cells)
    "sheet_unreadable": ("{file}：{error}", "{file}: {error}"),
    "sheet_bad_text": (
        "文本既不是 UTF-8 也不是 GB18030（第 {at} 字节为 {byte}）；请把表格另存为 CSV UTF-8",
        "the text is neither UTF-8 nor GB18030 (byte {at} is {byte}); save the sheet as CSV UTF-8",
    ),
    "sheet_bad_csv": ("无法读取该 CSV：{error}", "the CSV cannot be read: {error}"),
    "sheet_bad_xlsx": ("不是可读取的 .xlsx 工作簿（{error}）", "not a readable .xlsx workbook ({error})"),
    "sheet_no_worksheet": ("工作簿中没有工作表", "the workbook has no worksheet"),
    # a sheet's net-only and deleted deals (ingest.sheets.net_only, deleted)
    "net_only_note": (
        "只记净分的记分表：只核对零和与总分",
        "net-only sheet: only zero-sum and totals checked",
    ),
    "net_only_none": (
        "只记净分的牌局应记下每家的净得分；这一局没有",
        "a net-only deal records each seat's net points; this one has none",
    ),
    "net_only_sum": (
        "一家赢的每一分都由别家付出，所以一局的净得分之和为 0；这里加起来是 {sum}",
        "every point one seat wins another pays, so a deal's nets add up to 0; these add up to {sum}",
    ),
    "first_deleted": (
        "reason 为 deleted 的 deal_end 用来删除之前保存过的牌局，必须是该局的第 2 版或以后；"
        "这是该局的第一次记录（第 1 版），没有可删除的",
        "a deal_end with reason 'deleted' removes a deal stored before, so it is a revision (2 or more) "
        "of that deal; this is the deal's first recording (revision 1), so there is nothing to delete",
    ),
    # a platform's record (ingest.platforms): a seat as the platform counts it and as here
    "platform_seat": ("平台座位 {app}（此处座位 {here}）", "app seat {app} (seat {here} here)"),
    "platform_note": ("{file}：{text}", "{file}: {text}"),
    # a dcmshi replay export (ingest.platforms.dcmshi, dcmshi_rules)
    "dcmshi_unreadable": (
        "{file}：无法读取的 dcmshi 牌谱导出：{error}",
        "{file}: not a readable dcmshi replay export: {error}",
    ),
    "dcmshi_no_object": (
        "第{number}条记录不是牌谱对象；略去",
        "record {number} is not a replay object; left out",
    ),
    "dcmshi_config": (
        "{file}：config 无法读取：{error}；不复盘",
        "{file}: config cannot be read: {error}; its rounds are not replayed",
    ),
    "dcmshi_lenient": (
        "voidDiscardRule 为 lenient：流局时仍持缺门牌者罚 48 分且不付给他人；chuanma 无此规则，这些局不核对总分",
        "voidDiscardRule lenient: the app fines a seat still holding its void suit at the wall's end "
        "48 points paid to nobody; chuanma has no such rule, so those deals' scores are not checked",
    ),
    "dcmshi_unknown_config": (
        "config.{field} 无对应规则；忽略",
        "config.{field} is no field chuanma knows how to map; ignored",
    ),
    "dcmshi_not_replayed": (
        "第{number}条记录：{why}；本局不复盘",
        "record {number}: {why}; the round is not replayed",
    ),
    "dcmshi_action_left_out": (
        "第{number}条记录第{k}个动作：{why}；此动作略去，本局继续",
        "record {number} action {k}: {why}; the action is left out, the round goes on",
    ),
    "dcmshi_claim_unchecked": (
        "第{number}条记录：{why}；不核对此项",
        "record {number}: {why}; the claim is not checked",
    ),
    "dcmshi_dealer": (
        "第{number}条记录：导出未记庄家；{who}为庄（首个行牌），据此由种子重建牌墙",
        "record {number}: the export writes no dealer; {who} deals (its first move), {first}, so the wall is "
        "rebuilt from the seed that way ({how})",
    ),
    "dcmshi_first_round": (
        "第{number}条记录：导出未记 roundIndex（或与开局掷骰不符）；据行牌由种子重建牌墙",
        "record {number}: the export writes no roundIndex (or its dealer is not the seating throw's); {first}, "
        "so the wall is rebuilt from the seed that way ({how})",
    ),
    "dcmshi_three_win_refund": (
        "第{number}条记录：三家胡牌结束时平台仍退还了{who}的杠分（{points} 分）；其规则只在流局（牌墙摸完）时退杠",
        "record {number}: the app refunded {who}'s kongs ({points} points) at a three-win end; its rules refund "
        "only at the wall's end",
    ),
    "dcmshi_cut": (
        "第{number}条记录：动作记录在本局结束前中断",
        "record {number}: the action log stops before the round ends (three wins or an empty wall)",
    ),
    "dcmshi_net_unchecked": (
        "第{number}条记录：平台总分含 chuanma 无对应规则的部分；不核对总分",
        "record {number}: the app's net scores rest on rules chuanma has no knob for ({why}); they are not checked",
    ),
    "dcmshi_false_claim": (
        "{who} 对 {tile} 的胡牌声明不在结果中：平台按诈胡罚分，chuanma 无此规则；略去此声明",
        "{who}'s win claim on {tile} is no win in the record's results: the app fines it "
        "(falseHu, 8 to each seat still in), a rule chuanma has no knob for; the claim is left out",
    ),
    "dcmshi_false_self_draw": (
        "{who} 宣布自摸后继续行牌：平台按诈胡罚分，chuanma 无此规则；略去此宣布",
        "{who} declares a self-drawn win and plays on: the app fines a hand that is no win "
        "(falseHu, 8 to each seat still in), a rule chuanma has no knob for; the declaration is left out",
    ),
    # not written (the app scores such a root too): kept so findings stored with it still render
    "dcmshi_hidden_root": (
        "{who} 的胡牌含未开杠的四张：平台只对七对算根、只对明暗杠算杠番，chuanma 对任何四张算根；不核对此胡的番与付分",
        "{who}'s winning hand holds four of a kind that is no declared kong: the app scores a root (Root) "
        "only in seven pairs and a Kong fan only for a declared kong, chuanma a 根 for any four; the win's fan "
        "and payment are not checked",
    ),
    "dcmshi_late_sea": (
        "{who} 胡的是摸完牌墙并有人碰杠之后的打牌：平台算海底，chuanma 只对摸最后一张者的打牌算海底；不核对此胡的番与付分",
        "{who} wins a discard made after the wall's last tile and a claim since: the app scores it "
        "UnderTheSea (any discard win once the wall is drawn), chuanma's 海底 only the last drawer's discard; "
        "the win's fan and payment are not checked",
    ),
    "dcmshi_results_tile": (
        "结果记{who} 胡 {won}，行牌为 {tile}",
        "the results give {who} a win on {won}, the moves on {tile}",
    ),
    # an open_mahjong_unity record (ingest.platforms.open_mahjong)
    "open_mahjong_unreadable": (
        "{file}：无法读取的 open_mahjong 牌谱：{error}",
        "{file}: not a readable open_mahjong record: {error}",
    ),
    "open_mahjong_not_sichuan": (
        "{file}：规则 {rule!r} / {sub_rule!r} 不是川麻血战（sichuan/standard）；不复盘",
        "{file}: rule {rule!r} / sub_rule {sub_rule!r} is not 川麻 血战 (sichuan/standard); nothing is replayed",
    ),
    "open_mahjong_hepai_limit": (
        "{file}：起和番 {limit} 在 chuanma 无对应规则；核对时不计",
        "{file}: hepai_limit {limit} (起和番) has no chuanma knob; wins are checked without it",
    ),
    "open_mahjong_round_key": (
        "{file}：game_round 的键 {round_key!r} 不是 round_index_N；略去",
        "{file}: game_round key {round_key!r} is not round_index_N; left out",
    ),
    "open_mahjong_not_replayed": ("{round}：{why}；本局不复盘", "{round}: {why}; the round is not replayed"),
    "open_mahjong_tick_left_out": (
        "{round} 第{k}手：{why}；此手略去，本局继续",
        "{round} tick {k}: {why}; the tick is left out, the round goes on",
    ),
    "open_mahjong_wall": (
        "{round}：tiles_list 发牌后剩 {left} 张，不是 {wall} 张；不核对牌墙",
        "{round}: tiles_list leaves {left} tiles after the deal, not {wall}; the wall is not checked",
    ),
    "open_mahjong_void": (
        "{round}：牌谱未记定缺；座位 {seat} 的缺门 {suit} 由行牌推断（{how}）",
        "{round}: the record has no 定缺; seat {seat}'s void suit {suit} is inferred ({how})",
    ),
    "open_mahjong_fan": (
        "第{tick}手：{error}；此和牌的番种不核对",
        "round tick {tick}: {error}; the win's fan is not checked",
    ),
    # not raised (the rule set maps the gr refund: kong_discard_transfer "refund"); kept so
    # findings stored with it still render
    "open_mahjong_refund": (
        "第{tick}手：平台把杠上炮者的杠分退回给付分者 {deltas}；chuanma 的规则只能呼叫转移或保留，本局得分会不同",
        "round tick {tick}: the platform refunds a 杠上炮 konger's kong to its payers {deltas}; "
        "chuanma's rule sets hand it on (呼叫转移) or keep it, so the deal's scores will differ",
    ),
    "open_mahjong_active_pig": (
        "第{tick}手：平台对主动花猪（座位 {seat}）另扣 {penalty} 分且不付给他人；chuanma 无此规则，核对时不计",
        "round tick {tick}: the platform fines seat {seat}, an active 花猪, {penalty} points paid to nobody; "
        "chuanma has no such rule, the fine is left out of the claim",
    ),
    # the warehouse (ingest.warehouse.chunks)
    "store_set_aside": (
        "{file}：文件的这一部分（第 {first} 行起）无法存储（{error}）；其各行已隔离保存",
        "{file}: this part of the file (lines {first}+) could not be stored ({error}); its lines are kept "
        "in quarantine",
    ),
}


def _rows(text: str) -> str:
    return _LINE.sub("row {", text)


_LINE: Final = re.compile(r"\bline \{")
#: a score sheet's lines are its rows: the templates that say "line N", saying "row N"
#: (a score sheet's findings are made with the twin, ``engine.messages.in_rows``; 第 N 行 reads the same)
ROW_TWINS: Final[dict[str, str]] = {
    key: key + "_rows" for key, (_, en) in READ_TEMPLATES.items() if _LINE.search(en)
}
READ_TEMPLATES.update(
    {twin: (READ_TEMPLATES[key][0], _rows(READ_TEMPLATES[key][1])) for key, twin in ROW_TWINS.items()}
)

#: what the JSON decoder (msgspec) says of a line that is no JSON, in Chinese: the finding
#: keeps the decoder's English for ``message`` and says it in Chinese for ``message_zh``
#: (the value is ``{"en": ..., "zh": ...}``); ``{byte}`` is where the decoder stopped
_JSON_PROBLEMS_ZH: Final[dict[str, str]] = {
    "Input data was truncated": "内容在中途截断",
    "expected ':'": "第 {byte} 字节处应为冒号",
    "expected ',' or '}'": "第 {byte} 字节处应为逗号或右花括号",
    "expected ',' or ']'": "第 {byte} 字节处应为逗号或右方括号",
    "trailing characters": "第 {byte} 字节起有多余的字符",
    "invalid character": "第 {byte} 字节处的字符无效",
    "trailing comma in object": "第 {byte} 字节处多了一个逗号",
    "trailing comma in array": "第 {byte} 字节处多了一个逗号",
    "invalid escape character in string": "第 {byte} 字节处的转义字符无效",
    "object keys must be strings": "第 {byte} 字节处：对象的键必须是字符串",
    "Number out of range": "数字超出范围",
    "maximum recursion depth exceeded": "嵌套过深",
}
_JSON_ERROR: Final = re.compile(
    r"^(?:JSON is malformed: )?(?P<problem>.*?)(?: \(byte (?P<byte>\d+)\))?(?: - at .*)?$"
)


def json_error_zh(error: str) -> str:
    """The decoder's English ``error`` in Chinese; one not listed as 格式有误 (at its byte)."""
    found = _JSON_ERROR.match(error)
    problem, byte = (found["problem"], found["byte"]) if found else (error, None)
    for start, said in _JSON_PROBLEMS_ZH.items():
        if problem.startswith(start):
            return said.format(byte=byte or "?")
    return f"第 {byte} 字节处格式有误" if byte else "格式有误"


def json_error(error: str) -> dict[str, str]:
    """A decoder's error as a template value in both languages (``message`` keeps the English)."""
    return {"en": error, "zh": json_error_zh(error)}
