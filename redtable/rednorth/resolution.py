"""Resolution steps A-C and the final tie-breakers, as pure functions of a position.

They take plain lists (Parties as slot ints, owners per colour) so tests, the engine and a
future physical-game scorer share them.
"""

from __future__ import annotations

from .cards import CHAMPION_BONUS, GLORY_POINTS, JARL, JARL_BONUS, KIND_COLOUR, KIND_POINTS, NCOLOURS
from .party import CHAMP, GLORY_SHIFT, KIND_MASK

NO_BATTLE = "no-battle"  # nobody had a Raid Point in the colour: the Outpost stays put
WON = "won"  # a single player had the most
TIE_BREAKER = "tie-breaker"  # tied for most; the Tie Breaker holder was among them
RETURNED = "returned"  # tied for most without the Tie Breaker holder: back to the centre


def party_points(party: list[int], out: list[int]) -> None:
    """Add one Party's Raid Points per colour into ``out`` (a list of 5 ints).

    Raider 2 and Hero 4 to their colour, +1 per Glory token on the card; each Jarl adds +1
    (+2 with the Champion token) to each adjacent Raider or Hero, not to other Jarls.
    """
    n = len(party)
    for i in range(n):
        s = party[i]
        k = s & KIND_MASK
        if k == JARL:
            bonus = CHAMPION_BONUS if s & CHAMP else JARL_BONUS
            if i > 0:
                nk = party[i - 1] & KIND_MASK
                if nk != JARL:
                    out[KIND_COLOUR[nk]] += bonus
            if i + 1 < n:
                nk = party[i + 1] & KIND_MASK
                if nk != JARL:
                    out[KIND_COLOUR[nk]] += bonus
        else:
            out[KIND_COLOUR[k]] += KIND_POINTS[k] + (s >> GLORY_SHIFT) * GLORY_POINTS


def raid_points(
    parties: list[list[int]], owners: list[int], outpost_points: tuple[int, ...], in_play: tuple[bool, ...]
) -> list[list[int]]:
    """Raid Points as ``points[colour][player]`` (step A). Colours not in play stay 0."""
    players = len(parties)
    per_player = []
    for p in range(players):
        out = [0] * NCOLOURS
        party_points(parties[p], out)
        per_player.append(out)
    points = [[0] * players for _ in range(NCOLOURS)]
    for c in range(NCOLOURS):
        if not in_play[c]:
            continue
        row = points[c]
        for p in range(players):
            row[p] = per_player[p][c]
        o = owners[c]
        if o >= 0:
            row[o] += outpost_points[c]
    return points


def fighters(party: list[int]) -> set[int]:
    """Colours in which the Party has at least one Raider or Hero (battles it fought)."""
    return {KIND_COLOUR[s & KIND_MASK] for s in party if (s & KIND_MASK) != JARL}


def award(points: list[int], owner: int, tie_breaker: int) -> tuple[int, str]:
    """Step B for one colour: the new controller (-1: the centre) and how it was decided.

    ``tie_breaker`` is the Tie Breaker holder as of the start of the Resolution.
    """
    best = max(points)
    if best <= 0:
        return owner, NO_BATTLE
    tied = [p for p, v in enumerate(points) if v == best]
    if len(tied) == 1:
        return tied[0], WON
    if tie_breaker in tied:
        return tie_breaker, TIE_BREAKER
    return -1, RETURNED


def glory_compensation(parties: list[list[int]], owners: list[int], in_play: tuple[bool, ...]) -> list[int]:
    """Step C: 1 Glory per colour in play a player fought in (a Raider or Hero there) but does not control."""
    out = []
    for p, party in enumerate(parties):
        fought = fighters(party)
        out.append(sum(1 for c in fought if in_play[c] and owners[c] != p))
    return out


def most_vp_first_player(vp: list[int], first: int, green_owner: int) -> int:
    """The First Player when the red Outpost is not in play (step D).

    The player with the most VP; on a tie, the tied green controller if any, else the
    current First Player keeps the token.
    """
    best = max(vp)
    tied = [p for p, v in enumerate(vp) if v == best]
    if len(tied) == 1:
        return tied[0]
    if green_owner in tied:
        return green_owner
    return first


FINAL_STEPS = ("vp", "tie-breaker", "glory", "hand", "turn-order")


def final_winner(
    vp: list[int], tie_breaker: int, glory: list[int], hand_sizes: list[int], first: int
) -> tuple[int, str]:
    """The single winner and the step that decided it, in the rulebook's order.

    Most VP; among tied players the Tie Breaker holder; then most unused Glory; then most
    cards in hand; then the tied player closest in turn order to the First Player
    (the First Player themself is closest).
    """
    players = len(vp)
    best = max(vp)
    tied = [p for p in range(players) if vp[p] == best]
    if len(tied) == 1:
        return tied[0], "vp"
    if tie_breaker in tied:
        return tie_breaker, "tie-breaker"
    for values, step in ((glory, "glory"), (hand_sizes, "hand")):
        best = max(values[p] for p in tied)
        tied = [p for p in tied if values[p] == best]
        if len(tied) == 1:
            return tied[0], step
    return min(tied, key=lambda p: (p - first) % players), "turn-order"
