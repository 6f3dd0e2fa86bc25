"""`redtable play` driven as a person would: through a real pseudo-terminal (pexpect).

The command is run as ``python -m redtable.play`` (a Typer app that registers
``play_command``, as ``redtable play`` does). Every game is seeded and saved with
``--save``, so what the screen showed can be checked against a replay of the same game.
"""

from __future__ import annotations

import json
import os
import re
import sys

import pexpect  # the `test` extra

from redtable.core import GameRecord, make_game, replay
from redtable.redrising.cards import CARDS, NAME
from redtable.redrising.gallery import gallery

PROMPT = r"P(\d)(?:\x1b\[[0-9;]*m)* choose 1-(\d+)[^\n]*for help: "
PASS = r"Pass the keyboard to player (\d)[^\n]*press Enter"
OVER = r"The game is over"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(*args: str, color: bool = False):
    env = dict(os.environ, TERM="xterm-256color", PYTHONIOENCODING="utf-8", LANG="C.UTF-8", COLUMNS="200")
    env.pop("NO_COLOR", None)
    if not color:
        env["NO_COLOR"] = "1"
    child = pexpect.spawn(sys.executable, ["-m", "redtable.play", *args], env=env, encoding="utf-8",
                          dimensions=(60, 200), timeout=30)
    child.delaybeforesend = None
    return child


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "")


def play_to_end(child, answer=lambda n, options: "1", limit=2000):
    """Answer every prompt until the end screen; returns (transcript, number of answers)."""
    out = []
    answers = 0
    while True:
        i = child.expect([PROMPT, PASS, OVER, pexpect.EOF])
        out.append(child.before + (child.after if isinstance(child.after, str) else ""))
        if i == 0:
            child.sendline(answer(answers, int(child.match.group(2))))
            answers += 1
            assert answers < limit, "the game does not end"
        elif i == 1:
            child.sendline("")
        else:
            break
    child.expect(pexpect.EOF)
    out.append(child.before)
    child.close()
    return plain("".join(out)), answers


def load(path) -> GameRecord:
    return GameRecord.load(path)


# ---------------------------------------------------------------------------- full games
def test_full_red_rising_game_one_human_against_random_bots(tmp_path):
    save = tmp_path / "rr.json"
    child = spawn("red-rising", "--players", "3", "--seed", "11", "--save", str(save), color=True)
    text, answers = play_to_end(child)
    assert child.exitstatus == 0, text[-3000:]
    assert answers > 10
    state = replay(load(save))
    assert state.is_terminal()
    end = text[text.index("The game is over"):]
    for row in ("Scorepad", "Cards in hand", "Fleet Track", "Helium", "Sovereignty", "Influence",
                "Excess cards", "Total"):
        assert row in end
    totals = re.search(r"Total\s*│\s*(\d+)\s*│\s*(\d+)\s*│\s*(\d+)", end)
    assert totals and [int(x) for x in totals.groups()] == [int(s) for s in state.scores()]
    winners = state.winners()
    assert ("Winner:" in end) == (len(winners) == 1)


def test_full_red_north_game_one_human_answering_at_random(tmp_path):
    import random

    rnd = random.Random(3)
    save = tmp_path / "rn.json"
    child = spawn("red-north", "--players", "3", "--seed", "5", "--save", str(save))
    text, answers = play_to_end(child, answer=lambda n, options: str(rnd.randint(1, options)))
    assert child.exitstatus == 0, text[-3000:]
    state = replay(load(save))
    assert state.is_terminal()
    end = text[text.index("The game is over"):]
    for row in ("Spring VP", "Summer VP", "Ragnarok VP", "Total VP", "Unused Glory", "Cards in hand",
                "Tie Breaker token"):
        assert row in end
    vp = re.search(r"Total VP\s*│\s*(\d+)\s*│\s*(\d+)\s*│\s*(\d+)", end)
    assert vp and [int(x) for x in vp.groups()] == [int(s) for s in state.scores()]
    assert f"Winner: P{state.winners()[0]}" in end
    # The screens had the Red North vocabulary.
    for word in ("Outposts", "Raiding Party", "Muster Groups", "Glory", "card back", "Your hand — P0"):
        assert word in text


def test_no_color_means_no_colour_codes(tmp_path):
    def colour_codes(raw: str) -> int:
        n = 0
        for m in re.finditer(r"\x1b\[([0-9;]*)m", raw):
            params = [int(p) for p in m.group(1).split(";") if p]
            n += any(30 <= p <= 48 or 90 <= p <= 107 for p in params)
        return n

    for color in (True, False):
        child = spawn("red-north", "--players", "2", "--seed", "2", color=color)
        child.expect(PROMPT)
        raw = child.before
        child.sendline("q")
        child.expect(r"Really quit")
        child.sendline("y")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        assert (colour_codes(raw) > 0) == color
        assert "Outposts" in plain(raw)


