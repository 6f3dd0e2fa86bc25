"""The OpenSpiel adapter: OpenSpiel's own API checks, information states, re-deals,
serialization, parameters, and OpenSpiel's bots and redtable's bots playing on it."""

import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts as os_ismcts  # noqa: E402
from open_spiel.python.algorithms import mcts as os_mcts  # noqa: E402

import redtable.envs.openspiel as ros  # noqa: E402
from redtable.core import GameRecord, make_game, replay  # noqa: E402
from redtable.envs import codec  # noqa: E402
from redtable.envs.openspiel import bots as osbots  # noqa: E402

COUNTS = [("red-rising", n) for n in range(2, 7)] + [("red-north", n) for n in range(2, 5)]
SAMPLER = pyspiel.UniformProbabilitySampler(0.0, 1.0)


def random_walk(state, rng: random.Random, steps: int):
    """Apply up to ``steps`` random actions (chance included)."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.randrange(256))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


# ------------------------------------------------------------------ OpenSpiel's own checks
@pytest.mark.parametrize("name,players", COUNTS)
def test_random_sim_test_with_serialization(name, players):
    game = ros.load(name, players=players)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "short,params",
    [
        ("python_red_rising", {"players": 3, "multiplayer_variant": True, "block_windows": True}),
        ("python_red_north", {"players": 3, "outpost_points": 2, "outpost_points_by_colour": "green:4; purple:0"}),
    ],
)
def test_random_sim_test_with_game_options(short, params):
    game = pyspiel.load_game(short, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    options = game.spec.core_game.options()
    if short == "python_red_rising":
        assert options["multiplayer_variant"] and options["block_windows"]
    else:
        assert options["outpost_points"] == {"green": 4, "red": 2, "blue": 2, "purple": 0, "yellow": 2}


def test_game_type_and_sizes():
    rr = pyspiel.load_game("python_red_rising")
    rn = pyspiel.load_game("python_red_north(players=3)")
    assert rr.num_players() == 4 and rn.num_players() == 3
    t = rr.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM and rr.utility_sum() == 1.0
    assert (t.min_num_players, t.max_num_players) == (2, 6)
    assert rn.get_type().max_num_players == 4
    assert rr.num_distinct_actions() == len(codec("red-rising")) == 602
    assert rn.num_distinct_actions() == len(codec("red-north")) == 179
    assert rr.max_chance_outcomes() == 256
    assert rr.observation_tensor_size() == 1744 and rn.observation_tensor_size() == 1071
    assert rr.information_state_tensor_size() == 1744 + 6 + 602
    assert rn.information_state_tensor_size() == 1071 + 4 + 179
    assert rr.max_game_length() == 3000 and rn.max_game_length() == 1000
    assert (rr.min_utility(), rr.max_utility()) == (0.0, 1.0)


# ------------------------------------------------------------------ parameters
@pytest.mark.parametrize(
    "short,params,words",
    [
        ("python_red_rising", {"players": 7}, ["'players'", "from 2 to 6", "7"]),
        ("python_red_north", {"players": 1}, ["'players'", "from 2 to 4"]),
        ("python_red_rising", {"player": 3}, ["unknown parameter 'player'", "players", "block_windows"]),
        ("python_red_rising", {"block_windows": 1}, ["'block_windows'", "bool", "1"]),
        ("python_red_north", {"outpost_points": 12}, ["outpost_points", "12"]),
        (
            "python_red_north",
            {"outpost_points_by_colour": "green=2"},
            ["outpost_points_by_colour", "green:2;red:3", "'green=2'"],
        ),
        ("python_red_north", {"outpost_points_by_colour": "pink=2"}, ["colours from green, red"]),
        ("python_red_rising", {"max_game_length": 0}, ["max_game_length", "positive"]),
    ],
)
def test_bad_parameters_name_the_parameter(short, params, words):
    with pytest.raises(ValueError) as e:
        ros.GAMES[short](params)
    for w in words:
        assert w in str(e.value)


def test_load_game_reports_bad_parameters():
    with pytest.raises(ValueError, match="'players' of python_red_rising must be from 2 to 6, got 7"):
        pyspiel.load_game("python_red_rising", {"players": 7})
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'.*max_game_length"):
        pyspiel.load_game("python_red_north", {"colour": 1})


def test_load_by_redtable_name():
    assert ros.load("red-north", players=4).num_players() == 4
    with pytest.raises(ValueError, match="known games: red-rising, red-north"):
        ros.load("red-norht")


# ------------------------------------------------------------------ the deal, actions, returns
@pytest.mark.parametrize("name,players", [("red-rising", 4), ("red-north", 3)])
def test_deal_is_the_redtable_game_with_that_seed(name, players):
    game = ros.load(name, players=players)
    state = game.new_initial_state()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    assert state.chance_outcomes() == [(b, 1 / 256) for b in range(256)]
    assert state.information_state_string(0) == "dealing: 0 of 8 seed bytes drawn"
    seed = 0xDEADBEEF12345
    state = ros.deal(game, seed)
    assert state.seed() == seed and state.history() == ros.seed_bytes(seed)
    assert state.history()[:3] == [0x45, 0x23, 0xF1]  # little-endian
    engine = make_game(name, players).new_initial_state(seed)
    for p in range(players):
        assert state.redtable_state().view(p) == engine.view(p)
    with pytest.raises(ValueError, match="not a chance node"):
        state.chance_outcomes()
    # play to the end: the record replays in redtable with the same result
    rng = random.Random(1)
    random_walk(state, rng, 10_000)
    assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
    rec = ros.record(state)
    assert rec.seed == seed and rec.actions == state.redtable_state().history
    again = replay(GameRecord.from_json(rec.to_json()))
    assert again.scores() == state.redtable_state().scores()
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0)
    winners = state.redtable_state().winners()
    assert returns == [1 / len(winners) if p in winners else 0.0 for p in range(players)]


def test_legal_actions_are_the_sorted_codec_ids_of_the_options():
    game = ros.load("red-rising", players=3)
    state = ros.deal(game, 3)
    rng = random.Random(2)
    c = codec("red-rising")
    for _ in range(60):
        d = state.redtable_state().decision()
        legal = state.legal_actions()
        assert legal == sorted(c.encode(o) for o in d.options)
        assert [state.action_to_string(a) for a in legal] == [c.decode(a) for a in legal]
        for other in range(3):
            if other != d.player:
                assert state.legal_actions(other) == []
        mask = state.legal_actions_mask()
        assert len(mask) == 602 and sum(mask) == len(legal)
        state.apply_action(rng.choice(legal))


def test_illegal_action_is_refused_with_the_options_named():
    game = ros.load("red-north", players=2)
    state = ros.deal(game, 1)
    legal = state.legal_actions()
    bad = next(a for a in range(179) if a not in legal)
    before = str(state)
    with pytest.raises(Exception) as e:
        state.apply_action(bad)
    assert "illegal action" in str(e.value) and str(legal) in str(e.value)
    assert str(state) == before and state.decisions() == 0
    with pytest.raises(Exception, match="out of range 0..178"):
        state.apply_action(500)
    with pytest.raises(Exception, match="byte 0-255"):
        game.new_initial_state().apply_action(300)


def test_max_game_length_stops_the_game_as_a_shared_result():
    game = pyspiel.load_game("python_red_rising", {"players": 3, "max_game_length": 25})
    state = random_walk(ros.deal(game, 4), random.Random(0), 10_000)
    assert state.is_terminal() and state.decisions() == 25
    assert state.redtable_state().decision() is not None  # the engine would go on
    assert state.returns() == pytest.approx([1 / 3] * 3)
    assert state.legal_actions() == [] and "stopped at max_game_length=25" in str(state)
    with pytest.raises(Exception, match="game is over"):
        state.apply_action(0)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


# ------------------------------------------------------------------ information states
@pytest.mark.parametrize("name,players", COUNTS)
def test_resample_keeps_the_information_state(name, players):
    """OpenSpiel's ResampleInfostateTest (which pyspiel does not expose to Python): at every
    decision of a random game, a re-deal for each seat has the same information-state
    string and tensor for that seat and the same current player; and the re-deals do
    change what the seat cannot see."""
    game = ros.load(name, players=players)
    rng = random.Random(players)
    state = ros.deal(game, 10 + players)
    changed = 0
    while not state.is_terminal():
        for p in range(players):
            other = state.resample_from_infostate(p, SAMPLER)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.current_player() == state.current_player()
            assert other.legal_actions(p) == state.legal_actions(p)
            q = (p + 1) % players
            changed += other.redtable_state().view(q) != state.redtable_state().view(q)
        state.apply_action(rng.choice(state.legal_actions()))
    assert changed > 0


def test_resample_before_the_deal_redraws_the_unseen_seed_bytes():
    game = ros.load("red-north")
    state = game.new_initial_state()
    for b in (1, 2, 3):
        state.apply_action(b)
    seen = set()
    for _ in range(5):
        other = state.resample_from_infostate(1, SAMPLER)
        assert other.is_chance_node() and other.history() == [1, 2, 3]
        assert other.information_state_string(1) == state.information_state_string(1)
        seen.add(other.core.drawn[0])
    assert len(seen) > 1
    with pytest.raises(ValueError, match="seat from 0 to 1"):
        state.resample_from_infostate(2, SAMPLER)
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        ros.deal(game, 1).resample_from_infostate(0, lambda: 1.5)


def test_a_face_down_deploy_is_hidden_from_the_opponent_only():
    """Red North: p0 deploys a card face down. Two deals that differ only in which card
    (same seed, different choice) are different information states for p0 and the same
    one for p1, string and tensor."""
    game = ros.load("red-north", players=2)
    base = ros.deal(game, 8)
    assert base.current_player() == 0
    legal = base.legal_actions()
    a, b = base.child(legal[0]), base.child(legal[1])
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.information_state_tensor(0) != b.information_state_tensor(0)
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.information_state_tensor(1) == b.information_state_tensor(1)
    assert a.observation_string(1) == b.observation_string(1)
    assert str(a) != str(b)  # the state itself differs


def test_information_state_does_not_depend_on_when_it_is_asked():
    """The history digest is chained per step: asking at every step or only at the end
    gives the same string, and every step of a game is a new information state."""
    game = ros.load("red-rising", players=2)
    rng = random.Random(5)
    asked, quiet = ros.deal(game, 21), ros.deal(game, 21)
    strings = set()
    for _ in range(80):
        p = asked.current_player()
        strings.add(asked.information_state_string(p))
        a = rng.choice(asked.legal_actions())
        asked.apply_action(a)
        quiet.apply_action(a)
    for p in range(2):
        assert asked.information_state_string(p) == quiet.information_state_string(p)
    assert len(strings) == 80  # every step is a new information state


def test_information_state_string_shows_the_seat_view_and_history_digest():
    game = ros.load("red-rising", players=3)
    state = ros.deal(game, 2)
    p = state.current_player()
    head, _, body = state.information_state_string(p).partition("\n")
    assert head.startswith(f"seat {p}, decision 0, history ") and len(head.split()[-1]) == 32
    assert body == state.observation_string(p)
    hand = state.redtable_state().view(p)["players"][p]["hand"]
    assert hand and all(c["card"] in body for c in hand)
    other = (p + 1) % 3
    for c in state.redtable_state().view(other)["players"][other]["hand"]:
        assert f'"{c["card"]}"' not in body


def test_public_observer_and_unsupported_observation_types():
    from open_spiel.python.observation import make_observation

    game = ros.load("red-rising", players=3)
    state = ros.deal(game, 6)
    public = make_observation(
        game,
        pyspiel.IIGObservationType(perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE),
    )
    public.set_from(state, 0)
    text = public.string_from(state, 0)
    assert text == public.string_from(state, 2)  # the same for every seat
    assert '"you":null' in text and '"hand":' not in text
    assert public.tensor.shape == (1744,) and set(public.dict) >= {"me", "cards", "decision"}
    recall = make_observation(
        game,
        pyspiel.IIGObservationType(perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE),
    )
    assert recall.string_from(state, 1).startswith("public, decision 0, history ")
    assert "own_actions" not in recall.dict and recall.tensor.shape == (1744 + 6,)
    for bad, words in [
        (
            pyspiel.IIGObservationType(
                perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
            ),
            "whole state",
        ),
        (
            pyspiel.IIGObservationType(
                perfect_recall=False, public_info=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
            ),
            "public_info=True",
        ),
    ]:
        with pytest.raises(ValueError, match=words):
            game.make_py_observer(bad, None)
    with pytest.raises(ValueError, match="not supported"):
        game.make_py_observer(None, {"x": 1})
    with pytest.raises(ValueError, match="seat from 0 to 2"):
        public.string_from(state, 3)


def test_tensors_are_the_environment_encodings_plus_history_counts():
    from redtable.envs import encoder

    game = ros.load("red-north", players=2)
    state = ros.deal(game, 3)
    rng = random.Random(0)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    es = state.redtable_state()
    for p in range(2):
        obs = np.asarray(state.observation_tensor(p), np.float32)
        assert np.array_equal(obs, encoder("red-north").encode(es.view(p)))
        info = np.asarray(state.information_state_tensor(p), np.float32)
        assert np.array_equal(info[:1071], obs)
        decisions = info[1071:1075]
        mine = [a for a, (q, _) in zip(es.history, state.core.movers, strict=True) if q == p]
        assert decisions[p] == pytest.approx(len(mine) / 100)
        own = info[1075:]
        c = codec("red-north")
        for a in set(mine):
            assert own[c.encode(a)] == pytest.approx(min(mine.count(a) * 0.25, 1.0))
        assert own.sum() == pytest.approx(sum(min(mine.count(a) * 0.25, 1.0) for a in set(mine)))
    assert not any(game.new_initial_state().observation_tensor(0))


# ------------------------------------------------------------------ clone and serialization
def test_clone_is_independent_and_cheap_to_make():
    game = ros.load("red-rising", players=4)
    state = random_walk(ros.deal(game, 9), random.Random(3), 30)
    copy = state.clone()
    assert str(copy) == str(state) and copy.history() == state.history()
    assert copy.redtable_state() is not state.redtable_state()
    copy.apply_action(copy.legal_actions()[0])
    assert copy.decisions() == state.decisions() + 1 and str(copy) != str(state)
    assert len(state.redtable_state().history) == state.decisions()


@pytest.mark.parametrize("walk", [3, 8 + 40])
def test_serialize_round_trip_and_the_game_goes_on_identically(walk):
    game = ros.load("red-rising", players=3, block_windows=True)
    state = random_walk(game.new_initial_state(), random.Random(walk), walk)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state)
    assert state2.history() == state.history()
    state3 = game.deserialize_state(state.serialize())
    assert str(state3) == str(state)
    rng1, rng2 = random.Random(0), random.Random(0)
    random_walk(state, rng1, 10_000)
    random_walk(state3, rng2, 10_000)
    assert str(state3) == str(state) and state3.returns() == state.returns()


def test_serialization_is_the_recipe_not_the_engine_state():
    game = ros.load("red-north", players=2)
    state = random_walk(ros.deal(game, 77), random.Random(1), 10)
    recipe = state.core.__reduce__()[1]
    assert recipe[0] == "python_red_north" and recipe[3] == 77
    assert recipe[4] == state.redtable_state().history and recipe[5] == ()
    assert len(state.serialize()) < 2000
    assert pickle.loads(pickle.dumps(state.core)).es.view(0) == state.redtable_state().view(0)


@pytest.mark.parametrize("name,players", [("red-rising", 4), ("red-north", 3)])
def test_a_resampled_state_serializes_and_plays_on_identically(name, players):
    game = ros.load(name, players=players)
    rng = random.Random(4)
    state = random_walk(ros.deal(game, 31), rng, 20)
    p = state.current_player()
    world = state.resample_from_infostate(p, SAMPLER)
    random_walk(world, rng, 5)
    if not world.is_terminal():
        world = world.resample_from_infostate(world.current_player(), SAMPLER)  # a re-deal of a re-deal
    copy = game.deserialize_state(world.serialize())
    assert str(copy) == str(world) and "re-dealt for seat" in str(copy)
    for q in range(players):
        assert copy.information_state_string(q) == world.information_state_string(q)
    random_walk(world, random.Random(9), 10_000)
    random_walk(copy, random.Random(9), 10_000)
    assert str(copy) == str(world) and copy.returns() == world.returns()
    with pytest.raises(ValueError, match="re-dealt state"):
        ros.record(world)


# ------------------------------------------------------------------ OpenSpiel's ISMCTS and MCTS
@pytest.mark.parametrize("name,players", [("red-rising", 3), ("red-north", 2)])
def test_openspiel_ismcts_plays_from_the_information_state(name, players):
    """OpenSpiel's own ISMCTSBot runs on the games (it asserts that every re-deal has the
    root's information state) and picks legal actions."""
    game = ros.load(name, players=players)
    rs = np.random.RandomState(0)
    bot = os_ismcts.ISMCTSBot(game, os_mcts.RandomRolloutEvaluator(1, rs), 0.7, max_simulations=15, random_state=rs)
    state = ros.deal(game, 5)
    for _ in range(6):
        if len(state.legal_actions()) > 1:
            action = bot.step(state)
            assert action in state.legal_actions()
            assert bot._root_node.total_visits == 14
        else:
            action = state.legal_actions()[0]
        state.apply_action(action)


