"""Every fenced example of README.md and docs/*.md is run or fed to the code it documents, so none can rot.

Each block is found by ``blocks()`` and given one ``role``:

* scorer inputs (the text and JSON forms) go to ``redtable score red-rising``;
* API bodies go to a real server: the creation body is POSTed, the WebSocket messages are
  sent on a seat's socket (each must be understood), and the error example's fields are
  compared with a real refusal's;
* commands (``redtable ...``, ``python ...``, a ``python`` block) run in a subprocess with a
  timeout, in a scratch directory with its own data and state directories, after
  ``cut_down`` made long runs short (``--games 1000`` becomes a few games, a search budget
  a few iterations); a server runs until it answers HTTP, then is stopped; ``redtable play``
  meets the end of its input at the first prompt (it quits, the game saved, and the next
  example resumes that file);
* an output shown in the docs is compared with what the command prints;
* the few that are not run are in ``NOT_RUN``, each with its reason.

``test_every_block_has_a_role`` fails on a block (or a command of a block) that has none,
so a new example is checked from the day it is written. Installation steps (``python3 -m
venv``, ``pip install``, ``apt-get install``) are not repeated: the tests run in the
installed environment, and ``test_test_command.py`` holds the README's test command to
``.ci/run``'s. Runs that take more than a few seconds are marked ``slow``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "server"))  # srvkit (under importlib mode too)

from kit import wait_http  # noqa: E402
from srvkit import Api, Backend, Client, free_port, pg_problem, start_server  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOCS = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^( *)```(\w*)[^\n]*\n(.*?)^ *```", re.S | re.M)
TIMEOUT = 120  # seconds for any one command: a hang fails the test instead of stalling the suite

# A block, or one command of a block, that is deliberately not run: its key (the file and the
# block's first line, or a command's first words) and the reason.
NOT_RUN = {
    "README.md: (command -v chromium": "the whole test suite; test_test_command.py checks it is .ci/run's command",
    "python -m pytest -n 2 -m": "tiers of this very test suite (tests/conftest.py holds the markers)",
    "redtable tournament red-north --bots ismcts,heuristic -n 400 --backend ray": (
        "starts a Ray runtime (half a minute alone); tests/sim/test_ray_backend.py runs the Ray backend"
    ),
    "docs/bots.md: # 1. the token": (
        "a logged-in session's cookie jar and CSRF value; tests/server/test_bot_accounts.py makes, lists and revokes"
    ),
    "docs/bots.md: # 2. the example program": (
        "a server with a bot account's token; tests/server/test_bot_accounts.py plays a game with the client"
    ),
    "docs/deploy.md: redtable serve --workers 4 --db": (
        "needs a 'redtable' role and database; tests/server/test_fleet.py runs --workers 2 on one port"
    ),
    "docs/deploy.md: # on each application machine": "the addresses of a private network (10.0.0.x)",
    "docs/deploy.md: # redtable behind nginx": "tests/server/test_deploy_proxy.py runs it in nginx (where installed)",
    "docs/deploy.md: apt-get install -y nginx certbot": "installs system packages and asks a CA for a certificate",
    "docs/deploy.md: [Unit]": "a systemd unit; its command is the one of the block above",
    "docs/deploy.md: systemctl daemon-reload": "systemd",
    "docs/deploy.md: sudo -u postgres createuser": "creates a PostgreSQL role (and prompts for its password)",
    "docs/deploy.md: pip install 'redtable[redis]'": (
        "a private network address; tests/server/test_fleet.py runs the Redis bus on loopback"
    ),
    "docs/deploy.md: python -m pytest -q tests/server/test_fleet.py": "runs other tests and a minutes-long benchmark",
    "docs/deploy.md: # metrics on a private port": "a 'redtable' role; test_metrics.py serves metrics ports",
    'docs/deploy.md: {"ts"': "a log line; tests/server/test_metrics.py checks the fields of real ones",
    "docs/deploy.md: # prometheus.yml": "tests/server/test_metrics.py runs it in Debian's prometheus (where installed)",
    "docs/deploy.md: # redtable-alerts.yml": "tests/server/test_metrics.py loads and evaluates it in prometheus",
    'docs/deploy.md: {"title": "redtable"': "a Grafana dashboard; tests/server/test_metrics.py runs its queries",
    "docs/deploy.md: # backups": "paths of a real machine; tests/server/test_backup.py runs backup, check and restore",
    "docs/moderation.md: redtable admin grant ann": (
        "needs the accounts ann and root in games.db; tests/server/test_moderation.py runs grant and revoke"
    ),
    "docs/server.md: # Schemathesis against a running server": (
        "a server in the background and a minute of requests; tests/server/test_openapi_live.py runs it bounded"
    ),
    "redtable export --db sqlite:///redtable.db": (
        "needs a server's database with finished games; tests/server/test_data_export.py exports SQLite and PostgreSQL"
    ),
    "docs/simulation.md: pip install -e '.[ray]'": "a Ray cluster; tests/sim/test_ray_backend.py runs the backend",
    "docs/web.md: apt-get install -y chromium": "installs Chromium, then runs the browser test suite itself",
}
SETUP = ("python3 -m venv", ". .venv/bin/activate", "pip install", "apt-get install")


@dataclass(frozen=True)
class Block:
    path: str
    line: int
    lang: str
    text: str

    @property
    def key(self) -> str:
        return f"{self.path}: {self.text.strip().splitlines()[0].strip()}"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


def blocks() -> list[Block]:
    found = []
    for path in DOCS:
        text = (ROOT / path).read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            indent = len(m.group(1))
            body = "\n".join(ln[indent:] for ln in m.group(3).splitlines())
            found.append(Block(path, text.count("\n", 0, m.start()) + 1, m.group(2), body))
    return found


def not_run(key: str) -> str | None:
    return next((why for k, why in NOT_RUN.items() if key.startswith(k)), None)


def commands(block: Block) -> list[list[list[str]]]:
    """A shell block's commands, each a chain of ``&&``-joined argument lists (comments dropped)."""
    text = block.text.replace("\\\n", " ")
    chains = []
    for line in text.splitlines():
        words = shlex.split(line, comments=True)
        if not words:
            continue
        chain: list[list[str]] = [[]]
        for w in words:
            if w == "&&":
                chain.append([])
            else:
                chain[-1].append(w)
        chains.append([c for c in chain if c])
    return chains


