"""``chuanma hand``: one hand's win and fan (番), or its waits (听牌) and 查大叫 value."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from dashboard.cli.options import RulesOption, fail

# ``chuanma hand``'s arguments and the situation of the win (its WinContext flags)
HandsArgument = Annotated[
    list[str],
    typer.Argument(
        metavar="HAND...",
        help="Concealed tiles in compact form, then optional melds of 3 (pong) or 4 "
        "(kong) identical tiles, a 暗杠 (concealed kong) in brackets, as one quoted argument: "
        "'12345678999p 1111m' or '12345678999p [1111m]'. At a table with 红中 wild tiles "
        "(--rules with wild_tiles), a 红中 is 7z or 中 among the concealed tiles: '1234567m99p7z 555s'.",
    ),
]
WinTileOption = Annotated[
    str | None,
    typer.Option(help="Winning tile of a 14-tile hand (default: its last concealed tile)."),
]
SelfDrawOption = Annotated[bool, typer.Option("--self-draw", help="自摸: won on a self-drawn tile.")]
AfterKongOption = Annotated[
    bool,
    typer.Option(
        "--after-kong",
        help="杠上花 with --self-draw (the kong's replacement tile), else 杠上炮 "
        "(the discarder had just konged).",
    ),
]
RobKongOption = Annotated[bool, typer.Option("--rob-kong", help="抢杠胡: won by robbing an added kong.")]
LastTileOption = Annotated[
    bool,
    typer.Option(
        "--last-tile",
        help="海底: won on the wall's last tile (scores where the rules' haidi knob is on).",
    ),
]
FirstTurnOption = Annotated[
    bool,
    typer.Option(
        "--first-turn",
        help="天胡 with --dealer, else 地胡: won on the first tiles (implies --self-draw).",
    ),
]
VoidOption = Annotated[
    str | None,
    typer.Option(
        "--void",
        help="定缺: the suit the hand gives up (m, p or s); its tiles are never kept toward "
        "the shanten and effective tiles.",
    ),
]
DealerOption = Annotated[
    bool, typer.Option("--dealer", help="The winner is the dealer (庄), for --first-turn.")
]


def hand(
    hands: HandsArgument,
    rules: RulesOption = "standard",
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per hand, one per line.")] = False,
    win_tile: WinTileOption = None,
    self_draw: SelfDrawOption = False,
    after_kong: AfterKongOption = False,
    rob_kong: RobKongOption = False,
    last_tile: LastTileOption = False,
    first_turn: FirstTurnOption = False,
    dealer: DealerOption = False,
    void: VoidOption = None,
) -> None:
    """Analyse hands: a 14-tile hand's win and fan (番), a 13-tile hand's waits (听牌) and
    its 查大叫 value (at the --rules table: 11 and 10, or 8 and 7 tiles, with 红中 wild
    tiles); for each, its 向听数 (shanten) and 有效牌 (effective tiles), or for a hand that
    must discard, each discard's. Exit 2 when a hand cannot be read."""
    from dashboard.cli.hand_report import describe_report, describe_shanten, report_json
    from engine.fan import WinContext
    from engine.hand import analyse_hand, parse_hand
    from engine.rules import RulesError, load_rules
    from engine.shanten import analyse_shanten
    from engine.tiles import parse_tile

    try:
        rule_set = load_rules(rules)
    except RulesError as error:
        raise fail(str(error)) from None
    try:
        context = WinContext(
            self_draw=self_draw or first_turn,
            after_kong=after_kong,
            robbing_kong=rob_kong,
            last_tile=last_tile,
            first_turn=first_turn,
            dealer=dealer,
        )
        win = parse_tile(win_tile, wild=True) if win_tile is not None else None
    except ValueError as error:
        raise fail(str(error)) from None
    if void is not None and (void not in ("m", "p", "s") or void not in rule_set.suits):
        raise fail(f"--void {void!r}: give a suit of the table, one of {', '.join(rule_set.suits)}")
    void_suit = "mps".index(void) if void is not None else None
    out = []
    for text in hands:
        try:
            report = analyse_hand(text, rule_set, context, win)
            tiles = parse_hand(text, rule_set)
        except ValueError as error:
            raise fail(f"hand {text!r}: {error}") from None
        view = analyse_shanten(tiles.counts(), tiles.pongs, tiles.kongs, tiles.wilds, rule_set, void_suit)
        if as_json:
            out.append(json.dumps(report_json(report, view), ensure_ascii=False))
        else:
            out.append(describe_report(report) + describe_shanten(view, report.hand_size))
    if not as_json:
        out.insert(0, f"rules: {rule_set.name}")
    typer.echo("\n".join(out))
