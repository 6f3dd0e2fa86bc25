"""Red Rising's turn flow: the steps of a turn (start, action, deploy, abilities, the
Lead's gain, scouting, end), the location bonuses, the Sovereign token and the Houses,
blocks, and the end of the game with its scoring. Each step is registered in
:data:`~.state.OPS` under its name (:func:`~.state.op`); :data:`STEPS` names them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Decision
from .board import (
    APOLLO,
    CERES,
    DIANA,
    DIE_FACES,
    HOUSE_JUPITER,
    HOUSE_MARS,
    HOUSE_NAMES,
    JUPITER,
    LOCATION_NAMES,
    LOCATION_OF_NAME,
    LUNA,
    MARS,
)
from .cards import BY_SLUG, SLUG

if TYPE_CHECKING:
    from .engine import RRState

from .state import NO_ONLY, OPS, Turn, gainable, op

_OPS_BEFORE = frozenset(OPS)

# ====================================================================== turn flow
_LOC_OPTIONS = {ex: tuple(LOCATION_NAMES[i] for i in range(4) if i != ex) for ex in range(-1, 4)}
# the options of a Lead's gain by bits: 1 << location for each location to gain from, 16 for the deck
_GAIN_OPTIONS = tuple(
    tuple(LOCATION_NAMES[i] for i in range(4) if bits >> i & 1) + (("deck",) if bits & 16 else ()) for bits in range(32)
)
_new_decision = tuple.__new__  # _new_decision(Decision, (...)): a Decision without the NamedTuple's Python __new__


def _loc_options(st: RRState, exclude: int = -1, nonempty: bool = False) -> tuple[str, ...]:
    if not nonempty:
        return _LOC_OPTIONS[exclude] if -1 <= exclude <= 3 else _LOC_OPTIONS[-1]
    return tuple(LOCATION_NAMES[i] for i in range(4) if i != exclude and st.locs[i])


@op("turn_start")
def _turn_start(st: RRState, node, ctx, answer):
    _, p, counted = node
    st.turn_stack.append(Turn(p, counted))
    if not st.quiet:
        st.log("turn", player=p, out_of_order=not counted, number=st.turns[p] + 1)
    ctx = {"p": p}
    stack = st.stack
    stack.append((_turn_end, ("turn_end",), ctx))
    stack.append((_action, ("action",), ctx))
    return None


@op("action")
def _action(st: RRState, node, ctx, answer):
    p = ctx["p"]
    if answer is None:
        hand = st.hands[p]
        opts = tuple([SLUG[c] for c in hand]) if hand else ("lead",)
        if st.deck:
            opts += ("scout",)
        return _new_decision(Decision, (p, "action", opts, {}))
    if answer == "scout":
        st.stack.append((_scout, ("scout",), ctx))
    elif answer == "lead":
        if not st.quiet:
            st.log("lead", player=p, empty_hand=True)
        st.stack.append((_lead_gain, ("lead_gain",), ctx))
    else:
        card = BY_SLUG[answer]
        if not st.quiet:
            st.log("lead", player=p)  # the card becomes public when it is deployed
        ctx = dict(ctx, lead=True)
        stack = st.stack
        stack.append((_lead_gain, ("lead_gain",), ctx))
        stack.append((_deploy, ("deploy", card, "hand", -1), ctx))
    return None


@op("deploy")
def _deploy(st: RRState, node, ctx, answer):
    """Deploy ``card`` from ``source`` (hand / a location / the deck's top) onto a location."""
    _, card, source, exclude = node
    p = ctx["p"]
    if answer is None:
        opts = _loc_options(st, exclude)
        return _new_decision(Decision, (p, "deploy_location", opts, {"card": SLUG[card], "source": source}))
    loc = LOCATION_OF_NAME[answer]
    if source == "hand":
        st.hands[p].remove(card)
    elif source == "deck":
        st.deck.pop()
    else:
        st.locs[LOCATION_OF_NAME[source]].remove(card)
    st.put_on(loc, card, "deploy", p)
    if card in st.facedown:  # put_on kept it hidden from the others; a deployed card is public
        for k in st.known:
            k.add(card)
    st.note_deploy(p, loc)
    ability = st.game.rules.deploy.get(card)
    if ability is not None:
        st.stack.append((_ability, ("ability", card, ability), {"p": p, "src": card, "loc": loc}))
    return None


@op("ability")
def _ability(st: RRState, node, ctx, answer):
    _, card, effect = node
    stack = st.stack
    if not st.quiet:
        st.log("ability", player=ctx["p"], card=SLUG[card])
        stack.append((_ability_end, ("ability_end", card, len(st.events), len(st.history)), ctx))
    stack.append((OPS[effect[0]], effect, ctx))
    return None


@op("ability_end")
def _ability_end(st: RRState, node, ctx, answer):
    """Note whether the ability took effect: it changed the game or offered a real choice
    (never on a search copy: :func:`_ability` does not push it there)."""
    _, card, n_events, n_history = node
    if len(st.events) > n_events or len(st.history) > n_history:
        st.log("ability_effect", player=ctx["p"], card=SLUG[card])
    return None


@op("lead_gain")
def _lead_gain(st: RRState, node, ctx, answer):
    p = ctx["p"]
    turn = st.turn_stack[-1]
    if turn.ended:
        return None
    if answer is None:
        mask = turn.deployed_mask
        avail = 16 if st.deck else 0
        for i, cards in enumerate(st.locs):
            if cards and not mask >> i & 1:
                avail |= 1 << i
        if not turn.counted:  # a turn out of order: a top card that may not be gained is no option
            for i, cards in enumerate(st.locs):
                if avail >> i & 1 and not gainable(st, cards[-1]):
                    avail &= ~(1 << i)
        opts = _GAIN_OPTIONS[avail]
        if not opts:
            st.log("nothing_to_gain", player=p)
            return None
        return _new_decision(
            Decision, (p, "gain", opts, {"deployed": LOCATION_NAMES[turn.deployed] if turn.deployed >= 0 else None})
        )
    if answer == "deck":
        st.take_to_hand(p, st.deck.pop(), "deck")
        st.stack.append((_die, ("die",), ctx))
    else:
        loc = LOCATION_OF_NAME[answer]
        st.take_to_hand(p, st.locs[loc].pop(), answer)
        st.stack.append((_bonus, _BONUS_NODES[loc], ctx))
    return None


@op("scout")
def _scout(st: RRState, node, ctx, answer):
    p = ctx["p"]
    if answer is None:
        card = st.reveal_top()
        return _new_decision(Decision, (p, "scout_location", _LOC_OPTIONS[-1], {"card": SLUG[card]}))
    loc = LOCATION_OF_NAME[answer]
    st.put_on(loc, st.deck.pop(), "place", p)
    st.stack.append((_bonus, _BONUS_NODES[loc], ctx))
    return None


@op("turn_end")
def _turn_end(st: RRState, node, ctx, answer):
    turn = st.turn_stack.pop()
    p = turn.player
    if not turn.counted:  # a turn out of order (Loan Shark) changes nobody's count
        return None
    st.turns[p] += 1
    if st.apollo_extra:
        st.push(("end_game",), {"p": st.first})
    elif st.end_triggered and p == (st.first - 1) % st.n:
        if APOLLO in st.houses:
            apollo = st.houses.index(APOLLO)
            st.apollo_extra = True
            st.log("apollo_last_turn", player=apollo)
            st.push(("turn_start", apollo, True), {"p": apollo})
        else:
            st.push(("end_game",), {"p": st.first})
    else:
        nxt = (p + 1) % st.n
        st.stack.append((_turn_start, ("turn_start", nxt, True), {"p": nxt}))
    return None


# ====================================================================== bonuses
_BONUS_NODES = tuple(("bonus", loc) for loc in range(4))


@op("bonus")
def _bonus(st: RRState, node, ctx, answer):
    loc = node[1]
    p = ctx["p"]
    if not st.quiet:
        st.log("bonus", player=p, location=LOCATION_NAMES[loc])
    if loc == JUPITER:
        st.advance(p)
    elif loc == MARS:
        st.gain_helium(p)
    elif loc == LUNA:
        st.push(("gain_sovereign",), ctx)
    else:
        st.place_influence(p)
    return None


@op("die")
def _die(st: RRState, node, ctx, answer):
    face = DIE_FACES[st.rng.below(6)]
    if not st.quiet:
        st.log("die", player=ctx["p"], face=face)
    st.stack.append((_die_face, ("die_face", face), ctx))
    return None


@op("die_face")
def _die_face(st: RRState, node, ctx, answer):
    face = node[1]
    if face in LOCATION_OF_NAME:
        st.push(("bonus", LOCATION_OF_NAME[face]), ctx)
    elif face == "banish":
        st.push(("banish_top_choice",), ctx)
    else:
        st.push(("place_top", -1), ctx)
    return None


@op("banish_top_choice")
def _banish_top_choice(st: RRState, node, ctx, answer):
    p = ctx["p"]
    if answer is None:
        opts = _loc_options(st, nonempty=True)
        return Decision(p, "banish_top", opts, {}) if opts else None
    loc = LOCATION_OF_NAME[answer]
    st.banish(st.locs[loc].pop(), p, answer)
    return None


@op("place_top")
def _place_top(st: RRState, node, ctx, answer):
    """Reveal the deck's top card and place (not deploy) it on a location (node[1]: excluded location)."""
    p = ctx["p"]
    if answer is None:
        card = st.reveal_top()
        if card < 0:
            return None
        return Decision(p, "place_location", _loc_options(st, node[1]), {"card": SLUG[card]})
    st.put_on(LOCATION_OF_NAME[answer], st.deck.pop(), "place", p)
    return None


# ====================================================================== Sovereign
@op("gain_sovereign")
def _gain_sovereign(st: RRState, node, ctx, answer):
    p = ctx["p"]
    holder = st.sovereign
    # block_windows: a holder who may hold a blocker for all the others can tell is asked
    # even holding none (the answer "no" comes back here and falls through, as a declined
    # block does); one who surely holds none is not asked, and their hand is not read
    block_sovereign = st.game.rules.block_sovereign
    if holder >= 0 and holder != p and (not st.game.block_windows or st.may_hold(holder, block_sovereign)):
        blockers = [c for c in st.hands[holder] if c in block_sovereign]
        if not blockers and answer is None and st.game.block_windows:
            return Decision(holder, "block_sovereign", NO_ONLY, {"attacker": p})
        if blockers:
            if answer is None:
                return Decision(
                    holder, "block_sovereign", tuple(f"block:{SLUG[c]}" for c in blockers) + ("no",), {"attacker": p}
                )
            if answer != "no":
                card = BY_SLUG[answer[6:]]
                st.log("block", player=holder, card=SLUG[card], against=p, attempt="take_sovereign")
                st.hands[holder].remove(card)
                st.banish(card, holder, "block")
                st.push(block_sovereign[card], {"p": holder, "src": card})
                return None
    st.sovereign = p
    if not st.quiet:
        st.log("sovereign", player=p, taken_from=holder if holder >= 0 and holder != p else None)
    st.stack.append((_house, ("house",), {"p": p}))
    return None


@op("house")
def _house(st: RRState, node, ctx, answer):
    p = ctx["p"]
    h = st.houses[p]
    if not st.quiet:
        st.log("house_ability", player=p, house=HOUSE_NAMES[h])
    if h == APOLLO:
        st.push(("place_top", -1), ctx)
    elif h == CERES:
        st.push(("ceres_banish_location",), ctx)
    elif h == DIANA:
        st.place_influence(p)
    elif h == HOUSE_JUPITER:
        st.advance(p)
    elif h == HOUSE_MARS:
        st.gain_helium(p)
    else:
        st.push(("minerva",), ctx)
    return None


@op("ceres_banish_location")
def _ceres_banish_location(st: RRState, node, ctx, answer):
    p = ctx["p"]
    if answer is None:
        opts = tuple(f"{LOCATION_NAMES[i]}:{j}" for i in range(4) for j in range(len(st.locs[i])))
        return Decision(p, "banish_from_location", opts, {"house": "ceres"}) if opts else None
    name, _, j = answer.partition(":")
    card = st.locs[LOCATION_OF_NAME[name]].pop(int(j))
    st.banish(card, p, name)
    return None


@op("minerva")
def _minerva(st: RRState, node, ctx, answer):
    p = ctx["p"]
    if answer is None:
        face = DIE_FACES[st.rng.below(6)]
        st.log("die", player=p, face=face)
        if face != "luna":
            st.push(("die_face", face), ctx)
            return None
        return Decision(p, "die_face", tuple(f for f in DIE_FACES if f != "luna"), {"house": "minerva"})
    st.push(("die_face", answer), ctx)
    return None


# ====================================================================== blocks
@op("attempt")
def _attempt(st: RRState, node, ctx, answer):
    """An opponent's attempt to steal or banish ``target``'s cards: they may reveal a blocker.

    node = ("attempt", target_key, effect): ``ctx[target_key]`` is the target seat; the
    effect runs unless blocked. A revealed blocker goes back to its owner's hand.
    """
    _, key, effect = node
    q = ctx[key]
    p = ctx["p"]
    if q == p:
        blockers = []
    elif not st.game.block_windows:
        blockers = [c for c in st.hands[q] if c in st.game.rules.block_steal_banish]
    elif st.may_hold(q, st.game.rules.block_steal_banish):
        # block_windows: asked all the same (same kind, same context) even holding no
        # blocker, with only "no" to say; the answer "no" comes back here and runs the
        # effect, as a declined block does. A target who surely holds none is not asked.
        blockers = [c for c in st.hands[q] if c in st.game.rules.block_steal_banish]
        if not blockers and answer is None:
            return Decision(q, "block", NO_ONLY, {"attacker": p, "card": SLUG[ctx["src"]] if "src" in ctx else None})
    else:
        blockers = []
    if not blockers:
        st.push(effect, ctx)
        return None
    if answer is None:
        return Decision(
            q,
            "block",
            tuple(f"block:{SLUG[c]}" for c in blockers) + ("no",),
            {"attacker": p, "card": SLUG[ctx["src"]] if "src" in ctx else None},
        )
    if answer == "no":
        st.push(effect, ctx)
        return None
    card = BY_SLUG[answer[6:]]
    st.log("block", player=q, card=SLUG[card], against=p, attempt="steal_or_banish")
    for k in st.known:
        k.add(card)
    return None


# ====================================================================== game end
@op("end_game")
def _end_game(st: RRState, node, ctx, answer):
    st.phase = "end_of_game"
    st.log("game_end", turns=st.turns[:])
    order = [(st.first + i) % st.n for i in range(st.n)]
    nodes = [("eog_player", p) for p in order] + [("ceres_final",), ("score",)]
    st.push_all(nodes, ctx)
    return None


@op("eog_player")
def _eog_player(st: RRState, node, ctx, answer):
    p = node[1]
    if answer is None:
        end_of_game = st.game.rules.end_of_game
        pending = tuple(SLUG[c] for c in st.hands[p] if c in end_of_game and c not in st.eog_done)
        if not pending:
            return None
        return Decision(p, "end_of_game_order", pending, {})
    card = BY_SLUG[answer]
    st.eog_done.add(card)
    st.log("end_of_game_ability", player=p, card=SLUG[card])
    st.push_all([st.game.rules.end_of_game[card], ("eog_player", p)], {"p": p, "src": card, "loc": -1})
    return None


@op("ceres_final")
def _ceres_final(st: RRState, node, ctx, answer):
    if CERES not in st.houses:
        return None
    p = st.houses.index(CERES)
    if answer is None:
        opts = tuple(SLUG[c] for c in st.hands[p])
        return Decision(p, "ceres_banish_hand", opts, {"house": "ceres"}) if opts else None
    card = BY_SLUG[answer]
    st.hands[p].remove(card)
    st.banish(card, p, "hand")
    return None


@op("score")
def _score(st: RRState, node, ctx, answer):
    from .scoring import score_position, winners

    st.phase = "over"
    position = st.final_position()
    st.final = score_position(position)
    st.final_winners = tuple(winners(position, st.final))
    st.log("scores", totals=[s.total for s in st.final])
    return None


#: The steps of the turn flow (the rest of :data:`~.state.OPS` are the card effects' primitives).
STEPS = frozenset(OPS) - _OPS_BEFORE
