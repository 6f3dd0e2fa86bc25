"""`redtable play` driven as a person would: through a real pseudo-terminal of 80x24 (pexpect).

The command is run as ``python -m redtable.play`` (a Typer app that registers
``play_command``, as ``redtable play`` does). Every game is seeded and saved as it goes (to
``--save`` or, by default, under ``$XDG_STATE_HOME``, here a temporary folder), so what the
screen showed can be checked against a replay of the same game. Every screen a human is
shown is checked to fit the terminal: at most 24 lines with the prompt, none wider than 80.
"""

from __future__ import annotations

import json
import os
import re
import sys

import pexpect  # the `test` extra
from rich.cells import cell_len

from redtable.core import GameRecord, make_game, replay
from redtable.redrising.cards import CARDS, NAME
from redtable.redrising.gallery import gallery

PROMPT = r"P(\d)(?:\x1b\[[0-9;]*m)* choose 1(?:-(\d+))?[^\n]*for help: "
PASS = r"Pass the keyboard to player (\d)[^\n]*press Enter"
MORE = r"-- more \(\d+ of \d+ lines\)"
OVER = r"The game is over"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
ROWS, COLS = 24, 80


def spawn(tmp_path, *args: str, color: bool = False, env: dict | None = None, lang: str = "C.UTF-8"):
    environ = dict(
        os.environ, TERM="xterm-256color", PYTHONIOENCODING="utf-8", LANG=lang, XDG_STATE_HOME=str(tmp_path / "state")
    )
    for var in ("NO_COLOR", "COLUMNS", "LINES", "LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        environ.pop(var, None)
    if not color:
        environ["NO_COLOR"] = "1"
    environ.update(env or {})
    child = pexpect.spawn(
        sys.executable,
        ["-m", "redtable.play", *args],
        env=environ,
        encoding="utf-8",
        dimensions=(ROWS, COLS),
        timeout=60,
    )
    child.delaybeforesend = None
    return child


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "")


def options_of(match) -> int:
    return int(match.group(2) or 1)


def check_screen(chunk: str, prompt: str) -> list[str]:
    """The lines a screen printed before its prompt (``chunk`` starts where the previous answer's
    echo ends); asserts that with the prompt they fit 24 lines of 80 columns."""
    lines = plain(chunk).split("\n")[1:]  # the first is the rest of the previous prompt's line
    lines = [ln for ln in lines if "is thinking…" not in ln]  # a bot's spinner, erased when it is done
    screen = lines[:-1] + [lines[-1] + plain(prompt)]  # the prompt goes on the last line
    assert len(screen) <= ROWS, f"a screen of {len(screen)} lines:\n" + "\n".join(screen)
    for ln in screen:
        assert cell_len(ln) <= COLS, f"a line of {cell_len(ln)} columns: {ln!r}"
    return screen


def play_to_end(child, answer=lambda n, options: "1", limit=3000, check=True, fresh=True):
    """Answer every prompt until the end screen; returns (transcript, number of answers).
    Each screen (a human's decision) is checked to fit 80x24; ``fresh``: the program has
    printed nothing yet (else an answer was just sent)."""
    out = []
    answers = 0
    screens = 0
    while True:
        i = child.expect([PROMPT, PASS, MORE, OVER, pexpect.EOF])
        out.append(child.before + (child.after if isinstance(child.after, str) else ""))
        if i == 0:
            if check:
                check_screen("\n" + child.before if fresh and not answers else child.before, child.after)
                screens += 1
            child.sendline(answer(answers, options_of(child.match)))
            answers += 1
            assert answers < limit, "the game does not end"
        elif i in (1, 2):
            child.sendline("")
        else:
            break
    child.expect(pexpect.EOF)
    out.append(child.before)
    child.close()
    return plain("".join(out)), answers


def quit_game(child):
    child.sendline("q")
    child.expect(r"Really quit")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    return plain(child.before)


def load(path) -> GameRecord:
    return GameRecord.load(path)


# ---------------------------------------------------------------------------- full games at 80x24
def test_full_red_rising_game_six_players_fits_80x24(tmp_path):
    save = tmp_path / "rr.json"
    child = spawn(tmp_path, "red-rising", "--players", "6", "--seed", "11", "--save", str(save), color=True)
    text, answers = play_to_end(child)
    assert child.exitstatus == 0, text[-3000:]
    assert answers > 10
    state = replay(load(save))
    assert state.is_terminal()
    end = text[text.index("The game is over") :]
    for row in ("Scorepad", "Player", "Fleet", "Helium", "Total", "Final hands"):
        assert row in end
    for p, total in enumerate(state.scores()):  # a row per player, the total last
        assert re.search(rf"P{p} \w+[^\n]*\b{int(total)}\s*│?\s*\n", end), (p, total, end)
    assert ("Winner:" in end) == (len(state.winners()) == 1)
    # the end screen fits too: from the game-over line to the end
    assert len(end.rstrip("\n").split("\n")) <= ROWS


