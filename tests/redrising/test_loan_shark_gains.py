"""Loan Shark: "They may give you 2 Helium to immediately take 1 turn out of order (but may
not gain Loan Shark)". No gain of that turn offers or takes Loan Shark: the Lead's gain step
and every ability that gains a card from a location. An ability whose gain is impossible is
ignored whole (rulebook: "If it's not possible for you to use the deploy ability of a card,
you may still deploy it and ignore the ability"), so "Gain ... Banish this unless ..." leaves
the card deployed. In a normal turn Loan Shark is offered as usual.

Abilities that gain a card from a location (the ``gain_c`` steps of abilities*.py):

* Loan Shark may be the card: Darrow, Cassius, Victra, Octavia, Sevro (The Howlers
  instead), Developer, Banker, and the Lead's gain step;
* only cards of some colours or names, never Loan Shark (a Silver): Romulus, Sefi, Alfrun,
  Jopho, the seven Oranges, the seven Grays, Conversationalist and Theodora (these two may
  move Loan Shark, which is no gain);
* at the end of the game (never in a turn out of order): Banker, Justice, Martyr.
"""

import pytest

import redtable.redrising.game  # noqa: F401  (registers the cards)
from redtable.redrising.cards import NUM_CARDS, SLUG
from redtable.redrising.testing import hand_names, location_names, play, scenario

LS = "loan-shark"


def check(st):
    cards = sorted([c for h in st.hands for c in h] + [c for loc in st.locs for c in loc] + st.deck + st.banished)
    assert cards == list(range(NUM_CARDS))


def banished(st):
    return sorted(SLUG[c] for c in st.banished)


def pos(st, slug):
    """The choice id of a card on a location ("mars:1")."""
    for name in ("jupiter", "mars", "luna", "institute"):
        cards = location_names(st, name)
        if slug in cards:
            return f"{name}:{cards.index(slug)}"
    raise AssertionError(f"{slug} is on no location")


def position(oot: bool, card: str, where: str = "mars", under=(), locations=None, hand=(), helium=0, **kw):
    """Player 1 about to deploy ``card``, with Loan Shark on top of ``where`` (over ``under``).

    ``oot``: in Loan Shark's turn out of order (player 0 deployed it and player 1 paid);
    otherwise in player 1's normal turn, Loan Shark having been deployed before."""
    locs = dict(locations or {})
    locs.setdefault("institute", ["ceo"])  # something for the Lead's gain step
    if oot:
        locs[where] = list(under)
        st = scenario(2, hands={0: [LS], 1: [card, *hand]}, locations=locs, helium=[0, helium + 2], **kw)
        play(st, LS, where, "yes")
        assert st.turn.player == 1 and not st.turn.counted
    else:
        locs[where] = [*under, LS]
        st = scenario(2, hands={1: [card, *hand]}, locations=locs, helium=[2, helium], current=1, **kw)
        assert st.turn.player == 1 and st.turn.counted
    d = st.decision()
    assert d.player == 1 and d.kind == "action"
    return st


def gain_step(st):
    d = st.decision()
    assert d.player == 1 and d.kind == "gain"
    return d


# ---------------------------------------------------------------------------- Darrow
def test_darrow_out_of_order_is_not_offered_loan_shark():
    st = position(True, "darrow", under=["eo", "deanna"])
    play(st, "darrow", "mars")
    d = st.decision()
    assert d.kind == "choose_card" and set(d.options) == {"mars:0", "mars:1"}  # Loan Shark is mars:2
    play(st, "mars:1")
    assert hand_names(st, 1) == ["deanna"] and "darrow" in banished(st)  # not deployed on a Gold
    assert location_names(st, "mars") == ["eo", LS]
    check(st)


def test_darrow_out_of_order_with_only_loan_shark_to_gain_stays_deployed():
    st = position(True, "darrow")
    play(st, "darrow", "mars")
    d = gain_step(st)  # the ability is impossible: ignored whole, straight to the Lead's gain
    assert "mars" not in d.options
    assert hand_names(st, 1) == [] and location_names(st, "mars") == [LS, "darrow"]
    assert "darrow" not in banished(st) and LS not in banished(st)
    check(st)


def test_darrow_normal_turn_gains_loan_shark():
    st = position(False, "darrow", under=["eo"])
    play(st, "darrow", "mars")
    d = st.decision()
    assert d.kind == "choose_card" and set(d.options) == {"mars:0", "mars:1"}
    play(st, "mars:1")
    assert hand_names(st, 1) == [LS] and "darrow" in banished(st)
    check(st)


# ---------------------------------------------------------------------------- Cassius
def test_cassius_out_of_order_on_loan_shark_is_ignored_and_stays():
    st = position(True, "cassius", under=["eo"])
    play(st, "cassius", "mars")
    gain_step(st)
    assert hand_names(st, 1) == [] and location_names(st, "mars") == ["eo", LS, "cassius"]
    assert "cassius" not in banished(st)
    check(st)


