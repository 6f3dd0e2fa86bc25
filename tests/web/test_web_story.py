"""What happened at the table, in the browser (390x844 touch and 1400x900, en/uk/pl): the
account of each other seat's turn and "since your last turn", who is thinking while a bot
decides, the board's marks of what another seat changed (with motion only when motion is
allowed), the optional sounds, and the replay by turn with "my turns" and every hand once
the game is over. Screenshots are kept under artifacts/screenshots/story-*."""

from __future__ import annotations

import random

import pytest
from test_web_screens import axe_violations, serve_axe, set_language
from webkit import READY, click_random_choice, http, pressed, shot, tool

PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}
DESK = {"width": 1400, "height": 900}
SIZES = {"phone": PHONE, "desk": DESK}

# Web Audio without a sound card: the chime's sine notes count in __tones, the other sounds' in __effects;
# Element.animate is counted (the marks' motion).
FAKES = """
window.__tones = 0; window.__effects = 0; window.__anims = 0;
(() => {
  class Param { setValueAtTime() {} exponentialRampToValueAtTime() {} linearRampToValueAtTime() {} }
  class Node { constructor() { this.gain = new Param(); this.frequency = new Param(); this.type = ""; }
               connect() {} stop() {}
               start() { if (this.type === "sine") window.__tones += 1; else window.__effects += 1; } }
  window.AudioContext = class { constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
    createGain() { return new Node(); } createOscillator() { return new Node(); }
    resume() { return Promise.resolve(); } };
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...a) { window.__anims += 1; return animate.apply(this, a); };
})();
"""
MINE = (
    "() => { const s = window.__session && window.__session.snap; return !!s && !!s.decision"
    " && s.decision.player === s.seat && !s.decision.auto && s.status !== 'finished'; }"
)
SETTLED = (
    "() => { const s = window.__session && window.__session.snap; const p = document.querySelector('.prompt');"
    " return !!s && !!p && String(p.dataset.version) === String(s.version); }"
)
NO_MISSING = "() => window.__i18nMissing().filter((k) => k.includes('story') || k.includes('replay'))"


def open_page(new_page, live, size: str, lang: str, label: str):
    page = new_page(**SIZES[size], label=label)
    page.add_init_script(FAKES)
    serve_axe(page, live.base)
    set_language(page, live.base, lang)
    return page


def join(page, live, bots: list[str], seed: int, bot_delay: float, name: str = "Ann") -> tuple[str, str]:
    body = {
        "game": "red-rising",
        "seed": seed,
        "bot_delay": bot_delay,
        "seats": [{"type": "human", "name": name}]
        + [{"type": "bot", "bot": b, "name": f"Bo{i}"} for i, b in enumerate(bots)],
    }
    status, g = http("POST", f"{live.base}/api/games", body)
    assert status == 201, g
    page.goto(live.base + g["seats"][0]["invite_url"])
    page.click(".join-btn")
    page.wait_for_selector(".board .rr-board")
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('redtable.seats'))['{g['game_id']}'].token")
    return g["game_id"], token


def play_my_turn(page, rnd: random.Random) -> None:
    """Decide through the page until the decision is no longer ours."""
    for _ in range(20):
        page.wait_for_function(MINE, timeout=30000)
        page.wait_for_function(READY)
        v = page.evaluate("() => window.__session.snap.version")
        if not click_random_choice(page, rnd):
            continue
        page.wait_for_function(f"() => window.__session.snap.version > {v}")
        if not page.evaluate(MINE):
            return
    raise AssertionError("our turn did not end")


