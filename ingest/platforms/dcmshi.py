"""Convert a dcmshi/sichuan-mahjong replay export into chuanma log lines.

The export is what the app's server answers at ``GET /api/replay/:id``
(``packages/server/src/http.ts``; the row of ``persistence.ts`` ``saveGameWithCode``,
one per round): ``{id, code, seed, config, startedAt, endedAt, actionLog, results}``. A
file holds one such object or a JSON array of them; a match's rounds share ``code`` and
are one session whatever files hold them. Its wall is not written: it is rebuilt from
``seed`` (:mod:`ingest.platforms.dcmshi_rng`) with ``results.dealer`` and
``results.roundIndex`` (the seating throw runs in round 0 only); a record without them
has them inferred from the moves (a ``platform_inferred`` warning).

The app's turn runs by decreasing seat (``nextActiveSeat``: ``(from + 3) % 4``), chuanma's
by increasing seat, so app seat ``s`` is chuanma seat ``(4 - s) % 4`` (seat 0 stays 0).

Line numbers: record ``N`` (1-based in the file) is line ``N × 1000``, its action ``k``
(1-based in ``actionLog``) line ``N × 1000 + k``, and its end (results) ``N × 1000 + 999``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import PurePath
from typing import Any

from engine.messages import Text, say
from ingest.logs.builder import LogFile
from ingest.platforms.dcmshi_rng import Dealt, deal_wall
from ingest.platforms.dcmshi_round import DEALT as DEALT
from ingest.platforms.dcmshi_round import (
    END_LINE,
    ROUND_LINES,
    SUITS,
    TURN_MOVES,
    Round,
    Unreadable,
    Win,
    app_seat,
    seat_of,
    tile_id,
)
from ingest.platforms.dcmshi_round import chuanma_seat as chuanma_seat
from ingest.platforms.dcmshi_round import tile_name as tile_name
from ingest.platforms.dcmshi_rules import config_of, rules_of
from ingest.platforms.emit import Converted, finding, log_of, parse_document


def _results(record: dict[str, Any]) -> tuple[dict[int, Win], list[int] | None, list[str], set[int]]:
    """The record's ``results``: each seat's win and net (app seats), and what is unreadable."""
    results = record.get("results")
    if results is None:
        return {}, None, [], set()
    players = results.get("players") if isinstance(results, dict) else None
    if not isinstance(players, list) or len(players) != 4:
        return {}, None, [f"results.players {players!r} is not four players"], set()
    wins: dict[int, Win] = {}
    scores = [0, 0, 0, 0]
    problems: list[str] = []
    unknown: set[int] = set()
    for i, player in enumerate(players):
        try:
            if not isinstance(player, dict):
                raise Unreadable("not an object")
            seat = seat_of(player.get("seat", i))
            delta = player.get("scoreDelta")
            if not isinstance(delta, int) or isinstance(delta, bool):
                raise Unreadable(f"scoreDelta {delta!r} is not a whole number")
            scores[seat] = delta
            hu = player.get("hu")
            if hu is None:
                continue
            value = hu.get("handValue") if isinstance(hu, dict) else None
            if not isinstance(value, int) or isinstance(value, bool) or value < 1 or value & (value - 1):
                raise Unreadable(f"hu.handValue {value!r} is not a power of two")
            discarder = hu.get("discarder")
            wins[seat] = Win(
                tile_id(hu.get("winningTile")) // 4,
                bool(hu.get("byDiscard")),
                None if discarder is None else seat_of(discarder),
                value,
                str(hu.get("subtype", "normal")),
            )
        except Unreadable as err:
            problems.append(f"results.players[{i}]: {err}")
            unknown.add(i)
    return wins, (scores if not problems else None), problems, unknown


def _written(record: dict[str, Any]) -> tuple[int | None, int | None]:
    """``results.dealer`` and ``results.roundIndex`` as the app writes them (``protocol.ts``
    ``RoundResult``, ``room.ts``), None where a record leaves them out or they are no number."""
    results = record.get("results")
    if not isinstance(results, dict):
        return None, None
    dealer, index = results.get("dealer"), results.get("roundIndex")
    seat = dealer if isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer <= 3 else None
    number = index if isinstance(index, int) and not isinstance(index, bool) and index >= 0 else None
    return seat, number


def _wall_end_refunds(record: dict[str, Any]) -> dict[int, int]:
    """The points each app seat refunded for its kongs as at the wall's end (``ledger``
    reason ``kongRefund``, detail ``wallEnd``): ``actions.ts`` ``settleRound`` runs at every
    round end, so the app refunds them at a three-win end too, which its rules do not."""
    results = record.get("results")
    players = results.get("players") if isinstance(results, dict) else None
    refunds: dict[int, int] = {}
    for i, player in enumerate(players if isinstance(players, list) else []):
        ledger = player.get("ledger") if isinstance(player, dict) else None
        seat = player.get("seat", i) if isinstance(player, dict) else i
        for entry in ledger if isinstance(ledger, list) else []:
            refund = isinstance(entry, dict) and entry.get("reason") == "kongRefund"
            if not refund or entry.get("detail") != "wallEnd":
                continue
            amount = entry.get("amount")
            if entry.get("from") == seat and isinstance(seat, int) and isinstance(amount, int):
                refunds[seat] = refunds.get(seat, 0) + amount  # each entry once: in its payer's ledger
    return refunds


def _dealer_from_moves(actions: list[Any]) -> int | None:
    """The seat of the first play-phase move: the dealer's, who starts with 14 tiles."""
    for action in actions:
        if isinstance(action, dict) and action.get("t") in TURN_MOVES:
            seat = action.get("seat")
            if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat <= 3:
                return seat
            return None
    return None


