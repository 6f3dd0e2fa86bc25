"""Deployment, the Outpost powers after Deployment, and the Player Actions."""

import pytest

from redtable.core import IllegalAction
from redtable.rednorth import RedNorth
from redtable.rednorth.cards import BLUE, JARL, KIND_OF_SLUG, RED, hero
from redtable.rednorth.game import GOD_HEAD
from redtable.rednorth.gods import ODIN, THOR
from redtable.rednorth.scenario import goto_turn, hand, party, refresh, set_hand, set_owner, set_party


def new(players=3, seed=0, **options):
    return RedNorth(players, **options).new_initial_state(seed)


def deploy_all(s):
    while s.decision().kind == "deploy":
        s.apply(s.decision().options[0])


# ---------------------------------------------------------------------- deployment
def test_deploy_three_cards_face_down_left_to_right():
    s = new(2, seed=5)
    d = s.decision()
    assert (d.kind, d.player, d.context["placed"]) == ("deploy", 0, 0)
    set_hand(s, 0, ["raider-red", "jarl", "hero-blue", "raider-red"])
    assert s.decision().options == ("raider-red", "hero-blue", "jarl")  # one option per kind held
    for card in ("jarl", "raider-red", "hero-blue"):
        s.apply(card)
    assert party(s, 0) == ["jarl", "raider-red", "hero-blue"]  # all face down, in the order chosen
    assert hand(s, 0) == ["raider-red"]
    assert s.decision().kind == "deploy" and s.decision().player == 1  # then the next player


def test_deploy_of_one_player_is_hidden_from_the_next():
    s = new(3, seed=2)
    for _ in range(3):
        s.apply(s.decision().options[-1])
    d = s.decision()
    assert d.player == 1 and d.context == {"placed": 0, "party_size": 3}
    v = s.view(1)
    assert v["seats"][0]["party"] == [{"card": None, "face_up": False, "glory": 0, "champion": False}] * 3
    public = [e for e in s.events_for(1) if e.kind in ("deploy", "deployed")]
    assert [e.kind for e in public] == ["deployed"] and public[0].data == {"player": 0, "count": 3}


def test_after_deployment_red_then_yellow_then_first_player():
    s = new(4, seed=1)
    set_owner(s, "red", 2)
    set_owner(s, "yellow", 3)
    s.discard[KIND_OF_SLUG["raider-red"]] = 2
    s.discard[KIND_OF_SLUG["jarl"]] = 1
    s.discard[hero(BLUE)] = 1
    s.discard[KIND_OF_SLUG["raider-yellow"]] = 1
    deploy_all(s)
    d = s.decision()
    assert (d.kind, d.player) == ("angleland", 2)
    assert d.options == ("keep", "give:0", "give:1", "give:3")
    s.apply("give:1")
    assert s.first == 1
    d = s.decision()
    assert (d.kind, d.player) == ("sax", 3)
    # only Raiders from the discard pile, to either end
    assert d.options == ("skip", "raider-red:left", "raider-red:right", "raider-yellow:left", "raider-yellow:right")
    before = party(s, 3)
    s.apply("raider-red:left")
    assert party(s, 3) == ["+raider-red", *before]
    assert s.discard[KIND_OF_SLUG["raider-red"]] == 1
    d = s.decision()
    assert (d.kind, d.player) == ("turn", 1)  # the new First Player acts first


def test_red_outpost_holder_may_keep_and_yellow_may_skip():
    s = new(4, seed=1)
    set_owner(s, "red", 0)
    set_owner(s, "yellow", 0)
    s.first = 0
    s.discard[KIND_OF_SLUG["raider-green"]] = 1
    deploy_all(s)
    s.apply("keep")
    assert s.first == 0
    before = party(s, 0)
    s.apply("skip")
    assert party(s, 0) == before
    assert (s.decision().kind, s.decision().player) == ("turn", 0)