def role(block: Block) -> str:
    """What the test does with a block (``test_every_block_has_a_role`` holds every block to one)."""
    if not_run(block.key):
        return "not run"
    first = block.text.lstrip()
    if block.lang == "text" and re.match(r"^\w+: .*\|", first):
        return "scorer text"
    if block.lang == "json":
        if '"players"' in first and '"hand"' in first:
            return "scorer json"
        if first.startswith('{"game"'):
            return "api create"
        if first.startswith('{"type": "rematch"'):
            return "rematch message"
        if first.startswith('{"type"'):
            return "ws messages"
        if first.startswith('{"error"'):
            return "api error"
    if block.lang == "text" and first.startswith("error: --workers 2"):
        return "serve output"
    if block.lang == "python":
        return "python"
    if block.lang == "bash" and "curl -s http://HOST/api/games/ID/record" in block.text:
        return "seed check"
    if block.lang == "bash":
        return "commands"
    return "none"


def command_role(words: list[str]) -> str:
    joined = " ".join(words)
    if not_run(joined):
        return "not run"
    if joined.startswith(SETUP):
        return "setup"
    if words[0] == "redtable" and words[1:2] == ["serve"] or words[:3] == ["python", "-m", "redtable.server"]:
        return "serve"
    if words[0] in ("redtable", "python", "python3"):
        return "run"
    return "none"


BLOCKS = blocks()


def test_every_block_has_a_role():
    """No block, and no command of a shell block, without a check or a stated reason."""
    assert len(BLOCKS) >= 20, "the fences were not found"
    missing = [str(b) for b in BLOCKS if role(b) == "none"]
    for b in BLOCKS:
        if role(b) == "commands":
            missing += [f"{b}: {' '.join(c)}" for chain in commands(b) for c in chain if command_role(c) == "none"]
    assert not missing, f"examples neither checked nor listed in NOT_RUN: {missing}"
    keys = [b.key for b in BLOCKS] + [" ".join(c) for b in BLOCKS if b.lang == "bash" for ch in commands(b) for c in ch]
    stale = [k for k in NOT_RUN if not any(key.startswith(k) for key in keys)]
    assert not stale, f"NOT_RUN names examples that are gone: {stale}"