def _candidates(seed: str, config: dict[str, Any], dealer: int | None) -> list[Dealt]:
    """The deals the export allows: the match's first round (the seating throw ran and
    seated the dealer the moves show) and a later one (the dealer was handed on)."""
    options: list[Dealt] = []
    if config["enableSeatingThrow"]:
        first = deal_wall(seed, None, True)
        if dealer is None or first.dealer == dealer:
            options.append(first)
    if dealer is not None:
        options.append(deal_wall(seed, dealer, False))
    return options or [deal_wall(seed, None, False)]


def _play(out: Converted, deal_id: str, number: int, dealt: Dealt, config: dict[str, Any],
          wins: dict[int, Win], actions: list[Any], unknown: set[int]) -> tuple[Round, list[tuple[int, str]]]:  # fmt: skip
    """Replay the actions; the round and the actions that could not be read."""
    rnd = Round(out, deal_id, number, dealt, config, wins)
    rnd.unknown = unknown
    bad: list[tuple[int, str]] = []
    for k, action in enumerate(actions, 1):
        line = number * ROUND_LINES + k
        following = actions[k] if k < len(actions) and isinstance(actions[k], dict) else None
        try:
            if not isinstance(action, dict):
                raise Unreadable(f"{action!r} is not an action object {{t, ...}}")
            rnd.act(line, action, following)
        except (Unreadable, KeyError, TypeError, StopIteration) as err:
            why = str(err) if isinstance(err, Unreadable) else f"{action!r} is missing a part"
            bad.append((line, why))
    return rnd, bad


