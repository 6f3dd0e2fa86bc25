"""Abilities are declared once each, per family, as typed data, and compiled in one explicit
order into the frozen rules value the game plays by (ability_table.py, rules.py)."""

import ast
import pickle
import subprocess
import sys
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

from redtable.redrising import abilities, abilities_gold, abilities_highcaste, abilities_lowcaste
from redtable.redrising.ability_table import AbilityTable, BlocksStealBanish, Deploy, card, merge
from redtable.redrising.game import RedRising
from redtable.redrising.rules import BLOCK_SOVEREIGN, BLOCK_STEAL_BANISH, DEPLOY, END_OF_GAME, RULES, build_rules

RR = Path(__file__).resolve().parents[2] / "redtable" / "redrising"


def test_families_import_the_table_never_abilities():
    for name in ("abilities_gold.py", "abilities_highcaste.py", "abilities_lowcaste.py", "ability_table.py"):
        tree = ast.parse((RR / name).read_text(encoding="utf-8"))
        modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert "abilities" not in modules, name


def test_the_rules_are_compiled_in_an_explicit_order_and_complete():
    assert abilities.FAMILIES == (
        abilities.SHARED,
        abilities_gold.ABILITIES,
        abilities_highcaste.ABILITIES,
        abilities_lowcaste.ABILITIES,
    )
    assert RULES.families == ("abilities", "abilities_gold", "abilities_highcaste", "abilities_lowcaste")
    merged = merge(*abilities.FAMILIES)
    assert merged["deploy"] == DEPLOY and merged["end_of_game"] == END_OF_GAME
    assert merged["block_sovereign"] == BLOCK_SOVEREIGN
    assert BLOCK_STEAL_BANISH == {card("judge"), card("pax-au-telemanus"), card("the-howlers")}
    assert DEPLOY[card("cassius")] == abilities_gold.ABILITIES.deploys[card("cassius")]
    assert len(DEPLOY) == 107 and len(END_OF_GAME) == 11
    assert RedRising(2).rules is RULES


def test_every_ability_is_declared_once():
    """Boneriders, The Jackal, Cassius and Lawyer were declared twice (the shared table and
    their family's); now every (kind, card) has one declaration in all the families."""
    seen: dict[tuple[str, int], str] = {}
    for t in abilities.FAMILIES:
        for d in t.declarations:
            key = (d.kind, d.card)
            assert key not in seen, f"{d.kind} of card {d.card} declared in {seen[key]} and {t.family}"
            seen[key] = t.family
    assert len([k for k in seen if k[0] == "deploy"]) == 107


def test_the_rules_value_is_frozen():
    with pytest.raises(FrozenInstanceError):
        RULES.deploy = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        RULES.deploy[card("lawyer")] = ("influence", 2)  # type: ignore[index]
    assert isinstance(RULES.block_steal_banish, frozenset)
    assert pickle.loads(pickle.dumps(RULES)) is RULES
    assert pickle.loads(pickle.dumps(RedRising(3))).rules is RULES


def test_another_rules_value_is_played_by_the_game_that_has_it():
    """Rules are a value: a game made with other rules plays by them, the default game does not change."""
    extra = AbilityTable("test")
    extra.deploy("lawyer", ("influence", 2), override=True)
    rules = build_rules(*abilities.FAMILIES, extra)
    assert rules.deploy[card("lawyer")] == ("influence", 2) and DEPLOY[card("lawyer")] == ("influence", 1)
    assert RedRising(2, rules=rules).rules is rules and RedRising(2).rules is RULES
    copy = pickle.loads(pickle.dumps(rules))
    assert copy == rules and copy is not rules


@pytest.mark.multiprocess
def test_a_family_imported_first_gives_the_same_tables():
    """Whichever module comes first, the rules value and its ordered tables are the same."""
    code = (
        "import hashlib, redtable.redrising.{}, redtable.redrising.game\n"
        "from redtable.redrising.rules import BLOCK_SOVEREIGN, BLOCK_STEAL_BANISH, DEPLOY, END_OF_GAME\n"
        "tables = (list(DEPLOY.items()), list(END_OF_GAME.items()), sorted(BLOCK_STEAL_BANISH),"
        " list(BLOCK_SOVEREIGN.items()))\n"
        "print(len(DEPLOY), hashlib.sha256(repr(tables).encode()).hexdigest())"
    )
    outs = {
        subprocess.run([sys.executable, "-c", code.format(first)], capture_output=True, text=True, check=True).stdout
        for first in ("abilities_gold", "abilities_highcaste", "abilities_lowcaste", "game", "engine")
    }
    assert len(outs) == 1 and outs.pop().startswith("107 ")


def test_an_accidental_second_definition_is_refused():
    a, b = AbilityTable("first"), AbilityTable("second")
    a.deploy("lawyer", ("influence", 1))
    b.deploy("lawyer", ("influence", 1))  # the same effect again: fine
    assert merge(a, b)["deploy"] == {card("lawyer"): ("influence", 1)}
    b.deploy("lawyer", ("influence", 2))
    with pytest.raises(ValueError, match="second: the deploy ability of 'lawyer' differs from the one in first"):
        merge(a, b)
    c = AbilityTable("third")
    c.deploy("lawyer", ("influence", 2), override=True)
    assert merge(a, c)["deploy"] == {card("lawyer"): ("influence", 2)}


def test_bad_declarations_name_the_problem():
    t = AbilityTable("t")
    with pytest.raises(KeyError, match="unknown card slug 'darow'"):
        t.deploy("darow", ("helium", 1))
    with pytest.raises(TypeError, match="the end_of_game ability of 'hacker' must be an effect node"):
        t.end_of_game("hacker", "points")
    t.deploy("lawyer", ("no_such_step", 1))
    with pytest.raises(ValueError, match="unknown step 'no_such_step'"):
        build_rules(t)


def test_declarations_are_typed():
    assert abilities.SHARED.declarations[0] == BlocksStealBanish(card("judge"))
    d = abilities_gold.ABILITIES.deploy("aja", abilities_gold.ABILITIES.deploys[card("aja")])
    abilities_gold.ABILITIES.declarations.pop()  # leave the family as it was
    assert isinstance(d, Deploy) and d.card == card("aja") and d.kind == "deploy"