# ---------------------------------------------------------------------- running commands
@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """One directory for the module's commands (an example may use an earlier one's files) and an
    environment whose data and state directories are in it, so nothing lands in the user's."""
    here = tmp_path_factory.mktemp("examples")
    env = dict(os.environ)
    for var in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[var] = str(here / ".xdg" / var.lower())
    env.pop("REDTABLE_DB", None)
    env.pop("REDTABLE_BUS", None)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return here, env


def argv(words: list[str]) -> list[str]:
    """``redtable`` and ``python`` as this test's interpreter runs them (the checkout's package)."""
    if words[0] == "redtable":
        return [sys.executable, "-c", "import sys; from redtable.cli import main; sys.argv[0] = 'redtable'; main()"] + (
            words[1:]
        )
    if words[0] in ("python", "python3"):
        return [sys.executable, *words[1:]]
    return words


# The count options of long runs and the count a cut-down run uses (analyze: 1 game per player count).
CUTS = {"--games": "2", "-n": "2"}


def cut_down(words: list[str], here: Path) -> list[str]:
    """The same command, short: fewer games, a budget in iterations, a save file that exists."""
    out = list(words)
    for i, w in enumerate(out[:-1]):
        if w in CUTS and out[i + 1].isdigit():
            out[i + 1] = "1" if "analyze" in out else CUTS[w]
        if w == "--budget":
            out[i + 1] = "20it"
    if out[0] == "redtable" and out[1:2] in (["simulate"], ["tournament"], ["analyze"]) and "--backend" not in out:
        out += ["--workers", "1"]  # a pool of processes costs more than a few games
    if out[0] in ("python", "python3") and len(out) > 1 and (ROOT / out[1]).is_file():
        out[1] = str(ROOT / out[1])  # a script of the checkout (the commands run in a scratch directory)
    if "--resume" in out:  # the README's FILE: the game the first play command saved
        saved = sorted((here / ".xdg" / "xdg_state_home" / "redtable" / "games").glob("*[0-9].json"))
        assert saved, "no saved game to resume (the tour's first play command saves one)"
        out[out.index("--resume") + 1] = str(saved[0])
    script = Path(out[1]).name if out[0] in ("python", "python3") and len(out) > 1 else ""
    if script.startswith("bench_red"):
        out += ["--games", "2"]
    if script == "bench_server.py" and "--games" not in out:
        out += ["--games", "4"]
    if script == "bench_server.py":
        out += ["--duration", "1", "--warmup", "0.5", "--rate", "200"] if "--rate" not in out else ["--duration", "1"]
    return out


