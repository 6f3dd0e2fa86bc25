"""The expert bot: hidden information, determinism, tree reuse, whole games, its shipped model."""

import json
import tomllib
from pathlib import Path

import pytest
from bot_helpers import GuardedState, play_game, random_positions

from redtable.bots import make_bot
from redtable.bots.expert import ExpertBot
from redtable.bots.learned_value import RR_FEATURES, LinearValue, learned, load_value, model_path
from redtable.core import InvalidOptions, Rng, make_game

ROOT = Path(__file__).resolve().parents[2]
CASES = [("red-rising", 4, 3), ("red-rising", 2, 4), ("red-north", 2, 5), ("red-north", 3, 6)]


def expert(**kw) -> ExpertBot:
    return ExpertBot(seed=7, iterations=kw.pop("iterations", 40), **kw)


@pytest.mark.parametrize("game_name, players, seed", CASES)
def test_choice_is_the_same_on_a_permuted_state(game_name, players, seed):
    """A function of the information set and the seed: re-dealing what the seat cannot see
    changes nothing (the search trees are identical, not only the choices)."""
    positions = random_positions(game_name, players, seed, count=6)
    assert len(positions) >= 4
    for i, st in enumerate(positions):
        seat = st.decision().player
        perm = st.resample(seat, Rng(1000 + i))
        assert perm.view(seat) == st.view(seat)
        trees = []
        for state in (st, perm):
            bot = expert()
            a = bot.choose(GuardedState(state, seat))
            tree = {k: (ch.n, round(ch.w, 9), ch.avail) for k, ch in bot.last_root.children.items()}
            trees.append((a, tree))
        assert trees[0] == trees[1], f"{game_name} position {i} ({st.decision().kind})"


def _own_follow_ups(game_name: str, players: int, seed: int, count: int):
    """Positions whose decider decides again right after (a compound effect, a Deployment)."""
    out = []
    for st in random_positions(game_name, players, seed, count=40):
        seat = st.decision().player
        nxt = st.clone()
        nxt.apply(st.decision().options[0])
        if nxt.decision() is not None and nxt.decision().player == seat and len(nxt.decision().options) > 1:
            out.append(st)
        if len(out) == count:
            break
    return out


@pytest.mark.parametrize("game_name, players, seed", [("red-rising", 2, 11), ("red-north", 2, 12)])
def test_tree_reuse_depends_on_the_information_set_only(game_name, players, seed):
    """Two decisions in a row by one seat: the second search starts from the first one's
    subtree when nothing hidden was revealed, and the same on a re-dealt state."""
    reused = 0
    for i, st in enumerate(_own_follow_ups(game_name, players, seed, 4)):
        seat = st.decision().player
        perm = st.resample(seat, Rng(77 + i))
        runs = []
        for state in (st, perm):
            bot = expert(iterations=60)
            a = bot.choose(GuardedState(state, seat))
            after = state.clone()
            after.apply(a)
            if after.decision() is None or after.decision().player != seat:
                runs.append((a, None, None))
                continue
            b = bot.choose(GuardedState(after, seat))
            runs.append((a, after.view(seat), (b, bot.last_reused)))
        (a1, v1, r1), (a2, v2, r2) = runs
        assert a1 == a2
        if v1 == v2:  # the same information set after the move (nothing hidden was drawn)
            assert r1 == r2
            reused += bool(r1 and r1[1])
    assert reused >= 1


def test_no_reuse_after_a_change_it_did_not_foresee():
    """A state that is not the one the bot's own move leads to starts a fresh tree."""
    st = _own_follow_ups("red-rising", 2, 11, 1)[0]
    seat = st.decision().player
    bot = expert(iterations=60)
    a = bot.choose(st)
    after = st.clone()
    after.apply(a)
    bot.choose(after)
    assert bot.last_reused > 0
    bot.choose(st)  # back to the earlier position: not what the remembered move leads to
    assert bot.last_reused == 0
    no_reuse = expert(iterations=60, reuse=0)
    no_reuse.choose(st)
    no_reuse.choose(after)
    assert no_reuse.last_reused == 0
    assert seat == st.decision().player


def test_deterministic_with_iterations_and_seed():
    def game(seed_offset: int) -> list[str]:
        bots = [make_bot("expert:30it", seed=3 + seed_offset), make_bot("expert:30it", seed=4)]
        return play_game("red-north", 2, bots, seed=9).history

    assert game(0) == game(0)
    assert game(0) != game(100)