def test_full_red_rising_game_three_players(tmp_path):
    save = tmp_path / "rr3.json"
    child = spawn(tmp_path, "red-rising", "--players", "3", "--seed", "4", "--save", str(save))
    text, _ = play_to_end(child, answer=lambda n, k: str(1 + n % k))
    assert child.exitstatus == 0, text[-3000:]
    assert replay(load(save)).is_terminal()


def test_full_red_north_game_four_players_fits_80x24(tmp_path):
    import random

    rnd = random.Random(3)
    save = tmp_path / "rn.json"
    child = spawn(tmp_path, "red-north", "--players", "4", "--seed", "5", "--save", str(save))
    text, answers = play_to_end(child, answer=lambda n, options: str(rnd.randint(1, options)))
    assert child.exitstatus == 0, text[-3000:]
    state = replay(load(save))
    assert state.is_terminal()
    end = text[text.index("The game is over") :]
    for row in (
        "Spring VP",
        "Summer VP",
        "Ragnarok VP",
        "Total VP",
        "Unused Glory",
        "Cards in hand",
        "Tie Breaker token",
    ):
        assert row in end
    vp = re.search(r"Total VP\s*│" + r"\s*(\d+)\s*│" * 3 + r"\s*(\d+)", end)
    assert vp and [int(x) for x in vp.groups()] == [int(s) for s in state.scores()]
    assert f"Winner: P{state.winners()[0]}" in end
    # The screens had the Red North vocabulary.
    for word in ("Outposts", "Muster Groups", "Glory", "card back", "Your hand", "Your decision"):
        assert word in text


def test_no_color_means_no_colour_codes(tmp_path):
    def colour_codes(raw: str) -> int:
        n = 0
        for m in re.finditer(r"\x1b\[([0-9;]*)m", raw):
            params = [int(p) for p in m.group(1).split(";") if p]
            n += any(30 <= p <= 48 or 90 <= p <= 107 for p in params)
        return n

    for color in (True, False):
        child = spawn(tmp_path, "red-north", "--players", "2", "--seed", "2", color=color)
        child.expect(PROMPT)
        raw = child.before
        quit_game(child)
        assert child.exitstatus == 0
        assert (colour_codes(raw) > 0) == color
        assert "Outposts" in plain(raw)


# ---------------------------------------------------------------------------- history, not clearing
def test_one_human_keeps_the_terminal_history_and_the_seed_line(tmp_path):
    child = spawn(tmp_path, "red-rising", "--players", "3", "--seed", "7")
    child.expect(PROMPT)
    first = child.before
    for _ in range(5):
        child.sendline("1")
        child.expect([PROMPT, MORE])
    raw = first + child.before
    quit_game(child)
    for code in ("\x1b[2J", "\x1b[3J", "\x1b[?1049h", "\x1b[J"):
        assert code not in raw, f"{code!r} clears the terminal"
    intro = plain(first)
    assert re.search(r"seed 7 — P0 \w+ \(human\)", " ".join(intro.split()))
    # the seed line is still on the first screen, above the board
    assert len(check_screen("\n" + first, "P0 choose 1-9, or ? for help: ")) <= ROWS


def test_hot_seat_clears_at_each_hand_over(tmp_path):
    child = spawn(tmp_path, "red-north", "--players", "2", "--humans", "2", "--seed", "3")
    child.expect(PASS)
    assert "\x1b[3J" in child.before  # the screen and its scrollback: the other hand must not show
    assert "seed 3" in plain(child.before + child.after)
    child.sendline("")
    child.expect(PROMPT)
    quit_game(child)


