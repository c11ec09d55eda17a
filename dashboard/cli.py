"""The ``chuanma`` command line: one typer app; each command imports its layer lazily so
that a quick call such as ``chuanma hand`` starts in well under a second."""

from __future__ import annotations

import json
from typing import Annotated

import typer

app = typer.Typer(
    help="chuanma: replay, audit and statistics for Sichuan mahjong (四川麻将, 血战到底) logs.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)

EXIT_USAGE = 2

RulesOption = Annotated[
    str,
    typer.Option(
        "--rules",
        help="Preset name (standard, chengdu, online) or a JSON object of overrides, "
        'e.g. \'{"preset": "standard", "max_fan": 4}\'.',
    ),
]


@app.callback()
def root() -> None:
    """chuanma: replay, audit and statistics for Sichuan mahjong (四川麻将, 血战到底) logs."""


def fail(message: str) -> typer.Exit:
    typer.echo(f"chuanma: {message}", err=True)
    return typer.Exit(EXIT_USAGE)


@app.command()
def hand(
    hands: Annotated[
        list[str],
        typer.Argument(
            metavar="HAND...",
            help="Concealed tiles in compact form, then optional melds of 3 (pong) or 4 "
            "(kong) identical tiles, as one quoted argument: '12345678999p 1111m'.",
        ),
    ],
    rules: RulesOption = "standard",
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per hand, one per line.")] = False,
    win_tile: Annotated[
        str | None,
        typer.Option(help="Winning tile of a 14-tile hand (default: its last concealed tile)."),
    ] = None,
    self_draw: Annotated[bool, typer.Option("--self-draw", help="自摸: won on a self-drawn tile.")] = False,
    after_kong: Annotated[
        bool,
        typer.Option(
            "--after-kong",
            help="杠上花 with --self-draw (the kong's replacement tile), else 杠上炮 "
            "(the discarder had just konged).",
        ),
    ] = False,
    rob_kong: Annotated[
        bool, typer.Option("--rob-kong", help="抢杠胡: won by robbing an added kong.")
    ] = False,
    last_tile: Annotated[
        bool,
        typer.Option(
            "--last-tile",
            help="海底: won on the wall's last tile (scores where the rules' haidi knob is on).",
        ),
    ] = False,
    first_turn: Annotated[
        bool,
        typer.Option(
            "--first-turn",
            help="天胡 with --dealer, else 地胡: won on the first tiles (implies --self-draw).",
        ),
    ] = False,
    dealer: Annotated[
        bool, typer.Option("--dealer", help="The winner is the dealer (庄), for --first-turn.")
    ] = False,
) -> None:
    """Analyse hands: a 14-tile hand's win and fan (番), a 13-tile hand's waits (听牌) and
    its 查大叫 value. Exit 2 when a hand cannot be read."""
    from dashboard.hand_view import describe_report, report_json
    from engine.fan import WinContext
    from engine.hand import analyse_hand
    from engine.rules import RulesError, load_rules
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
        win = parse_tile(win_tile) if win_tile is not None else None
    except ValueError as error:
        raise fail(str(error)) from None
    out = []
    for text in hands:
        try:
            report = analyse_hand(text, rule_set, context, win)
        except ValueError as error:
            raise fail(f"hand {text!r}: {error}") from None
        out.append(
            json.dumps(report_json(report), ensure_ascii=False) if as_json else describe_report(report)
        )
    if not as_json:
        out.insert(0, f"rules: {rule_set.name}")
    typer.echo("\n".join(out))


def main() -> None:
    app()


if __name__ == "__main__":
    main()
