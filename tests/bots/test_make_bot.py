"""Bot specs: names, budgets, options, errors."""

import pytest

from redtable.bots import HeuristicBot, ISMCTSBot, RandomBot, make_bot, parse_budget
from redtable.core import InvalidOptions


def test_plain_names():
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("heuristic", seed=3), HeuristicBot)
    bot = make_bot("ismcts")
    assert isinstance(bot, ISMCTSBot) and bot.iterations == 1000 and bot.seconds is None
    assert isinstance(make_bot("ismcts", seed=1, game="red-north"), ISMCTSBot)


@pytest.mark.parametrize(
    "spec, iterations, seconds",
    [
        ("ismcts:2000it", 2000, None),
        ("ismcts:150", 150, None),
        ("ismcts:0.5s", None, 0.5),
        ("ismcts:1s", None, 1.0),
        ("ismcts:250ms", None, 0.25),
        (" ISMCTS:2s ", None, 2.0),
    ],
)
def test_ismcts_budgets(spec, iterations, seconds):
    bot = make_bot(spec)
    assert bot.iterations == iterations and bot.seconds == seconds


def test_tuning_options():
    bot = make_bot("ismcts:300it:c=0.5:playout=greedy:cutoff=4")
    assert (bot.iterations, bot.c, bot.playout, bot.cutoff) == (300, 0.5, "greedy", 4)
    bot = make_bot("ismcts:1s:horizon=32:temperature=20:margin=0.5:exact=1")
    assert bot.horizon == 32 and bot.eval_options == {"temperature": 20.0, "margin": 0.5, "exact": True}
    h = make_bot("heuristic:samples=3:budget=20:opp_weight=0.5")
    assert (h.samples, h.budget, h.opp_weight) == (3, 20, 0.5)


def test_parse_budget():
    assert parse_budget("10it") == (10, None)
    assert parse_budget("1.5s") == (None, 1.5)


@pytest.mark.parametrize(
    "spec",
    [
        "",
        "alphazero",
        "ismcts:fast",
        "ismcts:0it",
        "ismcts:1.5it",
        "ismcts:-1s",
        "ismcts:0s",
        "random:100it",
        "heuristic:1s",
        "ismcts:1s:c",
        "ismcts:1s:depth=3",
        "ismcts:1s:c=x",
        "ismcts:1s:playout=smart",
        "heuristic:c=0.5",
        "random:c=1",
        "heuristic:horizon=3",
    ],
)
def test_bad_specs_raise(spec):
    with pytest.raises(InvalidOptions):
        make_bot(spec)


def test_unknown_bot_message_lists_known_bots():
    with pytest.raises(InvalidOptions, match="random, heuristic, ismcts"):
        make_bot("minimax")


def test_unknown_game_for_evaluation():
    from redtable.bots.evaluation import evaluator_for

    with pytest.raises(InvalidOptions):
        evaluator_for("chess")
