"""The templates of the findings a replay or a score-sheet audit makes: the deal, the tile
moves, the kongs, the wins, the end and the score sheets. Each is ``(中文, English)``;
:mod:`engine.messages` merges them with the reading layer's (:mod:`engine.read_templates`)
into its ``TEMPLATES`` and renders them.

Data only, apart from the functions that fill them in, so that module stays short. The
English of a key is a stored finding's ``message``: a wording is never changed, a new
key is added instead.
"""

from __future__ import annotations

#: template key -> (中文, English): the tile moves' and the deal's, then the kongs',
#: wins', the end's and the score sheets'
REPLAY_TEMPLATES: dict[str, tuple[str, str]] = {
    "action": ("{action}", "{action}"),
    # the deal
    "dealer_seat": ("庄家须是 0-3 号位，记录为 {got}", "dealer must be a seat 0-3, got {got}"),
    "four_hands": ("一局有四手牌，记录了 {count} 手", "a deal has four hands, got {count}"),
    "dealt_size": ("{seat}发了 {count} 张牌；{role}", "{seat} is dealt {count} tiles; {role}"),
    "role_dealer": ("庄家 14 张", "the dealer (庄) holds 14"),
    "role_other": ("闲家 13 张", "a non-dealer holds 13"),
    "wall_size": (
        "记录的牌墙有 {count} 张；发牌后应剩 55 张（108 张，发出 53 张）",
        "the recorded wall (牌墙) holds {count} tiles; 55 stay after the deal (108 tiles, 53 dealt)",
    ),
    "table_dealer_seat": ("庄家须是 0-{top} 号位，记录为 {got}", "dealer must be a seat 0-{top}, got {got}"),
    "table_hands": (
        "本桌一局有 {seats} 手牌，记录了 {count} 手",
        "a deal at this table has {seats} hands, got {count}",
    ),
    "table_role_dealer": ("本桌庄家 {size} 张", "the dealer (庄) holds {size} at this table"),
    "table_role_other": ("本桌闲家 {size} 张", "a non-dealer holds {size} at this table"),
    "table_wall_size": (
        "记录的牌墙有 {count} 张；本桌发牌后应剩 {expected} 张",
        "the recorded wall (牌墙) holds {count} tiles; {expected} stay after the deal at this table",
    ),
    "tile_off_table": (
        "{tile} 不在本桌的牌里（只有 {suits} 的牌）",
        "{tile} is not in this table's set (only the suits {suits})",
    ),
    "table_seat_range": ("座位须是 0-{top}，记录为 {got}", "seat must be 0-{top}, got {got}"),
    "void_off_table": (
        "{seat}定缺 {suit}，但本桌没有这门牌（只有 {suits}）",
        "{seat} declares the void suit {suit}, which this table does not play (only {suits})",
    ),
    "copies_dealt": (
        "发出了 {count} 张 {tile}；一副牌（108 张）每种只有四张",
        "{count} copies of {tile} dealt; the set (108 张) has four of each tile",
    ),
    "wild_copies": (
        "发出了 {count} 张红中；本桌的牌只有 {expected} 张红中（wild_tiles）",
        "{count} 红中 dealt; this table's set has {expected} (wild_tiles)",
    ),
    # 换三张 and 定缺
    "exchange_here": ("此处出现换三张：{why}", "an exchange (换三张) here: {why}"),
    "exchange_off": ("本规则不换三张", "换三张 is off under these rules"),
    "exchange_not_now": ("现在不能换", "not now"),
    "exchange_three": (
        "换三张：每家须换出同一花色的三张牌",
        "换三张 (exchange three): each seat passes exactly three tiles of one suit",
    ),
    "exchange_across": (
        "换三张：{seats}人桌没有对家，只能顺时针或逆时针换",
        "换三张 (exchange three): a table of {seats} has no seat across; pass clockwise or counterclockwise",
    ),
    "exchange_suit": (
        "换三张：{seat}须换出同一花色的三张牌",
        "换三张 (exchange three): {seat} must pass three tiles of one suit",
    ),
    "exchange_held": (
        "换三张：{seat}换出的牌不在手中",
        "换三张 (exchange three): {seat} does not hold the tiles it passes",
    ),
    "void_twice": (
        "{seat}定缺两次：每家只定缺一门",
        "{seat} declares 定缺 (void suit) twice: each seat declares one void suit",
    ),
    "void_when": (
        "{seat}{when}定缺：定缺在换三张之后、庄家第一次行动之前",
        "{seat} declares 定缺 (void suit) {when}: the void suit is declared after 换三张 "
        "(exchange three) and before the dealer's first action",
    ),
    "void_before_exchange": ("在换三张之前", "before the 换三张 exchange"),
    "void_after_play": ("在开始行牌之后", "after play began"),
    "void_missing": (
        "{missing}在行牌前未定缺",
        "{missing} have not declared 定缺 (void suit) before play",
    ),
    "play_before_exchange": ("换三张之前就开始行牌", "play began before the 换三张 exchange"),
    # turn order
    "event_in_deal": ("局内出现 {kind!r} 事件", "a {kind!r} event inside a deal"),
    "after_end": (
        "本局已结束（{reason}）后又有 {kind}：{rule}",
        "{kind} after the deal has ended ({reason}): {rule}",
    ),
    "seat_range": ("座位须是 0-3，记录为 {got}", "seat must be 0-3, got {got}"),
    "fixed_discard": (
        "{seat}已胡牌，打出 {tile} 而不是摸到的 {drawn}：血流成河，胡后不改牌（摸到的牌只能胡、杠或立即打出）",
        "{seat} has won and discards {tile}, not the {drawn} it drew: 血流成河, 胡后不改牌 (after a win the"
        " hand is fixed: a drawn tile is won on, konged or thrown at once)",
    ),
    "fixed_pong": (
        "{seat}已胡牌，又碰 {tile}：血流成河，胡后不改牌（胡牌后不能碰）",
        "{seat} has won and pongs {tile}: 血流成河, 胡后不改牌 (after a win a seat makes no pong)",
    ),
    "fixed_kong": (
        "{seat}已胡牌，杠 {tile}，{why}：血流成河，胡后不改牌（胡牌后的杠须用摸到的牌或别人打出的牌，且不改变听牌）",
        "{seat} has won and konged {tile}, {why}: 血流成河, 胡后不改牌 (a kong after a win uses the drawn"
        " tile, or the discard, and leaves the waits as they were)",
    ),
    "fixed_kong_undrawn": ("不是摸到的牌", "not the tile it drew"),
    "fixed_kong_waits": ("改变了听牌", "which changes its waits"),
    "won_already": (
        "{seat}已经胡牌，不能再{what}：血战到底，胡牌者离场",
        "{seat} has already won and may not {what}: 血战到底 (bloody), a seat that has won leaves the deal",
    ),
    "out_of_turn": (
        "{seat}现在不能{what}：应等{expected}（轮流：一家出牌后轮到下一位未胡的家）",
        "{seat} may not {what} now: waiting for {expected} (轮流, turn order: after a seat plays, the "
        "next seat still in)",
    ),
    "wait_exchange": ("换三张", "the 换三张 exchange"),
    "wait_void": ("定缺", "the 定缺 declarations"),
    "wait_act": ("{current}打牌、开杠或胡牌", "{current} to discard, kong or win"),
    "wait_draw": ("{current}摸牌", "{current} to draw"),
    "wait_replacement": ("{current}杠后补牌", "{current} to draw its kong's replacement tile"),
    "wait_claim": ("对打出的牌叫牌，或下一次摸牌", "a claim on the discard or the next draw"),
    "wait_end_rule": ("本局结束：{rule}", "the end of the deal: {rule}"),
    "wait_rob": ("抢杠，或杠家补牌", "a rob of the added kong or the konger's replacement draw"),
    "wait_end": ("本局结束", "the end of the deal"),
    # draws and discards
    "empty_wall": (
        "{seat}从空牌墙摸牌：发牌后牌墙有 55 张，摸完即流局",
        "{seat} draws from an empty wall: the wall (牌墙) holds 55 tiles after the deal, and when they "
        "are drawn the deal ends (流局, wall exhausted)",
    ),
    "wall_next": (
        "{seat}摸到 {tile}，但记录的牌墙{where}的下一张是 {next_tile}",
        "{seat} draws {tile} but the recorded wall's next tile from {where} is {next_tile}",
    ),
    "wall_back": ("尾部（补牌）", "the back (replacement draw)"),
    "wall_front": ("头部", "the front"),
    "fifth_tile": (
        "{seat}摸到第五张 {tile}：四张都已不在牌墙中（108 张，每种四张）",
        "{seat} draws a fifth {tile}: all four are already out of the wall (108 张: four of each tile)",
    ),
    "wild_extra": (
        "{seat}摸到的红中多于本桌的 {expected} 张（wild_tiles）",
        "{seat} draws a 红中 beyond the {expected} of this table's set (wild_tiles)",
    ),
    "discard_not_held": (
        "{seat}打出 {tile}，但手中没有这张牌",
        "{seat} discards {tile}, which it does not hold",
    ),
    "void_first": (
        "{seat}手中还有定缺的 {suit}，却打出 {tile}：须先打完定缺的牌（void_discard_first）",
        "{seat} discards {tile} while holding tiles of its void suit {suit}: 定缺 tiles must go first "
        "(void_discard_first)",
    ),
    "missed_draw": (
        "{seat}摸到最后四张之一的 {tile}，能胡却没胡：最后四张必须胡（last_four_must_hu）",
        "{seat} drew {tile}, one of the wall's last four tiles, and could win on it: 最后四张 must be won "
        "(last_four_must_hu)",
    ),
    "missed_discard": (
        "{seat}能胡最后四张之一的 {tile} 却没胡：最后四张必须胡（last_four_must_hu）",
        "{seat} did not win on {tile}, one of the wall's last four tiles, though it could: 最后四张 must be "
        "won (last_four_must_hu)",
    ),
    # pongs and kongs
    "claim_won_discard": (
        "{seat}{verb}了已被胡的牌：胡优先于碰和杠",
        "{seat} {verb} a discard that has been won: 胡 beats 碰 and 杠 (a win takes the discard before "
        "any pong or kong)",
    ),
    "pongs": ("碰", "pongs"),
    "kongs": ("杠", "kongs"),
    "pong_own": (
        "{seat}碰自己打出的牌：碰只能碰别家打出的牌",
        "{seat} pongs its own discard: 碰 (pong) takes another seat's discard",
    ),
    "pong_tile": (
        "{seat}碰 {tile}，但最后打出的是 {last}：碰只能碰最后打出的牌",
        "{seat} pongs {tile} but the last discard is {last}: 碰 (pong) takes the last discard",
    ),
    "pong_pair": (
        "{seat}手中没有一对 {tile} 却碰：碰是手中一对加别家打出的一张",
        "{seat} pongs {tile} without a pair of it: 碰 (pong) is two in hand + another seat's discard",
    ),
    "void_claim": (
        "{seat}以{what}取定缺花色的 {tile}",
        "{seat} claims {tile} by {what}, a tile of its 定缺 void suit",
    ),
    "no_wall_kong": (
        "{seat}在牌墙已空时开杠：杠后要补牌，牌墙无牌不能杠",
        "{seat} konged with no tile left in the wall: 杠后补牌 (a kong draws a replacement tile), so no "
        "kong without a tile left",
    ),
    "kong_kind": ("未知的杠类型 {kind!r}", "unknown kong kind {kind!r}"),
    "exposed_tile": (
        "{seat}直杠 {tile}，但最后打出的是 {by}的 {last}：直杠只能杠别家最后打出的牌",
        "{seat} makes an exposed kong of {tile}; the last discard is {last} by {by}: 直杠 (exposed "
        "kong) takes another seat's last discard",
    ),
    "exposed_three": (
        "{seat}手中没有三张 {tile} 却直杠：直杠是手中三张加别家打出的一张",
        "{seat} kongs {tile} without three of it: 直杠 (exposed kong) is three in hand + another seat's "
        "discard",
    ),
    "concealed_four": (
        "{seat}手中没有四张 {tile} 却暗杠：暗杠是手中四张",
        "{seat} makes a concealed kong of {tile} without four: 暗杠 (concealed kong) is four in hand",
    ),
    "added_no_pong": (
        "{seat}没有 {tile} 的碰却弯杠：弯杠是在自己的碰上加第四张",
        "{seat} adds to a pong of {tile} it does not have: 弯杠 (added kong) adds the fourth tile to the "
        "seat's own pong",
    ),
    "added_not_held": (
        "{seat}手中没有 {tile} 却弯杠：弯杠是自己的碰加第四张",
        "{seat} adds {tile} to its pong without holding it: 弯杠 (added kong) is the seat's own pong + "
        "the fourth tile",
    ),
    "wild_claim": (
        "{seat}{verb}打出的红中：打出的红中是死牌，谁都不能碰、杠或胡（wild_tiles）",
        "{seat} {verb} a discarded 红中: a discarded 红中 is dead, nobody pongs, kongs or wins on it "
        "(wild_tiles)",
    ),
    "wins_on": ("胡", "wins on"),
    "wild_meld": (
        "{seat}{verb} {tile} 要用红中凑数：红中不能辅助其他牌来碰和杠（wild_tiles）",
        "{seat} {verb} {tile} with a 红中 standing in: 红中不能辅助其他牌来碰和杠 (a 红中 never helps to pong "
        "or kong; wild_tiles)",
    ),
    # wins
    "four_wilds_short": (
        "{seat}记起手4红中，但起手只有 {count} 张红中：起手胡须起手就有四张红中（sihongzhong）",
        "{seat} claims 起手4红中 holding {count} 红中: the win at once needs four 红中 in the starting hand "
        "(sihongzhong)",
    ),
    "four_wilds_late": (
        "{seat}在行牌开始后才记起手4红中：起手胡在庄家第一次出牌、任何碰杠和该家第一次摸牌之前（sihongzhong）",
        "{seat} claims 起手4红中 after play began: the win at once comes before the dealer's first discard, "
        "any pong or kong, and the seat's first draw (sihongzhong)",
    ),
    "four_wilds_off": (
        "{seat}记起手4红中，但本规则不计起手4红中（sihongzhong 为 none）",
        "{seat} claims 起手4红中, which these rules do not score (sihongzhong is none)",
    ),
    "self_draw_undrawn": (
        "{seat}没摸牌却记自摸：自摸是胡自己刚摸到的牌",
        "{seat} claims a self-drawn win without having drawn: 自摸 (self-draw) wins on the tile the seat "
        "just drew",
    ),
    "self_draw_tile": (
        "{seat}记自摸 {tile}，但摸到的是 {drawn}：自摸是胡自己刚摸到的牌",
        "{seat} claims a self-drawn win on {tile} but drew {drawn}: 自摸 (self-draw) wins on the tile the "
        "seat just drew",
    ),
    "nothing": ("无", "nothing"),
    "claim_wrong": (
        "{seat}记胡 {source}的 {tile}，但可胡的{kind}是 {by}的 {open}：{rule}",
        "{seat} claims a win on {tile} from {source}, but the open {kind} is {open} from {by}: {rule}",
    ),
    "open_rob": ("被抢的杠", "robbed kong"),
    "open_discard": ("打出的牌", "discard"),
    "rule_rob": ("抢杠胡是胡弯杠的那张牌", "抢杠胡 (robbing a kong) wins the tile of the added kong"),
    "rule_discard": ("点炮是胡刚打出的牌", "点炮 (discard win) wins the open discard"),
    "own_discard": (
        "{seat}记胡自己打出的牌：点炮是胡别家打出的牌",
        "{seat} claims a win on its own discard: 点炮 (discard win) is on another seat's discard",
    ),
    "won_twice": ("{seat}两次胡同一张牌", "{seat} wins the same tile twice"),
    "second_winner": (
        "{seat}是同一张牌的第二个胡家，但本规则不一炮多响（multiple_hu）",
        "{seat} is a second winner of one discard, but 一炮多响 (multiple_hu) is off",
    ),
    "pass_rule": (
        "{seat}自上次摸牌后放过胡，摸牌前不能胡 {tile}：过水不胡（pass_rule {rule}）",
        "{seat} passed a win since its last draw and may not win on {tile} until it draws again: 过水不胡 "
        "(pass_rule {rule})",
    ),
    "void_win": (
        "{seat}手中还有定缺的 {suit} 却胡牌",
        "{seat} wins while holding tiles of its 定缺 void suit {suit}",
    ),
    "three_suits": (
        "{seat}三门牌胡牌：须缺一门",
        "{seat} wins holding three suits: 缺一门 (two suits at most)",
    ),
    "no_shape": (
        "{seat}记胡 {tile}，但牌型不成胡：胡牌须四组加一对，或七对",
        "{seat} claims a win on {tile}, but its tiles are no winning shape: 胡 (a win) needs four sets and "
        "a pair, or 七对 (seven pairs)",
    ),
    # the same at a table of shorter hands (rules.hand_size 10 or 7: no 七对 there); stored
    # findings of "no_shape" keep rendering as written
    "no_shape_short": (
        "{seat}记胡 {tile}，但牌型不成胡：{size} 张的牌桌胡牌须{sets}组加一对",
        "{seat} claims a win on {tile}, but its tiles are no winning shape: at a {size}-tile table 胡 "
        "(a win) needs {sets} sets and a pair",
    ),
    # the end
    "end_before_replacement": (
        "本局在弯杠补牌之前就结束：杠后要补牌",
        "the deal ends on an added kong before its replacement draw: 杠后补牌 (a kong draws a replacement tile)",
    ),
    "end_early": (
        "本局尚未结束就记了 deal_end：牌墙还剩 {left} 张，{seats} 家未胡；{rule}",
        "deal_end while the deal goes on: {left} tiles left in the wall and {seats} seats still in; {rule}",
    ),
    # the kongs', wins', the end's and the score sheets'
    # kongs
    "kong_robbed": (
        "{kind}被抢杠胡：被抢的杠不收分（刮风下雨无效）",
        "{kind} robbed by 抢杠胡: a robbed kong earns nothing (刮风下雨无效)",
    ),
    "kong_rule": ("{kind}：{how}（规则 {rules}）", "{kind}: {how} under {rules}"),
    "kong_exposed": ("放杠者付 {pays} 底", "the discarder pays {pays}"),
    "kong_exposed_others": (
        "放杠者付 {pays} 底，其余未胡的每家付 {others} 底（家家有）",
        "the discarder pays {pays} and each other seat still in pays {others} (家家有)",
    ),
    "kong_each": ("其余未胡的每家付 {pays} 底", "each other seat still in pays {pays}"),
    "kong_added_same_turn": (
        "其余未胡的每家付 {pays} 底，仅限本轮摸到的牌（added_kong_same_turn_only）",
        "each other seat still in pays {pays}, only for a tile drawn this turn (added_kong_same_turn_only)",
    ),
    "kong_payment": (
        "{seat}的杠 {tile}：{rule}；应为 {expected}，记录为 {recorded}",
        "{seat}'s kong of {tile}: {rule}; expected {expected}, recorded {recorded}",
    ),
    # wins
    "payer_rob": ("被抢杠者", "the robbed konger"),
    "payer_discard": ("点炮者", "the discarder"),
    "win_discard": (
        "点炮：{payer}付 2^({fan}-1) = {unit}",
        "点炮 (discard win): {payer} pays 2^({fan}-1) = {unit}",
    ),
    "win_discard_transfer": (
        "点炮：{payer}付 2^({fan}-1) = {unit}，并转交刚才杠的所得（杠上炮 呼叫转移）",
        "点炮 (discard win): {payer} pays 2^({fan}-1) = {unit} and hands on what the kong just earned "
        "(杠上炮 呼叫转移)",
    ),
    "win_discard_refund": (
        "点炮：{payer}付 2^({fan}-1) = {unit}，刚才杠的所得退还给付钱的各家（杠上炮退杠）",
        "点炮 (discard win): {payer} pays 2^({fan}-1) = {unit}, and what the kong just earned goes "
        "back to the seats that paid it (杠上炮退杠, kong_discard_transfer: refund)",
    ),
    "win_fed_alone": (
        "直杠后的杠上花此处算点炮：放杠者独付 {unit}",
        "杠上花 after an exposed kong counts as a discard win here: the seat that fed the kong pays {unit}",
    ),
    "win_self_draw": (
        "自摸：未胡的每家付 2^({fan}-1) = {unit}",
        "自摸 (self-draw): each seat still in pays 2^({fan}-1) = {unit}",
    ),
    "win_self_draw_bonus": (
        "自摸：未胡的每家付 2^({fan}-1) = {unit} 再加一底（自摸加底）",
        "自摸 (self-draw): each seat still in pays 2^({fan}-1) = {unit} plus one base (自摸加底)",
    ),
    "fans": ("{patterns} = {fan} 番", "{patterns} = {fan} fan"),
    "fans_capped": (
        "{patterns} = {fan} 番（封顶 {max_fan} 番）",
        "{patterns} = {fan} fan (封顶, capped at max_fan {max_fan})",
    ),
    "win_fan": (
        "{seat}胡 {tile} 为 {fans}（规则 {rules}）；记录为 {recorded} 番",
        "{seat}'s win on {tile} is {fans} under {rules}; recorded {recorded} fan",
    ),
    "win_patterns": (
        "{seat}胡 {tile} 计 {fans}（规则 {rules}，只取最大的一个基本番型再加番）；记录的番型为 {recorded}",
        "{seat}'s win on {tile} scores {fans} under {rules} (one base pattern, the highest, plus extras); "
        "recorded patterns {recorded}",
    ),
    "win_payment": (
        "{seat}的胡（{fans}）：{rule}（规则 {rules}）；应为 {expected}，记录为 {recorded}",
        "{seat}'s win ({fans}): {rule} under {rules}; expected {expected}, recorded {recorded}",
    ),
    # the end
    "settle_move": ("{payer}付 {payee} {amount}", "{payer} pays {payee} {amount}"),
    "settle_part": ("{reason}：{moves}", "{reason}: {moves}"),
    "settle_parts": ("{parts}", "{parts}"),
    "nothing_to_settle": ("无需结算", "nothing to settle"),
    "end_first_hu": (
        "普通场：第一个胡牌即结束本局",
        "普通场 (end_condition first_hu): the first win ends the deal",
    ),
    "end_bloody": (
        "血战到底：三家胡牌或牌墙摸完时本局结束",
        "血战到底 (bloody): the deal ends when three seats have won or the wall is empty",
    ),
    "end_bloody_flow": (
        "血流成河：胡牌者不离场，牌墙摸完时本局结束",
        "血流成河 (bloody_flow): a seat that wins stays in; the deal ends when the wall is empty",
    ),
    "wrong_reason": (
        "本局应以 {computed} 结束（{rule}）；记录的原因为 {recorded!r}",
        "the deal ends by {computed} ({rule}); recorded reason {recorded!r}",
    ),
    "settlement_mismatch": (
        "流局查叫（规则 {rules}，先查花猪，再查大叫，后退税）：{text}；应为 {expected}，记录为 {recorded}",
        "查叫 at the empty wall under {rules} (查花猪, then 查大叫, then 退税): {text}; expected {expected}, "
        "recorded {recorded}",
    ),
    "scores_mismatch": (
        "本局各家净得分（刮风下雨 + 胡牌 + 查叫，规则 {rules}）应为 {expected}；记录为 {recorded}",
        "the deal's net per seat (刮风下雨 kongs + 胡 wins + 查叫 settlement) under {rules} is {expected}; "
        "recorded {recorded}",
    ),
    "totals_mismatch": (
        "本场总分是各局净得分之和（规则 {rules}）：应为 {expected}；记录为 {recorded}",
        "the session's totals are the sum of its deals' nets under {rules}: {expected}; recorded {recorded}",
    ),
    "rules_unusable": (
        "本场规则无法使用：{error}；本场各局未回放（未核对）",
        "the session's rules cannot be used: {error}; its deals are not replayed",
    ),
    "no_deal_end": (
        "本局没有 deal_end 行：记录在本局结束前中断或开始了新的一局",
        "the deal has no deal_end line: the log stops or a new deal begins before it ends",
    ),
    # score sheets
    "sheet_after_end": (
        "本局已结束（{reason}）后又记了 {kind}：{rule}",
        "{kind} after the deal has ended ({reason}): {rule}",
    ),
    "sheet_from_won": (
        "{seat}记录的放炮/放杠者 {source}已经胡牌，不会再打牌",
        "{seat}'s claim names {source} as the discarder, but {source} has won and discards no more",
    ),
    "sheet_from_self": (
        "{seat}的点炮或直杠来自自己：点炮和直杠都取别家打出的牌",
        "{seat} {what} from itself: 点炮 and 直杠 take another seat's discard",
    ),
    "exposed_needs_from": (
        "记分表上的直杠须写明放杠者（from）",
        "an exposed kong (直杠) on a score sheet names the discarder it took the tile from ('from')",
    ),
    "sheet_from_not_exposed": (
        "{kind} 杠不取别家的牌，不应写 from（只有直杠写放杠者）",
        "{a} {kind} kong takes no other seat's discard, so it names no 'from' (only an exposed kong 直杠 does)",
    ),
    "sheet_unknown_pattern": (
        "未知番型 {pattern!r}：番型须是规则第 4 节的基本番型或加番",
        "unknown pattern {pattern!r}: a pattern is a base pattern or an extra of rules.md section 4",
    ),
    "sheet_base_count": (
        "一个胡牌只有一个基本番型（取最大，不叠加），记录了 {count} 个（规则 {rules}）",
        "a win has exactly one base pattern (the highest; patterns are not added together), "
        "recorded {count} under {rules}",
    ),
    "sheet_bases_apart": (
        "规则 {rules}（番型叠加）下 {names} 不能相加：相加的基本番型不共用特征，且属同一读法（规则第 4 节）",
        "{names} do not add up under {rules} (fan_combination sum): base patterns that add "
        "need no feature twice and are of one reading (rules.md 4, Adding up)",
    ),
    "sheet_not_scored": (
        "规则 {rules} 不计 {name}（{pattern}）",
        "{name} ({pattern}) is not scored under {rules}",
    ),
    "sheet_seven_pairs_kong": (
        "{seat}开过 {kongs} 个杠，不能胡七对：七对不能有碰或杠",
        "{seat} made {kongs} kong(s) and cannot win with seven pairs: 七对 needs no pong or kong",
    ),
    "sheet_rob_nothing": (
        "{seat}记抢杠胡，但 {source}上一步不是弯杠：只有弯杠能被抢",
        "{seat} claims 抢杠胡 (robbing a kong) from {source}, but {source}'s last move on the sheet is no "
        "added kong: only an added kong (弯杠) can be robbed",
    ),
    "sheet_play_event": (
        "记分表的局里出现 {kind} 事件：记分表只记杠、胡和 deal_end；已略过",
        "{a} {kind} event in a score-sheet deal: a sheet deal holds only kong, hu and deal_end events; skipped",
    ),
    "sheet_seat_off_table": (
        "{field} 写的是{seat}，但本桌（规则 {rules}）只有 {table_seats} 个座位",
        "'{field}' names {seat}, but the table of {rules} has {table_seats} seats",
    ),
    "sheet_width": (
        "'{field}' 有 {count} 项，但本桌（规则 {rules}）有 {table_seats} 个座位：每个座位写一项；本项未核对",
        "'{field}' has {count} entries, but the table of {rules} has {table_seats} seats: one entry a seat; "
        "not checked",
    ),
    "table_players": (
        "本场列出 {count} 个玩家，但规则 {rules} 的牌桌有 {table_seats} 个座位（seats）：每个座位一个玩家；本场各局未核对",
        "the session names {count} players, but the rules {rules} play at a table of {table_seats} seats "
        "(seats): one player a seat; its deals are not checked",
    ),
    "tile_table_refused": (
        "本局是带牌的记录，无法回放：{why}；记分表（record: sheet）的牌局照常核对",
        "this deal is recorded with tiles and cannot be replayed: {why}; score-sheet deals "
        "(record: sheet) at this table are audited",
    ),
    "sheet_ready_missing": (
        "流局时有两家以上未胡，但 deal_end 没有 ready：无法查叫（查花猪、查大叫、退税），本局得分无法确定",
        "the wall ran out with two or more seats still in, but the sheet's deal_end has no 'ready': "
        "查叫 (查花猪, 查大叫, 退税) cannot be priced, so the deal's net is not known",
    ),
    "sheet_ready_not_in": (
        "{what} 写了 {seat}，但该家在流局时并不在场：听牌番数和花猪只记流局时未胡的家",
        "'{what}' names {seat}, which is not still in at the wall's end: ready values and 花猪 "
        "are for seats that have not won, at an empty wall",
    ),
    "sheet_pig_impossible": (
        "{seat}记为花猪，但规则 {rules} 只打 {suits}、不缺一门：没有手牌会多出一门，这张桌上没有花猪，不查花猪",
        "{seat} is recorded as a 花猪, but {rules} plays only {suits} with no 缺一门: no hand holds a suit "
        "too many, so there is no 花猪 (查花猪) at this table",
    ),
    "sheet_pig_none": (
        "{seat}记为花猪，但规则 {rules} 不查花猪（flower_pig: none）：没听牌的家只按未听牌查叫",
        "{seat} is recorded as a 花猪, but {rules} has no 查花猪 (flower_pig: none): a hand that is not "
        "ready pays as not ready",
    ),
    "sheet_pig_ready": (
        "{seat}既记为花猪又记为听牌：三门牌不可能听牌",
        "{seat} is recorded both as a 花猪 (three suits) and as ready: a hand of three suits is never ready",
    ),
    "sheet_ready_fan": (
        "{seat}的查大叫番数 {fan} 超过封顶 {max_fan}（规则 {rules}）",
        "{seat}'s 查大叫 value is {fan} fan, above max_fan {max_fan} under {rules}: the cap applies",
    ),
    "sheet_ready_low": (
        "{seat}的查大叫番数为 {fan}，听牌至少 1 番",
        "{seat}'s 查大叫 value is {fan} fan; a ready hand is worth at least 1",
    ),
    "sheet_cha_jiao_not_due": (
        "本局以 {reason} 结束，却记了 ready 或 flower_pigs：只有流局且两家以上未胡时才查叫",
        "'ready' or 'flower_pigs' on a deal that ends by {reason}: 查叫 is only at an empty wall with two or "
        "more seats still in",
    ),
    # a situational pattern (天胡, 地胡, 杠上花, 杠上炮) the sheet's own facts rule out
    "impossible_pattern": (
        "{seat}记{pattern}，但{fault}：{rule}",
        "{seat} claims {pattern}, but {fault}: {rule}",
    ),
    # why the pattern cannot be, by what the sheet shows (impossible_pattern)
    "rule_tianhu": (
        "天胡是庄家起手十四张自摸，在任何其他动作之前",
        "天胡 is the dealer's self-drawn win on its first 14 tiles, before any other move",
    ),
    "rule_sihongzhong": (
        "起手4红中是起手就有四张红中、立即自摸胡牌，在行牌开始之前（之前没有杠，也没有其他胡牌）",
        "起手4红中 is a self-drawn win at once on four 红中 dealt, before play begins (no kong and no "
        "other win before it)",
    ),
    "rule_dihu": (
        "地胡是闲家第一次摸牌自摸，之前本局没有杠",
        "地胡 is a non-dealer's self-drawn win on its first draw, with no kong in the deal before",
    ),
    "rule_gangshanghua": (
        "杠上花是自己开杠后紧接着自摸",
        "杠上花 is a self-drawn win right after the winner's own kong",
    ),
    "rule_menqing": (
        "门清是没有碰、没有直杠或弯杠的胡牌（暗杠不影响）",
        "门清 is a win with no pong and no exposed or added kong (a 暗杠 keeps it)",
    ),
    "rule_zhongzhang": (
        "中张是手牌和副露中都没有幺九的胡牌",
        "中张 is a win with no 1 or 9 in the hand or any meld",
    ),
    "rule_gangshangpao": (
        "杠上炮是放炮者开杠后紧接着打出的牌被胡",
        "杠上炮 is a win on a discard right after the discarder's kong",
    ),
    # what the sheet shows instead, by the fault found
    "fault_not_dealer": (" {seat}不是庄家（庄家是 {dealer}）", "{seat} is not the dealer ({dealer})"),
    "fault_dealer": (" {seat}是庄家", "{seat} is the dealer"),
    "fault_on_discard": ("记的是 {source}点炮", "it is written on {source}'s discard"),
    "fault_self_drawn": ("记的是自摸", "it is written as a self-draw"),
    "fault_not_first": ("记分表上此前已有 {moves} 个动作", "the sheet has {moves} move(s) before it"),
    "fault_after_kong": ("本局此前已有杠", "the deal has a kong before it"),
    "fault_open_kong": (
        "记分表上有 {seat}的直杠或弯杠",
        "the sheet has an exposed or added kong of {seat}",
    ),
    "fault_terminal_kong": ("记分表上有 {seat}的幺九杠", "the sheet has a kong of 1 or 9 by {seat}"),
    "fault_won_before": ("{seat}此前已胡牌（血流成河）", "{seat} has won before (血流成河)"),
    "fault_not_own_kong": ("记分表上一步不是 {seat}的杠", "the sheet's last move is no kong of {seat}"),
    "fault_not_source_kong": (
        "记分表上一步不是 {source}的杠",
        "the sheet's last move is no kong of {source}",
    ),
}