def test_cassius_normal_turn_gains_loan_shark_and_is_banished():
    st = position(False, "cassius", under=["eo"])
    play(st, "cassius", "mars")
    gain_step(st)
    assert hand_names(st, 1) == [LS] and location_names(st, "mars") == ["eo"]
    assert "cassius" in banished(st)  # Loan Shark is not a Gold
    check(st)


# ---------------------------------------------------------------------------- Victra
def test_victra_out_of_order_with_loan_shark_at_the_bottom_is_ignored_and_stays():
    st = position(True, "victra")
    play(st, "victra", "mars")
    gain_step(st)
    assert hand_names(st, 1) == [] and location_names(st, "mars") == [LS, "victra"]
    assert "victra" not in banished(st)
    check(st)


def test_victra_normal_turn_gains_loan_shark_at_the_bottom():
    st = position(False, "victra")
    play(st, "victra", "mars")
    gain_step(st)
    assert hand_names(st, 1) == [LS] and "victra" in banished(st)  # not deployed on a Gold
    check(st)


# ---------------------------------------------------------------------------- Octavia
def test_octavia_out_of_order_with_loan_shark_at_the_bottom_of_luna_is_ignored_and_stays():
    st = position(True, "octavia", where="luna", sovereign=1)
    play(st, "octavia", "mars")
    gain_step(st)
    assert hand_names(st, 1) == [] and location_names(st, "luna") == [LS]
    assert location_names(st, "mars") == ["octavia"] and "octavia" not in banished(st)
    check(st)


def test_octavia_normal_turn_gains_loan_shark_from_the_bottom_of_luna():
    st = position(False, "octavia", where="luna", sovereign=1)
    play(st, "octavia", "mars")
    gain_step(st)
    assert hand_names(st, 1) == [LS] and "octavia" in banished(st)  # Loan Shark is not a Gold
    check(st)


# ---------------------------------------------------------------------------- Sevro
def test_sevro_out_of_order_banishes_loan_shark_without_offering_the_howlers():
    st = position(True, "sevro", hand=["the-howlers"])
    play(st, "sevro", "mars")
    gain_step(st)  # no "reveal The Howlers to instead gain it?"
    assert LS in banished(st) and hand_names(st, 1) == ["the-howlers"]
    assert location_names(st, "mars") == ["sevro"]
    check(st)


def test_sevro_normal_turn_may_reveal_the_howlers_to_gain_loan_shark():
    st = position(False, "sevro", hand=["the-howlers"])
    play(st, "sevro", "mars")
    d = st.decision()
    assert d.kind == "may"
    play(st, "yes")
    assert hand_names(st, 1) == [LS, "the-howlers"] and LS not in banished(st)
    check(st)


# ---------------------------------------------------------------------------- Developer
def test_developer_out_of_order_with_only_loan_shark_offers_nothing():
    st = position(True, "developer")
    play(st, "developer", "mars")
    gain_step(st)  # no choice, the turn was not ended
    assert hand_names(st, 1) == [] and location_names(st, "mars") == [LS, "developer"]
    check(st)


def test_developer_out_of_order_is_not_offered_loan_shark():
    st = position(True, "developer", under=["eo"])
    play(st, "developer", "mars")
    d = st.decision()
    assert d.kind == "choose_card" and set(d.options) == {"mars:0", "none"}


def test_developer_normal_turn_offers_loan_shark():
    st = position(False, "developer", under=["eo"])
    play(st, "developer", "mars")
    d = st.decision()
    assert d.kind == "choose_card" and set(d.options) == {"mars:0", "mars:1", "none"}
    play(st, "mars:1")  # gained: the turn ends (no Lead's gain), the next player's turn
    assert hand_names(st, 1) == [LS] and st.turns == [0, 1] and st.decision().player == 0
    check(st)


# ---------------------------------------------------------------------------- Banker
def test_banker_out_of_order_with_only_loan_shark_is_not_offered_the_trade():
    st = position(True, "banker", helium=3)
    play(st, "banker", "mars")
    gain_step(st)  # no "pay 3 Helium?": nothing it may gain
    assert st.helium[1] == 3 and hand_names(st, 1) == [] and "banker" not in banished(st)
    check(st)


def test_banker_out_of_order_is_not_offered_loan_shark():
    st = position(True, "banker", under=["eo", "deanna"], helium=3)
    play(st, "banker", "mars", "yes")
    d = st.decision()
    assert d.kind == "choose_card" and set(d.options) == {"mars:0", "mars:1"}
    play(st, "mars:0")
    assert hand_names(st, 1) == ["eo"] and st.helium[1] == 0 and "banker" in banished(st)
    check(st)


def test_banker_normal_turn_offers_loan_shark():
    st = position(False, "banker", under=["eo"], helium=3)
    play(st, "banker", "mars", "yes")
    d = st.decision()
    assert d.kind == "choose_card" and set(d.options) == {"mars:0", "mars:1"}
    play(st, "mars:1")
    assert hand_names(st, 1) == [LS] and "banker" in banished(st)
    check(st)