def test_timed_bots_stop_at_their_deadline():
    game = ros.load("red-rising", players=2)
    state = ros.deal(game, 12)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    import time

    for bot in (
        osbots.TimedISMCTSBot(game, 0.05, random_state=np.random.RandomState(1)),
        osbots.DeterminizedBot(osbots.TimedMCTSBot(game, 0.05, random_state=np.random.RandomState(1))),
    ):
        t = time.perf_counter()
        action = bot.step(state)
        took = time.perf_counter() - t
        assert action in state.legal_actions()
        assert 0.05 <= took < 1.0 and bot.last_simulations >= 2
    slow = osbots.TimedISMCTSBot(game, 1e-9, random_state=np.random.RandomState(1))
    assert slow.step(state) in state.legal_actions() and slow.last_simulations == 2
    with pytest.raises(ValueError, match="positive number of seconds"):
        osbots.TimedMCTSBot(game, 0)


def test_determinized_mcts_decides_from_the_information_state_only():
    """The same seat in two states it cannot tell apart (the real one and a re-deal) gets
    the same move from a seeded DeterminizedBot: it never reads the hidden cards."""
    game = ros.load("red-north", players=2)
    state = random_walk(ros.deal(game, 2), random.Random(2), 9)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    p = state.current_player()
    twin = state.resample_from_infostate(p, SAMPLER)

    def bot():
        rs = np.random.RandomState(3)
        return osbots.DeterminizedBot(
            os_mcts.MCTSBot(game, 0.7, 40, os_mcts.RandomRolloutEvaluator(1, rs), random_state=rs), seed=4
        )

    assert bot().step(state) == bot().step(twin)


