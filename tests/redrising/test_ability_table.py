"""Abilities are declared per family and installed in one explicit order (ability_table.py)."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from redtable.redrising import abilities, abilities_gold, abilities_highcaste, abilities_lowcaste
from redtable.redrising.ability_table import AbilityTable, card, install, merge
from redtable.redrising.engine import BLOCK_SOVEREIGN, BLOCK_STEAL_BANISH, DEPLOY, END_OF_GAME

RR = Path(__file__).resolve().parents[2] / "redtable" / "redrising"


def test_families_import_the_table_never_abilities():
    for name in ("abilities_gold.py", "abilities_highcaste.py", "abilities_lowcaste.py", "ability_table.py"):
        tree = ast.parse((RR / name).read_text(encoding="utf-8"))
        modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert "abilities" not in modules, name


def test_install_order_is_explicit_and_complete():
    assert abilities.FAMILIES == (
        abilities.SHARED,
        abilities_gold.ABILITIES,
        abilities_highcaste.ABILITIES,
        abilities_lowcaste.ABILITIES,
    )
    merged = merge(*abilities.FAMILIES)
    assert merged["deploy"] == DEPLOY and merged["end_of_game"] == END_OF_GAME
    assert merged["block_sovereign"] == BLOCK_SOVEREIGN
    assert BLOCK_STEAL_BANISH == {card("judge"), card("pax-au-telemanus"), card("the-howlers")}
    # Gold's Cassius replaces the shared one, as it says
    assert DEPLOY[card("cassius")] == abilities_gold.ABILITIES.deploys[card("cassius")]
    assert DEPLOY[card("cassius")] != abilities.SHARED.deploys[card("cassius")]
    assert len(DEPLOY) == 107 and len(END_OF_GAME) == 11


def test_installing_again_changes_nothing():
    before = (dict(DEPLOY), dict(END_OF_GAME), set(BLOCK_STEAL_BANISH), dict(BLOCK_SOVEREIGN))
    install(*abilities.FAMILIES)
    assert (dict(DEPLOY), dict(END_OF_GAME), set(BLOCK_STEAL_BANISH), dict(BLOCK_SOVEREIGN)) == before


@pytest.mark.multiprocess
def test_a_family_imported_first_gives_the_same_tables():
    """The old side-effect imports filled the tables in an order that depended on which
    module came first; now any entry point gives the same ordered tables."""
    code = (
        "import hashlib, redtable.redrising.{}, redtable.redrising.game\n"
        "from redtable.redrising.engine import BLOCK_SOVEREIGN, BLOCK_STEAL_BANISH, DEPLOY, END_OF_GAME\n"
        "tables = (list(DEPLOY.items()), list(END_OF_GAME.items()), sorted(BLOCK_STEAL_BANISH),"
        " list(BLOCK_SOVEREIGN.items()))\n"
        "print(len(DEPLOY), hashlib.sha256(repr(tables).encode()).hexdigest())"
    )
    outs = {
        subprocess.run([sys.executable, "-c", code.format(first)], capture_output=True, text=True, check=True).stdout
        for first in ("abilities_gold", "abilities_highcaste", "abilities_lowcaste", "game")
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
    b.deploy("lawyer", ("influence", 2), override=True)
    assert merge(a, b)["deploy"] == {card("lawyer"): ("influence", 2)}


def test_bad_declarations_name_the_problem():
    t = AbilityTable("t")
    with pytest.raises(KeyError, match="unknown card slug 'darow'"):
        t.deploy("darow", ("helium", 1))
    with pytest.raises(TypeError, match="the end_of_game ability of 'hacker' must be an effect node"):
        t.end_of_game("hacker", "points")