def test_sax_is_skipped_without_a_raider_in_the_discard_pile():
    s = new(4, seed=1)
    set_owner(s, "yellow", 3)
    s.discard[JARL] = 3
    s.discard[hero(RED)] = 1
    deploy_all(s)
    assert s.decision().kind == "turn" and s.decision().player == s.first


def test_no_outpost_powers_in_the_first_round():
    s = new(4, seed=9)
    deploy_all(s)
    assert s.decision().kind == "turn" and s.decision().player == s.first


# ---------------------------------------------------------------------- turn order
def test_turn_order_is_clockwise_from_first_player_and_skips_passed_players():
    s = new(3, seed=4)
    s.first = 1
    deploy_all(s)
    seq = []

    def act(option):
        seq.append(s.decision().player)
        s.apply(option)

    d = s.decision()
    assert d.player == 1
    act(next(o for o in d.options if o.startswith("pass")))
    act(next(o for o in s.decision().options if o.startswith("withdraw")))  # player 2
    act(next(o for o in s.decision().options if o.startswith("pass")))  # player 0 passes
    act(next(o for o in s.decision().options if o.startswith("withdraw")))  # player 2 again
    assert s.decision().player == 2  # the only one left keeps acting
    act(next(o for o in s.decision().options if o.startswith("pass")))
    assert seq == [1, 2, 0, 2, 2]
    assert s.round == 2 and s.decision().kind == "deploy"  # all passed: resolution ran


# ---------------------------------------------------------------------- actions
def test_withdraw_only_face_down_and_the_gap_closes():
    s = new(2)
    goto_turn(s, 0, round=1)
    set_party(s, 0, ["+raider-red", "jarl", "raider-blue"])
    set_hand(s, 0, [])
    opts = s.decision().options
    assert "withdraw:0" not in opts and "withdraw:1" in opts and "withdraw:2" in opts
    s.apply("withdraw:1")
    assert party(s, 0) == ["+raider-red", "raider-blue"]
    assert hand(s, 0) == ["jarl"]
    assert s.decision().player == 1


def test_reinforce_flips_then_adds_face_up_at_an_end():
    s = new(2)
    goto_turn(s, 0, round=1)
    set_party(s, 0, ["raider-red", "+jarl", "hero-blue"])
    set_hand(s, 0, ["raider-green", "jarl"])
    opts = s.decision().options
    assert [o for o in opts if o.startswith("reinforce")] == ["reinforce:0", "reinforce:2"]
    s.apply("reinforce:2")
    assert party(s, 0) == ["raider-red", "+jarl", "+hero-blue"]
    d = s.decision()
    assert (d.kind, d.player) == ("reinforce", 0)
    assert d.options == ("raider-green:left", "raider-green:right", "jarl:left", "jarl:right")
    s.apply("jarl:left")
    assert party(s, 0) == ["+jarl", "raider-red", "+jarl", "+hero-blue"]
    assert hand(s, 0) == ["raider-green"]
    assert s.decision().player == 1
    goto_turn(s, 0)
    s.apply("reinforce:1")
    s.apply("raider-green:right")
    assert party(s, 0) == ["+jarl", "+raider-red", "+jarl", "+hero-blue", "+raider-green"]


def test_reinforce_needs_a_face_down_card_and_a_hand_card():
    s = new(2)
    goto_turn(s, 0, round=1)
    set_party(s, 0, ["raider-red"])
    set_hand(s, 0, [])
    assert not any(o.startswith("reinforce") for o in s.decision().options)
    set_party(s, 0, ["+raider-red"])
    set_hand(s, 0, ["jarl"])
    assert not any(o.startswith("reinforce") for o in s.decision().options)


def test_inspire_on_face_up_raiders_and_heroes_only():
    s = new(2)
    goto_turn(s, 0, round=1)
    set_party(s, 0, ["+raider-red", "+jarl", "hero-blue", "+hero-green/1"])
    s.glory[0] = 2
    assert [o for o in s.decision().options if o.startswith("inspire")] == ["inspire:0", "inspire:3"]
    s.apply("inspire:3")
    assert party(s, 0)[3] == "+hero-green/2" and s.glory[0] == 1
    goto_turn(s, 0)
    s.glory[0] = 0
    assert not any(o.startswith("inspire") for o in s.decision().options)