# ---------------------------------------------------------------------------- the Lead's gain step
@pytest.mark.parametrize("oot", [True, False])
def test_lead_gain_step(oot):
    st = position(oot, "eo", where="luna")
    play(st, "eo", "jupiter")
    d = gain_step(st)
    assert ("luna" in d.options) is not oot
    if not oot:
        play(st, "luna")
        assert LS in hand_names(st, 1)


def test_out_of_order_lead_gain_with_only_loan_shark_and_no_deck_gains_nothing():
    st = position(True, "eo", where="luna", locations={"institute": []}, hand=["deanna"])
    st.banished.extend(st.deck)
    st.deck.clear()
    play(st, "eo", "jupiter")
    # nothing to gain; back to the Loan Shark player's turn, whose only gain is Eo; then
    # player 1's own turn (deploying Deanna, their only card)
    assert [e.data["player"] for e in st.events if e.kind == "nothing_to_gain"] == [1]
    assert hand_names(st, 0) == ["eo"] and hand_names(st, 1) == ["deanna"] and st.turns == [1, 0]
    assert location_names(st, "luna") == [LS]
    d = st.decision()
    assert d.player == 1 and d.kind == "deploy_location"
    check(st)


# ---------------------------------------------------------------------------- cards that never gain Loan Shark
# card -> two cards it may gain (from this location, or for Grays from any location)
ONLY_SOME = {
    "romulus": ("invictus", "quietus"),
    "sefi": ("helga", "ragnar"),
    "alfrun": ("nero", "jopho"),
    "jopho": ("nero", "alfrun"),
    "aegis-craftsman": ("nero", "lorn"),
    "artificer": ("nero", "cyther"),
    "cyther": ("invictus", "quietus"),
    "gravboot-cobbler": ("nero", "trigg"),
    "pulse-armorer": ("trigg", "danto"),
    "pulse-fist-engineer": ("helga", "ragnar"),
    "razor-designer": ("nero", "lorn"),
    "bridge": ("matteo", "reporter"),
    "colonel-valentin": ("nero", "lorn"),
    "danto": ("lawyer", "orator"),
    "holiday": ("cyther", "invictus"),
    "sun-hwa": ("helga", "hacker"),
    "trigg": ("surgeon", "hypnotist"),
    "ugly-dan": ("eo", "deanna"),
}


@pytest.mark.parametrize("oot", [True, False], ids=["out_of_order", "normal_turn"])
@pytest.mark.parametrize("card", sorted(ONLY_SOME))
def test_colour_and_name_limited_gains_work_as_usual(card, oot):
    a, b = ONLY_SOME[card]
    st = position(oot, card, under=[a, b])
    play(st, card, "mars")
    d = st.decision()
    assert d.kind == "choose_card" and set(d.options) - {"none"} == {"mars:0", "mars:1"}  # never Loan Shark
    play(st, "mars:1")
    if st.decision().kind == "may":  # a Gray: moved under it, "you may gain that card"
        play(st, "yes")
    assert b in hand_names(st, 1) and LS in location_names(st, "mars")
    check(st)


@pytest.mark.parametrize("oot", [True, False], ids=["out_of_order", "normal_turn"])
def test_conversationalist_may_move_loan_shark_but_gains_only_a_white(oot):
    st = position(oot, "conversationalist")
    play(st, "conversationalist", "luna")
    if st.decision().kind == "choose_card":
        play(st, "mars:0")
    assert location_names(st, "luna") == [LS, "conversationalist"] and hand_names(st, 1) == []
    check(st)


@pytest.mark.parametrize("oot", [True, False], ids=["out_of_order", "normal_turn"])
def test_theodora_may_move_loan_shark_but_gains_only_a_gold_or_red(oot):
    st = position(oot, "theodora")
    play(st, "theodora", "mars", "yes")
    assert location_names(st, "mars") == ["theodora", LS] and hand_names(st, 1) == []
    gain_step(st)
    check(st)


# ---------------------------------------------------------------------------- end of game
def _end_of_game(st, p):
    st.stack.clear()
    st.turn_stack.clear()
    st.phase = "end_of_game"
    st.push(("eog_player", p), {"p": p})
    st.run()


@pytest.mark.parametrize("card,loc", [("justice", "luna"), ("martyr", "mars"), ("banker", "mars")])
def test_end_of_game_gains_offer_loan_shark(card, loc):
    """No turn out of order at the end of the game: Loan Shark is offered as usual."""
    st = scenario(2, hands={0: [card]}, locations={loc: ["eo", LS], "jupiter": ["deanna"]}, sovereign=0, helium=[3, 0])
    _end_of_game(st, 0)
    if st.decision().kind == "may":  # Banker: pay 3 Helium?
        play(st, "yes")
    d = st.decision()
    assert d.kind == "choose_card" and pos(st, LS) in d.options
    play(st, pos(st, LS))
    assert LS in hand_names(st, 0)
