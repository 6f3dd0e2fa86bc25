"""Every God's power, invoked in Ragnarok."""

from redtable.rednorth import RedNorth
from redtable.rednorth.cards import BLUE, KIND_OF_SLUG, KIND_SLUG, RED, hero
from redtable.rednorth.gods import FREYA, GODS, HEL, LOKI, NORNIR, ODIN, SAGA, THOR, TYR
from redtable.rednorth.scenario import goto_turn, hand, party, refresh, set_hand, set_party


def ragnarok(god, players=3, seed=0):
    s = RedNorth(players).new_initial_state(seed)
    goto_turn(s, 0, round=3)
    s.god[0] = god
    refresh(s)
    return s


def test_thor_retrieves_the_set_aside_hero():
    s = ragnarok(THOR)
    s.set_aside = hero(RED)
    set_hand(s, 0, [])
    refresh(s)
    s.apply("invoke:thor")
    assert hand(s, 0) == ["hero-red"] and s.set_aside == -1
    assert s.known[0][hero(RED)] == 1  # everybody saw which Hero it was
    assert s.decision().player == 1
    s2 = ragnarok(THOR)
    s2.set_aside = -1
    refresh(s2)
    assert "invoke:thor" not in s2.decision().options


def test_loki_places_two_glory_on_any_non_jarl_cards():
    s = ragnarok(LOKI)
    set_party(s, 0, ["+jarl", "raider-red", "+hero-blue"])
    s.apply("invoke:loki")
    d = s.decision()
    assert (d.kind, d.player, d.options, d.context) == ("loki", 0, ("slot:1", "slot:2"), {"glory_left": 2})
    s.apply("slot:1")
    assert s.decision().context == {"glory_left": 1}
    s.apply("slot:1")
    assert party(s, 0) == ["+jarl", "raider-red/2", "+hero-blue"]  # face-down cards too
    assert s.decision().kind == "turn" and s.decision().player == 1
    assert s.glory[0] == 1  # from the supply, not from the player's own Glory
    s2 = ragnarok(LOKI)
    set_party(s2, 0, ["jarl", "+jarl"])
    assert "invoke:loki" not in s2.decision().options


def test_odin_gains_two_vp():
    s = ragnarok(ODIN)
    s.apply("invoke:odin")
    assert s.vp[0] == 2


def test_freya_draws_a_card_and_places_it_face_down_at_an_end():
    s = ragnarok(FREYA)
    set_party(s, 0, ["raider-red", "jarl", "raider-blue"])
    top = s.deck[-1]
    deck = len(s.deck)
    s.apply("invoke:freya")
    d = s.decision()
    assert (d.kind, d.player, d.options) == ("freya", 0, ("left", "right"))
    assert d.context == {"card": KIND_SLUG[top]}
    assert s.view(0)["pending"]["card"] == KIND_SLUG[top]
    assert s.view(1)["pending"]["card"] is None  # looked at secretly
    s.apply("left")
    assert party(s, 0) == [KIND_SLUG[top], "raider-red", "jarl", "raider-blue"]  # 4 face-down cards
    assert len(s.deck) == deck - 1
    assert s.view(1)["seats"][0]["party"][0]["card"] is None
    s2 = ragnarok(FREYA)
    s2.deck = []
    refresh(s2)
    assert "invoke:freya" not in s2.decision().options


def test_nornir_retrieves_all_glory_from_the_party():
    s = ragnarok(NORNIR)
    set_party(s, 0, ["+raider-red/1", "raider-blue/2", "+jarl"])
    s.glory[0] = 0
    s.apply("invoke:nornir")
    assert s.glory[0] == 3 and party(s, 0) == ["+raider-red", "raider-blue", "+jarl"]
    goto_turn(s, 0)
    assert "inspire:0" in s.decision().options  # replayed later as regular actions
    s2 = ragnarok(NORNIR)
    set_party(s2, 0, ["+raider-red"])
    assert "invoke:nornir" not in s2.decision().options


def test_tyr_draws_four_cards():
    s = ragnarok(TYR)
    n, deck = s.hand_n[0], list(s.deck)
    s.apply("invoke:tyr")
    assert s.hand_n[0] == n + 4 and s.deck == deck[:-4]
    draw = [e for e in s.events if e.kind == "draw"][-1]
    assert draw.to == (0,) and sorted(draw.data["cards"]) == sorted(KIND_SLUG[k] for k in deck[-4:])
    assert [e for e in s.events if e.kind == "tyr"][-1].data == {"player": 0, "count": 4}


def test_saga_turns_one_card_of_each_opponent_skipping_those_without_face_down():
    s = ragnarok(SAGA, players=4)
    set_party(s, 0, ["raider-red"])
    set_party(s, 1, ["+jarl", "raider-red", "hero-blue"])
    set_party(s, 2, ["+raider-green"])
    set_party(s, 3, ["jarl"])
    s.known[1][hero(BLUE)] = 1
    s.apply("invoke:saga")
    d = s.decision()
    assert (d.kind, d.player, d.options, d.context) == ("saga", 0, ("slot:1", "slot:2"), {"opponent": 1})
    s.apply("slot:2")
    assert party(s, 1) == ["+jarl", "raider-red", "+hero-blue"]
    assert s.known[1][hero(BLUE)] == 0  # now face up: no longer a hidden card
    d = s.decision()
    assert (d.kind, d.options, d.context) == ("saga", ("slot:0",), {"opponent": 3})  # 2 skipped
    s.apply("slot:0")
    assert party(s, 3) == ["+jarl"] and party(s, 0) == ["raider-red"]
    assert s.decision().kind == "turn" and s.decision().player == 1
    s2 = ragnarok(SAGA, players=2)
    set_party(s2, 1, ["+jarl"])
    assert "invoke:saga" not in s2.decision().options


def test_hel_places_a_discarded_raider_or_jarl_anywhere():
    s = ragnarok(HEL)
    set_party(s, 0, ["raider-red", "+jarl"])
    s.discard = [0] * 11
    s.discard[KIND_OF_SLUG["raider-blue"]] = 1
    s.discard[KIND_OF_SLUG["jarl"]] = 2
    s.discard[hero(RED)] = 1
    s.apply("invoke:hel")
    d = s.decision()
    assert d.kind == "hel"
    assert d.options == ("raider-blue:0", "raider-blue:1", "raider-blue:2", "jarl:0", "jarl:1", "jarl:2")
    s.apply("jarl:1")  # between other cards
    assert party(s, 0) == ["raider-red", "+jarl", "+jarl"]
    assert s.discard[KIND_OF_SLUG["jarl"]] == 1
    s2 = ragnarok(HEL)
    s2.discard = [0] * 11
    s2.discard[hero(RED)] = 1
    refresh(s2)
    assert "invoke:hel" not in s2.decision().options


def test_god_texts_come_from_the_data():
    s = ragnarok(ODIN)
    assert s.describe("invoke:odin") == f"Invoke Odin: {GODS[ODIN].text}"
    assert s.view(0)["gods"]["saga"] == GODS[SAGA].text
    assert "2 VP" in GODS[ODIN].text and "4 cards" in GODS[TYR].text