# ---------------------------------------------------------------------- live: the turn accounts
@pytest.mark.parametrize("size,lang", [(s, lang) for lang in ("en", "uk", "pl") for s in ("phone", "desk")])
def test_other_seats_turns_are_told_shown_and_sound(live, new_page, size, lang):
    page = open_page(new_page, live, size, lang, f"story {size} {lang}: ")
    gid, _ = join(page, live, ["random", "random"], seed=21, bot_delay=0.7)
    rnd = random.Random(3)
    # the sounds: off by default, remembered once on
    assert pressed(tool(page, ".chime")) == "false"
    tool(page, ".chime").click()
    assert page.evaluate("() => localStorage.getItem('redtable.chime')") == "on"
    # while a bot decides, the prompt says who is thinking
    if page.evaluate(MINE):
        play_my_turn(page, rnd)
    # (read where it is found: the bot's turn may end, and the line go, right after)
    thinking = page.wait_for_function(
        "() => { const e = document.querySelector('.prompt .bot-thinking'); return e && e.textContent; }"
    ).json_value()
    assert "Bo" in thinking and thinking.strip() != "story.thinking", thinking
    shot(page, f"story-thinking-{size}-{lang}", full_page=False)
    # a bot's turn marks what it changed on the board, no motion (the page's default here:
    # reduced motion); (the page may have opened after the bot's turn that changed something)
    for _ in range(3):
        if page.evaluate(MINE):
            play_my_turn(page, rnd)
        try:
            page.wait_for_selector(".board .hl", timeout=12000)
            break
        except Exception:  # noqa: BLE001
            continue
    assert page.query_selector(".board .hl"), "nothing marked"
    assert page.evaluate("() => window.__anims") == 0
    shot(page, f"story-highlight-{size}-{lang}", full_page=False)
    # our turn, played; our turn again: the two bots' turns since ours, the last one in a line
    play_my_turn(page, rnd)
    page.wait_for_function(MINE, timeout=30000)
    page.wait_for_function(SETTLED)
    # the bots have stopped: the last marks go after about 1.5 s
    page.wait_for_function("() => !document.querySelector('.board .hl')", timeout=4000)
    line = page.text_content(".turn-story .story-line")
    assert line and line.strip().startswith("Bo"), line
    assert "{" not in line and "story." not in line, line
    assert page.evaluate("() => window.__tones") >= 2  # the chime: our turn came
    where = page.evaluate("""() => { const s = document.querySelector('.turn-story');
      return {afterPrompt: s.previousElementSibling && s.previousElementSibling.classList.contains('prompt'),
              inLog: !!s.closest('.log'), shown: s.getClientRects().length > 0,
              since: document.querySelectorAll('.turn-story .story-list li').length}; }""")
    assert where["shown"], where
    assert where["afterPrompt"] if size == "phone" else where["inLog"], where
    assert where["since"] >= 2, where  # both bots' turns
    page.click(".turn-story summary")
    items = page.eval_on_selector_all(".turn-story .story-list li", "els => els.map((e) => e.textContent)")
    assert all(i.strip().startswith("Bo") for i in items), items
    shot(page, f"story-since-{size}-{lang}", full_page=False)
    assert page.evaluate(NO_MISSING) == []
    problems = axe_violations(page, live.base, f"{size} {lang} story")
    assert problems == [], "\n".join(problems)
    # motion allowed: the next marks move in from where they were
    page.emulate_media(reduced_motion="no-preference")
    play_my_turn(page, rnd)
    page.wait_for_function("() => window.__anims > 0", timeout=30000)
    page.wait_for_selector(".board .hl")
    shot(page, f"story-motion-{size}-{lang}", full_page=False)
    # a bot's deploy sounded (a turn may scout instead: a few turns at most)
    for _ in range(4):
        if page.evaluate("() => (window.__sounds || []).includes('deploy')"):
            break
        play_my_turn(page, rnd)
        page.wait_for_function(MINE, timeout=30000)
    assert page.evaluate("() => (window.__sounds || []).includes('deploy')")
    assert page.evaluate("() => window.__effects") > 0
    http("DELETE", f"{live.base}/api/games/{gid}")  # (best effort: the server may keep it)


def test_the_sounds_each_kind_and_off_by_default(live, new_page):
    """The block and end sounds (rarer in a short game): made by the same module the table calls."""
    page = open_page(new_page, live, "desk", "en", "sounds: ")
    join(page, live, ["random"], seed=8, bot_delay=0.2)
    kinds = page.evaluate("""async () => {
      const m = await import('/js/sounds.js');
      return [m.soundOf([{kind: 'block'}, {kind: 'deploy'}], false, 'active'),
              m.soundOf([{kind: 'deploy'}], false, 'active'), m.soundOf([], false, 'finished'),
              m.soundOf([], true, 'finished'), m.soundOf([{kind: 'gain'}], false, 'active')];
    }""")
    assert kinds == ["block", "deploy", "end", None, None]
    # off (the default): the table makes none
    silent = page.evaluate("""async () => {
      const m = await import('/js/sounds.js'); const s = new m.TableSounds();
      s.heard(null, 'active', false); s.heard([{kind: 'block'}], 'finished', true); return window.__effects; }""")
    assert silent == 0
    tool(page, ".chime").click()
    made = page.evaluate("""async () => {
      const m = await import('/js/sounds.js'); const s = new m.TableSounds(); const before = window.__effects;
      s.heard(null, 'active', false); s.heard([{kind: 'block'}], 'active', true); s.heard([], 'finished', true);
      return [window.__effects - before, window.__sounds.slice(-2)]; }""")
    assert made[0] > 0 and made[1] == ["block", "end"]


# ---------------------------------------------------------------------- the replay
def finish_by_http(live, gid: str, token: str, rnd: random.Random, stop_at: int | None = None) -> None:
    """Our decisions over HTTP at random until the game is over (or ``stop_at`` steps)."""
    for _ in range(3000):
        _, g = http("GET", f"{live.base}/api/games/{gid}?events=false", token=token)
        if g["status"] == "finished" or (stop_at is not None and g["step"] >= stop_at):
            return
        d = g.get("decision")
        if d and d.get("player") == 0 and d.get("options") and not d.get("auto"):
            http(
                "POST",
                f"{live.base}/api/games/{gid}/decisions",
                {"action": rnd.choice(d["options"]), "version": g["version"]},
                token,
            )
        else:
            import time

            time.sleep(0.01)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("size,lang", [(s, lang) for lang in ("en", "uk", "pl") for s in ("phone", "desk")])
