"""Each Outpost's power, from winning it in a Resolution to using it the next round."""

from redtable.rednorth import RedNorth
from redtable.rednorth.cards import BLUE, GREEN, KIND_OF_SLUG, PURPLE, RED, YELLOW
from redtable.rednorth.outposts import OUTPOSTS
from redtable.rednorth.scenario import goto_turn, party, resolve_now, set_hand, set_party


def won_in_spring(colour_slot, winner=1, seed=4):
    """A 4-player game where ``winner`` wins exactly one Outpost in Spring; now Summer Deployment."""
    s = RedNorth(4).new_initial_state(seed)
    goto_turn(s, 0, round=1)
    for p in range(4):
        set_party(s, p, [colour_slot] if p == winner else [])
    resolve_now(s, 0)
    assert s.round == 2 and s.decision().kind == "deploy"
    return s


def deploy_all(s):
    while s.decision().kind == "deploy":
        s.apply(s.decision().options[0])


def test_vinland_gives_the_tie_breaker_which_wins_later_ties():
    s = won_in_spring("+raider-green", winner=2)
    assert s.owner[GREEN] == 2 and s.tiebreaker == 2
    goto_turn(s, 0)
    set_party(s, 0, ["+raider-red"])
    set_party(s, 1, [])
    set_party(s, 2, ["+raider-red"])
    set_party(s, 3, [])
    resolve_now(s, 0)
    assert s.owner[RED] == 2 and s.reports[-1]["outposts"]["red"]["decided_by"] == "tie-breaker"


def test_angleland_takes_first_player_and_may_give_it_away():
    s = won_in_spring("+raider-red", winner=3)
    assert s.owner[RED] == 3 and s.first == 3
    deploy_all(s)
    d = s.decision()
    assert (d.kind, d.player) == ("angleland", 3)
    s.apply("give:2")
    assert s.first == 2 and s.decision().player == 2
    assert [e for e in s.events if e.kind == "first-player"][-1].data == {
        "player": 3,
        "recipient": 2,
        "by": "angleland",
    }


def test_rus_gives_the_champion_token_for_promote():
    s = won_in_spring("+raider-blue", winner=1)
    assert s.owner[BLUE] == 1 and s.champion == 1
    goto_turn(s, 1)
    set_party(s, 1, ["+raider-blue", "+jarl", "+hero-red"])
    s.apply("promote:1")
    assert party(s, 1) == ["+raider-blue", "+jarl!", "+hero-red"]
    for p in (0, 2, 3):
        set_party(s, p, [])
    resolve_now(s, 1)
    rep = s.reports[-1]
    assert rep["raid_points"]["blue"][1] == 2 + 2 + 1  # + Rus' printed point
    assert rep["raid_points"]["red"][1] == 4 + 2
    assert s.champion == 1 and not s.champion_out  # taken back in D


def test_frankenland_draws_two_cards():
    s = RedNorth(4).new_initial_state(4)
    goto_turn(s, 0, round=1)
    for p in range(4):
        set_party(s, p, ["+raider-purple"] if p == 2 else [])
    n = s.hand_n[2]
    resolve_now(s, 0)
    assert s.owner[PURPLE] == 2 and s.hand_n[2] == n + 2


def test_sax_adds_a_discarded_raider_after_deployment():
    s = won_in_spring("+raider-yellow", winner=0)
    assert s.owner[YELLOW] == 0
    assert s.discard[KIND_OF_SLUG["raider-yellow"]] >= 1  # the winning Raider was discarded in E
    set_hand(s, 0, ["jarl", "jarl", "jarl"])
    deploy_all(s)
    if s.decision().kind == "angleland":
        s.apply("keep")
    d = s.decision()
    assert (d.kind, d.player) == ("sax", 0)
    s.apply("raider-yellow:right")
    assert party(s, 0) == ["jarl", "jarl", "jarl", "+raider-yellow"]


def test_outpost_view_renders_the_data():
    s = RedNorth(4, outpost_points={"blue": 3}).new_initial_state(0)
    outposts = {o["colour"]: o for o in s.view(1)["outposts"]}
    for o in OUTPOSTS:
        assert outposts[o.colour_name]["name"] == o.name and outposts[o.colour_name]["text"] == o.text
    assert outposts["blue"]["points"] == 3 and outposts["red"]["points"] == 1
    assert {o.name for o in OUTPOSTS} == {"Vinland", "Angleland", "Rus", "Frankenland", "Sax"}
    assert OUTPOSTS[RED].name == "Angleland"
