"""What the preferred option would have done (the review's ``why``), and its words in en/uk/pl.

On constructed positions the consequence is known: a Red Rising gain from Luna takes the
Sovereign token (the location's bonus) where a gain from Jupiter does not; the
sentence names it in the three languages, with the right plural forms. ``why`` is read from
the seat's view only (the information-set test of ``test_review_engine`` covers it: the
review, ``why`` included, does not change when the hidden cards are re-dealt).
"""

import pytest
from bot_helpers import GuardedState, random_positions

from redtable.core import make_game
from redtable.i18n import set_lang
from redtable.play.common import Seat
from redtable.play.terminal import make_renderer
from redtable.redrising.testing import play, scenario
from redtable.review import Budget, DecisionReview, review_decision
from redtable.review.consequences import Consequence, compare, facts_of, play_forward
from redtable.review.words import consequence, sentence, why_words


@pytest.fixture(autouse=True)
def english():
    set_lang("en")
    yield
    set_lang("en")


def luna_or_jupiter():
    """Seat 0 deployed Lorn to Mars and gains from a location: Luna's bonus is the Sovereign
    token (nobody holds it, so nobody can block)."""
    st = scenario(
        2,
        hands={0: ["Lorn"]},
        locations={"jupiter": ["Helga"], "mars": ["Eo"], "luna": ["Judge"], "institute": ["Seer"]},
        houses=["jupiter", "mars"],
    )
    play(st, "lorn", "mars")
    d = st.decision()
    assert d.kind == "gain" and {"luna", "jupiter"} <= set(d.options) and d.player == 0
    return st


def why_of(st, taken, preferred, samples=8):
    seat = st.decision().player
    _, ft = play_forward(st, seat, taken, samples, 5, None, "action")
    _, fp = play_forward(st, seat, preferred, samples, 5, None, "action")
    return compare(facts_of(st, seat), ft, fp)


def test_taking_from_luna_takes_the_sovereign_token():
    st = luna_or_jupiter()
    why = why_of(st, "jupiter", "luna")
    assert why[0] == Consequence("sovereign", 0.0, 1.0, 0.0)  # the first thing said
    assert [(c.fact, c.preferred - c.taken) for c in why] == [("sovereign", 1.0), ("points", 10.0)]  # the token's 10 VP
    assert why_of(st, "luna", "jupiter") == []  # the other way round, nothing the seat can see is better


SOVEREIGN_TAKEN = {
    "en": "taken the Sovereign token",
    "uk": "принесло б вам фішку володарювання",
    "pl": "dałoby ci znacznik Suwerena",
}


@pytest.mark.parametrize("lang", ["en", "uk", "pl"])
def test_the_sentence_names_the_token_in_three_languages(lang):
    st = luna_or_jupiter()
    why = tuple(why_of(st, "jupiter", "luna"))
    r = DecisionReview(3, 0, "gain", "jupiter", "luna", 0.4, 0.22, 0.31, why=why)
    renderer = make_renderer(st, [Seat(0, True), Seat(1, True)])
    set_lang(lang)
    text = sentence(renderer, st, r)
    assert SOVEREIGN_TAKEN[lang] in text
    assert "31%" in text and "22%" in text
    luna = {"en": "Luna", "uk": "Місяць", "pl": "Luna"}[lang]
    assert luna in text  # the option as the terminal offers it


def test_kept_taken_and_more_often():
    assert consequence({"fact": "sovereign", "taken": 0.1, "preferred": 0.9, "now": 1.0}) == "kept the Sovereign token"
    assert consequence({"fact": "sovereign", "taken": 0.0, "preferred": 1.0, "now": 0.0}) == "taken the Sovereign token"
    assert (
        consequence({"fact": "sovereign", "taken": 0.2, "preferred": 0.5, "now": 0.0})
        == "held the Sovereign token more often (50% of the plays instead of 20%)"
    )
    assert consequence({"fact": "champion", "taken": 0.0, "preferred": 1.0, "now": 1.0}) == "kept the Champion"


@pytest.mark.parametrize(
    "lang, n, want",
    [
        ("en", 1, "gained 1 more Helium"),
        ("en", 3, "moved you 3 more spaces along the Fleet Track"),
        ("uk", 1, "дало б на 1 фішку гелію більше"),
        ("uk", 3, "дало б на 3 фішки гелію більше"),
        ("uk", 5, "дало б на 5 фішок гелію більше"),
        ("pl", 1, "dałoby o 1 znacznik Helium więcej"),
        ("pl", 3, "dałoby o 3 znaczniki Helium więcej"),
        ("pl", 5, "dałoby o 5 znaczników Helium więcej"),
    ],
)
def test_counts_take_their_plural_forms(lang, n, want):
    set_lang(lang)
    fact = "fleet" if "Fleet" in want else "helium"
    assert consequence({"fact": fact, "taken": 1.0, "preferred": 1.0 + n, "now": 1.0}) == want


def test_a_mean_difference_is_rounded_and_two_facts_are_said():
    why = [
        {"fact": "outposts", "taken": 0.4, "preferred": 1.9, "now": 0.0},  # 1.5 -> 2
        {"fact": "glory", "taken": 1.0, "preferred": 1.5, "now": 1.0},  # 0.5 -> 1
        {"fact": "cards", "taken": 1.0, "preferred": 9.0, "now": 1.0},  # a third: not said
    ]
    assert why_words(why) == "held 2 more Outposts and kept 1 more Glory token"
    set_lang("pl")
    assert why_words(why) == "dałoby o 2 placówki więcej i zostawiłoby o 1 znacznik Chwały więcej"
    assert why_words([]) is None


def test_review_decision_says_why_from_the_seats_information_set():
    """``why`` is the comparison of the two options played forward from the seat's re-deals;
    on positions where the expert prefers another option it is there and only says gains."""
    found = 0
    for game, players, seed in (("red-rising", 2, 8), ("red-north", 2, 5)):
        for i, st in enumerate(random_positions(game, players, seed, count=6)):
            d = st.decision()
            seat = d.player
            for taken in d.options[:3]:
                r = review_decision(GuardedState(st, seat), taken, Budget(iterations=48), seed=3, step=i)
                if r.preferred == taken:
                    assert r.why == ()
                    continue
                for c in r.why:
                    assert c.preferred > c.taken
                found += bool(r.why)
    assert found >= 3


@pytest.mark.parametrize("lang", ["en", "uk", "pl"])
def test_red_north_vp_at_the_resolution_is_one_of_the_reasons(lang):
    set_lang(lang)
    c = {"fact": "vp", "taken": 1.0, "preferred": 3.2, "now": 0.0}
    want = {
        "en": "scored 2 more VP at this round's Resolution",
        "uk": "дало б на 2 ПО більше на розв'язці цього раунду",
        "pl": "dałoby o 2 PZ więcej w rozstrzygnięciu tej rundy",
    }
    assert consequence(c) == want[lang]


def test_facts_are_the_seats_public_ones():
    st = make_game("red-north", 2).new_initial_state(3)
    f = facts_of(st, 0)
    assert set(f) == {"vp", "outposts", "champion", "glory", "cards"}
    st = luna_or_jupiter()
    assert facts_of(st, 0) == {
        "sovereign": 0.0,
        "influence": 0.0,
        "helium": 0.0,
        "fleet": 0.0,
        "points": 0.0,
        "cards": 0.0,
    }