@pytest.mark.parametrize(
    "game_name, players", [("red-rising", 2), ("red-rising", 4), ("red-north", 2), ("red-north", 4)]
)
def test_plays_whole_games(game_name, players):
    bots = [make_bot("expert:12it", seed=s) for s in range(players)]
    st = play_game(game_name, players, bots, seed=21)
    assert st.decision() is None and st.winners()


def test_the_spec_and_its_options():
    bot = make_bot("expert:0.5s:c=0.4:turns=2:leaf=learned:reuse=0")
    assert isinstance(bot, ExpertBot) and bot.seconds == 0.5 and bot.iterations is None
    assert (bot.c, bot.turns, bot.leaf, bot.reuse) == (0.4, 2, "learned", 0)
    assert make_bot("expert").iterations == 1000
    with pytest.raises(InvalidOptions, match="leaf must be"):
        make_bot("expert:leaf=deep")
    with pytest.raises(InvalidOptions, match="expert takes the options"):
        make_bot("expert:playout=random")


# ---------------------------------------------------------------------- the shipped model
@pytest.mark.parametrize("game_name", ["red-rising", "red-north"])
def test_the_model_loads_offline_from_the_package(game_name):
    path = model_path(game_name)
    assert path.is_file()
    assert Path(str(path)).resolve().is_relative_to((ROOT / "redtable").resolve())
    data = json.loads(path.read_text())
    spec = learned(game_name)
    assert spec is not None and data["features"] == list(spec.features)
    assert "python -m redtable.bots.train_value" in data["trained_by"]
    model = load_value(game_name)
    assert isinstance(model, LinearValue) and {2, 4} <= set(model.weights)
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["redtable"]
    assert "bots/models/*.json" in globs


def test_the_model_values_positions():
    """Win chances per seat that sum to one, and more for a seat that is clearly ahead."""
    model = load_value("red-rising")
    st = make_game("red-rising", 3).new_initial_state(5)
    u = model.utilities(st)
    assert len(u) == 3 and sum(u) == pytest.approx(1.0) and all(0 < x < 1 for x in u)
    ahead = st.clone()
    ahead.fleet[1], ahead.helium[1], ahead.influence[1] = 6, 5, 5
    assert model.utilities(ahead)[1] > u[1]


def test_evaluations_read_administrator_as_printed():
    """The heuristic evaluation and the learned model's card_points feature score
    Administrator for the least Influence on the Institute, the neutral house included."""
    from redtable.bots.eval_redrising import RREval
    from redtable.bots.learned_value import RRFeatures
    from redtable.redrising.testing import scenario

    def card_points(influence: list[int]) -> tuple[int, float]:
        st = scenario(2, hands={0: ["Administrator"], 1: ["Politician"]}, influence=influence)
        feature = RRFeatures()(st)[0][0][RR_FEATURES.index("card_points")]
        return RREval().card_points(st, 0, {}), feature

    assert card_points([2, 5]) == (30, 30.0)  # below Bob and the neutral house's 3
    assert card_points([3, 5]) == (30, 30.0)  # tied with the neutral house
    assert card_points([4, 5]) == (15, 15.0)  # the neutral house has less
    assert card_points([5, 1]) == (15, 15.0)


def test_a_model_file_of_other_features_is_refused():
    data = json.loads(model_path("red-rising").read_text())
    data["features"] = data["features"][:-1]
    with pytest.raises(ValueError, match="features"):
        LinearValue.from_json(data)


def test_tournaments_and_the_openspiel_adapter_give_it_their_budget():
    from redtable.sim.tournament import apply_budget

    assert apply_budget(["expert", "expert:100it", "expert:c=0.5"], "0.5s") == [
        "expert:0.5s",
        "expert:100it",
        "expert:0.5s:c=0.5",
    ]
    pytest.importorskip("pyspiel")
    import redtable.envs.openspiel as ros
    from redtable.envs.openspiel.bots import make_bot as openspiel_bot

    bot = openspiel_bot("expert", ros.load("red-north", players=2), seconds=0.25)
    assert isinstance(bot.bot, ExpertBot) and bot.bot.seconds == 0.25
