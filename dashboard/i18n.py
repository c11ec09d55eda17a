"""The interface's own words in Chinese and English, in one table so a page never
hard-codes a label and the language switch changes every page at once.

Each entry is ``(中文, English)``, the order of every bilingual table. The terms of the
game (patterns, payment reasons, win kinds, end reasons, suits, finding codes, rules) are
not labels: they are :mod:`engine.vocabulary`'s, named on a page by
:mod:`dashboard.term_labels`.
"""

from __future__ import annotations

from typing import Final, Literal

Lang = Literal["zh", "en"]
LANGS: Final[tuple[Lang, ...]] = ("en", "zh")
LANG_NAMES: Final[dict[Lang, str]] = {"en": "English", "zh": "中文"}

LABELS: Final[dict[str, tuple[str, str]]] = {
    # app and navigation
    "app_title": ("川麻 牌局统计与审计", "chuanma: club statistics and audit"),
    "language": ("语言", "Language"),
    "filters": ("筛选（所有页面）", "Filters (all pages)"),
    "club": ("俱乐部", "Club"),
    "rules": ("规则", "Rule set"),
    "dates": ("日期", "Dates"),
    "all": ("全部", "all"),
    "warehouse": ("数据仓库", "Warehouse"),
    "page_overview": ("概览", "Overview"),
    "page_players": ("玩家", "Players"),
    "page_fans": ("番数", "Fans"),
    "page_h2h": ("对战", "Head-to-head"),
    "page_replay": ("牌局回放", "Deal replay"),
    "page_audit": ("审计", "Audit"),
    "page_upload": ("上传", "Upload"),
    # empty warehouse
    "empty_title": ("数据仓库是空的", "The warehouse is empty"),
    "empty_body": (
        "还没有牌局数据。在项目目录里运行下面的命令生成示例俱乐部并导入，或在“上传”页上传一个日志文件。",
        "There are no deals yet. Run these commands in the project folder to generate the sample "
        "club and load it, or drop a log on the Upload page.",
    ),
    "no_match": ("没有符合筛选条件的牌局。", "No deals match the filters."),
    # overview
    "deals": ("牌局", "Deals"),
    "sessions": ("场次", "Sessions"),
    "players": ("玩家", "Players"),
    "first_day": ("首日", "First day"),
    "last_day": ("最后一天", "Last day"),
    "findings_share": ("有问题牌局占比", "Share of deals with findings"),
    "deals_with_findings_n": ("有问题的牌局", "Deals with findings"),
    "findings": ("问题", "Findings"),
    "invalid_deals": ("无法回放", "Invalid deals"),
    "activity_title": ("每周牌局", "Deals per week"),
    "week": ("周", "Week"),
    "deal_kind": ("牌局", "Deals"),
    "deals_ok": ("无问题", "ok"),
    "deals_with_findings": ("有问题", "with findings"),
    "status": ("状态", "Status"),
    "status_title": ("牌局状态", "Deals by status"),
    "status_ok": ("正确", "ok"),
    "status_findings": ("有问题", "findings"),
    "status_invalid": ("无法回放", "invalid"),
    "fan_total_title": ("胡牌番数分布", "Wins by total fan"),
    "fan": ("番", "Fan"),
    "wins": ("胡牌", "Wins"),
    "share": ("占比", "Share"),
    "capped": ("封顶", "Capped"),
    "top_codes": ("最常见的问题", "Most frequent findings"),
    # players
    "leaderboard": ("排行榜（点击列标题排序）", "Leaderboard (click a column to sort)"),
    "player": ("玩家", "Player"),
    "win_rate": ("胡牌率", "Win rate"),
    # 血流成河: a seat may win again in a deal (the win rate counts the deals won)
    "all_wins": ("胡牌总次数", "All wins"),
    "repeat_wins": ("再胡次数（血流成河）", "Repeated wins (血流成河)"),
    "wins_per_deal": ("每局胡牌次数", "Wins per deal"),
    "repeat_wins_card": (
        "血流成河：胡牌 {deals} 局，共胡 {wins} 次，其中再胡 {repeat} 次（胡牌率按局计）。",
        "血流成河: won {deals} deals, {wins} wins in all, {repeat} of them repeated (the win rate counts deals).",
    ),
    "self_draw_rate": ("自摸率", "Self-draw rate"),
    "deal_in_rate": ("点炮率", "Deal-in rate"),
    "avg_fan": ("平均番数", "Average fan"),
    "avg_win_points": ("每胡得分", "Points per win"),
    "avg_deal_in_loss": ("每次点炮失分", "Loss per deal-in"),
    "net": ("净得分", "Net"),
    "net_per_deal": ("每局净得分", "Net per deal"),
    "kong_rate": ("每局杠数", "Kongs per deal"),
    "kongs": ("杠", "Kongs"),
    "flower_pig_rate": ("花猪率", "Flower-pig rate"),
    "ready_at_end_rate": ("流局听牌率", "Ready at the wall's end"),
    "avg_win_turn": ("平均胡牌巡数", "Average win turn"),
    "biggest_win": ("最大一胡（分）", "Biggest win (points)"),
    "self_draws": ("自摸", "Self-draws"),
    "deal_ins": ("点炮", "Deal-ins"),
    "choose_player": ("选择玩家", "Choose a player"),
    "player_vs_club": ("与俱乐部比较", "Beside the club"),
    "statistic": ("指标", "Statistic"),
    "club_value": ("俱乐部", "Club"),
    "score_title": ("累计得分", "Score over time"),
    "day": ("日期", "Day"),
    "cumulative_net": ("累计净得分", "Cumulative net"),
    "fan_dist_title": ("番数分布：玩家与俱乐部", "Fan distribution: player and club"),
    "who": ("比较对象", "Compared"),
    "win_kinds_title": ("胡牌方式", "How they win"),
    "win_kind": ("胡法", "Win kind"),
    "deal_ins_title": ("点炮给谁", "Whom they deal into"),
    "winner": ("胡牌者", "Winner"),
    "points": ("分数", "Points"),
    "tablemates_title": ("最常同桌", "Most frequent tablemates"),
    "mate": ("同桌", "Tablemate"),
    "no_wins": ("没有胡牌记录。", "No wins."),
    "shared_names": (
        "这些名字在不止一个俱乐部出现，是不同的人，按俱乐部分开统计，显示为「名字 (俱乐部)」：{names}。",
        "These names play in more than one club: each club's player is a different person, counted "
        'apart and shown as "Name (club)": {names}.',
    ),
    "ambiguous_player": (
        "「{name}」在几个俱乐部都有，是几个不同的玩家：{players}。请选择其中一个。",
        '"{name}" plays in several clubs, so it is several players: {players}. Choose one.',
    ),
    "no_deal_ins": ("没有点炮记录。", "No deal-ins."),
    # fans
    "pattern_title": ("按基本牌型", "Wins by base pattern"),
    "pattern": ("牌型", "Pattern"),
    "roots_title": ("根的数量", "Wins by number of roots (根)"),
    "roots": ("根", "Roots"),
    "cap_rate": ("封顶率", "Cap rate (封顶率)"),
    "avg_fan_uncapped": ("封顶前平均番数", "Average fan before the cap"),
    "avg_fan_uncapped_short": ("封顶前番数", "Fan uncapped"),  # a metric's label: fits its column
    "avg_roots": ("平均根数", "Average roots"),
    "compare_rules": ("规则比较", "Compare rule sets"),
    "compare_title": ("各规则的番数分布", "Fan distribution by rule set"),
    # head-to-head
    "h2h_title": ("玩家之间的分数流动（行付给列）", "Points that flowed (row paid column)"),
    "h2h_help": (
        "点击一个格子查看背后的牌局，或在下面选择两位玩家。",
        "Click a cell to see the deals behind it, or choose two players below.",
    ),
    "payer": ("付分者", "Paid by"),
    "payee": ("收分者", "Paid to"),
    "transfers": ("笔数", "Transfers"),
    "pair_net": ("净流动", "Net between them"),
    "deals_behind": ("这一格背后的牌局", "The deals behind this cell"),
    "reasons": ("原因", "Reasons"),
    "open_replay": ("回放", "Replay"),
    "no_flows": ("这两位玩家之间没有分数流动。", "No points flowed between these two players."),
    # replay
    "session": ("场次", "Session"),
    "recent_nights": ("最近的场次", "Recent sessions"),
    "best_nights": ("最好的三场", "Best nights"),
    "worst_nights": ("最差的三场", "Worst nights"),
    "deal": ("牌局", "Deal"),
    "deal_id": ("牌局编号", "Deal id"),
    "only_findings": ("只看有问题的场次", "Only sessions with findings"),
    "step": ("步骤", "Step"),
    "first": ("开始", "Start"),
    "prev": ("上一步", "Back"),
    "next": ("下一步", "Next"),
    "last": ("结束", "End"),
    "next_finding": ("下一个问题", "Next finding"),
    "wall": ("牌墙剩余", "Wall"),
    "hand": ("手牌", "Hand"),
    "melds": ("碰杠", "Melds"),
    "discards": ("弃牌", "Discards"),
    "ledger": ("账本", "Ledger"),
    "line": ("行", "Line"),
    "reason": ("原因", "Reason"),
    "amount": ("分", "Amount"),
    "dealer": ("庄", "dealer"),
    "void": ("缺", "void"),
    "won": ("已胡", "won"),
    "laid": ("胡牌放一边", "胡 laid aside"),
    "scores": ("得分", "Score"),
    "findings_here": ("这一步的问题", "Findings at this step"),
    "all_findings": ("本局所有问题", "Every finding of this deal"),
    "no_findings_deal": ("本局没有问题。", "This deal has no findings."),
    "deal_not_found": ("找不到这个牌局。", "No such deal in the warehouse."),
    "deal_cannot_replay": ("这个牌局无法回放：", "This deal cannot be replayed: "),
    # score-sheet deals (记分单): counted by every statistic that does not need tiles
    "deal_is_sheet": (
        "这一局是记分单：只记了杠、胡和查叫，没有牌可以逐步回放。它的每笔付分和原因见本场结算。",
        "This deal is a score sheet: it records the kongs, the wins and 查叫, no tiles to replay "
        "step by step. Its payments and their reasons are on the session page.",
    ),
    "sheet_deals_in": (
        "其中 {sheets} 局是记分单（没有牌），{tiles} 局有牌：所有统计都计入记分单，需要牌的统计（胡牌巡数）除外。",
        "{sheets} of these deals are score sheets (no tiles) and {tiles} are tile logs: every "
        "statistic counts the sheets except those that need tiles (the win turn).",
    ),
    "sheet_wins_in": (
        "{wins} 次胡牌中有 {sheets} 次来自记分单。",
        "{sheets} of the {wins} wins come from score sheets.",
    ),
    "sheet_turn_excluded": (
        "平均胡牌巡数不计 {n} 局记分单（记分单没有巡数）。",
        "The average win turn leaves out {n} score-sheet deal(s) (a sheet records no turns).",
    ),
    "cli_sheet_card": (
        "  记分单      {n} 局：计入以上各项，平均胡牌巡数除外（记分单没有巡数）",
        "  score sheets {n} of the deals: counted above, except the average win turn (a sheet has no turns)",
    ),
    "replay_stopped": (
        "回放在这里停止：这一步违反规则。",
        "The replay stops here: this event breaks the rules.",
    ),
    "under_rules": ("规则", "rules"),
    "new_payments": ("这一步的付分", "Payments at this step"),
    "event": ("事件", "Event"),
    "ev_deal": ("发牌，{p} 坐庄", "the tiles are dealt; {p} is the dealer (庄)"),
    "ev_exchange": ("换三张（{d}）", "换三张 three tiles exchanged ({d})"),
    "ev_void": ("{p} 定缺 {suit}", "{p} declares {suit} void (定缺)"),
    "ev_draw": ("{p} 摸 {tile}", "{p} draws {tile}"),
    "ev_discard": ("{p} 打出 {tile}", "{p} discards {tile}"),
    "ev_pong": ("{p} 碰 {tile}", "{p} pongs {tile} (碰)"),
    "ev_kong": ("{p} {kind} {tile}", "{p}: {kind} of {tile}"),
    "ev_hu_self": ("{p} 自摸 胡 {tile}", "{p} wins (胡) on a self-drawn {tile}"),
    "ev_hu_from": ("{p} 胡 {q} 的 {tile}", "{p} wins (胡) on {q}'s {tile}"),
    "ev_end": ("牌局结束（{reason}）", "the deal ends ({reason})"),
    "win_note": ("{p} 胡：{patterns} = {fan} 番（{kind}）", "{p} wins: {patterns} = {fan} fan ({kind})"),
    "pay_note": ("{payer} → {payee}  {amount}（{reason}）", "{payer} → {payee}  {amount} ({reason})"),
    "step_of": ("第 {i} / {n} 步 · 第 {line} 行", "step {i} of {n} · line {line}"),
    "jump": ("跳到", "go to step"),
    "new": ("本步", "now"),
    # audit
    "audit_by_code": ("按问题类型", "Findings by code"),
    "code": ("问题类型", "Code"),
    "rule": ("规则条款", "Rule"),
    "finding_list": ("问题列表", "Findings"),
    "showing": ("显示 {shown} / {total} 条", "showing {shown} of {total}"),
    "message": ("说明", "Explanation"),
    "rescore": ("按另一套规则重新计分", "Re-score a session under another rule set"),
    "rescore_rules": ("重新计分的规则", "Rule set to re-score with"),
    "recorded": ("记录的", "Recorded"),
    "computed": ("按本场规则计算", "Computed (session rules)"),
    "rescored": ("按 {rules} 计算", "Under {rules}"),
    "difference": ("差额", "Difference"),
    "rescore_title": ("重新计分：每位玩家", "Re-scored: per player"),
    "more": ("{player} 按 {rules} 规则会多赢 {n} 分", "under {rules} {player} would have won {n} more"),
    "less": ("{player} 按 {rules} 规则会少得 {n} 分", "under {rules} {player} would have scored {n} less"),
    "same": ("{player} 按 {rules} 规则得分不变", "under {rules} {player} would have scored the same"),
    "not_rescored": (
        "{n} 个牌局在 {rules} 规则下无法回放，未计入：",
        "{n} deal(s) cannot be replayed under {rules} and are left out: ",
    ),
    "no_findings": ("没有符合条件的问题。", "No findings match."),
    "per_deal": ("每局", "Per deal"),
    "seat": ("座位", "Seat"),
    "problem": ("问题", "Problem"),
    "base": ("底分", "base"),
    "line_n": ("第 {n} 行", "line {n}"),
    "row_n": ("表格第 {n} 行", "row {n}"),
    # where a tile deal's finding is: the deal's number in its session and the replay's step
    "place": ("位置", "Where"),
    "deal_step_n": ("第 {deal} 局第 {step} 步", "deal {deal}, step {step}"),
    "deal_start_n": ("第 {deal} 局开局", "deal {deal}, its start"),
    "seat_n": ("座位 {n}", "seat {n}"),
    "rule_ref": ("规则条款：{rule}", "rule: {rule}"),
    "axis_date": ("%m月%d日", "%b %d"),
    # upload
    "upload_help": (
        "拖入一个 .jsonl 或 .jsonl.gz 日志（或 .csv/.xlsx 记分表）：立即校验并显示结果；确认后导入数据仓库。",
        "Drop a .jsonl or .jsonl.gz log (or a .csv/.xlsx score sheet): it is validated and shown at once, and ingested into "
        "the warehouse when you ask.",
    ),
    "upload_label": ("日志文件", "Log file"),
    # the uploader's own words on a 中文 page (Streamlit writes them in English)
    "upload_choose": ("选择文件", "Upload"),
    "upload_limits": ("每个文件最大 {size}MB · {types}", "{size}MB per file • {types}"),
    "validated": ("校验结果", "Validation"),
    "ok_deals": ("正确的牌局", "Deals ok"),
    "ingest": ("导入数据仓库", "Ingest into the warehouse"),
    "ingesting": ("正在导入……", "Ingesting..."),
    "ingested": ("已导入。", "Ingested."),
    # what an upload stored, in a club's words (the full report is under "details")
    "ingest_plain": (
        "已保存 {stored} 局：{ok} 局无误，{findings} 局有问题，{invalid} 局无法复盘；{known} 局之前已保存。",
        "Stored {stored} deals: {ok} ok, {findings} with findings, {invalid} that could not be replayed; "
        "{known} were stored before.",
    ),
    "ingest_details": ("详细报告", "Details"),
    "sheet_template": ("下载空白记分表", "Download a blank score sheet"),
    "sheet_template_help": (
        "在电脑或手机上填写后上传（格式见说明文档 `docs/score-sheets.md`）",
        "Fill it in on a computer or a phone, then upload it (see the score-sheets guide)",
    ),
    "ingested_with_quarantine": (
        "已导入，但有内容进了隔离区：已存储 {stored} 个牌局；{conflicts} 个牌局编号与仓库中已有的牌局内容不同"
        "（重复牌局编号但内容不同 conflicting_duplicate），{stray} 行不属于任何牌局，{invalid} 个牌局无法回放（原始行已隔离）。",
        "Ingested with quarantine: {stored} deal(s) stored; {conflicts} deal id(s) already in the warehouse "
        "with other content (conflicting_duplicate), {stray} line(s) outside any deal, {invalid} deal(s) "
        "that cannot be replayed (raw lines kept) went to quarantine.",
    ),
    "quarantine_why": ("隔离原因", "Why in quarantine"),
    "see_audit": ("在审计页查看问题", "See the findings on the Audit page"),
    "file_findings": ("不属于任何牌局的行", "Lines outside any deal"),
    "lines": ("行数", "Lines"),
    # the CLI's text reports (`--lang zh`); the English ones are the reports as they were
    "cli_line": ("第 {n} 行", "line {n}"),
    "cli_row": ("表格第 {n} 行", "row {n}"),
    "cli_file": ("文件", "file"),
    "cli_seat": (" 座位 {n}", " seat {n}"),
    # --- safety: unreplayed deals, torn uploads, the token asked first, plain errors
    # (keys: cli_invalid, cli_not_replayed, cli_stopped, cli_stopped_session,
    # cli_summary_unreplayed, cli_deal_statuses, invalid_list, invalid_help, stopped_by,
    # token_first, token_refused, token_wait, upload_too_big_read_only, write_failed,
    # read_failed, record_not_stored)
    "cli_invalid": ("未回放", "INVALID "),
    "cli_not_replayed": ("未回放", "not replayed"),
    "cli_stopped": (
        "    未回放到结束：回放止于第 {line} 行（{code}）",
        "    not replayed to its end: the replay stopped at line {line} ({code})",
    ),
    "cli_stopped_session": (
        "    未回放：本场第 {line} 行的规则无法使用（{code}）",
        "    not replayed: the session's rules at line {line} cannot be used ({code})",
    ),
    "cli_summary_unreplayed": (
        "{files} 个文件，{sessions} 场，{deals} 局：正确 {ok} 局，有问题 {findings} 局，未回放到结束 {invalid} 局"
        "（无法回放），另有 {set_aside} 个无法读取的牌局行被隔离；各类问题：{codes}",
        "{deals} deals in {sessions} sessions from {files} files: {ok} ok, {findings} with findings, "
        "{invalid} not replayed to their end (invalid), {set_aside} deal lines set aside unread; "
        "findings by code: {codes}",
    ),
    "invalid_list": ("未回放到结束的牌局（无法回放）", "Deals not replayed to their end (invalid)"),
    "invalid_help": (
        "这些牌局没有核对完：不算正确，不计入统计；每局列出使其停止的问题。",
        "These deals were not checked to their end: never counted ok, left out of the statistics; "
        "each shows the finding that stopped it.",
    ),
    "stopped_by": ("停止原因", "Stopped by"),
    "cli_deal_statuses": (
        "牌局 {deals} 个：正确 {ok}，有问题 {findings}，未回放到结束 {invalid}（无法回放）",
        "deals {deals}: {ok} ok, {findings} with findings, {invalid} not replayed to their end (invalid)",
    ),
    "token_first": (
        "先输入上传口令：没有口令，服务器不读取上传的内容。",
        "Enter the upload token first: without it the server does not read what is uploaded.",
    ),
    "token_refused": ("口令不对。", "Wrong token."),
    "access_token": ("俱乐部令牌", "Club token"),
    "access_token_help": (
        "此服务器按俱乐部发放令牌（`chuanma access add`）：令牌决定能看哪个俱乐部、能否记录。",
        "This server gives tokens per club (`chuanma access add`): the token decides which club you see "
        "and whether you may record.",
    ),
    "access_needed": (
        "此仪表盘需要俱乐部令牌：请在上方输入。输入后可收藏此页链接，下次打开无需再输入。",
        "This dashboard asks for a club's token: enter it above. Then bookmark the page: its link "
        "opens the club without the token again.",
    ),
    "access_as": ("{club} 的{role}", "{role} of {club}"),
    "access_role_viewer": ("查看者", "viewer"),
    "access_role_recorder": ("记录员", "recorder"),
    "access_role_admin": ("管理员", "admin"),
    "access_recorder_needed": (
        "记录和上传需要记录员的令牌；你的令牌只能查看。",
        "Recording and uploading need a recorder's token; yours can only view.",
    ),
    "access_other_club": (
        "你的令牌只能为 {club} 记录；此文件包含：{others}。未导入。",
        "Your token records for {club} only; this file holds: {others}. Not ingested.",
    ),
    "access_unreadable": (
        "访问令牌文件无法读取：在修好之前，仪表盘不显示任何内容（详情见服务器日志）。",
        "The access file cannot be read: until it is fixed the dashboard shows nothing "
        "(the details are in the server's log).",
    ),
    "upload_too_big_read_only": (
        "只读服务器只校验不超过 {limit} 的文件；此文件 {size}，未读取。",
        "A read-only server validates files of at most {limit}; this one is {size} and was not read.",
    ),
    "token_wait": (
        "口令错误次数过多：请 {seconds} 秒后再试。",
        "Too many wrong tokens: try again in {seconds} s.",
    ),
    "write_failed": (
        "无法写入数据仓库（可能有另一个导入正在进行）。请稍后再试；详情见服务器日志。",
        "The warehouse could not be written (another ingest may be running). Try again later; "
        "the details are in the server's log.",
    ),
    "read_failed": (
        "数据仓库暂时无法读取。运行看板的人可在服务器日志中看到详情（或运行 `chuanma warehouse check`）。",
        "The warehouse cannot be read right now. Whoever runs the dashboard finds the details in the "
        "server's log (or with `chuanma warehouse check`).",
    ),
    "record_not_stored": (
        "未保存：牌局没有按记录入库（{status}）。请重新保存；详情见服务器日志。",
        "Not saved: the deal did not go in as recorded ({status}). Save it again; the details are in "
        "the server's log.",
    ),
    "cli_ok": ("正确  ", "ok      "),
    "cli_findings": ("有问题", "FINDINGS"),
    "cli_session": ("场次 {id} ({where})", "session {id} ({where})"),
    "cli_outside": ("不属于任何牌局的行：", "lines outside any deal:"),
    "cli_none": ("无", "none"),
    "cli_summary": (
        "{files} 个文件，{sessions} 场，{deals} 局：正确 {ok} 局，有问题 {findings} 局；各类问题：{codes}",
        "{deals} deals in {sessions} sessions from {files} files: {ok} ok, {findings} with findings; "
        "findings by code: {codes}",
    ),
    "cli_draws": ("座位 {seat} 摸 {tile}", "seat {seat} draws {tile}"),
    "cli_discards": ("座位 {seat} 打出 {tile}", "seat {seat} discards {tile}"),
    "cli_pongs": ("座位 {seat} 碰 {tile}", "seat {seat} 碰 pongs {tile}"),
    "cli_kong": ("座位 {seat} {kind} {tile}", "seat {seat} {kind} of {tile}"),
    "cli_on_tile": ("胡座位 {seat} 的牌", "on seat {seat}'s tile"),
    "cli_wins": ("座位 {seat} 胡 {how}，{tile}", "seat {seat} 胡 wins {how} with {tile}"),
    "cli_void": ("座位 {seat} 定缺 {suit}", "seat {seat} 定缺 declares {suit} void"),
    "cli_exchange": ("换三张 {direction}：{tiles}", "换三张 exchange {direction}: {tiles}"),
    "cli_end": ("牌局结束（{reason}）", "deal_end ({reason})"),
    "cli_step": ("[第 {line} 行] {text}   牌墙剩余 {wall}", "[line {line}] {text}   wall {wall}"),
    "cli_win": ("    胡 座位 {seat}：{patterns} = {fan} 番", "    胡 seat {seat}: {patterns} = {fan} fan"),
    "cli_pay": (
        "    付分：座位 {payer} -> 座位 {payee} {amount}（{reason}）",
        "    pay: seat {payer} -> seat {payee} {amount} ({reason})",
    ),
    "cli_hand": ("      座位 {seat}{status}：{tiles} {melds}", "      seat {seat}{status}: {tiles} {melds}"),
    "cli_won": ("（已胡）", " (won)"),
    "cli_replay_head": (
        "牌局 {deal}，规则 {rules}；庄家座位 {dealer}",
        "deal {deal} under {rules}; dealer seat {dealer}",
    ),
    "cli_seats": ("座位：{seats}", "seats: {seats}"),
    "cli_review_head": ("复盘：{deals} 局，{files} 个文件", "review: {deals} deals in {files} files"),
    "cli_review_player": (
        "{name}：{deals} 局（有牌 {tile_deals} 局）{period}",
        "{name}: {deals} deals ({tile_deals} with tiles){period}",
    ),
    "cli_review_discards": (
        "  打牌 {discards} 张：最佳 {best}%，平均损失 {loss} 张有效牌，退向听 {backward}%",
        "  discards {discards}: best {best}%, average loss {loss} effective tiles, backward {backward}%",
    ),
    "cli_review_luck": (
        "  定缺一致 {void}%；起手平均向听 {start}（全俱乐部 {club}）",
        "  void agreement {void}%; average starting shanten {start} (club {club})",
    ),
    "cli_review_risk": (
        "  点炮 {deal_ins} 次（未听牌 {not_ready}，被迫 {forced}）；过胡 {passes} 次（{fan} 番），之后胡 {won} 次（{won_fan} 番）",
        "  deal-ins {deal_ins} ({not_ready} not ready, {forced} forced); wins passed {passes} ({fan} fan), won later {won} ({won_fan} fan)",
    ),
    "cli_review_stored": (
        "复盘：仓库 {warehouse} 的 {deals} 局",
        "review: {deals} deals stored in {warehouse}",
    ),
    "cli_review_sheets": (
        "  记分表 {sheets} 局：只有得失（记分表不记牌，没有打法可复盘）",
        "  score sheets {sheets} deals: points only (a score sheet records no tiles, so no decisions to review)",
    ),
    "cli_review_not_reviewed": (
        "  {deals} 局还没有复盘",
        "  {deals} deals not reviewed yet",
    ),
    "cli_review_pending": (
        "还有 {deals} 局没有复盘（复盘是入库之后的单独一步）。复盘它们：{command}",
        "{deals} deals are not reviewed yet (the review is a step after ingest). Review them with: {command}",
    ),
    "cli_review_store_done": (
        "复盘了 {deals} 局（其中 {tile_deals} 局逐手重放），用时 {seconds} 秒；统计表：{marts}",
        "reviewed {deals} deals ({tile_deals} replayed decision by decision) in {seconds} s; marts: {marts}",
    ),
    "cli_review_money": (
        "  得失：胡 {wins}，点炮 {deal_ins}，自摸 {self_draws}，杠 {kongs}，呼叫转移 {call_transfer}，查叫 {cha_jiao}，花猪 {flower_pig}，退税 {refunds}",
        "  points: wins {wins}, deal-ins {deal_ins}, self-draws {self_draws}, kongs {kongs}, call transfer {call_transfer}, 查叫 {cha_jiao}, flower pig {flower_pig}, refunds {refunds}",
    ),
    "cli_net": ("净得分 [{scores}]；{status}（{n} 个问题）", "net [{scores}]; {status} ({n} findings)"),
    "cli_audit": (
        "问题 {findings} 个（含场次总分的 {session} 个），涉及 {deals} 个牌局、{sessions} 个场次",
        "findings {findings} (session totals {session} of them) in {deals} deals of {sessions} sessions",
    ),
    "cli_no_match": ("仓库中没有符合条件的牌局", "no deals in the warehouse match"),
    "cli_player": ("玩家", "player"),
    "cli_deals": ("局数", "deals"),
    "cli_avg_fan": ("平均番数", "avg fan"),
    "cli_pts_win": ("每胡得分", "pts/win"),
    "cli_loss_deal_in": ("每次点炮失分", "loss/deal-in"),
    "cli_net_deal": ("每局净得分", "net/deal"),
    "cli_net_col": ("净得分", "net"),
    "cli_kongs_deal": ("每局杠数", "kongs/deal"),
    # the order of a player's wins in their deals: a third winner only at a table of four
    "cli_win_orders": ("第一家胡 {o1}，第二家 {o2}", "1st {o1}, 2nd {o2}"),
    "cli_win_order_3": ("，第三家 {o3}", ", 3rd {o3}"),
    "cli_card": (
        "{player}：{deals} 局，净得分 {net:+d}（每局 {net_per_deal}）\n"
        "  胡牌率      {win_rate}（胡 {wins} 次；{orders}；平均胡牌巡数 {turn}）\n"
        "  自摸率      {self_draw_rate}（自摸 {self_draws} 次）\n"
        "  点炮率      {deal_in_rate}（点炮 {deal_ins} 次，每次平均失分 {loss}）\n"
        "  每胡平均 {avg_fan} 番、{avg_win_points} 分；最大一胡 {biggest} 分（{biggest_fan} 番，{biggest_deal}）\n"
        "  杠 {kongs} 个（每局 {kong_rate}：直杠 {ke}，弯杠 {ka}，暗杠 {kc}），杠分收入 {income}\n"
        "  花猪率      {flower_pig_rate}（{flower_pigs} 次）\n"
        "  流局听牌率  {ready_rate}（{ready} / {wall_end}）\n"
        "  查叫 付出 {cj_paid}，收到 {cj_received}",
        "{player}: {deals} deals, net {net:+d} ({net_per_deal} per deal)\n"
        "  胡牌率 win rate      {win_rate}  ({wins} wins; order {orders}; "
        "average win turn {turn})\n"
        "  自摸率 self-draws    {self_draw_rate} of wins ({self_draws})\n"
        "  点炮率 deal-in rate  {deal_in_rate} of deals ({deal_ins} wins fed, average loss {loss})\n"
        "  fan per win {avg_fan}, points per win {avg_win_points}; biggest win {biggest} points "
        "({biggest_fan} fan, {biggest_deal})\n"
        "  kongs {kongs} ({kong_rate} per deal: exposed {ke}, added {ka}, concealed {kc}), income {income}\n"
        "  花猪率 flower pig    {flower_pig_rate} ({flower_pigs})\n"
        "  流局听牌率 ready at the wall's end {ready_rate} ({ready} of {wall_end})\n"
        "  查叫 paid {cj_paid}, received {cj_received}",
    ),
    # session: the evening's result (本场结算) and who pays whom
    "page_session": ("本场结算", "Session result"),
    "session_title": ("本场结算", "The evening's result"),
    "session_not_found": ("找不到这个场次。", "No such session in the warehouse."),
    "session_totals": ("总分", "Totals"),
    "session_recorded_differs": (
        "记录的总分与规则引擎计算的不同：以计算的为准，差异见审计页。",
        "The recorded totals differ from the computed ones: the computed ones count; the audit "
        "page explains the difference.",
    ),
    "session_invalid": ("{n} 局无法回放，计为 0 分。", "{n} deal(s) could not be replayed and count 0."),
    "session_deals": ("每局得分", "Each deal"),
    "session_payments": ("每局付分及原因", "Each deal's payments and their reasons"),
    "session_findings": ("本场的问题", "This session's findings"),
    "session_in_audit": ("在审计页查看本场", "This session on the Audit page"),
    "session_footer": (
        "chuanma · {deals} 局 · 每笔付分都由规则引擎重新计算",
        "chuanma · {deals} deals · every payment recomputed by the rules engine",
    ),
    "session_export": ("导出", "Export"),
    "settle_title": ("谁付给谁", "Who pays whom"),
    "settle_help": (
        "结清所有总分的最少转账：输的付给赢的，无需转手。",
        "The fewest transfers that settle every total: losers pay winners, nobody passes money on.",
    ),
    "settle_pays": ("{payer} 付给 {payee} {amount}", "{payer} pays {payee} {amount}"),
    "settle_pays_to": ("{payer} 付给 {payee}", "{payer} pays {payee}"),
    "settle_square": ("大家两清，无需转账。", "Everyone is square: nothing to pay."),
    "settle_unbalanced": (
        "总分之和不为零，无法结算。",
        "The totals do not sum to zero: no settlement can be worked out.",
    ),
    "session_place": ("名次", "Place"),
    "session_seat": ("座位", "Seat"),
    "session_total": ("总分", "Total"),
    "session_reason_id": ("原因代码", "Reason id"),
    "download_totals": ("总分 CSV", "Totals CSV"),
    "download_payments": ("付分 CSV", "Payments CSV"),
    "download_transfers": ("转账 CSV", "Transfers CSV"),
    "download_png": ("结算图片 PNG", "Result image PNG"),
    "print_hint": (
        "打印：用浏览器的打印功能（Ctrl+P），本页已为纸张排版。",
        "To print, use the browser's Print (Ctrl+P): the page is laid out for paper.",
    ),
    "session_open": ("本场结算", "Session result"),
    # the added pages: placements and rating, player vs player, find a deal, pattern
    # rates, export
    "page_ratings": ("名次与等级分", "Placements & rating"),
    "page_versus": ("玩家对比", "Player vs player"),
    "page_search": ("查找牌局", "Find a deal"),
    "page_patterns": ("牌型率", "Pattern rates"),
    # 复盘: the Review page and the replay's step review
    "page_review": ("复盘", "Review"),
    "review_player": ("玩家", "Player"),
    "review_none": (
        "这些条件下没有牌局。",
        "No deals under these filters.",
    ),
    "review_pending": (
        "还有 {deals} 局没有复盘（复盘是入库之后的单独一步）。复盘它们，运行：`{command}`",
        "{deals} deals are not reviewed yet (the review is a step after ingest). Review them by running: `{command}`",
    ),
    "review_figure": ("项目", "Figure"),
    "review_value": ("本人", "You"),
    "review_club": ("全俱乐部", "Club"),
    "review_deal": ("相关牌局", "A deal behind it"),
    "review_best_pct": ("打出最佳牌 %", "Discards among the best %"),
    "review_average_loss": ("平均损失（有效牌张数）", "Average loss (effective tiles)"),
    "review_backward_pct": ("退向听 %", "Backward discards %"),
    "review_void_pct": ("定缺与最佳一致 %", "定缺 agreement %"),
    "review_start_shanten": ("起手平均向听（手气）", "Average starting shanten (the luck of the deal)"),
    "review_not_ready": ("未听牌点炮", "Deal-ins while not ready"),
    "review_passes": ("过胡（番）", "Wins passed (fan)"),
    "review_tile_deals": (
        "{tile_deals} / {deals} 局有牌可复盘",
        "{tile_deals} of {deals} deals have tiles to review",
    ),
    "review_sheets": (
        "{sheets} 局是记分表：只有得失，记分表不记牌，没有打法可复盘。",
        "{sheets} deals are score sheets: points only, a score sheet records no tiles, so there are no decisions to review.",
    ),
    "review_not_reviewed": (
        "其中 {deals} 局还没有复盘，不计入上面的数字。",
        "{deals} of these deals are not reviewed yet: the figures above leave them out.",
    ),
    "review_money": ("得失来源", "Where the points came from"),
    "review_source": ("来源", "Source"),
    "review_points": ("分数", "Points"),
    "review_costliest": ("你本赛季损失最大的五手", "Your five costliest decisions this season"),
    "review_costliest_none": ("这些条件下没有打出非最佳牌。", "No discard off the best under these filters."),
    "review_col_tile": ("打出", "Thrown"),
    "review_col_best": ("最佳", "Best"),
    "review_col_loss": ("损失", "Loss"),
    "review_col_day": ("日期", "Day"),
    "review_deals": ("相关牌局", "The deals behind the figures"),
    "review_col_off_best": ("非最佳", "Off the best"),
    "review_col_backward": ("退向听", "Backward"),
    "review_col_void_off": ("定缺不佳", "定缺 off the best"),
    "review_step": (
        "复盘：{p} 向听 {shanten}，有效牌 {effective} 张：{tiles}",
        "Review: {p} shanten {shanten}, {effective} effective tiles: {tiles}",
    ),
    "review_step_discards": (
        "复盘：{p} 向听 {shanten}；最佳打法：{best}",
        "Review: {p} shanten {shanten}; the best discards: {best}",
    ),
    "review_step_verdict": (
        "打 {tile}：向听 {shanten}，有效牌 {effective}；最佳 {best}（{best_effective} 张），损失 {loss}",
        "{tile} thrown: shanten {shanten}, {effective} effective; best {best} ({best_effective}), loss {loss}",
    ),
    "review_step_backward": ("（退向听）", " (backward)"),
    "review_money_wins": ("胡牌（点炮者付）", "Wins on a discard"),
    "review_money_deal_ins": ("点炮", "Deal-ins"),
    "review_money_self_draws": ("自摸", "Self-draws"),
    "review_money_kongs": ("杠", "Kongs"),
    "review_money_call_transfer": ("呼叫转移", "Call transfer (呼叫转移)"),
    "review_money_cha_jiao": ("查叫", "查叫 (not ready at the end)"),
    "review_money_flower_pig": ("花猪", "Flower pig (花猪)"),
    "review_money_refunds": ("退税", "Refunds (退税)"),
    "rating": ("等级分", "Rating"),
    "rating_peak": ("最高等级分", "Peak rating"),
    "rating_change": ("等级分变化", "Rating change"),
    "rating_title": ("等级分走势（每天结束时）", "Rating over time (end of each day played)"),
    "rating_rule": (
        "名次：按每场净得分排名（四人桌 1–4 名，三人桌 1–3 名），同分时座位靠前者名次在前。等级分：两两 Elo，"
        "每人从 {initial} 分起，每场与同桌其他每人各比一次（净得分高者胜，同分为平），K = {k}"
        "（每位对手 K/3，三人桌 K/2）。",
        "Placement: 1st–4th by session net (1st–3rd at a three-player table); equal nets go to "
        "the lower seat first. Rating: pairwise Elo, everyone starts at {initial}; each session "
        "is a game against each of the others at the table (higher net wins, equal nets draw), "
        "K = {k} (K/3 per opponent, K/2 at a three-player table).",
    ),
    "avg_placement": ("平均名次", "Average placement"),
    "placement": ("名次", "Placement"),
    "placements_by_table": ("按几人桌分的名次", "Placements by table size"),
    "table_size": ("几人桌", "Table size"),
    "seats_n": ("{n}人桌", "{n} players"),
    "by_table_size": ("按桌型（几人桌）", "By table size"),
    "rates_per_size": (
        "这个俱乐部打几种人数的桌：三人桌的胜率、点炮率和名次与四人桌的不可比，所以按桌型分开算（侧栏可选一种）。",
        "This club plays at more than one table size: a three-player table's win, deal-in and "
        "placement rates do not compare with a four-player one's, so they are counted per table "
        "size (the sidebar can pick one for every page).",
    ),
    "placement_1": ("第一", "1st"),
    "placement_2": ("第二", "2nd"),
    "placement_3": ("第三", "3rd"),
    "placement_4": ("第四", "4th"),
    "placement_1_rate": ("第一率", "1st rate"),
    "placement_2_rate": ("第二率", "2nd rate"),
    "placement_3_rate": ("第三率", "3rd rate"),
    "placement_4_rate": ("第四率", "4th rate"),
    "placements_title": ("名次分布", "Placements"),
    "sessions_of": ("{player} 的每一场", "{player}'s sessions"),
    "download_csv": ("下载 CSV", "Download CSV"),
    "download_card": ("下载玩家卡片（PNG）", "Download the player card (PNG)"),
    "pattern_rates_title": ("每胡的牌型率：玩家与俱乐部", "Patterns per win: player and club"),
    "pattern_rates_help": (
        "该玩家 {wins} 次胡牌，俱乐部共 {club} 次；比率 = 含该牌型的胡牌 / 胡牌次数。",
        "{wins} wins of this player, {club} of the club; rate = wins with the pattern / wins.",
    ),
    "pattern_kind": ("类别", "Kind"),
    "pattern_kind_base": ("基本牌型", "base pattern"),
    "pattern_kind_extra": ("加番", "extra"),
    "wins_with": ("含该牌型的胡牌", "Wins with it"),
    "per_win": ("每胡比率", "Per win"),
    "pattern_matrix_title": ("所有玩家的牌型率", "Every player's pattern rates"),
    "player_a": ("玩家 A", "Player A"),
    "player_b": ("玩家 B", "Player B"),
    "versus_same": ("请选择两名不同的玩家。", "Choose two different players."),
    "versus_never": ("{a} 和 {b} 没有同桌打过牌。", "{a} and {b} never sat at the same table."),
    "deals_together": ("同桌牌局", "Deals together"),
    "sessions_together": ("同桌场次", "Sessions together"),
    "placed_above": ("{a} 名次高于 {b}", "{a} placed above {b}"),
    "placed_above_short": ("名次更高", "Placed above"),
    "placed_above_rate": ("名次更高比率", "Placed above rate"),
    "net_between": ("{a} 从 {b} 净得", "{a}'s net from {b}"),
    "net_between_short": ("两人之间净得", "Net between them"),
    "net_with": ("同桌时净得分", "Net in those deals"),
    "versus_together": ("同桌时的数据", "In the deals they played together"),
    "versus_rates_title": ("同桌时的比率", "Rates in the deals together"),
    "mate_records_title": ("{player} 对每位牌友的战绩", "{player}'s record against each tablemate"),
    "tablemate": ("牌友", "Tablemate"),
    "any": ("不限", "any"),
    "search_help": (
        "按玩家、牌型、最低番数、问题代码或最少杠数查找；日期、俱乐部和规则用侧栏的筛选。",
        "Search by player, pattern, least fan, finding code or least kongs; dates, club and "
        "rule set come from the sidebar's filters.",
    ),
    "min_fan": ("最低番数", "Least fan"),
    "min_kongs": ("最少杠数", "Least kongs"),
    "finding_code": ("问题代码", "Finding code"),
    "search_found": (
        "符合条件的牌局：{matches}（显示 {shown} 局）。",
        "Matching deals: {matches} ({shown} shown).",
    ),
    "winners": ("胡牌者（番）", "Winners (fan)"),
    "max_fan": ("最高番数", "Highest fan"),
    "patterns": ("牌型", "Patterns"),
    "fan_uncapped": ("封顶前番数", "Fan before the cap"),
    "biggest_hands_title": ("俱乐部最大的牌", "The club's biggest hands"),
    "rare_hands_title": ("稀有牌型", "Rare hands"),
    "rare_hands_help": ("含以下牌型的每一次胡牌：{patterns}", "Every win with one of: {patterns}"),
    "no_rare_hands": ("还没有稀有牌型。", "No rare hands yet."),
    "last_sessions": (
        "显示最近 {shown} 场（共 {total} 场；CSV 包含全部）。",
        "The last {shown} of {total} sessions (the CSV holds them all).",
    ),
    # --- the Record page (record at the table) and deal revisions
    "page_record": ("记分", "Record"),
    "record_help": (
        "在牌桌上记分：每局点选杠、胡，流局时点选听牌和花猪；每笔付分都由规则引擎计算。",
        "Record at the table: tap each kong and win, and at the wall's end who is ready and who is 花猪; "
        "the rules engine prices every payment.",
    ),
    "record_start": ("开始新的一场", "Start a session"),
    "record_continue": ("继续记分", "Continue a session"),
    "record_club": ("俱乐部", "Club"),
    "record_table": ("桌号", "Table"),
    "record_player": ("玩家 {n}", "Player {n}"),
    "record_sub_title": ("换人（有人离席，替补入座）", "A player leaves: a substitute takes the seat"),
    "record_sub_seat": ("哪个座位", "Which seat"),
    "record_sub_name": ("替补", "The substitute"),
    "record_sub_button": ("从下一局起换人", "Change the seat from the next deal"),
    "record_sub_refused": ("没有换人：{error}", "The seat was not changed: {error}"),
    "record_roster_pick": ("从名册中选择", "Pick from the roster"),
    "record_roster_added": ("{name} 已加入 {club} 的名册。", "{name} is on {club}'s roster now."),
    "record_roster_refused": ("没有加入名册：{error}", "Not added to the roster: {error}"),
    "record_roster_bad": ("名册无法读取：{error}", "The roster cannot be read: {error}"),
    "record_rules": ("规则", "Rule set"),
    "record_override": ("自定义规则（JSON）", "Override (JSON)"),
    "record_override_help": (
        '例如 {"preset": "chengdu", "max_fan": 5}',
        'e.g. {"preset": "chengdu", "max_fan": 5}',
    ),
    "record_custom": ("自定义", "Custom"),
    "record_base": ("底分", "Base"),
    "record_session_id": ("场次编号", "Session id"),
    "record_begin": ("开始", "Start"),
    "record_bad_rules": ("规则无法读取：{error}", "The rule set cannot be read: {error}"),
    "record_bad_players": ("请填写四位不同的玩家。", "Enter four different players."),
    "record_bad_players_n": (
        "本桌有 {n} 个座位：请填写 {n} 位不同的玩家。",
        "The table has {n} seats: enter {n} different players.",
    ),
    "record_deal": ("第 {n} 局", "Deal {n}"),
    "record_correcting": ("更正第 {n} 局（第 {rev} 版）", "Correcting deal {n} (revision {rev})"),
    "record_dealer": ("庄家", "Dealer"),
    "record_kong": ("杠", "Kong"),
    "record_win": ("胡", "Win"),
    "record_who": ("谁", "Who"),
    "record_kind": ("杠型", "Kind"),
    "record_from": ("谁放的", "From whom"),
    "record_late_mark": ("（晚弯杠）", " (late: tile not drawn this turn)"),
    "record_late_added": ("不是当巡摸到的（晚弯杠）", "Tile not drawn this turn (a late added kong)"),
    "record_late_added_help": (
        "第四张牌是早先摸到、留在手里的：规则 弯杠须当巡 added_kong_same_turn_only 下这个弯杠不收钱",
        "The fourth tile was drawn earlier and kept: under added_kong_same_turn_only this kong earns nothing",
    ),
    "record_patterns": ("番型", "Patterns"),
    "record_roots": ("根", "根 roots"),
    "record_fan": ("{fan} 番", "{fan} fan"),
    "record_fan_capped": ("（封顶 {cap} 番）", " (capped at {cap})"),
    "record_add_kong": ("记杠", "Add kong"),
    "record_add_win": ("记胡", "Add win"),
    "record_undo": ("撤销上一步", "Undo last"),
    "record_events": ("本局", "This deal"),
    "record_no_events": ("本局还没有记录。", "Nothing recorded in this deal yet."),
    "record_kong_line": ("{who} {kind}", "{who}: {kind}"),
    "record_kong_from": ("{who} {kind}（{source} 放）", "{who}: {kind} from {source}"),
    "record_win_line": (
        "{who} 胡 {source}：{patterns}，{fan} 番",
        "{who} wins {source}: {patterns}, {fan} fan",
    ),
    "record_win_self": ("自摸", "by 自摸"),
    "record_win_from": ("{source} 点炮", "on {source}'s discard"),
    "record_pays": ("{payer} → {payee} {amount}（{reason}）", "{payer} → {payee} {amount} ({reason})"),
    "record_pending": (
        "弯杠待付：下一步无人抢杠即付。",
        "Added kong: paid once the next move shows nobody robbed it.",
    ),
    "record_wall_end": ("流局查叫", "Wall's end (查叫)"),
    "record_wall_end_open": ("牌墙摸完了：流局查叫", "The wall is empty: 查叫"),
    "record_ready": ("听牌番数", "Ready at"),
    "record_not_ready": ("未听", "not ready"),
    "record_pigs": ("花猪", "花猪 flower pigs"),
    "record_settlement": ("查叫付分", "查叫 payments"),
    "record_deal_over": ("三家已胡，本局结束。", "Three have won: the deal is over."),
    "record_deal_over_rest": ("只剩一家未胡，本局结束。", "All but one have won: the deal is over."),
    "record_save": ("保存本局", "Save deal"),
    "record_saved": ("已保存 {deal}（第 {rev} 版）。", "Saved {deal} (revision {rev})."),
    "record_save_failed": ("未能保存：{error}", "Not saved: {error}"),
    "record_problem": ("无法记录：{message}", "Cannot be recorded: {message}"),
    "record_totals": ("本场累计", "Session totals"),
    "record_saved_deals": ("已保存的牌局", "Saved deals"),
    "record_correct": ("更正", "Correct"),
    "record_cancel": ("放弃更正", "Cancel the correction"),
    "record_end_session": ("结束本场（散场）", "Close the session"),
    "record_see_session": ("查看本场结算", "See the session result"),
    "record_draft_kept": (
        "记分草稿保存在 {path}，刷新页面不会丢失。",
        "The draft is kept in {path}: a reload loses nothing.",
    ),
    "kong_kind_exposed": ("直杠", "直杠 exposed"),
    "kong_kind_added": ("弯杠", "弯杠 added"),
    "kong_kind_concealed": ("暗杠", "暗杠 concealed"),
    "revisions_title": ("更正过的牌局", "Corrected deals (revisions)"),
    "revisions_help": (
        "更正保存为新版本：统计只算最新版，旧版本保留在此。",
        "A correction is a new revision: statistics count the latest, earlier revisions stay listed here.",
    ),
    "revision": ("版本", "Revision"),
    "revision_latest": ("最新", "Latest"),
    "revision_stored_id": ("存储编号", "Stored id"),
    "record_exists": (
        "场次 {session} 正在记分：请在「继续记分」中打开它，或换一个场次编号。",
        "Session {session} is being recorded: continue it above, or choose another session id.",
    ),
    "record_token": ("上传口令", "Upload token"),
    "record_token_help": (
        "记分会写入数据仓库，需要口令（由运行看板的人设定）。",
        "Recording writes to the warehouse: it needs the upload token (set by whoever runs the dashboard).",
    ),
    "record_read_only": (
        "只读：服务器对外开放且未设口令，不能在此记分（用 `--upload-token` 开启）。",
        "Read-only: the server listens beyond localhost and has no upload token, so nothing can be "
        "recorded here (start it with `--upload-token` to allow that).",
    ),
    # the ingest's summary, line by line (dashboard/ingest_report.py)
    "ingest_summary_head": (
        "导入 {warehouse}：新文件 {new} 个，已导入过（跳过）{known} 个；{seconds:.1f} 秒{rate}，{workers}",
        "ingest into {warehouse}: {new} new file(s), {known} already ingested (skipped); "
        "{seconds:.1f} s{rate}, workers {workers}",
    ),
    "ingest_summary_rate": ("，每秒 {rate:.0f} 局", ", {rate:.0f} deals/s"),
    "ingest_summary_in_process": ("本进程内", "in process"),
    "ingest_summary_workers": ("工作进程 {n} 个", "{n}"),
    "ingest_summary_read": (
        "读到牌局 {read} = 正确 {ok} + 有问题 {findings} + 无法回放 {invalid}",
        "deals read {read} = ok {ok} + findings {findings} + invalid {invalid}",
    ),
    "ingest_summary_stored_ok": (
        "  已存：正确 {ok}、有问题 {findings} -> 牌局、座位、事件、账目（问题另入问题表）",
        "  stored: ok {ok}, findings {findings} -> deals, seats, events, ledger (+ findings table)",
    ),
    "ingest_summary_stored_invalid": (
        "  已存：无法回放 {invalid} -> 牌局（状态 invalid），原始行入隔离区",
        "  stored: invalid {invalid} -> deals (status invalid), raw lines in quarantine",
    ),
    "ingest_summary_duplicates": (
        "  重复（同一牌局编号、内容相同）跳过：{n}",
        "  duplicates (same deal_id, same content) skipped: {n}",
    ),
    "ingest_summary_conflicts": (
        "  冲突的重复（同一牌局编号、内容不同）-> 隔离区：{n}",
        "  conflicting duplicates (same deal_id, other content) -> quarantine: {n}",
    ),
    "ingest_summary_set_aside": (
        "  无法读取的牌局行（不成牌局；原始行入隔离区）：{n}",
        "  deal lines that could not be read (no deal; lines in quarantine): {n}",
    ),
    "ingest_summary_conflict": ("    {deal_id}，位于 {file}:{line}", "    {deal_id} at {file}:{line}"),
    "ingest_summary_unreadable": ("  {file}：{status}，未导入", "  {file}: {status}, not ingested"),
    "ingest_summary_quarantine": ("  隔离区的行：{counts}", "  quarantine lines: {counts}"),
    "ingest_summary_file_findings": (
        "  关于整个文件或场次的错误（gzip 被截断、超过上限、总分不符）：{n}，见问题表",
        "  errors about a whole file or session (cut-off gzip, past a limit, wrong totals): "
        "{n}, in the findings table",
    ),
    "ingest_summary_recovered": (
        "  目录里缺少的批次，检查后重新登记：{batches}",
        "  batches not in the catalog, checked and listed again: {batches}",
    ),
    "ingest_summary_moved_aside": (
        "  警告：已移到一旁（从不删除）：{note}",
        "  WARNING: moved aside (never deleted): {note}",
    ),
    "ingest_summary_batches": ("批次 {batches}：行数 {rows}", "batches {batches}: rows {rows}"),
    "ingest_summary_nothing_new": ("没有新内容：数据仓库未改动", "nothing new: the warehouse is unchanged"),
    # seasons and the least deals to be ranked (analytics/seasons.py)
    "period": ("时段", "Period"),
    "period_all": ("全部（按日期）", "All (dates as chosen)"),
    "period_month": ("本月", "This month"),
    "period_season": ("本赛季", "This season"),
    "season": ("赛季", "Season"),
    "roster_unreadable": (
        "俱乐部名册（`roster.json`）无法读取：名字按记录显示，直到修好为止（`chuanma roster list` 会说明原因）。",
        "The club roster (`roster.json`) cannot be read: names are shown as recorded until it is fixed "
        "(`chuanma roster list` says what is wrong).",
    ),
    "seasons_unreadable": ("赛季设置无法读取：{error}", "The seasons cannot be read: {error}"),
    "ranked_rule": (
        "规定局数：至少 {deals} 局、{sessions} 场才排名；未达到的玩家列在下方。",
        "Ranked from {deals} deals and {sessions} sessions; players with fewer are listed below.",
    ),
    "not_ranked_title": ("未达规定局数（不排名）", "Not ranked yet (too few deals or sessions)"),
    "guests_title": ("客人（名册标为客人，不排名）", "Guests (marked so on the roster; not ranked)"),
    "least_deals_ranked": ("规定局数（最少局数）", "Least deals to be ranked"),
    # money at the close (engine/money.py)
    "money_title": ("结账（元）", "Money (元)"),
    "money_help": (
        "每分的价值、台费和取整；填入每分价值后，按元显示每人应收应付和转账。",
        "The value of a point, the table fee and the rounding; with a value set, each player's "
        "money and the transfers are shown in 元.",
    ),
    "money_point": ("每分价值（元）", "Value of a point (元)"),
    "money_fee": ("台费 / 茶水", "Table fee (台费/茶水)"),
    "money_fee_none": ("无", "None"),
    "money_fee_fixed": ("固定金额（大家平摊）", "A fixed sum, shared equally"),
    "money_fee_share": ("赢家抽成（%）", "A share of the winners' takings (%)"),
    "money_fee_value": ("台费金额（元）", "Fee (元)"),
    "money_fee_percent": ("抽成比例（%）", "Share (%)"),
    "money_rounding": ("取整", "Rounding"),
    "money_round_fen": ("到分", "To the fen (0.01)"),
    "money_round_jiao": ("到角", "To the jiao (0.1)"),
    "money_round_yuan": ("到元", "To the yuan (1)"),
    "money_house": ("台费", "the table fee"),
    "money_house_total": ("台费合计 {amount} 元", "Table fee in all: {amount} yuan"),
    "money_bad": ("结账设置无效：{error}", "The money settings cannot be used: {error}"),
    "yuan_unit": ("元", "yuan"),
    "yuan_column": ("元（扣台费后）", "Yuan after the fee"),
    "settle_pays_yuan": ("{payer} 付给 {payee} {amount} 元", "{payer} pays {payee} {amount} yuan"),
    # --- money of a session and of a club night (one money for every output;
    # 今晚结算 the night page, chuanma night) ------------------------------------------
    "money_fee_each": ("每人台费 {amount} 元", "Table fee: {amount} yuan each"),
    "money_fee_player": ("{player} 台费 {amount} 元", "{player} pays {amount} yuan of table fee"),
    "money_fee_column": ("台费（元）", "Table fee (yuan)"),
    "points_unit": ("分", "pts"),
    "card_rules_changed": ("（有改动）", " (changed)"),
    "card_meta": ("规则：{rules} · 底分 {base} · {session}", "Rules: {rules} · base {base} · {session}"),
    "csv_place": ("名次", "place"),
    "csv_seat": ("座位", "seat"),
    "csv_player": ("玩家", "player"),
    "csv_total": ("总分", "total"),
    "csv_recorded": ("记录的总分", "recorded"),
    "csv_yuan": ("元（扣台费后）", "yuan"),
    "csv_fee": ("台费（元）", "fee"),
    "csv_yuan_before_fee": ("元（扣台费前）", "yuan_before_fee"),
    "csv_payer": ("付款人", "payer"),
    "csv_payee": ("收款人", "payee"),
    "csv_amount": ("分", "amount"),
    "csv_deal_id": ("牌局", "deal_id"),
    "csv_seq": ("序号", "seq"),
    "csv_line": ("行", "line"),
    "csv_reason": ("原因代码", "reason"),
    "csv_reason_label": ("原因", "reason_label"),
    "csv_session_id": ("场次", "session_id"),
    "csv_points": ("分", "points"),
    "page_night": ("今晚结算", "Night"),
    "night_title": ("今晚结算", "The club's night"),
    "night_help": (
        "一个俱乐部一晚所有场次一起结算：每人每场的分和元、合计，然后跨桌合并，用最少的转账付清。",
        "Every session of a club's night settled at once: each player's points and yuan per "
        "session and in all, then one list of who pays whom across the tables, as few transfers "
        "as possible.",
    ),
    "night_club": ("俱乐部", "Club"),
    "night_date": ("日期", "Date"),
    "night_no_club": ("没有这个俱乐部的牌局。", "No deals of this club in the warehouse."),
    "night_no_session": ("{club} 在 {date} 没有场次。", "{club} played no session on {date}."),
    "night_sessions": ("{n} 场", "{n} sessions"),
    "night_points_only": (
        "这些场次没有结账设置，只计分：{sessions}",
        "These sessions have no money settings and count in points only: {sessions}",
    ),
    "night_players": ("每人每场", "Each player, session by session"),
    "night_in_all": ("合计", "In all"),
    "night_points_title": ("只计分场次：谁付给谁（分）", "Points-only sessions: who pays whom (points)"),
    "night_footer": (
        "chuanma · {sessions} 场 · {deals} 局 · 每笔付分都由规则引擎重新计算",
        "chuanma · {sessions} sessions · {deals} deals · every payment recomputed by the rules engine",
    ),
    "download_night_players": ("每人 CSV", "Players CSV"),
    # --- end of the money block ------------------------------------------------------
    "record_close_ask": (
        "结束场次 {session}？结束后不能再记分，本场会从「继续记分」中移走（已存的牌局都保留）。已存牌局的总分：",
        'Close session {session}? No more deals can be recorded; it leaves "Continue a session" '
        "(every saved deal stays). The saved deals' totals:",
    ),
    "record_close_unsaved": (
        "第 {n} 局还没有保存，不计入本场结算（仍留在草稿里）。",
        "Deal {n} is not saved: it is not part of the close (it stays in the draft).",
    ),
    "record_close_yes": ("确认结束", "Yes, close it"),
    "record_close_no": ("还没结束", "Not yet"),
    "record_closed": ("场次 {session} 已结束。", "Session {session} is closed."),
    "record_was_closed": (
        "场次 {session} 已于 {at} 结束，不能再记分。",
        "Session {session} was closed at {at}: no more recording.",
    ),
    "expected_recorded": (
        "应为：{expected}；记录为：{recorded}",
        "Expected: {expected} · recorded: {recorded}",
    ),
    "chat_title": ("发到群里", "For the group chat"),
    "chat_help": (
        "复制这段文字，粘贴到微信或 QQ 群（右上角有复制按钮）。",
        "Copy this text into the club's WeChat or QQ group (the copy button is at its top right).",
    ),
    # --- recorder: checks and corrections on the Record page (record_edit_*, record_empty_*,
    # record_held, record_delete*, revision_deleted)
    "record_edit_pick": ("修改第几步", "Edit an event"),
    "record_edit_title": ("修改第 {n} 步", "Editing event {n}"),
    "record_edit_replace": ("改为此项", "Replace event {n}"),
    "record_edit_remove": ("删除第 {n} 步", "Remove event {n}"),
    "record_edit_cancel": ("不改了", "Keep it as it was"),
    "record_empty_ask": (
        "流局：没人胡，也没人杠？确认后保存为一局空局。",
        "流局: nobody won, no kong? Confirm to save an empty deal.",
    ),
    "record_empty_yes": ("是，保存流局", "Yes, save the 流局"),
    "record_empty_no": ("不，接着记", "No, go back"),
    "record_held": (
        "第 {n} 局已暂存：更正保存或放弃后回到这一局。",
        "Deal {n} is kept aside: it comes back once this correction is saved or cancelled.",
    ),
    "record_delete": ("删除", "Delete"),
    "record_delete_ask": (
        "删除第 {n} 局？它会保存为一个「已删除」的新版本：统计不再计入，原记录保留在审计页。",
        "Delete deal {n}? It is saved as a new revision marked deleted: no statistic counts it, "
        "and the earlier revisions stay listed on the Audit page.",
    ),
    "record_delete_yes": ("是，删除", "Yes, delete it"),
    "record_delete_no": ("不删", "No, keep it"),
    "record_deleted": ("已删除 {deal}（第 {rev} 版）。", "Deleted {deal} (revision {rev})."),
    "revision_deleted": ("已删除", "Deleted"),
    # === record-phone: the Record page on a phone. BEGIN (record_* and live_* keys below)
    "record_roster_none_page": (
        "{club} 还没有名册：可以直接输入名字，也可以在下面的「名册」里添加球员，之后从名册选择。",
        '{club} has no roster yet: type the names, or add the players under "Roster" below; '
        "then they are picked from it.",
    ),
    "record_roster_title": (
        "{club} 的名册：添加、改名、别名、移除",
        "{club}'s roster: add, rename, alias, remove",
    ),
    "record_roster_add_typed": ("把 {names} 加入名册", "Put {names} on the roster"),
    "record_roster_what": ("做什么", "What to do"),
    "record_roster_do_add": ("添加", "Add"),
    "record_roster_do_rename": ("改名", "Rename"),
    "record_roster_do_alias": ("别名", "Alias"),
    "record_roster_do_remove": ("移除", "Remove"),
    "record_roster_which": ("哪位球员", "Which player"),
    "record_roster_new_add": ("新球员的名字", "The new player's name"),
    "record_roster_new_rename": ("新名字（旧名字留作别名）", "The new name (the old one stays an alias)"),
    "record_roster_new_alias": ("别名（如 老张）", "The other name (e.g. 老张)"),
    "record_roster_button_add": ("加入名册", "Add to the roster"),
    "record_roster_button_rename": ("改名", "Rename"),
    "record_roster_button_alias": ("加别名", "Add the alias"),
    "record_roster_button_remove": ("从名册移除", "Take off the roster"),
    "record_roster_renamed": ("{name} 已改名为 {new}。", "{name} is {new} now."),
    "record_roster_aliased": ("{alias} 现在就是 {name}。", "{alias} is {name} now."),
    "record_roster_removed": ("{name} 已从 {club} 的名册移除。", "{name} is off {club}'s roster."),
    # the rule sets the Record page offers, each with what changes the money (docs/presets.md)
    "record_rules_money": ("会改变输赢的地方", "What changes the money"),
    "record_rules_all": ("各规则的区别（一行一个）", "How the rule sets differ (one line each)"),
    "record_rules_money_standard": (
        "不封顶；自摸不加；直杠放杠者付 1；花猪赔 16",
        "no cap; no 自摸 bonus; 直杠 paid 1 by the discarder; 花猪 pays 16",
    ),
    "record_rules_money_chengdu": (
        "封顶 4 番（满格 ×8）；自摸加底；直杠付 2；弯杠只算当巡；花猪赔满格",
        "4-fan cap (×8); 自摸 adds a base; 直杠 paid 2; an added kong pays only in its draw's turn; 花猪 pays the cap",
    ),
    "record_rules_money_online": (
        "定缺；封顶 7 番；自摸加底；直杠放杠者付 2、另两家各付 1",
        "定缺; 7-fan cap; 自摸 adds a base; 直杠: the discarder pays 2, each other seat 1",
    ),
    "record_rules_money_novikov": (
        "定缺、换三张；番数相加；封顶 4 番；自摸加底；直杠付 2；不退税；缺门没打完赔每家 16",
        "定缺 and 换三张; patterns add up; 4-fan cap; 自摸 adds a base; 直杠 paid 2; no 退税; "
        "a seat holding its void suit pays 16 to each",
    ),
    "record_rules_money_hongzhong": (
        "标准川麻加 4 张红中赖子；起手4红中直接胡（6 番）",
        "standard with 4 wild 红中; 起手4红中 wins at once (6 fan)",
    ),
    "record_rules_money_sanren": (
        "三人，只打筒、条（不查花猪）；其余同标准川麻",
        "three players, 筒 and 条 only (no 花猪); otherwise standard",
    ),
    "record_rules_money_duangouka": (
        "三人，只打筒、条，十张牌（不查花猪）；其余同标准川麻",
        "three players, 筒 and 条 only, ten-tile hands (no 花猪); otherwise standard",
    ),
    "record_rules_money_custom": (
        "以某个规则为底，用 JSON 改几项（如封顶番数）",
        "a rule set changed by a few knobs in JSON (e.g. the cap)",
    ),
    # the Record page on a phone: the event just added, the saved deals' actions
    "record_just_added": ("刚记下：", "Just recorded:"),
    "record_saved_actions": ("更正或删除一局", "Correct or delete a deal"),
    "record_saved_pick": ("哪一局", "Which deal"),
    # the Session result on a phone: short deal labels, seats counted from 1
    "live_deal_n": ("第 {n} 局", "Deal {n}"),
    "session_replay_link": ("回放", "Replay"),
    # the table's live view (app_pages/live.py) and its link on the Record page
    "live_title": ("牌桌直播", "Live table"),
    "live_share": ("牌桌直播：扫码看分", "Live table: scan to follow"),
    "live_share_help": (
        "同桌的人用手机扫这个二维码（或打开下面的链接），就能看到本场的累计分数和每局付分，自动刷新，只能看不能改。"
        "链接本身就是钥匙：只发给同桌的人。",
        "Everyone at the table scans this code (or opens the link below) to follow the running totals and "
        "each deal's payments on their own phone: it refreshes itself and is read-only. The link is its own "
        "key: share it with the table only.",
    ),
    "live_money_help": (
        "填入每分价值，直播页同时按元显示（结束本场时也从这里开始）。",
        "With a value of a point, the live view shows 元 too (and the close starts from these settings).",
    ),
    "live_points": ("分", "Points"),
    "live_scan": ("用手机相机扫码", "Scan with a phone's camera"),
    "live_money_rule": ("每分 {point} 元", "{point} 元 a point"),
    "live_updated": ("{at} 更新，每 {s} 秒自动刷新", "updated {at}, refreshes every {s} s"),
    "live_under_way": ("第 {n} 局（进行中）", "Deal {n} (under way)"),
    "live_last_deals": ("最近几局", "The last deals"),
    "live_closed": ("本场已于 {at} 结束。", "The session was closed at {at}."),
    "live_unknown": (
        "这个链接打不开任何牌桌：请向记分的人要新的链接或二维码。",
        "This link opens no table: ask whoever keeps the score for the link or the QR code again.",
    ),
    # quick entry: a deal as each player's net points only
    "record_mode": ("记法", "How to record"),
    "record_mode_events": ("逐项记（杠、胡）", "Each kong and win"),
    "record_mode_nets": ("只记净分", "Nets only (quick)"),
    "record_quick_help": (
        "只记每家本局的输赢分（加起来为 0）：审计只能核对合计为零和总分，查不了谁怎么胡的，报告会注明这一点。",
        "Each player's points for the deal, adding up to zero: the audit can check only the zero sum and "
        "the totals, not who won how, and its report says so (net_only).",
    ),
    "record_quick_sum": ("合计 {sum}，应为 0。", "They add up to {sum}: they must add up to 0."),
    "record_quick_save": ("保存本局（只记净分）", "Save deal (nets only)"),
    "record_quick_line": ("只记净分", "nets only"),
    # === record-phone END
}


def label(key: str, lang: Lang) -> str:
    """The word for ``key`` in ``lang``; an unknown key shows itself (never a crash)."""
    pair = LABELS.get(key)
    if pair is None:
        return key
    return pair[0] if lang == "zh" else pair[1]


def both(key: str, **values: object) -> dict[str, str]:
    """A label filled in, in both languages (for JSON that a person reads: the API's)."""
    return {"en": label(key, "en").format(**values), "zh": label(key, "zh").format(**values)}