# ---------------------------------------------------------------------------- bad input
def test_bad_input_lists_the_legal_choices_and_changes_nothing(tmp_path):
    clean, dirty = tmp_path / "clean.json", tmp_path / "dirty.json"
    child = spawn(tmp_path, "red-north", "--players", "2", "--seed", "8", "--save", str(clean))
    play_to_end(child)
    assert child.exitstatus == 0

    child = spawn(tmp_path, "red-north", "--players", "2", "--seed", "8", "--save", str(dirty))
    child.expect(PROMPT)
    n = child.match.group(2)
    for bad in ("0", "99", "foo", "withdraw:7", ""):
        child.sendline(bad)
        child.expect(r"is not a legal choice\.[^\n]*Nothing changed\. The legal choices are:")
        child.expect(PROMPT)
        listed = plain(child.before)
        assert child.match.group(2) == n  # the same decision is asked again
        assert f"{n}) " in listed and "1) " in listed
        check_screen("\n" + child.before, child.after)
    # help, log, board, hand and a declined quit change nothing either
    for command, seen in (
        ("?", "Help"),
        ("log", "The whole log"),
        ("gods", "Odin"),
        ("board", "Outposts"),
        ("hand", "Your hand"),
        ("b", "Your decision"),
    ):
        child.sendline(command)
        child.expect(seen)
        while child.expect([PROMPT, MORE]) == 1:
            child.sendline("")
        assert child.match.group(2) == n
    child.sendline("q")
    child.expect(r"Really quit this game\? \[y/N\]")
    child.sendline("n")
    child.expect("Not quitting")
    child.expect(PROMPT)
    assert child.match.group(2) == n
    child.sendline("1")
    text, _ = play_to_end(child, fresh=False)
    assert child.exitstatus == 0, text[-2000:]
    assert json.loads(dirty.read_text())["actions"] == json.loads(clean.read_text())["actions"]


def test_long_outputs_are_paged_to_fit(tmp_path):
    child = spawn(tmp_path, "red-rising", "--players", "6", "--seed", "2")
    child.expect(PROMPT)
    child.sendline("board")
    pages = 0
    while child.expect([PROMPT, MORE]) == 1:
        pages += 1
        page = plain(child.before).split("\n")[1:]
        assert len(page) + 1 <= ROWS
        child.sendline("")
    assert pages >= 1, "the full board of 6 players is more than a screen"
    child.sendline("help")
    child.expect("Help")
    if child.expect([PROMPT, MORE]) == 1:
        child.sendline("q")  # stop paging
        child.expect(PROMPT)
    quit_game(child)


def test_option_string_and_names_are_accepted(tmp_path):
    save = tmp_path / "g.json"
    child = spawn(tmp_path, "red-rising", "--players", "2", "--humans", "1", "--seed", "3", "--save", str(save))
    child.expect(PROMPT)
    child.sendline("scout")  # the option string itself
    child.expect(PROMPT)
    child.sendline("Mars")  # a location by its name
    child.expect(PROMPT)
    quit_game(child)
    assert child.exitstatus == 0
    actions = json.loads(save.read_text())["actions"]
    assert "scout" in actions and "mars" in actions


def test_end_of_input_leaves_cleanly(tmp_path):
    child = spawn(tmp_path, "red-rising", "--players", "2", "--seed", "1")
    child.expect(PROMPT)
    child.sendeof()
    child.expect("End of input")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_look_and_card_commands_show_rules_text(tmp_path):
    child = spawn(tmp_path, "red-rising", "--players", "2", "--seed", "6")
    child.expect(PROMPT)
    child.sendline("look luna")
    child.expect(r"Luna \(bonus: the Sovereign token\), bottom → top")
    child.expect(PROMPT)
    child.sendline("card darrow")
    child.expect(r"Darrow \(red 10\)")
    child.expect(PROMPT)
    assert "Deploy:" in plain(child.before)
    check_screen("\n" + child.before, child.after)
    quit_game(child)
    assert child.exitstatus == 0


# ---------------------------------------------------------------------------- autosave and resume
def test_autosave_by_default_and_resume_with_the_same_seats(tmp_path):
    child = spawn(tmp_path, "red-north", "--players", "3", "--bots", "heuristic,random", "--seed", "9")
    child.expect(PROMPT)
    intro = " ".join(plain(child.before).split())
    saved = re.search(r"Saved as it goes to (\S+\.json)", plain(child.before).replace("\n", ""))
    assert saved, intro
    path = saved.group(1)
    assert path.startswith(str(tmp_path / "state" / "redtable" / "games"))
    for _ in range(4):
        child.sendline("1")
        child.expect(PROMPT)
    out = quit_game(child).replace("\n", "")
    assert child.exitstatus == 0
    assert f"continue it with: redtable play --resume {path}" in out
    before = load(path).actions
    assert len(before) >= 4
    seats = json.loads(open(path[:-5] + ".seats.json").read())
    assert seats["seats"] == [{"human": True}, {"bot": "heuristic"}, {"bot": "random"}]

    child = spawn(tmp_path, "--resume", path)
    child.expect(PROMPT)
    intro = " ".join(plain(child.before).split())
    assert "seed 9" in intro and f"Resumed after {len(before)} decisions" in intro
    assert "P1 (bot: heuristic), P2 (bot: random)" in intro
    child.sendline("1")
    text, _ = play_to_end(child, fresh=False)
    assert child.exitstatus == 0, text[-2000:]
    record = load(path)
    assert record.actions[: len(before)] == before
    assert replay(record).is_terminal()
    assert f"Game saved to {path}" in text.replace("\n", "")