def test_redtable_bots_play_through_the_adapter():
    game = ros.load("red-north", players=2)
    bots = [osbots.make_bot("heuristic", game, seed=1), osbots.make_bot("ismcts:200it", game, seed=2)]
    result = osbots.play_game(game, bots, seed=3)
    assert sum(result.returns) == pytest.approx(1.0) and result.winners
    assert all(d > 0 for d in result.decisions) and result.simulations[1] >= 200 * result.decisions[1]
    assert len(result.scores) == 2 and max(result.scores) > 0
    with pytest.raises(ValueError, match="one bot per seat"):
        osbots.play_game(game, bots[:1], seed=0)


def test_make_bot_specs():
    game = ros.load("red-rising", players=2)
    assert isinstance(osbots.make_bot("openspiel:ismcts", game, seconds=0.2), osbots.TimedISMCTSBot)
    det = osbots.make_bot("openspiel:mcts", game)
    assert isinstance(det, osbots.DeterminizedBot) and isinstance(det.inner, osbots.TimedMCTSBot)
    assert type(osbots.make_bot("openspiel:mcts-omniscient", game)) is osbots.TimedMCTSBot
    timed = osbots.make_bot("ismcts", game, seconds=0.25)
    assert timed.bot.seconds == 0.25 and timed.bot.iterations is None
    tuned = osbots.make_bot("ismcts:c=0.5", game, seconds=0.3)
    assert tuned.bot.seconds == 0.3 and tuned.bot.c == 0.5
    assert osbots.make_bot("ismcts:300it", game).bot.iterations == 300
    for bad, words in [
        ("openspiel:cfr", "known: openspiel:ismcts"),
        ("alphazero", "unknown bot"),
        ("", "bad bot spec"),
    ]:
        with pytest.raises(ValueError, match=words):
            osbots.make_bot(bad, game)
    with pytest.raises(ValueError, match="seconds"):
        osbots.make_bot("openspiel:ismcts", game, seconds=-1)


