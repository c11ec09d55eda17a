"""The HTTP API (``chuanma serve``) on a real uvicorn server on loopback, over a real
warehouse: its answers agree with the CLI's and with the deals' own scores, its errors are
JSON with a code (never a traceback), its limits and its token hold, and requests built
from its own OpenAPI schema (hypothesis) never get a server error."""

from __future__ import annotations

import gzip
import io
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dashboard.api.errors import CODES

CLI = [sys.executable, "-m", "dashboard.cli"]
GOLDEN = Path(__file__).parent / "golden"


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: Any


def call(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> Answer:
    request = urllib.request.Request(
        url, data=data, headers=headers or {}, method="POST" if data is not None else "GET"
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            raw, status, got = response.read(), response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        raw, status, got = error.read(), error.code, dict(error.headers)
    assert got.get("content-type", "").startswith("application/json"), (status, raw[:200])
    return Answer(status, got, json.loads(raw))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class Server:
    url: str
    warehouse: Path


def start(
    warehouse: Path, *extra: str, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[bytes], Server]:
    port = free_port()
    process = subprocess.Popen(
        [*CLI, "serve", "--warehouse", str(warehouse), "--port", str(port), "--address", "127.0.0.1", *extra],
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if call(url + "/v1/health").status == 200:
                return process, Server(url, warehouse)
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.2)
    process.kill()
    raise AssertionError(f"the API did not start: {process.stderr.read().decode() if process.stderr else ''}")


@pytest.fixture(scope="module")
def log_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two sessions of four deals, about a third of them tampered with (findings, invalid)."""
    out = tmp_path_factory.mktemp("api_log") / "club.jsonl"
    subprocess.run(
        [*CLI, "simulate", "--out", str(out), "--sessions", "2", "--deals-per-session", "4", "--seed", "5",
         "--tamper", "0.4", "--manifest", str(out.with_suffix(".manifest.jsonl"))],
        check=True, capture_output=True,
    )  # fmt: skip
    return out


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, log_file: Path) -> Iterator[Server]:
    """A server on localhost with no token (writing open, as the Upload page's rule), its
    warehouse holding the log, ingested through the API itself."""
    process, running = start(tmp_path_factory.mktemp("api_wh") / "warehouse")
    try:
        stored = call(running.url + "/v1/ingest?name=club.jsonl", log_file.read_bytes())
        assert stored.status == 200, stored.body
        yield running
    finally:
        process.terminate()
        process.wait(timeout=30)


def cli_report(path: Path) -> dict[str, Any]:
    done = subprocess.run([*CLI, "validate", "--json", str(path)], capture_output=True, text=True)
    assert done.returncode in (0, 3), done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def without(data: Any, *keys: str) -> Any:
    """``data`` with these keys dropped at every depth (what differs by design)."""
    if isinstance(data, dict):
        return {k: without(v, *keys) for k, v in data.items() if k not in keys}
    if isinstance(data, list):
        return [without(v, *keys) for v in data]
    return data


def test_validate_answers_the_report_the_cli_prints(server: Server, log_file: Path) -> None:
    answer = call(server.url + "/v1/validate?name=club.jsonl", log_file.read_bytes())
    assert answer.status == 200
    expected = cli_report(log_file)
    assert answer.body["summary"] == expected["summary"]
    assert expected["summary"]["invalid"] + expected["summary"]["findings"] > 0  # the tampering shows
    texts = [f["text"] for deal in answer.body["deals"] for f in deal["findings"]]
    assert texts and all(texts)
    # the same deals, findings (their text too: the CLI's --json names the players as the
    # API does) and scores; only the file's name (the upload's) differs
    assert without(answer.body["deals"], "file") == without(expected["deals"], "file")


def test_validate_speaks_chinese_and_names_the_players(server: Server, log_file: Path) -> None:
    body = call(server.url + "/v1/validate?lang=zh", log_file.read_bytes()).body  # kind told by its bytes
    players = {name for session in body["sessions"] for name in session["players"]}
    texts = [f["text"] for deal in body["deals"] for f in deal["findings"]]
    assert any(any("\u4e00" <= ch <= "\u9fff" for ch in text) for text in texts)
    assert any(any(name in text for name in players) for text in texts if "seat" not in text)


def test_a_gzipped_body_is_told_by_its_bytes(server: Server, log_file: Path) -> None:
    plain = call(server.url + "/v1/validate", log_file.read_bytes()).body
    zipped = call(server.url + "/v1/validate", gzip.compress(log_file.read_bytes())).body
    assert zipped["summary"] == plain["summary"]


def test_a_session_result_adds_up_to_its_deals(server: Server, log_file: Path) -> None:
    listed = call(server.url + "/v1/sessions").body
    assert listed["total"] == 2
    scores = {d["deal_id"]: d["computed"]["scores"] for d in cli_report(log_file)["deals"]}
    for row in listed["sessions"]:
        result = call(server.url + f"/v1/sessions/{urllib.parse.quote(row['session_id'])}").body
        names = result["players"]
        expected = dict.fromkeys(names, 0)
        for deal in result["deals"]:
            for name, score in zip(names, scores[deal["deal_id"]] or (0, 0, 0, 0), strict=True):
                expected[name] += score
            assert list(deal["nets"].values()) == (scores[deal["deal_id"]] or [0, 0, 0, 0])
        assert result["totals"] == expected
        assert sum(result["totals"].values()) == 0
        paid = dict.fromkeys(names, 0)  # who pays whom settles every total
        for t in result["transfers"]:
            paid[t["payer"]] -= t["amount"]
            paid[t["payee"]] += t["amount"]
        assert paid == expected
        assert all(p["payer"] in names and p["payee"] in names for p in result["payments"])
        assert result["chat_text"].splitlines()[1].startswith("1. " + result["ranking"][0])


def test_a_deal_replays_to_its_scores(server: Server, log_file: Path) -> None:
    for deal in cli_report(log_file)["deals"]:
        replay = call(server.url + f"/v1/deals/{deal['deal_id']}?lang=zh").body
        assert replay["status"] == deal["status"]
        if deal["status"] != "invalid":
            assert replay["steps"][-1]["scores"] == deal["computed"]["scores"]
            assert replay["steps"][0]["kind"] == "deal"
            assert sum(len(hand) for hand in replay["steps"][0]["hands"]) == 53  # 14 + 3 x 13 dealt
        assert [f["code"] for f in replay["findings"]] == [f["code"] for f in deal["findings"]]


def test_players_and_findings_agree_with_the_audit(server: Server, log_file: Path) -> None:
    report = cli_report(log_file)
    board = call(server.url + "/v1/players").body["players"]
    assert sum(row["deals"] for row in board) == 4 * sum(
        1 for d in report["deals"] if d["status"] != "invalid"
    )
    assert all(row["guest"] is False for row in board)
    one = call(server.url + f"/v1/players/{urllib.parse.quote(board[0]['player'])}").body
    assert one["net"] == board[0]["net"]
    found = call(server.url + "/v1/findings?limit=1").body
    assert found["total"] == report["summary"]["finding_count"]
    assert len(found["findings"]) == 1 and found["findings"][0]["text"]


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/v1/sessions/no-such-session", "not_found"),
        ("/v1/deals/no-such-deal", "not_found"),
        ("/v1/players/nobody-at-all", "not_found"),
        ("/v1/no-such-route", "not_found"),
        ("/v1/sessions?date_from=yesterday", "unprocessable"),
        ("/v1/sessions?limit=0", "unprocessable"),
        ("/v1/findings?lang=fr", "unprocessable"),
        ("/v1/validate", "method_not_allowed"),
    ],
)
def test_errors_are_json_with_a_code(server: Server, path: str, code: str) -> None:
    answer = call(server.url + path)
    assert answer.status == CODES[code]
    assert answer.body["error"]["code"] == code and answer.body["error"]["message"]


def test_bad_bodies_are_refused_or_reported(server: Server) -> None:
    assert call(server.url + "/v1/validate", b"").body["error"]["code"] == "bad_request"
    junk = call(server.url + "/v1/validate", bytes(range(256)) * 40)  # no log, no sheet: a finding
    assert junk.status == 200 and junk.body["summary"]["by_code"] == {"bad_record": 1}
    refused = call(server.url + "/v1/validate?rules=no-such-preset", b'{"x": 1}\n')
    assert refused.status == 400 and "rules" in refused.body["error"]["message"]


def test_findings_name_the_file_not_the_servers_folders(server: Server) -> None:
    """The log went in through the API, kept under the warehouse's uploads/ with a content
    prefix; a club reads the name it sent, nothing of the server's paths."""
    answer = call(server.url + "/v1/findings?limit=500")
    assert answer.status == 200 and answer.body["findings"]
    files = {f["file"] for f in answer.body["findings"]}
    assert files == {"club.jsonl"}, files


def test_docs_are_served_by_the_server_itself(server: Server) -> None:
    """/docs works with no internet: its script and style come from this server."""
    with urllib.request.urlopen(server.url + "/docs", timeout=60) as page:
        html = page.read().decode()
    assert "cdn" not in html.lower() and "https://" not in html
    for asset in ("/docs-assets/swagger-ui-bundle.js", "/docs-assets/swagger-ui.css"):
        assert asset in html
        with urllib.request.urlopen(server.url + asset, timeout=60) as served:
            assert served.status == 200 and len(served.read()) > 10_000


def zipped(*members: tuple[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_is_read_as_a_folder(server: Server, log_file: Path) -> None:
    """A zip of a log and a platform's export (a folder sent as one body) is validated
    member by member into one report; a notes file in it is no record."""
    export = (GOLDEN / "platforms" / "dcmshi_replays.json").read_bytes()
    body = zipped(("night/club.jsonl", log_file.read_bytes()), ("night/match.json", export),
                  ("night/notes.json", b'{"fee": 40}'), ("__MACOSX/night/._match.json", b"junk"))  # fmt: skip
    answer = call(server.url + "/v1/validate", body)
    assert answer.status == 200, answer.body
    alone = call(server.url + "/v1/validate?name=club.jsonl", log_file.read_bytes()).body
    assert [f["file"] for f in answer.body["files"]] == ["night/club.jsonl", "night/match.json"]
    assert answer.body["summary"]["deals"] == alone["summary"]["deals"] + 3


def test_a_zipped_match_across_files_is_one_session(server: Server) -> None:
    """Two downloads of one dcmshi match (one file a round, sharing ``code``) sent as a
    zip are one session with both rounds, as ``chuanma validate`` of their folder reads."""
    real = GOLDEN / "platforms" / "dcmshi_real"
    body = zipped(*((name, (real / name).read_bytes()) for name in ("replay-0001.json", "replay-0007.json")))
    answer = call(server.url + "/v1/validate", body)
    assert answer.status == 200, answer.body
    (session,) = answer.body["sessions"]
    assert [d["session_id"] for d in answer.body["deals"]] == [session["session_id"]] * 2


def test_a_zip_of_nothing_or_a_blank_body_is_a_bad_request(server: Server) -> None:
    """Nothing to read is refused, never a clean report, and nothing is stored."""
    catalog = (server.warehouse / "catalog.json").read_bytes()
    for body in (zipped(), zipped(("notes.txt", b"fee 40"), ("settings.json", b"{}")), b"\n \n"):
        for route in ("/v1/validate", "/v1/ingest"):
            answer = call(server.url + route, body)
            assert answer.status == 400, (route, body[:20], answer.body)
            assert answer.body["error"]["code"] == "bad_request", answer.body
    assert (server.warehouse / "catalog.json").read_bytes() == catalog


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server asking for a token, taking bodies of at most 20 KB and inflating at most 1 MB."""
    process, running = start(
        tmp_path_factory.mktemp("api_guarded"), "--token", "s3cret", "--max-body-mb", "0.02",
        env={"CHUANMA_MAX_INFLATED_MB": "1"},
    )  # fmt: skip
    try:
        yield running
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_body_over_the_limit_is_refused(guarded: Server) -> None:
    answer = call(guarded.url + "/v1/validate", b"{}\n" * 10_000)
    assert answer.status == 413 and answer.body["error"]["code"] == "too_large"


def test_a_gzip_bomb_stops_at_the_inflation_limit(guarded: Server) -> None:
    bomb = gzip.compress(b'{"type": "comment"}\n' * 200_000)  # 4 MB of text in a few KB
    assert len(bomb) < 20_000
    answer = call(guarded.url + "/v1/validate", bomb)
    assert answer.status == 200
    file_findings = [f for entry in answer.body["files"] for f in entry["findings"]]
    assert any("MB" in f["message"] for f in file_findings), file_findings


def test_writes_need_the_token_and_wrong_tokens_wait(guarded: Server, log_file: Path) -> None:
    body = gzip.compress(log_file.read_bytes())
    assert call(guarded.url + "/v1/ingest", body).body["error"]["code"] == "unauthorized"
    wrong = call(guarded.url + "/v1/ingest", body, {"Authorization": "Bearer guess"})
    assert wrong.status == 401
    guessing = call(guarded.url + "/v1/ingest", body, {"Authorization": "Bearer guess-again"})
    assert guessing.status == 429 and int(guessing.headers["retry-after"]) >= 1  # a guesser waits
    # the right token from the same address (a club's Wi-Fi) is never held by another's typo
    stored = call(guarded.url + "/v1/ingest", body, {"Authorization": "Bearer s3cret"})
    assert stored.status == 200, stored.body
    assert stored.body["deals"]["read"] == 8 and not stored.body["files"][0]["file"].startswith("/")
    assert call(guarded.url + "/v1/sessions").body["total"] == 2  # reads need no token


# -- requests built from the server's own schema ----------------------------------------------
def value_for(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values a client might send for a parameter of this schema: fitting ones and not."""
    junk = st.text(max_size=12)
    kinds = [s for s in schema.get("anyOf", [schema]) if s.get("type") != "null"]
    options: list[st.SearchStrategy[Any]] = [junk]
    for kind in kinds:
        if "enum" in kind:
            options.append(st.sampled_from(kind["enum"]))
        elif kind.get("format") == "date":
            options.append(st.dates().map(str))
        elif kind.get("type") == "integer":
            options.append(st.integers(-3, 20_000).map(str))
        elif kind.get("type") == "array":
            options.append(st.lists(junk, max_size=3))
    return st.one_of(options)


@st.composite
def requests(draw: st.DrawFn, schema: dict[str, Any]) -> str:
    paths = sorted(p for p, ops in schema["paths"].items() if "get" in ops)
    path: str = draw(st.sampled_from(paths))
    query: list[tuple[str, str]] = []
    for parameter in schema["paths"][path]["get"].get("parameters", []):
        if parameter["in"] == "path":
            text = draw(st.text(min_size=1, max_size=20))
            path = path.replace("{" + parameter["name"] + "}", urllib.parse.quote(text, safe=""))
        elif parameter["in"] == "query" and draw(st.booleans()):
            value = draw(value_for(parameter["schema"]))
            query += [(parameter["name"], v) for v in (value if isinstance(value, list) else [value])]
    return path + ("?" + urllib.parse.urlencode(query) if query else "")


def test_requests_from_the_schema_never_get_a_server_error(server: Server) -> None:
    schema = call(server.url + "/openapi.json").body
    assert {"/v1/validate", "/v1/ingest", "/v1/sessions/{session_id}", "/v1/deals/{deal_id}"} <= set(
        schema["paths"]
    )

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(requests(schema))
    def check(path: str) -> None:
        answer = call(server.url + path)
        assert answer.status in (200, 403, 404, 422), (path, answer.body)  # never a 5xx
        if answer.status != 200:
            assert answer.body["error"]["code"] in CODES

    check()


def test_any_body_gets_a_report_or_a_clear_refusal(server: Server, log_file: Path) -> None:
    """Random bytes, cut logs and broken gzip to POST /v1/validate: a report (findings for
    what cannot be read) or a 400, never a server error."""
    text = log_file.read_bytes()
    bodies = st.one_of(
        st.binary(max_size=2_000),
        st.integers(1, len(text)).map(lambda n: text[:n]),  # a log cut anywhere
        st.integers(1, 400).map(lambda n: gzip.compress(text)[:n]),  # a gzip cut anywhere
    )

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(bodies, st.sampled_from([None, "x.jsonl", "x.jsonl.gz", "x.csv", "x.xlsx"]))
    def check(body: bytes, name: str | None) -> None:
        answer = call(server.url + "/v1/validate" + (f"?name={name}" if name else ""), body)
        assert answer.status in (200, 400), (name, body[:60], answer.body)
        if answer.status == 200:
            assert "summary" in answer.body
        else:
            assert answer.body["error"]["code"] == "bad_request"

    check()
