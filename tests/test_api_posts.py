"""Every POST route of the API, with hypothesis, on a real uvicorn server on loopback over
a warehouse with club tokens: ``POST /v1/ingest`` gets random bytes, cut logs, broken gzip
and whole logs under every kind of token, and ``POST /v1/access/tokens`` parameters from
its own schema. Never a server error; a whole log of the recorder's club is stored and read
back through the GET routes as simulated; a refusal is JSON with a code and leaves the
catalog as it was; after every answer the warehouse checks clean (nothing half-stored)."""

from __future__ import annotations

import gzip
import json
import subprocess
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_api import CLI, Server, call, start, value_for

from dashboard.access import add_grant
from dashboard.api.errors import CODES
from ingest.logs.writer import log_lines
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import read_catalog, unlisted_batches, verify_parts

HOME, AWAY = "home", "away"
#: the POST routes this file covers; a new one in the schema fails the test until it is
POSTED = {"/v1/validate", "/v1/ingest", "/v1/access/tokens"}
#: who sends a request: a role of club home, away's recorder, or no token at all
SENDERS = ("viewer", "recorder", "admin", "away_recorder", "none")
#: the same, drawn mostly from those who may write (so that most bodies reach the ingest)
WRITERS = st.sampled_from(("recorder", "recorder", "recorder", "admin", "admin", *SENDERS))


@dataclass(frozen=True)
class Tables:
    server: Server
    tokens: dict[str, str]  # sender -> token

    def headers(self, sender: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[sender]}"} if sender in self.tokens else {}


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tables]:
    """A server over an empty warehouse whose access file holds tokens of two clubs."""
    warehouse = tmp_path_factory.mktemp("api_posts") / "warehouse"
    tokens = {role: add_grant(warehouse, HOME, role)[1] for role in ("viewer", "recorder", "admin")}
    tokens["away_recorder"] = add_grant(warehouse, AWAY, "recorder")[1]
    process, running = start(warehouse)
    try:
        yield Tables(running, tokens)
    finally:
        process.terminate()
        process.wait(timeout=30)


def club_log(seed: int) -> tuple[bytes, ClubPlan]:
    """One session of one to three deals of club home; each seed its own day (so its own
    session id), the same seed the same bytes."""
    plan = ClubPlan(players=4, sessions=1, deals_per_session=1 + seed % 3, seed=seed, club=HOME,
                    start=date(2025, 1, 1) + timedelta(days=seed))  # fmt: skip
    return "".join(line + "\n" for line in log_lines(simulate_club(plan))).encode(), plan


def simulated_scores(plan: ClubPlan) -> dict[str, list[int]]:
    """Each deal's scores as the simulator ended it, by deal id."""
    ends: dict[str, list[int]] = {}
    for line in log_lines(simulate_club(plan)):
        event = json.loads(line)
        if event["type"] == "deal":
            deal_id = event["deal_id"]
        elif event["type"] == "deal_end":
            ends[deal_id] = event["scores"]
    return ends


def batches(root: Path) -> list[str]:
    return [str(b["id"]) for b in read_catalog(root)["batches"]]


def check_clean(root: Path) -> None:
    """What ``chuanma warehouse check`` checks, in process: every listed file read whole,
    no batch folder left unlisted."""
    catalog = read_catalog(root)
    assert verify_parts(root, catalog, full=True) == []
    assert unlisted_batches(root, catalog) == []


@dataclass(frozen=True)
class Body:
    data: bytes
    name: str | None
    plan: ClubPlan | None = None  # set for a whole log of club home, named as it is


@st.composite
def bodies(draw: st.DrawFn) -> Body:
    """A whole log (plain or gzip), the same log cut anywhere or its gzip cut, or random
    bytes; a whole log under a name that fits it, the rest under any name."""
    kind = draw(st.sampled_from(["whole", "whole_gz", "cut", "cut_gz", "random"]))
    # a cut log's session is never a whole one's (a part stored first would conflict with it)
    text, plan = club_log(draw(st.integers(0, 400) if kind.startswith("whole") else st.integers(1000, 1400)))
    if kind == "whole":
        return Body(text, draw(st.sampled_from([None, "t.jsonl"])), plan)
    if kind == "whole_gz":
        return Body(gzip.compress(text), draw(st.sampled_from([None, "t.jsonl.gz"])), plan)
    data = {
        "cut": lambda: text[: draw(st.integers(1, len(text) - 1))],
        "cut_gz": lambda: (z := gzip.compress(text))[: draw(st.integers(1, len(z) - 1))],
        "random": lambda: draw(st.binary(min_size=1, max_size=1_500)),
    }[kind]()
    names = st.one_of(
        st.none(), st.sampled_from(["x.jsonl", "x.jsonl.gz", "x.csv", "x.xlsx"]), st.text(max_size=20)
    )
    return Body(data, draw(names))


def test_the_post_routes_are_the_ones_tested_here(tables: Tables) -> None:
    schema = call(tables.server.url + "/openapi.json").body
    assert {path for path, ops in schema["paths"].items() if "post" in ops} == POSTED