def test_resume_a_finished_game_shows_its_end(tmp_path):
    save = tmp_path / "done.json"
    child = spawn(tmp_path, "red-north", "--players", "2", "--seed", "4", "--save", str(save))
    play_to_end(child)
    child = spawn(tmp_path, "--resume", str(save))
    child.expect(OVER)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_resume_a_record_without_seats_takes_them_from_the_command_line(tmp_path):
    game = make_game("red-rising", 2)
    state = game.new_initial_state(5)
    from redtable.bots import make_bot

    bot = make_bot("random", seed=1)
    for _ in range(6):
        state.apply(bot.choose(state))
    path = tmp_path / "server.json"
    GameRecord.of(state, 5).save(path, state)
    child = spawn(tmp_path, "--resume", str(path), "--humans", "0")
    child.expect(OVER)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert replay(load(path)).is_terminal()


# ---------------------------------------------------------------------------- languages
def test_ukrainian_screens_with_lang(tmp_path):
    prompt = r"P(\d)(?:\x1b\[[0-9;]*m)*: виберіть 1(?:-(\d+))?[^\n]*довідка: "
    child = spawn(tmp_path, "red-rising", "--players", "3", "--seed", "7", "--lang", "uk")
    child.expect(prompt)
    first = plain(child.before)
    for word in ("зерно 7", "Ваше рішення", "Юпітер", "Інститут", "Наказ"):
        assert word in first, word
    child.sendline("?")
    child.expect("Довідка")
    while child.expect([prompt, r"-- далі"]) == 1:
        child.sendline("")
    child.sendline("q")
    child.expect("Справді вийти з гри")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_whole_ukrainian_game_fits_80x24(tmp_path):
    prompt = r"P(\d)(?:\x1b\[[0-9;]*m)*: виберіть 1(?:-(\d+))?[^\n]*довідка: "
    child = spawn(tmp_path, "red-rising", "--players", "4", "--seed", "5", "--lang", "uk")
    fresh = True
    while True:
        i = child.expect([prompt, "Гру завершено ═══", pexpect.EOF])
        if i:
            break
        check_screen("\n" + child.before if fresh else child.before, child.after)
        fresh = False
        child.sendline("1")
    child.expect(pexpect.EOF)
    end = plain(child.before)
    child.close()
    assert child.exitstatus == 0
    assert "Блокнот підрахунку" in end and "Усього" in end


def test_polish_screens_from_the_environment(tmp_path):
    prompt = r"P(\d)(?:\x1b\[[0-9;]*m)*: wybierz 1(?:-(\d+))?[^\n]*pomoc: "
    child = spawn(tmp_path, "red-north", "--players", "2", "--seed", "7", lang="pl_PL.UTF-8")
    child.expect(prompt)
    first = plain(child.before)
    for word in ("ziarno 7", "Twoja decyzja", "Placówki", "Chwała"):
        assert word in first, word
    check_screen("\n" + child.before, child.after)
    child.sendline("1")
    while True:  # the whole game in Polish fits 80x24 too
        i = child.expect([prompt, r"Koniec gry", pexpect.EOF])
        if i:
            break
        check_screen(child.before, child.after)
        child.sendline("1")
    child.expect(pexpect.EOF)
    text = plain(child.before)
    child.close()
    assert child.exitstatus == 0
    assert "Suma PZ" in text


# ---------------------------------------------------------------------------- hot-seat
def _names_mentioned_in_rules() -> set[str]:
    texts = " ".join(" ".join(str(v) for k, v in e.items() if k not in ("card", "name")) for e in gallery())
    return {c.name for c in CARDS if re.search(rf"\b{re.escape(c.name)}\b", texts)}


def test_hot_seat_hides_each_hand_until_its_player_is_at_the_keyboard(tmp_path):
    """Two humans: a pass-the-keyboard screen whenever the decider changes (a block in the
    middle of the other's turn too), and no screen ever names a card of the other's hand
    that its viewer has not seen."""
    save = tmp_path / "hot.json"
    child = spawn(tmp_path, "red-rising", "--players", "2", "--humans", "2", "--seed", "24", "--save", str(save))
    chunks = []  # (viewer, text) in order
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
    quit_game(child)
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
    for (v, text), (_p, states) in zip(private, runs, strict=True):
        other = 1 - v
        assert re.search(rf"(you are|your turn,) P{v}\b", text)
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
        # The viewer's own hand is on their screen (as the hand line or as the options).
        own = states[0].hands[v]
        assert all(NAME[c] in text for c in own)
    assert blocked, "seed 24 has a block in the other player's turn within 40 decisions"
    assert len(checked) >= 5
