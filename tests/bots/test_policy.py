"""The ``policy`` preset: a shipped numpy network, one forward pass a move, no torch."""

import sys

import pytest
from bot_helpers import GuardedState, random_positions

np = pytest.importorskip("numpy")

from redtable.bots import make_bot  # noqa: E402
from redtable.bots.policy import PolicyBot, PolicyNet, load_policy, masked_choice  # noqa: E402
from redtable.core import IllegalAction, InvalidOptions, Rng, make_game  # noqa: E402
from redtable.envs.actions import codec  # noqa: E402
from redtable.envs.observations import encoder  # noqa: E402

TITLES = {"red-north": (2, 3, 4), "red-rising": (2, 4)}


def play(game: str, players: int, specs: list[str], seed: int) -> tuple[list[str], list[int]]:
    """One whole game (``apply`` refuses anything not offered); its moves and winners."""
    st = make_game(game, players).new_initial_state(seed)
    bots = [make_bot(spec, seed=seed * 10 + s, game=game) for s, spec in enumerate(specs)]
    while (d := st.decision()) is not None:
        st.apply(bots[d.player].choose(st))
    return list(st.history), list(st.winners())


def test_the_preset_loads_and_plays_without_torch(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # any "import torch" now fails
    load_policy.cache_clear()
    try:
        for game in TITLES:
            net = load_policy(game)
            assert net.W1.dtype == np.float32 and net.inputs == encoder(game).size
            assert net.actions == codec(game).n
            assert net.meta["game"] == game and net.meta["teacher"].startswith("expert")
            moves, winners = play(game, 2, ["policy", "random"], seed=3)
            assert moves and winners
    finally:
        load_policy.cache_clear()


@pytest.mark.parametrize("game", sorted(TITLES))
def test_whole_games_are_legal_at_every_table_size(game):
    for players in TITLES[game]:
        specs = ["policy"] + ["random"] * (players - 1)
        for seed in range(2):
            moves, winners = play(game, players, specs[seed % players :] + specs[: seed % players], seed)
            assert len(moves) > 20 and winners


@pytest.mark.parametrize("game", sorted(TITLES))
def test_the_same_seed_plays_the_same_game(game):
    a = play(game, 2, ["policy", "policy:temperature=1"], seed=11)
    b = play(game, 2, ["policy", "policy:temperature=1"], seed=11)
    assert a == b
    # the greedy preset does not depend on the seed at all; the sampling one does
    greedy = [play(game, 2, ["policy", "policy"], seed=s)[0] for s in (5, 5)]
    assert greedy[0] == greedy[1]


def test_sampling_depends_on_the_seed():
    st = make_game("red-north", 2).new_initial_state(1)
    picks = set()
    for seed in range(40):
        bot = PolicyBot(seed=seed, game="red-north", temperature=5.0)
        picks.add(bot.choose(st))
    assert len(picks) > 1 and picks <= set(st.decision().options)


def test_the_greedy_move_is_the_best_legal_score():
    st = make_game("red-rising", 2).new_initial_state(4)
    d = st.decision()
    net = load_policy("red-rising")
    x = encoder("red-rising").encode(st.view(d.player))  # the reference encoder: the same vector
    scores = net.scores(x)
    cd = codec("red-rising")
    best = max(d.options, key=lambda o: (scores[cd.index[o]], -cd.index[o]))
    assert PolicyBot(game="red-rising").choose(st) == best


@pytest.mark.parametrize("game, players", [("red-north", 2), ("red-rising", 2), ("red-north", 3), ("red-rising", 4)])
def test_it_reads_only_the_view_and_hidden_cards_do_not_change_its_move(game, players):
    """Through GuardedState (decision() and its own seat's view only): the same move on the
    real state and on one whose hidden cards were re-dealt."""
    for i, st in enumerate(random_positions(game, players, 40 + players, count=6)):
        seat = st.decision().player
        perm = st.resample(seat, Rng(500 + i))
        for spec in ("policy", "policy:temperature=1"):
            a = make_bot(spec, seed=9, game=game).choose(GuardedState(st, seat))
            b = make_bot(spec, seed=9, game=game).choose(GuardedState(perm, seat))
            assert a == b and a in st.decision().options


def test_masked_choice_never_leaves_the_legal_set():
    scores = np.array([9.0, 1.0, 1.0, 5.0, 9.0], np.float32)
    legal = np.array([1, 2, 3])
    assert masked_choice(scores, legal, 0.0, None) == 2  # index 3 within legal: the best legal score
    assert masked_choice(np.zeros(5, np.float32), legal, 0.0, None) == 0  # the first among equals
    rng = Rng(0)
    seen = {masked_choice(scores, legal, 3.0, rng) for _ in range(200)}
    assert seen == {0, 1, 2}


def test_save_and_load_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    params = {
        "W1": rng.normal(size=(6, 3)).astype(np.float32),
        "b1": np.zeros(3, np.float32),
        "W2": rng.normal(size=(3, 4)).astype(np.float32),
        "b2": np.ones(4, np.float32),
    }
    net = PolicyNet(params, {"game": "toy"})
    net.save(tmp_path / "p.npz")
    back = PolicyNet.load(tmp_path / "p.npz")
    assert back.meta == {"game": "toy"}
    assert np.array_equal(back.W2, params["W2"].astype(np.float16).astype(np.float32))  # shipped as float16
    with pytest.raises(ValueError):
        PolicyNet({**params, "b2": np.ones(5, np.float32)})


def test_specs():
    assert isinstance(make_bot("policy"), PolicyBot)
    assert make_bot("policy:temperature=0.5", seed=3).temperature == 0.5
    for bad in ("policy:1s", "policy:c=1", "policy:temperature=x"):
        with pytest.raises(InvalidOptions):
            make_bot(bad)
    with pytest.raises(ValueError):
        PolicyBot(temperature=-1.0)


def test_a_network_of_the_wrong_size_is_refused():
    net = load_policy("red-north")
    st = make_game("red-rising", 2).new_initial_state(0)
    with pytest.raises(ValueError, match="does not fit"):
        PolicyBot(net=net).choose(st)
    with pytest.raises(IllegalAction):
        st.apply("not-a-move")


@pytest.mark.slow
def test_the_quick_training_command_runs_end_to_end(tmp_path):
    from redtable.bots.train_policy import main

    out = tmp_path / "p.npz"
    main(["red-north", "--quick", "--out", str(out), "--teacher", "expert:5it"])
    net = PolicyNet.load(out)
    assert net.meta["kept"] in ("rl", "imitation") and net.meta["teacher"] == "expert:5it"
    assert net.meta["held_examples"] > 0 and 0.0 <= net.meta["held_agreement"] <= 1.0
    bot = PolicyBot(net=net, game="red-north")
    st = make_game("red-north", 2).new_initial_state(2)
    while (d := st.decision()) is not None:
        st.apply(bot.choose(st) if d.player == 0 else d.options[0])
    assert st.is_terminal()