def test_promote_needs_blue_outpost_and_champion_token():
    s = new(4)
    goto_turn(s, 0, round=2)
    set_party(s, 0, ["+raider-red", "+jarl", "jarl", "+hero-blue"])
    s.glory[0] = 0
    assert not any(o.startswith("promote") for o in s.decision().options)
    set_owner(s, "blue", 0)
    assert not any(o.startswith("promote") for o in s.decision().options)  # no Champion token
    s.champion = 0
    refresh(s)
    assert [o for o in s.decision().options if o.startswith("promote")] == ["promote:1"]  # face-up Jarl
    s.apply("promote:1")
    assert party(s, 0)[1] == "+jarl!" and s.champion_out
    goto_turn(s, 0)
    assert not any(o.startswith("promote") for o in s.decision().options)  # the token is on the Jarl
    s.owner[BLUE] = 1
    s.champion, s.champion_out = 0, False
    goto_turn(s, 0)
    assert not any(o.startswith("promote") for o in s.decision().options)  # token but not the Outpost


def test_invoke_only_in_ragnarok_and_only_once():
    s = new(3)
    goto_turn(s, 0, round=2)
    s.god[0] = ODIN
    assert not any(o.startswith("invoke") for o in s.decision().options)
    goto_turn(s, 0, round=3)
    assert "invoke:odin" in s.decision().options
    s.apply("invoke:odin")
    assert s.invoked[0] and s.view(1)["seats"][0]["invoked"]
    goto_turn(s, 0)
    assert not any(o.startswith("invoke") for o in s.decision().options)


def test_pass_in_spring_takes_hero_group_and_ends_your_round():
    s = new(3, seed=6)
    deploy_all(s)
    p = s.decision().player
    head, cards = s.muster[1]
    option = f"pass:{s.view(p)['muster'][1]['group']}"
    assert [o for o in s.decision().options if o.startswith("pass")] == [
        f"pass:{g['group']}" for g in s.view(p)["muster"]
    ]
    n = s.hand_n[p]
    before = list(s.hands[p])
    s.apply(option)
    assert s.passed[p] and s.hand_n[p] == n + 3
    assert s.hands[p][head] == before[head] + 1
    assert len(s.muster) == 3 and all(h != head for h, _ in s.muster)
    assert all(s.known[p][k] >= 1 for k in cards) and s.known[p][head] >= 1
    # a passed player is skipped from now on, until the round ends
    while s.round == 1:
        d = s.decision()
        assert d.player != p
        s.apply(d.options[-1])  # a pass
    assert s.decision().kind == "deploy"


def test_pass_in_summer_takes_the_god_and_in_ragnarok_nothing():
    s = new(2)
    goto_turn(s, 0, round=2)
    s.muster = [(GOD_HEAD + THOR, (0, 0, 1)), (GOD_HEAD + ODIN, (2, 2, 2))]
    n = s.hand_n[0]
    assert [o for o in s.decision().options if o.startswith("pass")] == ["pass:thor", "pass:odin"]
    s.apply("pass:odin")
    assert s.god[0] == ODIN and s.hand_n[0] == n + 3 and s.hands[0][2] >= 3
    assert s.view(1)["seats"][0]["god"] == "odin"
    goto_turn(s, 1, round=3)
    opts = s.decision().options
    assert "pass" in opts and not any(o.startswith("pass:") for o in opts)
    n = s.hand_n[1]
    s.apply("pass")
    assert s.hand_n[1] == n


def test_illegal_action_raises_and_changes_nothing():
    s = new(2, seed=3)
    key = s.information_key(None)
    hist = list(s.history)
    with pytest.raises(IllegalAction) as e:
        s.apply("withdraw:0")
    assert e.value.kind == "deploy" and e.value.player == 0
    assert s.information_key(None) == key and s.history == hist
    assert s.information_key(0) == s.clone().information_key(0)