def _convert_record(out: Converted, record: Any, number: int, deal_id: str) -> None:
    base = number * ROUND_LINES

    def fail(why: str) -> None:
        out.note(
            None, finding("bad_record", base, out.name, say("dcmshi_not_replayed", number=number, why=why))
        )

    seed, actions = record.get("seed"), record.get("actionLog")
    if not isinstance(seed, str) or not seed:
        fail(f"seed {seed!r} is not a string: the wall cannot be rebuilt")
        return
    if not isinstance(actions, list):
        fail("actionLog is not a list")
        return
    config = config_of(record) | {"_seed": seed}
    wins, scores, problems, unknown = _results(record)
    written, round_index = _written(record)
    dealer = written if written is not None else _dealer_from_moves(actions)
    if written is not None and round_index is not None:
        # state.ts createGame: the seating throw runs in a match's first round only
        # (room.ts startNextRound hands the dealer on), so the export decides the wall
        thrown = deal_wall(seed, None, True) if round_index == 0 and config["enableSeatingThrow"] else None
        if thrown is None:
            options = [deal_wall(seed, written, False)]
        else:
            options = [thrown] if thrown.dealer == written else _candidates(seed, config, dealer)
    else:
        options = _candidates(seed, config, dealer)
    best = 0
    tried: list[tuple[Round, list[tuple[int, str]]]] = []
    if len(options) > 1:  # the walls the export allows, each played aside: the moves choose
        scratch = Converted(out.name)
        tried = [_play(scratch, deal_id, number, dealt, config, wins, actions, unknown) for dealt in options]
        best = min(range(len(options)), key=lambda i: (tried[i][0].misses, len(tried[i][1])))
    dealt = options[best]
    rnd, bad = _play(out, deal_id, number, dealt, config, wins, actions, unknown)
    for line, why in bad:
        k = line - base
        text = say("dcmshi_action_left_out", number=number, k=k, why=why)
        out.note(deal_id, finding("bad_record", line, out.name, text))
    for why in problems:
        text = say("dcmshi_claim_unchecked", number=number, why=why)
        out.note(deal_id, finding("bad_record", base + END_LINE, out.name, text))
    decided = not tried or tried[best][0].misses < min(
        tried[i][0].misses for i in range(len(options)) if i != best
    )
    first = (
        "the match's first round (the seating throw ran)"
        if dealt.seating_throw
        else "no seating throw (a later round, the dealer handed on, or the throw is off)"
    )
    how = "the moves decide it" if decided else "the moves allow either; the first is taken"
    inferred: Text | None = None  # the export writes both from the app's own state: nothing to infer
    if written is None:
        inferred = say("dcmshi_dealer", number=number, who=app_seat(dealt.dealer), first=first, how=how)
    elif round_index is None or len(options) > 1:
        inferred = say("dcmshi_first_round", number=number, first=first, how=how)
    if inferred is not None:
        out.note(
            deal_id,
            finding(
                "platform_inferred", base, out.name, inferred, warning=True, seat=chuanma_seat(dealt.dealer)
            ),
        )
    ended = rnd.finish()
    hands = [""] * 4
    for seat in range(4):
        hands[chuanma_seat(seat)] = "".join(tile_name(t) for t in sorted(rnd.dealt[seat]))
    out.add(base, {
        "type": "deal",
        "deal_id": deal_id,
        "dealer": chuanma_seat(dealt.dealer),
        "hands": hands,
        "wall": "".join(tile_name(t) for t in dealt.wall[DEALT + 1 :]),
    })  # fmt: skip
    for line, obj in rnd.events:
        out.add(line, obj)
    end: dict[str, Any] = {
        "type": "deal_end",
        "reason": "three_won" if len(rnd.won) >= 3 else "wall_exhausted",
    }
    if not ended:
        out.note(deal_id, finding("bad_record", base + END_LINE, out.name, say("dcmshi_cut", number=number)))
    lenient = config["voidDiscardRule"] == "lenient" and any(
        seat not in rnd.won and any(SUITS[t // 36] == rnd.void.get(seat) for t in rnd.hands[seat])
        for seat in range(4)
    )
    if lenient:
        rnd.penalties.append("a seat holds its void suit at the wall's end (voidPenalty 48, lenient)")
    if len(rnd.won) >= 3:
        for seat, points in sorted(_wall_end_refunds(record).items()):
            text = say("dcmshi_three_win_refund", number=number, who=app_seat(seat), points=points)
            out.note(
                deal_id, finding("platform_defect", base + END_LINE, out.name, text, True, chuanma_seat(seat))
            )
    if scores is not None and not rnd.penalties:
        end["scores"] = [scores[(4 - c) % 4] for c in range(4)]
    elif scores is not None:
        why = "; ".join(rnd.penalties)
        text = say("dcmshi_net_unchecked", number=number, why=why)
        out.note(deal_id, finding("platform_rule", base + END_LINE, out.name, text, warning=True))
    out.add(base + END_LINE, end)


def _records(document: Any) -> Iterator[tuple[int, Any]]:
    items = document if isinstance(document, list) else [document]
    yield from enumerate(items, 1)


def _session_key(record: Any, name: str) -> str:
    """Rounds of one match share ``code`` and ``config``; a round that writes its
    ``roundIndex`` joins its match's other rounds whatever file holds them, one that does
    not (an older export) only those of its own file."""
    if not isinstance(record, dict):
        return ""
    indexed = _written(record)[1] is not None and bool(record.get("code"))
    where = None if indexed else name
    return json.dumps([where, record.get("code"), config_of(record)], sort_keys=True, default=str)


def _session_id(records: list[tuple[str, int, Any]], taken: set[str]) -> str:
    """``dcmshi-<code>`` for a match whose rounds write ``roundIndex`` (the same id from
    every download of it, so a match is one session however many files it comes in);
    ``dcmshi-<file stem>-<code>`` for rounds without one (the id sessions stored from them hold). A second config under
    one code (not seen: a room keeps its config) takes a ``-2``, ``-3``, ... suffix."""
    name, _, first = records[0]
    code = str(first.get("code", ""))
    indexed = _written(first)[1] is not None and bool(code)
    stem = PurePath(name).name.split(".")[0]
    session = f"dcmshi-{code}" if indexed else f"dcmshi-{stem}-{code}".rstrip("-")
    k, unique = 1, session
    while unique in taken:
        k += 1
        unique = f"{session}-{k}"
    taken.add(unique)
    return unique


def convert_dcmshi(data: bytes, name: str) -> Converted:
    """An export's bytes as log lines and findings (one finding when it is no export)."""
    return convert_dcmshi_files([(data, name)])[0]


def convert_dcmshi_files(files: Sequence[tuple[bytes, str]]) -> tuple[Converted, dict[str, str]]:
    """Several exports (the files of one download or of many) as one set of log lines:
    the rounds of one match in one session, in ``roundIndex`` order, whatever file holds
    them; and the file each deal was read from (its findings name that file)."""
    out = Converted(files[0][1] if files else "")
    deal_files: dict[str, str] = {}
    groups: dict[str, list[tuple[str, int, Any]]] = {}
    for data, name in files:
        try:
            document = parse_document(data)
            if not isinstance(document, (dict, list)) or not document:
                raise TypeError("neither a replay object nor a list of them")
        except (ValueError, TypeError) as err:
            text = say("dcmshi_unreadable", file=name, error=str(err))
            out.note(None, finding("bad_record", None, name, text))
            continue
        for number, record in _records(document):
            groups.setdefault(_session_key(record, name), []).append((name, number, record))
    taken: set[str] = set()
    for records in groups.values():
        name = records[0][0]
        if not isinstance(records[0][2], dict):
            for where, number, _ in records:
                text = say("dcmshi_no_object", number=number)
                out.note(None, finding("bad_record", number * ROUND_LINES, where, text))
            continue
        records.sort(key=lambda item: _written(item[2])[1] or 0)  # stable: file order without one
        first = records[0][2]
        session = _session_id(records, taken)
        line = records[0][1] * ROUND_LINES - 1
        try:
            rules, notes = rules_of(config_of(first))
        except (ValueError, TypeError) as err:
            text = say("dcmshi_config", file=name, error=str(err))
            out.note(None, finding("bad_record", line, name, text))
            continue
        for code, note in notes:
            out.note(
                None, finding(code, line, name, say("platform_note", file=name, text=note), warning=True)
            )
        names = ["p0", "p1", "p2", "p3"]
        results = first.get("results")
        players = results.get("players") if isinstance(results, dict) else None
        if isinstance(players, list) and len(players) == 4:
            for i, player in enumerate(players):
                if isinstance(player, dict) and isinstance(player.get("name"), str):
                    names[chuanma_seat(int(player.get("seat", i)) % 4)] = player["name"]
        header: dict[str, Any] = {"type": "session", "session_id": session, "players": names, "rules": rules}
        started = first.get("startedAt")
        if isinstance(started, int) and not isinstance(started, bool) and started > 0:
            header["started_at"] = (
                datetime.fromtimestamp(started / 1000, UTC).isoformat().replace("+00:00", "Z")
            )
        out.add(line, header)
        for where, number, record in records:
            index = _written(record)[1] if isinstance(record, dict) else None
            deal_id = f"{session}-r{number if index is None else index + 1}"
            deal_files[deal_id] = where
            local = Converted(where)  # its findings name the file the round was read from
            _convert_record(local, record, number, deal_id)
            out.lines += local.lines
            out.findings += local.findings
        out.add(records[-1][1] * ROUND_LINES + END_LINE, {"type": "session_end"})
    return out, deal_files


def read_dcmshi(data: bytes, name: str) -> LogFile:
    """The export read as a log: its lines through chuanma's reader, then the engine."""
    return log_of(convert_dcmshi(data, name))


def read_dcmshi_files(files: Sequence[tuple[bytes, str]]) -> tuple[LogFile, dict[str, str]]:
    """Several exports read as one log (a match's rounds as one session across files),
    and the file each deal was read from."""
    converted, deal_files = convert_dcmshi_files(files)
    return log_of(converted), deal_files
