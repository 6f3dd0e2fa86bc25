"""The bot registry: explicit entries, one-way imports, a new bot by one registration."""

import ast
from pathlib import Path

import pytest

from redtable.bots import BOTS, Bot, BotKind, RandomBot, bot_names, make_bot, register_bot
from redtable.bots.registry import parse_spec
from redtable.core import InvalidOptions

BOTS_DIR = Path(__file__).resolve().parents[2] / "redtable" / "bots"


def test_the_bots_are_registered_in_order():
    assert bot_names() == ("random", "heuristic", "ismcts", "expert", "policy")
    assert BOTS["ismcts"].takes_budget and not BOTS["heuristic"].takes_budget
    assert BOTS["heuristic"].options == ("samples", "budget", "opp_weight", "exact")


def test_base_imports_no_bot_and_no_bot_imports_the_registry():
    """base.py is the bottom of the bots package; registry.py the top."""

    def imported(name: str) -> set[str]:
        tree = ast.parse((BOTS_DIR / name).read_text(encoding="utf-8"))
        return {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}

    assert imported("base.py") == {"__future__", "abc", "core"}
    for name in (
        "random_bot.py",
        "heuristic.py",
        "ismcts.py",
        "expert.py",
        "learned_value.py",
        "evaluation.py",
        "common.py",
    ):
        assert "registry" not in imported(name), name


def test_a_new_bot_is_one_registration(monkeypatch):
    class FirstOption(Bot):
        name = "first"

        def choose(self, state):
            return state.decision().options[0]

    built = []

    def build(spec, seed, game):
        built.append((spec.name, spec.options, seed, game))
        return FirstOption()

    monkeypatch.setitem(BOTS, "first", BotKind("first", build, options=("samples",)))
    bot = make_bot("first:samples=3", seed=5, game="red-north")
    assert isinstance(bot, FirstOption)
    assert built == [("first", {"samples": 3}, 5, "red-north")]
    with pytest.raises(InvalidOptions, match="known bots: random, heuristic, ismcts, expert, policy, first"):
        make_bot("second")
    with pytest.raises(InvalidOptions, match="first takes the options samples"):
        make_bot("first:c=1")
    with pytest.raises(InvalidOptions, match="no search budget"):
        make_bot("first:1s")


def test_register_bot_checks_its_entry(monkeypatch):
    monkeypatch.setattr("redtable.bots.registry.BOTS", dict(BOTS))
    with pytest.raises(ValueError, match="unknown options"):
        register_bot(BotKind("odd", lambda s, seed, g: RandomBot(seed), options=("depth",)))
    for bad in ("Odd", "odd bot", "odd:1", ""):
        with pytest.raises(ValueError, match="lower case letters"):
            register_bot(BotKind(bad, lambda s, seed, g: RandomBot(seed)))


@pytest.mark.parametrize(
    "spec, message",
    [
        ("random:1s", "the random bot takes no budget or options"),
        ("heuristic:2s", "the heuristic bot takes no search budget"),
        ("ismcts:1s:samples=2", "ismcts takes the options c, playout, cutoff, horizon, exact, temperature, margin"),
        ("ismcts:1s:playout=smart", "playout must be 'cutoff', 'greedy' or 'random'"),
        ("ismcts:1s:depth=3", "options are key=value with key in c, playout"),
        ("ismcts:soon", "bad search budget 'soon'"),
    ],
)
def test_errors_name_what_is_wrong_and_what_is_allowed(spec, message):
    with pytest.raises(InvalidOptions, match=message):
        parse_spec(spec)


def test_parse_spec_keeps_the_budget_and_splits_evaluation_options():
    kind, spec = parse_spec(" ISMCTS:250ms:c=0.5:exact=1:margin=0.2 ")
    assert kind is BOTS["ismcts"] and spec.budget == "250ms"
    assert spec.split_eval_options() == ({"c": 0.5}, {"exact": True, "margin": 0.2})