def test_replay_by_turn_my_turns_and_every_hand_at_the_end(live, new_page, size, lang):
    page = open_page(new_page, live, size, lang, f"replay {size} {lang}: ")
    gid, token = join(page, live, ["random"], seed=31, bot_delay=0.0)
    rnd = random.Random(5)
    finish_by_http(live, gid, token, rnd, stop_at=12)
    # not over: the replay shows no other hand
    page.goto(f"{live.base}/#/replay/{gid}?step=6")
    page.wait_for_selector(".prompt .prompt-title")
    page.wait_for_function("() => !!document.querySelector('.replay-turns')")
    assert page.query_selector(".replay-hands") is None
    # our turn in the live game: no notice of it covers its own replay
    page.evaluate("window.__turnWatch.poll()")
    page.wait_for_timeout(300)
    assert page.locator(f'.turn-notice[data-game="{gid}"]').count() == 0
    finish_by_http(live, gid, token, rnd)
    page.goto(f"{live.base}/#/")
    page.goto(f"{live.base}/#/replay/{gid}")
    page.wait_for_selector(".replay-turns .mode-turn[aria-pressed=true]")
    label = lambda: page.evaluate("() => Number(new URLSearchParams(location.hash.split('?')[1]).get('step'))")  # noqa: E731
    # by turn: › goes to the end of the next turn and says what it did
    page.click(".scrubber [data-act=next]")
    page.wait_for_selector(".prompt .step-story")
    first = label()
    page.click(".scrubber [data-act=next]")
    page.wait_for_function(f"() => /step=(\\d+)/.exec(location.hash)[1] !== '{first}'")
    second = label()
    assert second > first
    story = page.text_content(".prompt .step-story")
    assert story and "{" not in story, story
    shot(page, f"story-replay-turn-{size}-{lang}", full_page=False)
    # by decision: one step at a time
    page.click(".replay-turns .mode-decision")
    page.click(".scrubber [data-act=next]")
    page.wait_for_function(f"() => /step=(\\d+)/.exec(location.hash)[1] === '{second + 1}'")
    # my turns: each jump lands where one of ours ended, told with our name
    page.click(".replay-turns .mode-turn")
    page.click(".scrubber [data-act=first]")
    for _ in range(2):
        before = label()
        page.click(".replay-mine .my-next")
        page.wait_for_function(f"() => /step=(\\d+)/.exec(location.hash)[1] !== '{before}'")
        page.wait_for_function(
            "() => (document.querySelector('.prompt .step-story') || {}).textContent?.startsWith('Ann')"
        )
    shot(page, f"story-replay-mine-{size}-{lang}", full_page=False)
    # the game is over: every hand, at every step
    page.wait_for_selector(".replay-hands .replay-hand")
    assert len(page.query_selector_all(".replay-hands .replay-hand")) == 2
    chips = page.query_selector_all(".replay-hands .hand-chip")
    assert chips, "no card shown in the hands"
    page.eval_on_selector(".replay-hands", "el => el.scrollIntoView({block: 'start'})")
    shot(page, f"story-replay-hands-{size}-{lang}", full_page=False)
    assert page.evaluate(NO_MISSING) == []
    problems = axe_violations(page, live.base, f"{size} {lang} replay")
    assert problems == [], "\n".join(problems)


def test_red_north_turns_are_told_too(live, new_page):
    """Red North's account is its turn's own log sentences (rnstory.js): a line after the bot acts."""
    page = open_page(new_page, live, "desk", "pl", "rn story: ")
    status, g = http(
        "POST",
        f"{live.base}/api/games",
        {
            "game": "red-north",
            "seed": 4,
            "bot_delay": 0.3,
            "seats": [{"type": "human", "name": "Ann"}, {"type": "bot", "name": "Bo"}],
        },
    )
    assert status == 201, g
    page.goto(live.base + g["seats"][0]["invite_url"])
    page.click(".join-btn")
    page.wait_for_selector(".board .rn-board")
    rnd = random.Random(2)
    for _ in range(6):
        if page.evaluate("() => !!document.querySelector('.turn-story:not([hidden]) .story-line')"):
            break
        play_my_turn(page, rnd)
        page.wait_for_function(MINE, timeout=30000)
        page.wait_for_function(SETTLED)
    line = page.text_content(".turn-story .story-line")
    assert line and line.strip().startswith("Bo") and "{" not in line, line
    shot(page, "story-rn-desk-pl", full_page=False)