def test_any_body_to_ingest_is_stored_whole_or_refused_cleanly(tables: Tables) -> None:
    server, root = tables.server, tables.server.warehouse
    schema = call(server.url + "/openapi.json").body
    (wait_schema,) = (
        p["schema"] for p in schema["paths"]["/v1/ingest"]["post"]["parameters"] if p["name"] == "wait"
    )
    seen: dict[str, int] = {}

    waits = st.one_of(st.none(), st.none(), st.none(), value_for(wait_schema))

    whole, plan = club_log(401)  # a seed the drawn whole logs (0-400) never take

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(bodies(), WRITERS, waits)
    @example(Body(whole, "t.jsonl", plan), "recorder", None)  # stored and read back in every run
    @example(Body(b"x", None), "viewer", None)  # and refused
    @example(Body(b"x", None), "none", None)
    def check(body: Body, sender: str, wait: str | None) -> None:
        query = [("name", body.name)] if body.name is not None else []
        query += [("wait", wait)] if wait is not None else []
        before = batches(root)
        answer = call(
            server.url + "/v1/ingest" + ("?" + urllib.parse.urlencode(query) if query else ""),
            body.data,
            tables.headers(sender),
        )
        assert answer.status < 500, (sender, body.name, body.data[:60], answer.body)  # never a server error
        seen[str(answer.status)] = seen.get(str(answer.status), 0) + 1
        check_clean(root)
        if answer.status != 200:
            assert answer.body["error"]["code"] in CODES and answer.body["error"]["message"]
            assert CODES[answer.body["error"]["code"]] == answer.status
            assert batches(root) == before  # a refusal stores nothing
        else:
            assert isinstance(answer.body["stored"], bool)
            assert answer.body["stored"] == (answer.body["not_stored"] is None)
        # who may store what, whatever the body
        if sender == "none":
            assert answer.body["error"]["code"] == "unauthorized"
        elif sender == "viewer":
            assert answer.body["error"]["code"] == "forbidden"
        if body.plan is None or answer.status == 422:  # a wait out of range is refused first
            return
        if sender == "away_recorder":
            assert answer.body["error"]["code"] == "forbidden" and HOME in answer.body["error"]["message"]
        elif sender in ("recorder", "admin"):
            assert answer.status == 200 and answer.body["stored"] is True, answer.body
            read_back(tables, body.plan)
            seen["read back"] = seen.get("read back", 0) + 1

    check()
    assert seen.get("read back", 0) > 0 and len(seen) > 3, seen  # both stores and refusals were tried
    done = subprocess.run([*CLI, "warehouse", "check", "--warehouse", str(root), "--json"],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["problems"] == []


def read_back(tables: Tables, plan: ClubPlan) -> None:
    """A stored session's deals, through the GET routes, replay to the simulated scores."""
    viewer = tables.headers("viewer")
    expected = simulated_scores(plan)
    session_id = next(iter(expected)).rsplit("-", 1)[0]
    result = call(tables.server.url + f"/v1/sessions/{urllib.parse.quote(session_id)}", headers=viewer)
    assert result.status == 200, result.body
    assert [d["deal_id"] for d in result.body["deals"]] == list(expected)
    for deal_id, scores in expected.items():
        replay = call(tables.server.url + f"/v1/deals/{deal_id}", headers=viewer).body
        assert replay["status"] != "invalid" and replay["steps"][-1]["scores"] == scores
    assert sum(result.body["totals"].values()) == 0


def test_tokens_are_made_by_a_club_admin_only(tables: Tables) -> None:
    """``POST /v1/access/tokens`` with parameters from its schema (fitting or not) and every
    kind of sender: a token only for the admin with a known role and a short label, and the
    token made opens its club's reads; never a server error."""
    server = tables.server
    schema = call(server.url + "/openapi.json").body
    listed = schema["paths"]["/v1/access/tokens"]["post"]["parameters"]
    parameters = {p["name"]: p["schema"] for p in listed if p["in"] == "query"}
    assert set(parameters) == {"role", "label"}
    labels = st.one_of(value_for(parameters["label"]), st.text(min_size=95, max_size=110))
    made_count: list[int] = []

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.one_of(st.none(), value_for(parameters["role"])), st.one_of(st.none(), labels), WRITERS)
    @example("viewer", "for the bot", "admin")  # a token is made in every run, not only by chance
    def check(role: str | None, label: str | None, sender: str) -> None:
        query = [(k, v) for k, v in (("role", role), ("label", label)) if v is not None]
        answer = call(server.url + "/v1/access/tokens?" + urllib.parse.urlencode(query), b"",
                      tables.headers(sender))  # fmt: skip
        assert answer.status < 500, (role, label, sender, answer.body)
        fits = role in ("viewer", "recorder", "admin") and len(label or "") <= 100
        if answer.status != 200:
            assert CODES[answer.body["error"]["code"]] == answer.status
            assert not (sender == "admin" and fits), answer.body
            return
        assert sender == "admin" and fits
        made_count.append(1)
        made = answer.body
        assert made["club"] == HOME and made["role"] == role and made["label"] == (label or "")
        opened = call(server.url + "/v1/sessions", headers={"Authorization": f"Bearer {made['token']}"})
        assert opened.status == 200 and all(row["club"] == HOME for row in opened.body["sessions"])
        revoke = urllib.request.Request(server.url + f"/v1/access/tokens/{made['id']}", method="DELETE",
                                        headers=tables.headers("admin"))  # fmt: skip
        with urllib.request.urlopen(revoke, timeout=60) as gone:  # the list stays short
            assert json.loads(gone.read())["revoked"]

    check()
    assert made_count, "no token was made"
    listed = call(server.url + "/v1/access/tokens", headers=tables.headers("admin")).body["tokens"]
    assert {row["club"] for row in listed} == {HOME}  # away's recorder is not shown to home's admin