# ---------------------------------------------------------------------------- bad input
def test_bad_input_lists_the_legal_choices_and_changes_nothing(tmp_path):
    clean, dirty = tmp_path / "clean.json", tmp_path / "dirty.json"
    child = spawn("red-north", "--players", "2", "--seed", "8", "--save", str(clean))
    play_to_end(child)
    assert child.exitstatus == 0

    child = spawn("red-north", "--players", "2", "--seed", "8", "--save", str(dirty))
    child.expect(PROMPT)
    n = child.match.group(2)
    for bad in ("0", "99", "foo", "withdraw:7", ""):
        child.sendline(bad)
        child.expect(r"is not a legal choice\.[^\n]*Nothing changed\. The legal choices are:")
        child.expect(PROMPT)
        listed = plain(child.before)
        assert child.match.group(2) == n  # the same decision is asked again
        assert f"{n}) " in listed and "1) " in listed
    # help, log and a declined quit change nothing either
    child.sendline("?")
    child.expect("Help")
    child.expect(PROMPT)
    assert "leave the game" in plain(child.before)
    child.sendline("log")
    child.expect("The whole log")
    child.expect(PROMPT)
    child.sendline("gods")
    child.expect("Odin")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(r"Really quit this game\? \[y/N\]")
    child.sendline("n")
    child.expect("Not quitting")
    child.expect(PROMPT)
    assert child.match.group(2) == n
    child.sendline("1")
    text, _ = play_to_end(child)
    assert child.exitstatus == 0, text[-2000:]
    assert json.loads(dirty.read_text())["actions"] == json.loads(clean.read_text())["actions"]


def test_option_string_and_names_are_accepted(tmp_path):
    save = tmp_path / "g.json"
    child = spawn("red-rising", "--players", "2", "--humans", "1", "--seed", "3", "--save", str(save))
    child.expect(PROMPT)
    child.sendline("scout")  # the option string itself
    child.expect(PROMPT)
    child.sendline("Mars")   # a location by its name
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("Really quit")
    child.sendline("yes")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    actions = json.loads(save.read_text())["actions"]
    assert "scout" in actions and "mars" in actions


def test_end_of_input_leaves_cleanly(tmp_path):
    child = spawn("red-rising", "--players", "2", "--seed", "1")
    child.expect(PROMPT)
    child.sendeof()
    child.expect("End of input")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_look_and_card_commands_show_rules_text():
    child = spawn("red-rising", "--players", "2", "--seed", "6")
    child.expect(PROMPT)
    child.sendline("look luna")
    child.expect(r"Luna \(bonus: the Sovereign token\), bottom → top")
    child.expect(PROMPT)
    child.sendline("card darrow")
    child.expect(r"Darrow \(red 10\)")
    child.expect(PROMPT)
    assert "Deploy:" in plain(child.before)
    child.sendline("q")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# ---------------------------------------------------------------------------- hot-seat
def _names_mentioned_in_rules() -> set[str]:
    texts = " ".join(" ".join(str(v) for k, v in e.items() if k not in ("card", "name")) for e in gallery())
    return {c.name for c in CARDS if re.search(rf"\b{re.escape(c.name)}\b", texts)}


def test_hot_seat_hides_each_hand_until_its_player_is_at_the_keyboard(tmp_path):
    """Two humans: a pass-the-keyboard screen whenever the decider changes (a block in the
    middle of the other's turn too), and no screen ever names a card of the other's hand
    that its viewer has not seen."""
    save = tmp_path / "hot.json"
    child = spawn("red-rising", "--players", "2", "--humans", "2", "--seed", "24", "--save", str(save))
    chunks = []   # (viewer, text) in order
    viewer = None
    buf = []
    decisions = 0
    while True:
        i = child.expect([PROMPT, PASS])
        buf.append(child.before + child.after)
        if i == 1:
            chunks.append((viewer, plain("".join(buf))))
            buf = []
            viewer = int(child.match.group(1))
            child.sendline("")
            continue
        assert int(child.match.group(1)) == viewer, "a prompt for a human who is not at the keyboard"
        if decisions == 40:
            break
        child.sendline("1")
        decisions += 1
    chunks.append((viewer, plain("".join(buf))))
    child.sendline("q")
    child.expect("Really quit")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    # Replay the same game: who decided when, and what each seat could know.
    record = load(save)
    assert len(record.actions) == decisions
    game = make_game("red-rising", 2)
    state = game.new_initial_state(record.seed)
    runs = []  # (decider, [states at each of their decisions])
    for a in record.actions + [None]:
        d = state.decision()
        if not runs or runs[-1][0] != d.player:
            runs.append((d.player, []))
        runs[-1][1].append(state.clone())
        if a is not None:
            state.apply(a)
    # The first chunk (before any pass screen) shows no seat's view; then one chunk per run.
    assert chunks[0][0] is None and "Your hand" not in chunks[0][1] and "Your decision" not in chunks[0][1]
    private = chunks[1:]
    assert [v for v, _ in private] == [p for p, _ in runs]
    assert len(private) >= 4
    blocked = False
    ambiguous = _names_mentioned_in_rules()
    checked = set()
    for (v, text), (p, states) in zip(private, runs):
        other = 1 - v
        assert f"Your hand — P{other}" not in text
        assert f"you are P{v}" in text
        # A block asked in the middle of the other player's turn went to the right human.
        if "Block it by revealing" in text or "Block by revealing" in text:
            assert any(s.view(None)["current_turn"] == other for s in states)
            blocked = True
        hidden = set()
        for s in states:
            hidden |= {c for c in s.hands[other] if c not in s.known[v]}
        for c in hidden:
            name = NAME[c]
            if name in ambiguous:
                continue
            checked.add(name)
            assert not re.search(rf"\b{re.escape(name)}\b", text), f"P{v}'s screen shows {name} of P{other}'s hand"
        # The viewer's own hand is on their screen (as the hand panel or as the options).
        own = states[0].hands[v]
        assert all(NAME[c] in text for c in own)
    assert blocked, "seed 24 has a block in the other player's turn within 40 decisions"
    assert len(checked) >= 5
