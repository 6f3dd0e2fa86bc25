"""The `redtable` command: simulate, replay, cards (score has its own tests)."""

import json
import os
import subprocess
import sys
import threading
import time

import pytest
from clikit import clean_error
from typer.testing import CliRunner

from redtable.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


@pytest.mark.multiprocess  # the command runs its games on a worker pool
def test_simulate_red_rising_json_contract(tmp_path):
    r = run(
        "simulate",
        "red-rising",
        "--players",
        "3",
        "--games",
        "4",
        "--seed",
        "5",
        "--json",
        "--save-games",
        str(tmp_path),
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    for key in (
        "games",
        "errors",
        "seconds",
        "games_per_second",
        "decisions_per_second",
        "mean_score",
        "wins_by_house",
        "card_stats",
    ):
        assert key in data
    assert data["games"] == 4 and data["errors"] == 0
    assert sum(data["wins_by_house"].values()) == 4
    assert set(data["card_stats"]["Darrow"]) == {"deployed", "ability_took_effect", "in_final_hand"}
    assert len(list(tmp_path.glob("*.json"))) == 4
    again = run("simulate", "red-rising", "--players", "3", "--games", "4", "--seed", "5", "--json")
    assert json.loads(again.stdout)["mean_score"] == data["mean_score"]


def test_saved_game_replays_to_the_same_scores(tmp_path):
    run("simulate", "red-rising", "-p", "2", "-n", "1", "-s", "9", "--save-games", str(tmp_path))
    path = next(tmp_path.glob("*.json"))
    saved = json.loads(path.read_text())
    r = run("replay", str(path), "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["finished"] and out["scores"] == saved["result"]["scores"]


def test_replay_refuses_an_illegal_step(tmp_path):
    run("simulate", "red-rising", "-p", "2", "-n", "1", "-s", "9", "--save-games", str(tmp_path))
    path = next(tmp_path.glob("*.json"))
    saved = json.loads(path.read_text())
    saved["actions"][7] = "nowhere"
    path.write_text(json.dumps(saved))
    r = run("replay", str(path))
    assert r.exit_code == 2 and f"{path}: step 7" in r.stderr and r.stdout == ""


def test_replay_rejects_malformed_files(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text("{not json")
    r = run("replay", str(p))
    assert r.exit_code == 2 and "malformed JSON at line 1 column 2" in r.stderr and r.stdout == ""


def test_simulate_rejects_bad_input():
    assert run("simulate", "chess").exit_code == 2
    r = run("simulate", "red-rising", "--players", "9")
    assert r.exit_code == 2 and "2-6 players" in r.stderr
    assert run("simulate", "red-rising", "--games", "0").exit_code == 2


def test_cards_gallery_renders_every_card():
    r = run("cards", "red-rising", "--json")
    assert r.exit_code == 0
    cards = json.loads(r.stdout)
    assert len(cards) == 112
    by_name = {c["name"]: c for c in cards}
    assert by_name["Darrow"]["deploy"].startswith("Gain any other non-Gold from this location")
    assert "steal or banish" in by_name["Judge"]["block"]
    assert "any one other color" in by_name["Trigg"]["end_of_game"]
    assert "same name as any specific character" in by_name["Cyther"]["end_of_game"]
    assert all(
        "end_game_bonus" in c
        or c["name"]
        in {
            "Auctioneer",
            "Banker",
            "Investor",
            "Justice",
            "Martyr",
            "Hacker",
            "Online Gambler",
            "Dr. Virany",
            "Hypnotist",
            "Psychologist",
        }
        for c in cards
    )
    table = run("cards")
    assert table.exit_code == 0 and "Darrow" in table.stdout


# ------------------------------------------------------------------------------ hostile replay files
# Every bad file: exit code 2, one message on stderr naming the problem and what is allowed,
# nothing on stdout, no traceback, and no echoed input longer than 200 characters.

GOOD = {"format": "redtable-game/1", "game": "red-rising", "players": 2, "seed": 9, "options": {}, "actions": []}


def replay_text(tmp_path, text: str | bytes):
    f = tmp_path / "game.json"
    if isinstance(text, bytes):
        f.write_bytes(text)
    else:
        f.write_text(text, encoding="utf-8")
    return run("replay", str(f)), run("replay", str(f), "--json")


def with_field(**fields) -> str:
    return json.dumps({**GOOD, **fields})


def test_a_good_minimal_record_replays(tmp_path):
    r = replay_text(tmp_path, json.dumps(GOOD))[1]
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["decisions"] == 0


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        '{"a":' * 100_000,
        "[" * 65 + "]" * 65,
        json.dumps(GOOD)[:-1] + ', "events": ' + "[" * 100_000 + "]" * 100_000 + "}",
        json.dumps({**GOOD, "result": {"x": []}}).replace("[]", "[" * 70 + "]" * 70),
    ],
)
def test_replay_deep_nesting(tmp_path, text):
    for r in replay_text(tmp_path, text):
        clean_error(r, "JSON nested too deeply", "at most 64")


@pytest.mark.multiprocess
def test_replay_deep_nesting_in_a_real_process(tmp_path):
    f = tmp_path / "deep.json"
    f.write_text('{"a":' * 100_000 + "[" * 100_000)
    p = subprocess.run(
        [sys.executable, "-m", "redtable.cli", "replay", str(f)], capture_output=True, text=True, timeout=60
    )
    assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr
    assert "JSON nested too deeply" in p.stderr


@pytest.mark.parametrize("digits", [5_000, 100_000])
@pytest.mark.parametrize(
    "field,message",
    [
        ("seed", "field 'seed' must be an integer from -2**63 to 2**64-1, got 99999"),
        ("players", "field 'players' must be an integer from 2 to 6 for red-rising, got 99999"),
    ],
)
def test_replay_huge_integers_name_the_field_and_range(tmp_path, digits, field, message):
    text = with_field(**{field: 0}).replace(f'"{field}": 0', f'"{field}": -{"9" * digits}')
    for r in replay_text(tmp_path, text):
        clean_error(r, message.replace("99999", "-99999"), f"({digits} digits)")


@pytest.mark.parametrize("digits", [5_000, 100_000])
def test_replay_huge_integers_anywhere(tmp_path, digits):
    big = "9" * digits
    r, _ = replay_text(tmp_path, with_field(actions=[0]).replace("[0]", f"[{big}]"))
    clean_error(r, "step 0: action must be a string, got 99999", f"({digits} digits)")
    r, _ = replay_text(tmp_path, with_field(options={"multiplayer_variant": 0}).replace(": 0}", f": {big}}}"))
    clean_error(r, "multiplayer_variant", "must be true or false", f"({digits} digits)")
    r, _ = replay_text(tmp_path, with_field(seed=1.5).replace("1.5", big + ".5"))
    clean_error(r, "field 'seed' must be an integer", "got Infinity")
    # where the file holds data replay does not use, a huge number is harmless
    r = replay_text(tmp_path, with_field(events=[0]).replace("[0]", f"[{big}]"))[1]
    assert r.exit_code == 0, r.stderr


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_replay_dev_zero_stops_at_the_size_limit():
    start = time.monotonic()
    r = run("replay", "/dev/zero")
    clean_error(r, "/dev/zero: the file is too large (more than 16 MB)", "the limit for a saved game is 16 MB")
    assert time.monotonic() - start < 10


@pytest.mark.multiprocess
@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_replay_dev_zero_in_a_real_process():
    start = time.monotonic()
    p = subprocess.run(
        [sys.executable, "-m", "redtable.cli", "replay", "/dev/zero"], capture_output=True, text=True, timeout=60
    )
    assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr
    assert "too large (more than 16 MB)" in p.stderr
    assert time.monotonic() - start < 20


def test_replay_huge_file(tmp_path):
    f = tmp_path / "huge.json"
    with open(f, "wb") as out:  # sparse: 17 MB without writing them
        out.truncate(17 << 20)
    clean_error(run("replay", str(f)), f"the file is too large ({17 << 20} bytes)", "limit for a saved game is 16 MB")


def feed_fifo(fifo, data: bytes):
    """Open ``fifo`` (as reader and writer, so the CLI never sees it without a writer) and
    write ``data`` into it forever from a thread; returns a function that stops it."""
    fd = os.open(fifo, os.O_RDWR)
    stop = threading.Event()

    def feed():
        while not stop.is_set():
            try:
                os.write(fd, data)
            except OSError:
                return

    t = threading.Thread(target=feed, daemon=True)
    t.start()

    def close():
        stop.set()
        os.set_blocking(fd, False)
        while t.is_alive():  # drain, so that a blocked write returns
            try:
                os.read(fd, 1 << 20)
            except BlockingIOError:
                pass
            t.join(0.01)
        os.close(fd)

    return close


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_replay_fifo(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    clean_error(run("replay", str(fifo)), "the file is empty")  # nobody writes: no hang
    close = feed_fifo(fifo, b"[" * 65536)
    try:
        clean_error(run("replay", str(fifo)), "too large (more than 16 MB)")
    finally:
        close()


def test_replay_directory_and_missing_file(tmp_path):
    clean_error(run("replay", str(tmp_path)), "it is a directory; expected a saved game")
    clean_error(run("replay", str(tmp_path / "nope.json")), "nope.json: cannot read the file: no such file")
    clean_error(run("replay", str(tmp_path / ("n" * 5000))), "cannot read the file", "(5")


@pytest.mark.parametrize(
    "data,message",
    [
        (b'{"game": "red-\xff"}', "not UTF-8 text: byte 0xff at line 1 column 15"),
        ("\ufeff{}".encode("utf-16"), "UTF-16"),
        (b"", "the file is empty"),
        (b'{"game": ', "malformed JSON at line 1 column 10"),
    ],
)
def test_replay_bad_bytes(tmp_path, data, message):
    for r in replay_text(tmp_path, data):
        clean_error(r, message)


@pytest.mark.parametrize(
    "field,value",
    [
        ("seed", 1.5),
        ("seed", 9.0),
        ("seed", "9"),
        ("seed", True),
        ("seed", None),
        ("seed", [9]),
        ("seed", float("nan")),
        ("seed", float("inf")),
        ("seed", -float("inf")),
        ("seed", 2**64),
        ("seed", -(2**63) - 1),
        ("players", True),
        ("players", 2.0),
        ("players", "2"),
        ("players", 7),
        ("players", 1),
        ("players", float("nan")),
    ],
)
def test_replay_wrong_numbers(tmp_path, field, value):
    text = json.dumps({**GOOD, field: value})  # json.dumps writes NaN and Infinity
    for r in replay_text(tmp_path, text):
        err = clean_error(r, f"field {field!r} must be an integer from")
        assert "true" in err or "got" in err


def test_replay_edge_integers_are_accepted(tmp_path):
    for seed in (0, 2**64 - 1, -(2**63)):
        r = replay_text(tmp_path, with_field(seed=seed))[1]
        assert r.exit_code == 0, r.stderr


@pytest.mark.parametrize(
    "text,message",
    [
        ("[]", "a saved game is a JSON object"),
        ('"game"', "a saved game is a JSON object"),
        ("3", "a saved game is a JSON object"),
        ("null", "a saved game is a JSON object"),
        (json.dumps({**GOOD, "sed": 9}), "unknown key 'sed' (did you mean 'seed'?)"),
        (json.dumps({k: v for k, v in GOOD.items() if k != "seed"}), "missing key 'seed'"),
        (
            json.dumps({**GOOD, "options": {"multiplayer_varient": True}}),
            "unknown option 'multiplayer_varient' for red-rising (did you mean 'multiplayer_variant'?)",
        ),
        (json.dumps({**GOOD, "options": []}), "field 'options' must be an object"),
        (json.dumps({**GOOD, "options": {"multiplayer_variant": 1}}), "must be true or false, got 1"),
        (
            json.dumps({**GOOD, "game": "red-risin"}),
            "field 'game' must be one of 'red-rising', 'red-north', got \"red-risin\" (did you mean 'red-rising'?)",
        ),
        (json.dumps({**GOOD, "format": "redtable-game/2"}), "unknown format"),
        (json.dumps({**GOOD, "actions": "deploy"}), "field 'actions' must be a list of strings"),
        (json.dumps({**GOOD, "actions": [True]}), "step 0: action must be a string, got true"),
        ('{"seed": 1, "seed": 2}', "duplicate key 'seed'"),
        (json.dumps({**GOOD, "game": "\\ud800"}).replace("\\\\", "\\"), "game: a string contains \\ud800"),
    ],
)
def test_replay_wrong_shapes_and_keys(tmp_path, text, message):
    for r in replay_text(tmp_path, text):
        clean_error(r, message)


@pytest.mark.parametrize("field", ["game", "key", "option", "option value", "action", "format"])
def test_replay_long_strings_are_clipped(tmp_path, field):
    long = "x" * 100_000
    record = dict(GOOD)
    if field == "game":
        record["game"] = long
    elif field == "key":
        record[long] = 1
    elif field == "option":
        record["options"] = {long: 1}
    elif field == "option value":
        record["options"] = {"multiplayer_variant": [long]}
    elif field == "action":
        record["actions"] = [long]
    else:
        record["format"] = long
    for r in replay_text(tmp_path, json.dumps(record)):
        err = clean_error(r, "x" * 150, "characters")
        assert "x" * 201 not in err


@pytest.mark.parametrize(
    "value,message",
    [
        ("[" * 100_000, "--option 'multiplayer_variant': JSON nested too deeply"),
        ("9" * 5_000, "option 'multiplayer_variant' must be true or false, got 99999"),
        ('{"a": 1, "a": 2}', "duplicate key 'a'"),
    ],
)
def test_option_values_are_read_like_files(value, message):
    r = run("simulate", "red-rising", "-n", "1", "--option", f"multiplayer_variant={value}")
    clean_error(r, message)
    clean_error(run("simulate", "red-rising", "-n", "1", "--option", "k" * 100_000), "(100000 characters)")


def test_replay_checks_a_servers_seed_commitment(tmp_path):
    import hashlib

    salt = "ab" * 16
    good = {
        **GOOD,
        "salt": salt,
        "seed_chosen_by_creator": False,
        "seed_commitment": hashlib.sha256(f"{GOOD['seed']}:{salt}".encode()).hexdigest(),
    }
    r = replay_text(tmp_path, json.dumps(good))[1]
    assert r.exit_code == 0, r.stderr
    assert replay_text(tmp_path, json.dumps({**good, "seed_commitment": None, "salt": None}))[1].exit_code == 0
    clean_error(
        replay_text(tmp_path, json.dumps({**good, "seed": 10}))[0], "the seed does not match the seed_commitment"
    )
    clean_error(
        replay_text(tmp_path, json.dumps({**good, "salt": 7}))[0], "'salt' and 'seed_commitment' must be strings"
    )
    clean_error(replay_text(tmp_path, json.dumps({**good, "salt": "s" * 100_000}))[0], "(100000 characters)")


# ----------------------------------------------------------------------------- issue 16: edges


def test_version():
    from redtable import __version__

    r = run("--version")
    assert r.exit_code == 0 and r.stdout == f"redtable {__version__}\n"
    assert "Usage" in run().output  # no arguments still shows the help


@pytest.fixture
def no_games(monkeypatch):
    """Fail the test if any game is played."""
    from redtable.sim import parallel

    def refuse(*args, **kwargs):
        raise AssertionError("a game was played before the output path was checked")

    monkeypatch.setattr(parallel, "run_games", refuse)


def _bad_dirs(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    return [
        ("/proc/nope", "cannot create the directory '/proc/nope'"),
        ("/proc/nope/deeper", "cannot create the directory '/proc/nope/deeper'"),
        ("/proc/self", "cannot write into '/proc/self'"),
        (str(afile), "is a file, not a directory"),
        (str(afile / "sub"), "Not a directory"),
    ]


@pytest.mark.parametrize(
    "command",
    [
        ["analyze", "red-north", "-n", "2", "-p", "2", "--out"],
        ["simulate", "red-north", "-n", "2", "-p", "2", "-w", "1", "--save-games"],
    ],
)
def test_output_directories_are_checked_before_any_game(command, tmp_path, no_games):
    for path, message in _bad_dirs(tmp_path):
        r = run(*command, path)
        assert r.exit_code == 2, (path, r.output)
        assert r.stdout == ""
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], (path, r.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_output_directory_is_created_and_probed(tmp_path):
    from redtable.cliutil import check_output_dir, remove_created

    target = tmp_path / "a" / "b"
    created = check_output_dir(target, "--out")
    assert created == [tmp_path / "a", target] and target.is_dir() and not list(target.iterdir())
    remove_created(created)
    assert not (tmp_path / "a").exists()
    assert check_output_dir(tmp_path, "--out") == []  # an existing directory is fine, left as it was


def test_analyze_removes_the_directory_it_made_when_the_run_fails(tmp_path, monkeypatch):
    from redtable.sim import parallel

    def boom(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(parallel, "run_games", boom)
    r = run("analyze", "red-north", "-n", "2", "-p", "2", "--out", str(tmp_path / "new" / "report"))
    assert r.exit_code != 0 and not (tmp_path / "new").exists()


def test_simulate_save_games_makes_the_directory(tmp_path):
    r = run("simulate", "red-north", "-n", "2", "-p", "2", "-w", "1", "--save-games", str(tmp_path / "x" / "y"))
    assert r.exit_code == 0, r.output
    assert len(list((tmp_path / "x" / "y").glob("game-*.json"))) == 2
    assert not list((tmp_path / "x" / "y").glob(".redtable-probe*"))


def test_play_save_is_checked_before_the_game_starts(tmp_path, monkeypatch):
    from redtable.play import terminal

    started = []
    monkeypatch.setattr(terminal.Session, "run", lambda self: started.append(self) or 0)
    afile = tmp_path / "afile"
    afile.write_text("x")
    for path, message in [
        ("/proc/x.json", "cannot write '/proc/x.json'"),
        ("/proc/new/x.json", "cannot write '/proc/new/x.json'"),
        (str(afile / "x.json"), "is not a directory"),
        (str(tmp_path), "is a directory, not a file"),
    ]:
        r = run("play", "red-north", "--save", path)
        assert r.exit_code == 2 and r.stderr.startswith("error: --save: ") and message in r.stderr, r.output
        assert len(r.stderr.splitlines()) == 1
    assert started == [] and afile.read_text() == "x"
    for ok in (tmp_path / "new.json", tmp_path / "sub" / "new.json", afile):
        assert run("play", "red-north", "--save", str(ok)).exit_code == 0
    assert len(started) == 3  # (the game itself never ran here: nothing was saved)
    assert not (tmp_path / "new.json").exists() and afile.read_text() == "x"


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "red-north", "-n", "1"],
        ["tournament", "red-north", "-b", "random,random", "-n", "1"],
        ["analyze", "red-north", "-n", "1", "-p", "2"],
        ["play", "red-north"],
    ],
)
def test_an_unknown_game_option_names_the_valid_ones(command, tmp_path, no_games):
    r = run(*command, "-o", "foo=bar")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == "error: unknown --option 'foo' for Red North; its options: outpost_points (default 1)\n"
    r = run(*[("red-rising" if a == "red-north" else a) for a in command], "--option", "multiplayer-varient=true")
    assert r.exit_code == 2 and "'multiplayer_varient'" in r.stderr
    assert "multiplayer_variant (default false), block_windows (default false)" in r.stderr
    r = run(*command, "-o", "players=3")
    assert r.exit_code == 2 and "--players" in r.stderr
    assert not list(tmp_path.iterdir())