def run(words: list[str], here: Path, env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess:
    cmd = argv(cut_down(words, here))
    r = subprocess.run(cmd, cwd=here, env=env, input=stdin, capture_output=True, text=True, timeout=TIMEOUT)
    assert r.returncode == 0, f"{' '.join(words)} exited {r.returncode}:\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
    return r


class Serving:
    """A ``serve`` example started on a free port (its ``--port`` replaced); ``stop`` waits until it
    answers ``/api/health`` (or fails), stops it and returns its stderr. A block's servers start
    together, so their start-ups overlap."""

    def __init__(self, words: list[str], here: Path, env: dict[str, str]) -> None:
        self.port = port = free_port()
        self.words = words = list(words)
        if "--port" in words:
            words[words.index("--port") + 1] = str(port)
        else:
            words += ["--port", str(port)]
        self.backend = None
        if "--db-schema" in words:  # the example's schema name, made unique and dropped afterwards
            if pg_problem():
                pytest.skip(pg_problem() or "")
            self.backend = Backend("postgresql", here)
            words[words.index("--db-schema") + 1] = self.backend.schema or ""
        cmd = argv(words) + ["--bot-workers", "1", "--log-level", "warning"]
        self.proc = subprocess.Popen(
            cmd, cwd=here, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )

    def stop(self) -> str:
        try:
            self.wait()
        finally:
            self.proc.terminate()
            err = self.proc.communicate(timeout=30)[1]
            if self.backend is not None:
                self.backend.cleanup()
        assert "redtable server on http://" in err, err
        return err

    def wait(self) -> None:
        try:
            wait_http(f"http://127.0.0.1:{self.port}/api/health", self.proc, timeout=TIMEOUT)
        except RuntimeError as e:
            said = self.proc.communicate()[1][-3000:] if self.proc.poll() is not None else ""
            raise AssertionError(f"{' '.join(self.words)}: {e}\n{said}") from None


def write_scorer_examples(here: Path) -> None:
    """The README's JSON scorer example is the tour's ``final-position.json``."""
    (here / "final-position.json").write_text(only("scorer json").text, encoding="utf-8")


def only(kind: str) -> Block:
    found = [b for b in BLOCKS if role(b) == kind]
    assert len(found) == 1, (kind, [str(b) for b in found])
    return found[0]


RAN: set[tuple[str, ...]] = set()
SLOW = ("bench/", "analyze", "tournament", "simulate", "--db-schema")


def command_blocks() -> list[pytest.param]:
    params = []
    for b in BLOCKS:
        if role(b) != "commands":
            continue
        heavy = any(s in b.text for s in SLOW)
        params.append(pytest.param(b, id=str(b), marks=[pytest.mark.slow] if heavy else []))
    return params


@pytest.mark.multiprocess
@pytest.mark.parametrize("block", command_blocks())
def test_commands_run(block: Block, scratch):
    here, env = scratch
    write_scorer_examples(here)
    servers: list[Serving] = []
    try:
        for chain in commands(block):
            for words in chain:
                if command_role(words) == "serve":
                    servers.append(Serving(words, here, env))
                    # one after the other: a block's servers may share the default database, and two
                    # servers making a new SQLite file's tables at once race ("table ... already exists")
                    servers[-1].wait()
    finally:
        errors = []
        for s in servers:
            try:
                s.stop()
            except AssertionError as e:
                errors.append(str(e))
        assert not errors, errors
    for chain in commands(block):
        for words in chain:
            kind = command_role(words)
            if kind == "run" and tuple(words) not in RAN:  # (the same command in two places runs once)
                RAN.add(tuple(words))
                r = run(words, here, env)
                if "--json" in words:
                    json.loads(r.stdout)


# ---------------------------------------------------------------------- inputs: the scorer
@pytest.mark.multiprocess
@pytest.mark.parametrize("kind, suffix", [("scorer text", ".txt"), ("scorer json", ".json")])
def test_scorer_examples_are_accepted(kind, suffix, scratch):
    here, env = scratch
    path = here / f"example{suffix}"
    path.write_text(only(kind).text, encoding="utf-8")
    r = run(["redtable", "score", "red-rising", str(path)], here, env)
    assert "Winner:" in r.stdout, r.stdout
    if suffix == ".txt":  # the text form is read from stdin too ('-')
        assert "Winner:" in run(["redtable", "score", "red-rising", "-"], here, env, stdin=path.read_text()).stdout


@pytest.mark.multiprocess
def test_python_block_runs(scratch):
    here, env = scratch
    pytest.importorskip("pyspiel")
    for b in [b for b in BLOCKS if role(b) == "python"]:
        r = subprocess.run(
            [sys.executable, "-c", b.text], cwd=here, env=env, capture_output=True, text=True, timeout=TIMEOUT
        )
        assert r.returncode == 0, f"{b}: {r.stderr[-3000:]}"


@pytest.mark.multiprocess
def test_serve_output_example_is_what_serve_prints(scratch):
    """docs/deploy.md shows the refusal of --workers 2 on SQLite: the same words, wrapped."""
    here, env = scratch
    shown = " ".join(only("serve output").text.split())
    r = subprocess.run(
        argv(["redtable", "serve", "--workers", "2"]),
        cwd=here,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert r.returncode == 2 and " ".join(r.stderr.split()) == shown, r.stderr


# ---------------------------------------------------------------------- inputs: the API
@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_server(Backend("sqlite", tmp_path_factory.mktemp("api")), allow_chosen_seeds=False)
    api = Api(srv.base)
    yield srv, api
    api.close()
    srv.stop()


def created(api: Api) -> tuple[dict, list[str | None]]:
    """The game docs/server.md's creation example makes, both human seats joined."""
    r = api.http.post("/api/games", json=json.loads(only("api create").text))
    assert r.status_code == 201, r.text
    info = r.json()
    return info, [api.join(info["game_id"], s["invite"]) if s.get("invite") else None for s in info["seats"]]


def test_api_creation_body_is_accepted(server):
    srv, api = server
    info, tokens = created(api)
    state = api.state(info["game_id"], tokens[0])
    assert state["players"] == 3 and state["seats"][0]["name"] == "Ann" and state["seats"][2]["type"] == "bot"


def test_websocket_messages_are_understood(server):
    """Each client message of docs/server.md, sent on a seat's socket, gets its answer, not a refusal
    of its form (a decision may still be refused for the game's state: version 12 is made up)."""
    srv, api = server
    info, tokens = created(api)
    client = Client(srv, info["game_id"], tokens[0])
    try:
        for line in only("ws messages").text.splitlines():
            msg = json.loads(line)
            client.ws.send(line)
            want = {"sync": "state", "ping": "pong", "chat": "chat", "mute": "chat_history"}.get(msg["type"])
            while True:
                got = client.recv()
                if got["type"] == "error" and got.get("id") == msg.get("id"):
                    assert msg["type"] in ("decide", "undo"), (line, got)
                    assert got["error"] in ("stale_version", "not_your_turn", "illegal_action"), (line, got)
                    break
                if got["type"] == want:
                    break
    finally:
        client.close()


def test_error_example_has_a_real_refusals_fields(server):
    srv, api = server
    info, tokens = created(api)
    deadline = time.monotonic() + TIMEOUT
    while True:  # (the example seats a bot: refuse a person's decision, not the bot's, which has no token)
        state = api.state(info["game_id"], tokens[0])
        seat = state["decision"]["player"]
        if tokens[seat] is not None:
            break
        assert time.monotonic() < deadline, "the bot never gave the decision to a person"
        time.sleep(0.05)
    r = api.decide(info["game_id"], tokens[seat], "venus", state["version"])
    assert r.status_code == 422, r.text
    shown = json.loads(only("api error").text.replace("[...]", "[]").replace("{...}", "{}"))
    assert shown["error"] == r.json()["error"] == "illegal_action"
    assert set(shown) <= set(r.json()), (shown, r.json())
    assert set(shown["decision"]) <= set(r.json()["decision"])


def test_rematch_message_is_a_real_ones(server):
    """docs/server.md's rematch offer, as a seat's socket gets it: a game against a bot played out,
    then its person offers a rematch (the server's message has every field shown)."""
    srv, api = server
    body = {"game": "red-north", "seats": [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]}
    r = api.http.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    token = api.join(gid, r.json()["seats"][0]["invite"])
    deadline = time.monotonic() + TIMEOUT
    while (state := api.state(gid, token))["status"] == "active":
        assert time.monotonic() < deadline, "the game did not end"
        d = state["decision"]
        if d is None or d["player"] != 0 or d.get("auto"):
            time.sleep(0.02)
            continue
        api.decide(gid, token, d["options"][0], state["version"])
    client = Client(srv, gid, token)
    try:
        got = api.http.post(f"/api/games/{gid}/rematch", headers={"Authorization": f"Bearer {token}"})
        assert got.status_code == 200, got.text
        while (msg := client.recv())["type"] != "rematch":
            pass
    finally:
        client.close()
    shown = json.loads(only("rematch message").text)
    assert set(shown) == set(msg) and set(shown["rematch"]) == set(msg["rematch"]), (shown, msg)
    assert msg["rematch"]["game_id"] == got.json()["game_id"] and msg["rematch"]["status"] == "started"


@pytest.mark.multiprocess
@pytest.mark.slow
def test_seed_check_of_security_md(server, scratch):
    """The commit-and-reveal check, with HOST and ID those of a finished game of this server."""
    srv, api = server
    here, env = scratch
    body = {"game": "red-north", "seats": [{"type": "bot", "bot": "random"}] * 2, "bot_delay": 0}
    r = api.http.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    deadline = time.monotonic() + TIMEOUT
    while api.state(gid)["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.2)
    script = only("seed check").text.replace("http://HOST", srv.base).replace("/ID/", f"/{gid}/")
    script = script.replace("redtable replay", f"{shlex.join(argv(['redtable']))} replay")
    r2 = subprocess.run(["bash", "-ec", script], cwd=here, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    assert r2.returncode == 0, r2.stderr
    assert r2.stdout.splitlines()[0] == "True", r2.stdout
