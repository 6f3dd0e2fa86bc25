"""The running score of a live game, computed from what one seat may know: its own view.

``GET /api/web/games/{id}/score`` answers it (see :mod:`.routes`). Every function here
takes a seat's **view** (``state.view(seat)``, exactly what that seat's client is sent) and
the events that seat may see, never the state: so nothing hidden (another hand, the deck,
a face-down card the seat did not see) can reach the answer, and a test re-deals the hidden
cards (``state.resample``) and checks the answer does not change.

Red Rising: every player's public scorepad rows now (fleet, helium, sovereignty, influence
with its rank, excess cards, hand size) and, for a seat, its hand scored as the end-of-game
scorer does (:func:`redtable.redrising.scoring.score_position`: core value plus end-game
bonus per card, the best Gray colour and Orange name). No bonus reads another hand; the one
thing a bonus may read that a seat cannot always see is the core value of a face-down card
on top of a location (a "gain the core value of the top card of any location" bonus): then
the card's points are given as a range (``points`` .. ``points_max``) and flagged, found by
scoring with the lowest and the highest core value that card could have.

Red North: the rows the rulebook scores and breaks ties by (VP per round, Odin's VP tokens,
total VP, the Tie Breaker, unused Glory, cards in hand), the Outposts held and each Raiding
Party's Raid Points per colour as far as they are face up (a face-down card counts as
unknown, except in the seat's own Party), and the seat's own hand's Raid Points.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..core import GAMES, title, titles
from ..rednorth.title import TITLE as RED_NORTH
from ..redrising.title import TITLE as RED_RISING

ROWS = ("cards", "fleet", "helium", "sovereignty", "influence", "excess_cards", "total")
PUBLIC_ROWS = ("fleet", "helium", "sovereignty", "influence", "excess_cards")


def running_score(game: str, view: dict, events: Iterable[dict], seat: int | None) -> dict:
    """The running score of ``game`` as ``seat`` (None: a spectator) knows it from ``view``
    (the title's ``running_score`` part, ``(view, events, seat) -> dict``)."""
    score = title(game).load("running_score") if game in GAMES else None
    if score is None:
        known = ", ".join(t.name for t in titles() if t.running_score is not None)
        raise ValueError(f"no running score for {game!r}; known: {known}")
    return score(view, events, seat)


# ---------------------------------------------------------------------- Red Rising
def influence_ranks(tokens: list[int], neutral: int = 0) -> list[int | None]:
    """Each player's influence rank (1: the most tokens; ties share a rank; the 2-player
    neutral house counts as a house), None without tokens: the rank sets the points per
    token (4, 2, then 1), as :func:`redtable.redrising.scoring.influence_points` scores."""
    counts = sorted({t for t in (*tokens, neutral) if t > 0}, reverse=True)
    return [counts.index(t) + 1 if t > 0 else None for t in tokens]


def red_rising(view: dict, events: Iterable[dict], seat: int | None) -> dict:
    from ..redrising.rules import END_OF_GAME
    from ..redrising.scoring import EXCESS_CARD_VP, FLEET_VP, HAND_LIMIT, HELIUM_VP, SOVEREIGN_VP, influence_points

    players = view["players"]
    neutral = int(view.get("neutral_influence") or 0)
    tokens = [p["influence"] for p in players]
    infl = influence_points(tokens, neutral)
    ranks = influence_ranks(tokens, neutral)
    public = []
    for k, p in enumerate(players):
        rows = {
            "fleet": FLEET_VP[p["fleet"]],
            "helium": HELIUM_VP * p["helium"],
            "sovereignty": SOVEREIGN_VP if p["sovereign"] else 0,
            "influence": infl[k],
            "excess_cards": EXCESS_CARD_VP * max(0, p["hand_size"] - HAND_LIMIT),
        }
        public.append(
            {
                "seat": k,
                "house": p["house"],
                "hand_size": p["hand_size"],
                "fleet": p["fleet"],
                "helium": p["helium"],
                "influence": p["influence"],
                "influence_rank": ranks[k],
                "sovereign": bool(p["sovereign"]),
                "rows": rows,
                "subtotal": sum(rows.values()),
            }
        )
    out: dict[str, Any] = {
        "game": RED_RISING.name,
        "seat": seat,
        "rows": list(ROWS),
        "public_rows": list(PUBLIC_ROWS),
        "neutral_influence": neutral,
        "phase": view.get("phase"),
        "players": public,
        "hand": None,
        "final": None,
    }
    if seat is not None and 0 <= seat < len(players) and "hand" in players[seat]:
        events = list(events)
        resolved = {e.get("card") for e in events if e.get("kind") == "end_of_game_ability"}
        extra = sum(int(e.get("points") or 0) for e in events if e.get("kind") == "points" and e.get("player") == seat)
        over = bool(view.get("scores"))
        out["hand"] = _rr_hand(view, seat, extra, public[seat]["rows"], resolved, over, END_OF_GAME)
    if view.get("scores"):
        out["final"] = {"scores": [{r: s[r] for r in ROWS} for s in view["scores"]], "winners": view.get("winners", [])}
    return out


def _rr_hand(
    view: dict, seat: int, extra: int, public_rows: dict, resolved: set, over: bool, end_of_game: Mapping[int, tuple]
) -> dict:
    """The seat's hand scored as at the end of the game, from its view."""
    from ..redrising.cards import BY_SLUG, NAME, NUM_CARDS, SLUG, VALUE
    from ..redrising.scoring import FinalPlayer, FinalPosition, score_position

    LOCS = ("jupiter", "mars", "luna", "institute")
    players = view["players"]
    hand = [BY_SLUG[c["card"]] for c in players[seat]["hand"]]
    seen = set(hand) | {BY_SLUG[s] for s in view.get("banished", [])}
    for loc in LOCS:
        seen |= {BY_SLUG[c["card"]] for c in view["locations"].get(loc, []) if c.get("card")}
    unseen = sorted((c for c in range(NUM_CARDS) if c not in seen), key=lambda c: (VALUE[c], c))
    # a face-down card the seat did not see: its colour does not count (face down is
    # colourless for everyone); only its core value can matter, when it lies on top
    unknown_tops = [
        loc
        for loc in LOCS
        if (view["locations"].get(loc) or [{}])[-1].get("face_down") and not view["locations"][loc][-1].get("card")
    ]

    def position(lowest: bool) -> FinalPosition:
        pool = list(unseen) if lowest else list(reversed(unseen))
        tops = {loc: pool.pop(0) for loc in unknown_tops}  # the lowest (highest) values on top
        rest = iter(pool)
        locs, down = [], set()
        for loc in LOCS:
            cards = view["locations"].get(loc, [])
            row = []
            for i, c in enumerate(cards):
                if c.get("card"):
                    idx = BY_SLUG[c["card"]]
                else:
                    idx = tops[loc] if i == len(cards) - 1 else next(rest)
                if c.get("face_down"):
                    down.add(idx)
                row.append(idx)
            locs.append(row)
        ps = [
            FinalPlayer(
                hand=hand if k == seat else [],
                fleet=p["fleet"],
                helium=p["helium"],
                influence=p["influence"],
                sovereign=bool(p["sovereign"]),
                extra_points=extra if k == seat else 0,
            )
            for k, p in enumerate(players)
        ]
        jupiter, mars, luna, institute = locs
        return FinalPosition(
            players=ps,
            locations=(jupiter, mars, luna, institute),
            banished=[BY_SLUG[s] for s in view.get("banished", [])],
            neutral_influence=int(view.get("neutral_influence") or 0),
            face_down_on_locations=frozenset(down),
        )

    low = score_position(position(True))[seat]
    high = score_position(position(False))[seat] if unknown_tops else low
    index_of = {name: i for i, name in enumerate(NAME)}
    cards = []
    for c in hand:
        lo, hi = low.card_points[NAME[c]], high.card_points[NAME[c]]
        color = low.choices["as_color"].get(NAME[c])
        renamed = low.choices["as_name"].get(NAME[c])
        cards.append(
            {
                "card": SLUG[c],
                "value": VALUE[c],
                "points": min(lo, hi),
                "points_max": max(lo, hi),
                "bonus": min(lo, hi) - VALUE[c],
                "as_color": color,
                "as_name": SLUG[index_of[renamed]] if renamed else None,
                "depends_on_hidden": lo != hi,
                "end_of_game": c in end_of_game and not over and SLUG[c] not in resolved,
            }
        )
    rows = {"cards": min(low.cards, high.cards), **public_rows}
    rows["total"] = sum(rows[r] for r in ROWS[:-1])
    spread = abs(high.cards - low.cards)
    return {
        "cards": cards,
        "rows": rows,
        "total_max": rows["total"] + spread,
        "cards_max": rows["cards"] + spread,
        "extra_points": extra,
        "conditional": spread > 0 or any(x["depends_on_hidden"] for x in cards),
        "unknown_tops": unknown_tops,
        "end_of_game_pending": any(x["end_of_game"] for x in cards),
    }


# ---------------------------------------------------------------------- Red North
def red_north_score(view: dict, events: Iterable[dict], seat: int | None) -> dict:
    """Red North's running score (its title's ``running_score``: no events are read)."""
    return red_north(view, seat)


def red_north(view: dict, seat: int | None) -> dict:
    from ..rednorth.cards import COLOURS, JARL, KIND_COLOUR, KIND_POINTS, KIND_SLUG

    kind_of = {s: k for k, s in enumerate(KIND_SLUG)}
    n = int(view["players"])
    reps = view.get("resolutions") or []
    by_round = [[int(x) for x in rep.get("vp", [0] * n)] for rep in reps]
    by_round += [[0] * n for _ in range(3 - len(by_round))]
    outposts = view.get("outposts") or []
    in_play = [o["colour"] for o in outposts]
    players = []
    for s in view["seats"]:
        q = s["seat"]
        points = {c: 0 for c in in_play}
        hidden = 0
        party = s.get("party") or []
        kinds = [kind_of.get(slot.get("card")) if slot.get("card") else None for slot in party]
        for i, slot in enumerate(party):
            k = kinds[i]
            if k is None:
                hidden += 1
                continue
            if k == JARL:
                bonus = 2 if slot.get("champion") else 1
                for j in (i - 1, i + 1):
                    neighbour = kinds[j] if 0 <= j < len(party) else None
                    if neighbour is not None and neighbour != JARL:
                        col = COLOURS[KIND_COLOUR[neighbour]]
                        if col in points:
                            points[col] += bonus
            else:
                col = COLOURS[KIND_COLOUR[k]]
                if col in points:
                    points[col] += KIND_POINTS[k] + int(slot.get("glory") or 0)
        held = [o["colour"] for o in outposts if o.get("controller") == q]
        for o in outposts:
            if o.get("controller") == q:
                points[o["colour"]] += int(o.get("points") or 0)
        vp = int(s["vp"])
        rounds = [r[q] for r in by_round]
        players.append(
            {
                "seat": q,
                "rows": {
                    "vp_spring": rounds[0],
                    "vp_summer": rounds[1],
                    "vp_ragnarok": rounds[2],
                    "odin": vp - sum(rounds),
                    "total": vp,
                    "glory": int(s["glory"]),
                    "hand": int(s["hand_size"]),
                },
                "outposts": held,
                "raid_points": points,
                "hidden_cards": hidden,
                "tie_breaker": view.get("tie_breaker") == q,
                "first_player": view.get("first_player") == q,
            }
        )
    out: dict[str, Any] = {
        "game": RED_NORTH.name,
        "seat": seat,
        "round": view.get("round"),
        "round_vp": view.get("round_vp"),
        "colours": in_play,
        "rows": ["vp_spring", "vp_summer", "vp_ragnarok", "odin", "total", "glory", "hand"],
        "players": players,
        "hand": None,
        "final": None,
    }
    if seat is not None and 0 <= seat < n and "hand" in view["seats"][seat]:
        per = {c: 0 for c in in_play}  # a colour with no Outpost in play wins nothing
        jarls = idle = 0
        for slug in view["seats"][seat]["hand"]:
            k = kind_of[slug]
            if k == JARL:
                jarls += 1
            elif COLOURS[KIND_COLOUR[k]] in per:
                per[COLOURS[KIND_COLOUR[k]]] += KIND_POINTS[k]
            else:
                idle += 1
        out["hand"] = {
            "cards": list(view["seats"][seat]["hand"]),
            "raid_points": per,
            "raid_total": sum(per.values()),
            "jarls": jarls,
            "idle_cards": idle,
        }
    if view.get("result"):
        out["final"] = dict(view["result"])
    return out