def test_openspiel_ismcts_beats_random_play():
    """A smoke test of strength, deterministic (a seeded search of 20 simulations, its
    re-deals drawn from the bot's generator):
    OpenSpiel's ISMCTS through the adapter beats a random opponent in most of a few Red
    North games (the bench measures strength properly)."""
    game = ros.load("red-north", players=2)
    share = 0.0
    for seed in range(4):
        seat = seed % 2
        rs = np.random.RandomState(seed)
        bot = os_ismcts.ISMCTSBot(game, os_mcts.RandomRolloutEvaluator(1, rs), 0.7, 20, random_state=rs)
        bot.set_resampler(lambda state, player, rs=rs: state.resample_from_infostate(player, rs.uniform))
        bots = [None, None]
        bots[seat] = bot
        bots[1 - seat] = osbots.make_bot("random", game, seed=seed)
        share += osbots.play_game(game, bots, seed).returns[seat]
    assert share >= 3


def test_the_example_plays_a_game_and_saves_its_record(tmp_path, capsys):
    import runpy
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "openspiel_play.py"
    main = runpy.run_path(str(example))["main"]
    out = tmp_path / "game.json"
    assert (
        main(["--bots", "openspiel:mcts,ismcts", "--seconds", "0.005", "--seed", "3", "--quiet", "--save", str(out)])
        == 0
    )
    text = capsys.readouterr().out
    assert "Red North, 2 players, seed 3: scores" in text and "winners ['p" in text
    rec = GameRecord.load(out)
    assert rec.seed == 3 and replay(rec).is_terminal()
    with pytest.raises(SystemExit):
        main(["--bots", "openspiel:alphazero"])
    assert "unknown OpenSpiel bot" in capsys.readouterr().err
