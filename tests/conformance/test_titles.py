"""One conformance harness for every title: the two shipped ones and the toy of
``toytitle.py``, registered here through its title value (``registry.register``).

Each invariant comes with its own non-vacuity check (the games really end after real
choices, views really hide something that a re-deal really changes, actions really vary),
so that a title cannot pass by doing nothing. Then every consumer plays each title:
``simulate`` and ``tournament`` (and the ``simulate`` command in-process), the balance
analysis, the server's API (create, join, decide, replay), the PettingZoo and OpenSpiel
adapters and the terminal. A consumer that needs a change to take the toy is a consumer
that still knows titles by name: the fix belongs there, not in the toy.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from redtable.core import GameRecord, IllegalAction, Rng, make_game, registry, replay

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "server"))  # srvkit, under --import-mode=importlib too

import toytitle  # noqa: E402

TOY = toytitle.TITLE
NAMES = ["red-rising", "red-north", TOY.name]  # the shipped titles by their registry names, and the toy


@pytest.fixture(scope="module", autouse=True)
def toy_registered():
    registry.register(TOY)
    yield
    registry.unregister(TOY.name)


@pytest.fixture(params=NAMES)
def name(request) -> str:
    return request.param


def random_game(name: str, players: int, seed: int, limit: int = 5000):
    """A game of random choices (the choices' generator seeded by ``seed`` too)."""
    state = make_game(name, players).new_initial_state(seed)
    rng = Rng(seed + 1)
    while not state.is_terminal() and len(state.history) < limit:
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_the_registry_lists_the_toy_only_while_registered():
    assert [t.name for t in registry.titles()] == NAMES
    assert registry.title(TOY.name) is TOY and TOY.name in registry.GAMES
    with pytest.raises(ValueError):
        registry.register(TOY)
    with pytest.raises(ValueError):
        registry.unregister("red-north")  # a shipped title is not taken back


def test_every_part_of_the_title_resolves(name):
    """Each part a title names (a dotted path or an object) loads, its player range is its
    engine's, and a part it leaves out is the default or None."""
    from dataclasses import fields

    from redtable.core.title import DEFAULTS

    t = registry.title(name)
    cls = registry.game_class(name)
    assert cls.name == name and t.players == (cls.min_players, cls.max_players)
    loaded = 0
    for f in fields(t):
        if f.name in ("name", "players", "display", "gym_id", "web_module", "bot_defaults", "score_events"):
            continue
        got = t.load(f.name)
        if getattr(t, f.name) is not None or f.name in DEFAULTS:
            assert got is not None, f"{name}: part {f.name} does not load"
            loaded += 1
        else:
            assert got is None
    assert loaded >= 6  # non-vacuity: the title has parts (and the toy only its own few)
    assert set(t.display) == {"en", "uk", "pl"} and t.display_name("de") == t.display["en"]


@pytest.mark.multiprocess
def test_reading_the_titles_imports_no_engine():
    import subprocess

    code = (
        "import sys; from redtable.core import titles; ts = titles(); "
        "heavy = [m for m in ('numpy', 'redtable.redrising.game', 'redtable.rednorth.game', 'redtable.bots', "
        "'redtable.envs', 'fastapi', 'rich') if m in sys.modules]; print(len(ts), heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "2 []"


# ---------------------------------------------------------------------- invariants of a title
def test_every_player_count_plays_to_the_end(name):
    t = registry.title(name)
    lo, hi = t.players
    kinds: set[str] = set()
    results = set()
    for players in range(lo, hi + 1):
        g = make_game(name, players)
        assert g.players == players and g.name == name
        for seed in range(3):
            st = random_game(name, players, seed)
            assert st.is_terminal(), f"{name} {players}p seed {seed}: no end after {len(st.history)} decisions"
            assert len(st.scores()) == players and st.winners() and set(st.winners()) <= set(range(players))
            assert sum(st.returns()) == pytest.approx(1.0)
            results.add((tuple(st.scores()), tuple(st.winners())))
            replayed = make_game(name, players).new_initial_state(seed)
            for a in st.history:
                replayed.decision()
                kinds.add(replayed.pending().kind)
                replayed.apply(a)
    # non-vacuity: real games, with several kinds of decision and different outcomes
    assert len(kinds) >= 2 and len(results) >= 2
    with pytest.raises(Exception):  # noqa: B017 - a title's own refusal (InvalidOptions)
        make_game(name, hi + 1)


def test_a_seed_and_the_actions_replay_the_game(name):
    lo = registry.title(name).players[0]
    a, b = random_game(name, lo, 4), random_game(name, lo, 5)
    again = replay(GameRecord.from_json(GameRecord.of(a, 4).to_json()))
    assert again.history == a.history and again.scores() == a.scores()
    assert [again.view(p) for p in range(lo)] == [a.view(p) for p in range(lo)]
    assert a.history != b.history  # non-vacuity: the seed matters


def test_clones_are_independent_and_illegal_actions_change_nothing(name):
    st = make_game(name, registry.title(name).players[0]).new_initial_state(1)
    view = st.view(0)
    copy = st.clone()
    copy.apply(copy.legal_actions()[-1])
    assert st.view(0) == view and len(st.history) == 0 and len(copy.history) == 1
    with pytest.raises(IllegalAction):
        st.apply("no such action")
    assert st.view(0) == view and st.history == []
    assert copy.view(0) != view or copy.decision() != st.decision()  # non-vacuity: the move did something


def test_views_hide_what_a_redeal_changes(name):
    """A seat's view is the same on a re-deal for that seat, while some other seat's view
    changes (there is hidden information, and the re-deal really re-deals it)."""
    lo = registry.title(name).players[0]
    st = make_game(name, lo).new_initial_state(2)
    rng = Rng(7)
    changed = 0
    for step in range(30):
        if st.is_terminal():
            break
        for p in range(lo):
            re = st.resample(p, Rng(100 * step + p))
            assert re.view(p) == st.view(p), f"{name}: a re-deal for seat {p} changed its view"
            others = [q for q in range(lo) if q != p]
            changed += any(re.view(q) != st.view(q) for q in others)
        st.apply(rng.choice(st.legal_actions()))
    assert changed, f"{name}: no re-deal changed anything another seat sees: nothing is hidden"
    assert st.view(0) != st.view(1)  # the seats see different things


def test_actions_vary_and_are_in_the_codec(name):
    from redtable.envs.actions import codec

    c = codec(name)
    lo = registry.title(name).players[0]
    offered: set[tuple[str, ...]] = set()
    for seed in range(2):
        st = make_game(name, lo).new_initial_state(seed)
        rng = Rng(seed)
        while not st.is_terminal():
            options = st.legal_actions()
            offered.add(options)
            assert all(c.decode(c.encode(o)) == o for o in options)
            st.apply(rng.choice(options))
    assert len(offered) >= 3 and max(map(len, offered)) >= 2  # non-vacuity: choices, and they differ


# ---------------------------------------------------------------------- consumers
def test_simulate_and_tournament(name):
    from redtable.sim.simulate import simulate
    from redtable.sim.tournament import tournament

    lo = registry.title(name).players[0]
    rep = simulate(name, lo, games=3, seed=1, bots=["random"])
    assert len(rep.results) == 3 and all(r.error is None and r.summary for r in rep.results)
    assert len({tuple(r.summary["scores"]) for r in rep.results} | {r.decisions for r in rep.results}) >= 2
    tour = tournament(name, lo, ["random", "heuristic:samples=1:budget=4"], games=2, seed=3)
    out = tour.to_json()
    assert len(tour.results) == 2 and all(r.error is None for r in tour.results)
    assert out["game"] == name and len(out["bots"]) == 2


@pytest.mark.multiprocess  # (the command plays its games on a worker pool)
def test_the_simulate_command(name, tmp_path):
    from typer.testing import CliRunner

    from redtable.cli import app

    lo = registry.title(name).players[0]
    r = CliRunner().invoke(app, ["simulate", name, "-p", str(lo), "-n", "2", "-s", "3", "--json"])
    assert r.exit_code == 0, r.output
    assert f'"game": "{name}"' in r.output


def test_the_balance_analysis(name):
    from redtable.sim.analyze import analyze, collect, raw_rows

    t = registry.title(name)
    col = collect(name, [t.players[0]], games=3, seed=2, bots=["random"])
    numbers = analyze(col)
    games_rows, players_rows = raw_rows(col)
    assert numbers["games"]["finished"] == 3 and len(games_rows) == 3 and len(players_rows) == 3 * t.players[0]
    assert numbers["scores"]["rows"] and all(row in players_rows[0] for row in numbers["scores"]["rows"])


def test_the_pettingzoo_environment(name):
    from pettingzoo.test import api_test

    from redtable.envs.aec import RedTableAECEnv, wrap

    env_class = type("TitleEnv", (RedTableAECEnv,), {"game_name": name})
    env = wrap(env_class(players=registry.title(name).players[0], render_mode="ansi"))
    api_test(env, num_cycles=20)
    env.reset(seed=3)
    steps, masks = 0, set()
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        masks.add(obs["action_mask"].tobytes())
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
        steps += 1
    assert steps > 3 and len(masks) >= 2  # non-vacuity: a game, with different legal sets
    assert isinstance(env.render(), str)


def test_the_openspiel_game(name):
    if importlib.util.find_spec("pyspiel") is None:
        pytest.skip("pyspiel is not installed")
    import pyspiel

    from redtable.envs.openspiel import load

    game = load(name, players=registry.title(name).players[0])
    assert game.num_players() == registry.title(name).players[0]
    rng = Rng(5)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.below(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            assert legal
            state.apply_action(legal[rng.below(len(legal))])
            moves += 1
    assert moves > 3 and sum(state.returns()) == pytest.approx(1.0)
    if name == TOY.name:  # the whole OpenSpiel check, serialization included, where it is cheap
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_terminal_plays_it(name, tmp_path, monkeypatch):
    import typer
    from typer.testing import CliRunner

    from redtable.play import play_command

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    app = typer.Typer(add_completion=False)
    app.command()(play_command)
    lo = registry.title(name).players[0]
    r = CliRunner().invoke(app, [name, "--humans", "0", "--players", str(lo), "--seed", "3", "--no-autosave"])
    assert r.exit_code == 0, r.output
    assert "The game is over" in r.output and "Winner" in r.output


def test_a_person_plays_the_toy_in_the_terminal(tmp_path, monkeypatch):
    import typer
    from typer.testing import CliRunner

    from redtable.play import play_command

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    app = typer.Typer(add_completion=False)
    app.command()(play_command)
    r = CliRunner().invoke(app, [TOY.name, "--players", "2", "--seed", "3", "--no-autosave"], input="1\n" * 40)
    assert r.exit_code == 0, r.output
    assert "Your cards" in r.output and "The game is over" in r.output


@pytest.fixture(scope="module")
def served(tmp_path_factory, toy_registered):
    from srvkit import Api, Backend, start_server

    b = Backend("sqlite", tmp_path_factory.mktemp("srv"))
    srv = start_server(b)
    api = Api(srv.base)
    yield srv, api
    api.close()
    srv.stop()
    b.cleanup()


def test_the_server_plays_it(name, served):
    """Create, join, decide to the end through the HTTP API, then replay every step."""
    srv, api = served
    lo = registry.title(name).players[0]
    body = {"options": {"block_windows": False}} if name == "red-rising" else {}
    info, tokens = api.new_game(name, ("human",) * lo, seed=6, **body)
    gid = info["game_id"]
    rng = Rng(3)
    for _ in range(5000):
        s = api.state(gid)
        if s["status"] == "finished":
            break
        p = s["decision"]["player"]
        me = api.state(gid, tokens[p])
        assert me["view"] != s["view"]  # the seat sees more than a spectator
        options = me["decision"]["options"]
        r = api.decide(gid, tokens[p], options[rng.below(len(options))], me["version"])
        assert r.status_code == 200, r.text
    s = api.state(gid)
    assert s["status"] == "finished" and s["result"]
    n = s["step"]
    game = make_game(name, lo, **body.get("options", {}))
    actions = srv.call(lambda: list(srv.hub.games[gid].actions))
    state = game.new_initial_state(6)
    for step in sorted({0, n // 2, n}):
        while len(state.history) < step:
            state.apply(actions[len(state.history)])
        got = api.http.get(f"/api/games/{gid}/replay/{step}", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert got.status_code == 200, got.text
        assert got.json()["view"] == state.view(0) and got.json()["step"] == step
    assert n > 3 and state.is_terminal()
