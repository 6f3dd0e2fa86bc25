"""Every bot plays whole games of both games, at every player count, with legal actions only,
reading the real state only through decision(), view(own seat) and resample(own seat)."""

import pytest
from bot_helpers import play_game

from redtable.bots import make_bot

LINEUP = ["ismcts:10it:horizon=12", "heuristic:samples=1:budget=12", "random"]


@pytest.mark.parametrize(
    "game_name, players",
    [
        ("red-rising", 2),
        ("red-rising", 3),
        ("red-rising", 4),
        ("red-rising", 5),
        ("red-rising", 6),
        ("red-north", 2),
        ("red-north", 3),
        ("red-north", 4),
    ],
)
def test_all_bots_finish_games(game_name, players):
    bots = [make_bot(LINEUP[(i + players) % 3], seed=i) for i in range(players)]
    st = play_game(game_name, players, bots, seed=players)
    assert st.is_terminal()
    assert st.winners()
    assert len(st.scores()) == players


@pytest.mark.parametrize("game_name", ["red-rising", "red-north"])
def test_default_heuristic_and_ismcts_finish_a_game(game_name):
    bots = [make_bot("heuristic", seed=1), make_bot("ismcts:15it", seed=2)]
    st = play_game(game_name, 2, bots, seed=11)
    assert st.is_terminal()


@pytest.mark.parametrize("playout", ["cutoff", "greedy", "random", "random:horizon=12"])
def test_every_playout_finishes_a_game(playout):
    bots = [make_bot(f"ismcts:10it:playout={playout}", seed=1), make_bot("random", seed=2)]
    for game_name in ("red-north", "red-rising"):
        assert play_game(game_name, 2, bots, seed=5).is_terminal()


def test_bots_answer_blocks_and_end_of_game_choices():
    """Decisions asked of a player outside their own turn reach the bot of that seat."""
    from redtable.core import make_game

    kinds = {}
    for seed in range(40):
        st = make_game("red-rising", 4).new_initial_state(seed)
        bots = [make_bot("heuristic:samples=1:budget=8", seed=i) for i in range(4)]
        while st.decision() is not None:
            d = st.decision()
            kinds.setdefault(d.kind, 0)
            kinds[d.kind] += 1
            st.apply(bots[d.player].choose(st))
        if {"end_of_game_order", "block"} <= set(kinds) or {"end_of_game_order", "block_sovereign"} <= set(kinds):
            break
    assert "end_of_game_order" in kinds
    assert "block" in kinds or "block_sovereign" in kinds


def test_bots_play_red_north_deployment_and_outpost_powers():
    from redtable.core import make_game

    kinds = set()
    for seed in range(10):
        st = make_game("red-north", 3).new_initial_state(seed)
        bots = [make_bot("heuristic:samples=2", seed=i) for i in range(3)]
        while st.decision() is not None:
            d = st.decision()
            kinds.add(d.kind)
            st.apply(bots[d.player].choose(st))
        if {"deploy", "turn", "reinforce"} <= kinds and kinds & {"angleland", "sax"}:
            break
    assert {"deploy", "turn", "reinforce"} <= kinds
    assert kinds & {"angleland", "sax"}
