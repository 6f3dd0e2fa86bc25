"""End-game scoring of a final Red Rising position, exactly as the scorepad.

A pure function of the final position, shared by the game engine and by the scorer of
physical games (``redtable score red-rising FILE``)::

    scores = score_position(FinalPosition(players=[FinalPlayer(hand=[...], fleet=4, ...), ...],
                                          locations=([...], [...], [...], [...]),
                                          banished=[...]))
    winners(pos, scores)   # seats of the winner(s)

Scorepad rows: CARDS (core values + end-game bonuses, see :mod:`.bonuses`, plus points
from end-of-game abilities such as Hacker's), FLEET (0, 1, 3, 6, 10, 15, 21, 28, 34, 39,
43), HELIUM (3 each), SOVEREIGNTY (10), INFLUENCE (4/2/1 per token: the most tokens 4
each, the second most 2, all others 1; ties share a rank; the 2-player neutral house
counts as a third house), EXCESS CARDS (-10 per card beyond the 7th), TOTAL. The highest
total wins; a tie goes to the tied player with the Sovereign token, else the victory is
shared.

Gray cards may count as one other colour (in addition to Gray) and Orange cards may take
another character's name. Unless the choice is given (``as_color`` / ``as_name``), the
scorer picks the assignment that maximises the player's total, by an exact search over
the only choices that can matter: the colours and names the hand's bonuses look for
(plus, for Mustang, colours new to the hand, and for Codebreaker, a name with an unused
first letter). Grays (or Oranges) whose own bonus ignores the choice and whom nobody
names are interchangeable, so only multisets of choices are tried for them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement, product

from .bonuses import (
    BONUSES,
    CLAUSE_FNS,
    FRESH,
    IGNORES,
    REFS,
    Board,
    Clause,
    Eval,
    Hand,
    Points,
    Refs,
    hand_bonuses,
    initial,
)
from .cards import COLOR, COLOR_NAMES, COLORLESS, GRAY, NAME, NUM_CARDS, ORANGE, VALUE

__all__ = [
    "FinalPlayer",
    "FinalPosition",
    "PlayerScore",
    "score_position",
    "winners",
    "influence_points",
    "FLEET_VP",
    "HELIUM_VP",
    "SOVEREIGN_VP",
    "HAND_LIMIT",
    "EXCESS_CARD_VP",
    "ROWS",
]

FLEET_VP = (0, 1, 3, 6, 10, 15, 21, 28, 34, 39, 43)
HELIUM_VP = 3
SOVEREIGN_VP = 10
INFLUENCE_VP = (4, 2)  # per token for the most and the second most; 1 for all others
HAND_LIMIT = 7
EXCESS_CARD_VP = -10
ROWS = ("cards", "fleet", "helium", "sovereignty", "influence", "excess_cards", "total")


@dataclass(slots=True)
class FinalPlayer:
    hand: list[int]  # card indices (redtable.redrising.cards)
    fleet: int = 0  # 0..10
    helium: int = 0
    influence: int = 0  # own tokens on the Institute, 0..10
    sovereign: bool = False
    extra_points: int = 0  # points from end-of-game abilities (e.g. Hacker's reveal); added to 'cards'
    name: str = ""
    face_down: frozenset[int] = frozenset()  # cards of this hand that are face down (colourless)
    as_color: dict[int, int] | None = None  # fixed Gray extra colour choices (card -> colour); None = choose best
    as_name: dict[int, int] | None = None  # fixed Orange rename choices (card -> card index whose name it takes)


@dataclass(slots=True)
class FinalPosition:
    players: list[FinalPlayer]
    locations: tuple[list[int], list[int], list[int], list[int]]  # jupiter, mars, luna, institute; bottom..top
    banished: list[int]
    neutral_influence: int = 0  # the 2-player neutral house's tokens on the Institute
    face_down_on_locations: frozenset[int] = frozenset()


@dataclass(slots=True)
class PlayerScore:
    name: str
    cards: int
    fleet: int
    helium: int
    sovereignty: int
    influence: int
    excess_cards: int  # negative or 0
    total: int
    choices: dict = field(default_factory=lambda: {"as_color": {}, "as_name": {}})
    card_points: dict[str, int] = field(default_factory=dict)  # per card in hand: core + its bonus

    def row(self, key: str) -> int:
        return getattr(self, key)


# --------------------------------------------------------------------------------------
# Token rows
# --------------------------------------------------------------------------------------


def influence_points(tokens: Sequence[int], neutral: int = 0) -> list[int]:
    """Influence row per player: ranks by distinct token counts among the houses with
    tokens (the neutral house included): the most 4 per token, the second most 2, all
    others 1 (10/10/5/2 -> 40/40/10/2)."""
    counts = sorted({t for t in (*tokens, neutral) if t > 0}, reverse=True)
    rate = {v: (INFLUENCE_VP[r] if r < len(INFLUENCE_VP) else 1) for r, v in enumerate(counts)}
    return [t * rate.get(t, 0) for t in tokens]


def _shared_board(pos: FinalPosition) -> tuple:
    """The parts of every player's :class:`Board` that do not depend on the player."""
    down = pos.face_down_on_locations
    tops = tuple((VALUE[loc[-1]], loc[-1] in down) if loc else None for loc in pos.locations)
    if down:
        location_masks = tuple(0 if c in down else _MASK[c] for loc in pos.locations for c in loc)
    else:
        location_masks = tuple(_MASK[c] for loc in pos.locations for c in loc)
    return tops, location_masks, tuple(_MASK[c] for c in pos.banished)


def _board(pos: FinalPosition, k: int, shared: tuple | None = None) -> Board:
    me = pos.players[k]
    opp = [p for j, p in enumerate(pos.players) if j != k]
    tops, location_masks, banished_masks = shared if shared is not None else _shared_board(pos)
    return Board(
        me.fleet,
        me.helium,
        me.influence,
        me.sovereign,
        tuple([p.fleet for p in opp]),
        tuple([p.helium for p in opp]),
        tuple([p.influence for p in opp]),
        pos.neutral_influence,
        location_masks,
        tops,
        banished_masks,
    )


# --------------------------------------------------------------------------------------
# Cards row: the best Gray colours and Orange names
# --------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Best:
    total: int
    bonuses: list[int]
    masks: tuple[int, ...]
    names: tuple[int, ...]


_LETTERS_BY_NAME = tuple(initial(n) for n in range(NUM_CARDS))
_MASK = tuple(1 << COLOR[c] for c in range(NUM_CARDS))
# per card: its bonus clauses with what each reads and its compiled evaluator (computed once)
_CLAUSES = tuple(
    tuple((cl, cl.refs(), fn) for cl, fn in zip(BONUSES[c], CLAUSE_FNS[c], strict=True)) for c in range(NUM_CARDS)
)
# cards that may choose: Grays (an extra colour) and Oranges (another name)
_CHOOSER = tuple(COLOR[c] in (GRAY, ORANGE) for c in range(NUM_CARDS))


@lru_cache(maxsize=1024)
def _fresh_letters(referenced: frozenset[int]) -> frozenset[str]:
    return frozenset(_LETTERS_BY_NAME[n] for n in range(NUM_CARDS) if n not in referenced)


def _check_choices(player: FinalPlayer) -> tuple[dict[int, int], dict[int, int]]:
    hand = set(player.hand)
    colors = dict(player.as_color or {})
    names = dict(player.as_name or {})
    for card, color in colors.items():
        if card not in hand or COLOR[card] != GRAY:
            raise ValueError(
                f"as_color: {NAME[card] if 0 <= card < NUM_CARDS else card!r} is not a Gray card in this hand"
            )
        if not (color == COLORLESS or 0 <= color < len(COLOR_NAMES)):
            raise ValueError(f"as_color: bad colour {color!r} for {NAME[card]}")
        if card in player.face_down and color not in (GRAY, COLORLESS):
            raise ValueError(f"as_color: {NAME[card]} is face down (colourless)")
    for card, target in names.items():
        if card not in hand or COLOR[card] != ORANGE:
            raise ValueError(
                f"as_name: {NAME[card] if 0 <= card < NUM_CARDS else card!r} is not an Orange card in this hand"
            )
        if not 0 <= target < NUM_CARDS:
            raise ValueError(f"as_name: bad character {target!r} for {NAME[card]}")
    return colors, names


def _color_candidates(hand_refs: Refs, base_masks: list[int], free: int) -> list[int]:
    """Extra colours worth trying for a Gray: the colours the hand's bonuses look for;
    with a "for each different color" bonus, also colours nobody looks for, one per
    group of such colours that the hand holds on the same cards, ``free`` of each."""
    cands = [c for c in range(len(COLOR_NAMES)) if c != GRAY and hand_refs.colors >> c & 1]
    if hand_refs.distinct and free:
        groups: dict[tuple[int, ...], list[int]] = {}
        for c in range(len(COLOR_NAMES)):
            if c == GRAY or hand_refs.colors >> c & 1:
                continue
            sig = tuple(j for j, m in enumerate(base_masks) if m >> c & 1)
            groups.setdefault(sig, []).append(c)
        for members in groups.values():
            cands += members[:free]
    return sorted(cands)


def _assignments(options: list, pool: list[int], solo: list[int]) -> Iterator[tuple[int, ...]]:
    """Choices for ``pool`` (interchangeable cards: multisets) and ``solo`` cards (all
    combinations), as one tuple of option indices per card in ``pool + solo`` order.
    The first tuple is "change nothing" (option 0 everywhere)."""
    n = len(options)
    for multiset in combinations_with_replacement(range(n), len(pool)):
        for rest in product(range(n), repeat=len(solo)):
            yield multiset + rest


def _best_per_view(space: list, view) -> list:
    """The first (best) entry of a sorted space for each distinct view of its choice."""
    seen: set = set()
    out = []
    for item in space:
        v = view(item[2])
        if v not in seen:
            seen.add(v)
            out.append(item)
    return out


def _upper(cl: Clause) -> float:
    """The most a clause can add (for pruning)."""
    return max(cl.n, 0) if isinstance(cl, Points) else float("inf")


def _best_cards(player: FinalPlayer, board: Board) -> _Best:
    """The Gray colours and Orange names that maximise the cards row.

    The bonus clauses of the hand split into those that read no choice, those that read
    only colours, only names, or both ("with Victra, The Howlers, or a Red"). The sum is
    maximised over colour choices and name choices separately, then jointly (with
    pruning) only where a clause reads both. Among equal totals the assignment that
    changes the fewest cards wins.
    """
    cards = list(player.hand)
    down = player.face_down
    base_masks = [0 if c in down else _MASK[c] for c in cards] if down else [_MASK[c] for c in cards]
    base_names = list(cards)
    if player.as_color or player.as_name:
        fixed_colors, fixed_names = _check_choices(player)
        for j, c in enumerate(cards):
            color = fixed_colors.get(c)
            if color is not None and color not in (GRAY, COLORLESS):
                base_masks[j] |= 1 << color
            target = fixed_names.get(c)
            if target is not None:
                base_names[j] = target
    else:
        fixed_colors = fixed_names = {}

    if not any([_CHOOSER[c] for c in cards]):
        # (the usual case) no Gray or Orange: nothing to choose, the hand scores as it is
        return _scored(Hand(tuple(cards), tuple(base_masks), tuple(base_names)), board)
    ignore = 0
    for c in cards:
        ignore |= IGNORES[c]

    h_colors, distinct, initials = 0, False, False
    named: frozenset[int] = frozenset()
    for c in cards:
        r = REFS[c]
        h_colors |= r.colors
        if r.names:
            named = named | r.names
        distinct = distinct or r.distinct
        initials = initials or r.initials
    # (what the search below reads of the hand's Refs: colours, names, distinct, initials)
    hand_refs = Refs(colors=h_colors, names=named, distinct=distinct, initials=initials)

    # Grays that choose a colour, Oranges that choose a name; interchangeable ones pooled.
    # With a first-letter bonus (Codebreaker), an Orange whose own name nobody looks for
    # keeps "its own name or any name nobody looks for" (FRESH, materialised later).
    gray_pool: list[int] = []
    gray_solo: list[int] = []
    orange_pool: list[int] = []
    orange_solo: list[int] = []
    for j, c in enumerate(cards):
        r = REFS[c]
        if COLOR[c] == GRAY and c not in down and c not in fixed_colors:
            own_reads = r.colors or r.all_colors or (r.negative and ignore)
            (gray_solo if own_reads or c in named else gray_pool).append(j)
        elif COLOR[c] == ORANGE and c not in fixed_names:
            reads_own_name = r.names or r.initials
            (orange_solo if reads_own_name or c in named or c in down else orange_pool).append(j)
    color_opts = [0]
    if gray_pool or gray_solo:
        color_opts += [1 << c for c in _color_candidates(hand_refs, base_masks, len(gray_pool) + len(gray_solo))]
    name_opts: list[int | None] = [None] + sorted(named)
    pool_name_opts = list(name_opts)
    if hand_refs.initials:
        name_opts.append(FRESH)
        pool_name_opts[0] = FRESH
    if len(color_opts) == 1:
        gray_pool, gray_solo = [], []
    if len(name_opts) == 1:
        orange_pool, orange_solo = [], []
    grays, oranges = gray_pool + gray_solo, orange_pool + orange_solo
    fresh_letters = _fresh_letters(named) if hand_refs.initials else frozenset()
    cards_t = tuple(cards)

    # clauses by what they read
    static: list[tuple[int, Clause, Eval]] = []
    by_color: list[tuple[int, Clause, Eval]] = []
    by_name: list[tuple[int, Clause, Eval]] = []
    mixed: list[tuple[int, Clause, Eval]] = []
    any_grays, any_oranges = bool(grays), bool(oranges)
    for j, c in enumerate(cards):
        for cl, r, fn in _CLAUSES[c]:
            reads_color = any_grays and bool(r.colors or r.all_colors or (r.negative and ignore and j in grays))
            reads_name = any_oranges and bool(r.names or r.initials)
            (
                mixed if reads_color and reads_name else by_color if reads_color else by_name if reads_name else static
            ).append((j, cl, fn))

    work = Hand(cards_t, (), (), fresh_letters)  # one Hand for every total() (clauses keep nothing)

    def total(clauses: list, masks: tuple[int, ...], names: tuple[int, ...]) -> int:
        work.masks = masks
        work.names = names
        out = 0
        for j, _, fn in clauses:
            v = fn(work, j, board)
            if v < 0 and ignore & masks[j]:
                v = 0
            out += v
        return out

    base_masks_t, base_names_t = tuple(base_masks), tuple(base_names)
    # Where no clause reads a kind of choice, every assignment of it scores the same and
    # the first one (option 0 everywhere) changes the fewest cards: it is the best.
    skip_colors = not by_color and not mixed
    skip_names = not by_name and not mixed
    if skip_colors and skip_names:
        names = list(base_names)
        if orange_pool and pool_name_opts[0] is not None:
            for j in orange_pool:
                names[j] = pool_name_opts[0]
        return _scored(Hand(cards_t, base_masks_t, tuple(names), fresh_letters), board)
    color_space = []  # (points of the colour-only clauses, cards changed, masks)
    for choice in _assignments(color_opts, gray_pool, gray_solo):
        if skip_colors:
            color_space.append((0, 0, base_masks_t))
            break
        masks = list(base_masks)
        for j, o in zip(grays, choice, strict=True):
            masks[j] |= color_opts[o]
        masks_t = tuple(masks)
        color_space.append((total(by_color, masks_t, base_names_t), len(choice) - choice.count(0), masks_t))
    name_space = []  # (points of the name-only clauses, cards changed, names)
    npool = len(orange_pool)
    for choice in _assignments(name_opts, orange_pool, orange_solo):
        if npool and max(choice[:npool]) >= len(pool_name_opts):
            continue
        if skip_names:  # the first choice only (see above)
            names = list(base_names)
            for k, (j, o) in enumerate(zip(oranges, choice, strict=True)):
                opt = (pool_name_opts if k < npool else name_opts)[o]
                if opt is not None:
                    names[j] = opt
            name_space.append((0, 0, tuple(names)))
            break
        names = list(base_names)
        for k, (j, o) in enumerate(zip(oranges, choice, strict=True)):
            opt = (pool_name_opts if k < npool else name_opts)[o]
            if opt is not None:
                names[j] = opt
        names_t = tuple(names)
        name_space.append((total(by_name, base_masks_t, names_t), len(choice) - choice.count(0), names_t))

    key = lambda item: (-item[0], item[1])  # noqa: E731  most points, then fewest changes
    color_space.sort(key=key)
    name_space.sort(key=key)
    if not mixed:
        masks_t, names_t = color_space[0][2], name_space[0][2]
    else:
        # the mixed clauses only see some colours and names: keep the best choice per view
        mixed_refs = Refs()
        for _, cl, _ in mixed:
            mixed_refs |= cl.refs()
        see_colors = -1 if mixed_refs.all_colors else mixed_refs.colors | ignore
        see_names = None if mixed_refs.initials else mixed_refs.names
        color_space = _best_per_view(color_space, lambda m: tuple(x & see_colors for x in m))
        name_space = _best_per_view(
            name_space, lambda ns: ns if see_names is None else tuple(x if x in see_names else -2 for x in ns)
        )
        top_name = name_space[0][0]
        hi = sum(_upper(cl) for _, cl, _ in mixed)
        best_key: tuple | None = None
        masks_t, names_t = base_masks_t, base_names_t
        for fc, cc, m in color_space:
            if best_key is not None and fc + top_name + hi < -best_key[0]:
                break
            for fnm, cn, n in name_space:
                if best_key is not None and fc + fnm + hi < -best_key[0]:
                    break
                cand = (-(fc + fnm + total(mixed, m, n)), cc + cn)
                if best_key is None or cand < best_key:
                    best_key, masks_t, names_t = cand, m, n
    return _scored(Hand(cards_t, masks_t, names_t, fresh_letters), board)


def _scored(h: Hand, board: Board) -> _Best:
    """The cards row of a hand whose colours and names are settled."""
    bonuses = hand_bonuses(h, board)
    return _Best(sum([VALUE[c] for c in h.cards]) + sum(bonuses), bonuses, h.masks, h.names)


def _materialise_fresh(cards: Sequence[int], names: tuple[int, ...], referenced: frozenset[int]) -> list[int]:
    """Turn each FRESH name into a real character nobody's bonus names, each with a first
    letter the hand's other names do not use: the card's own name when it can, else the
    first such character in card order."""
    out = list(names)
    used = {_LETTERS_BY_NAME[n] for n in names if n != FRESH}
    taken = {n for n in names if n != FRESH}
    fresh = [j for j, n in enumerate(names) if n == FRESH]
    for j in fresh:  # keep own names first
        own = cards[j]
        if own not in referenced and own not in taken and _LETTERS_BY_NAME[own] not in used:
            out[j] = own
            used.add(_LETTERS_BY_NAME[own])
            taken.add(own)
    for j in fresh:
        if out[j] != FRESH:
            continue
        pick = next(
            (m for m in range(NUM_CARDS) if m not in referenced and m not in taken and _LETTERS_BY_NAME[m] not in used),
            None,
        )
        if pick is None:
            pick = next(m for m in range(NUM_CARDS) if m not in referenced and m not in taken)
        out[j] = pick
        used.add(_LETTERS_BY_NAME[pick])
        taken.add(pick)
    return out


def _score_player(pos: FinalPosition, k: int, influence: int, shared: tuple | None = None) -> PlayerScore:
    p = pos.players[k]
    if not 0 <= p.fleet < len(FLEET_VP):
        raise ValueError(f"player {k}: fleet position must be 0-10, got {p.fleet!r}")
    if p.helium < 0 or p.influence < 0:
        raise ValueError(f"player {k}: helium and influence must be >= 0")
    board = _board(pos, k, shared)
    best = _best_cards(p, board)
    names = list(best.names)
    if FRESH in names:
        referenced = frozenset().union(*(REFS[c].names for c in p.hand))
        names = _materialise_fresh(p.hand, best.names, referenced)
        own = [c if n == FRESH and c not in referenced else n for c, n in zip(p.hand, best.names, strict=True)]
        if FRESH not in own:  # renaming only mattered for a bonus that still fails
            h = Hand(tuple(p.hand), best.masks, tuple(own))
            if sum(hand_bonuses(h, board)) == sum(best.bonuses):
                names = own
    choices: dict[str, dict[str, str]] = {"as_color": {}, "as_name": {}}
    card_points: dict[str, int] = {}
    for j, c in enumerate(p.hand):
        card_points[NAME[c]] = VALUE[c] + best.bonuses[j]
        extra = best.masks[j] & ~(1 << COLOR[c])
        if COLOR[c] == GRAY and extra:
            choices["as_color"][NAME[c]] = COLOR_NAMES[extra.bit_length() - 1]
        if COLOR[c] == ORANGE and names[j] != c:
            choices["as_name"][NAME[c]] = NAME[names[j]]
    cards_row = best.total + p.extra_points
    excess = EXCESS_CARD_VP * max(0, len(p.hand) - HAND_LIMIT)
    fleet = FLEET_VP[p.fleet]
    helium = HELIUM_VP * p.helium
    sovereignty = SOVEREIGN_VP if p.sovereign else 0
    total = cards_row + fleet + helium + sovereignty + influence + excess
    return PlayerScore(
        name=p.name,
        cards=cards_row,
        fleet=fleet,
        helium=helium,
        sovereignty=sovereignty,
        influence=influence,
        excess_cards=excess,
        total=total,
        choices=choices,
        card_points=card_points,
    )


def score_position(pos: FinalPosition) -> list[PlayerScore]:
    """The scorepad of every player, in seat order."""
    infl = influence_points([p.influence for p in pos.players], pos.neutral_influence)
    shared = _shared_board(pos)
    return [_score_player(pos, k, infl[k], shared) for k in range(len(pos.players))]


def winners(pos: FinalPosition, scores: list[PlayerScore]) -> list[int]:
    """Seats of the winner(s): the highest total; among tied players the one with the
    Sovereign token wins, else all tied players share the victory."""
    top = max(s.total for s in scores)
    tied = [k for k, s in enumerate(scores) if s.total == top]
    if len(tied) > 1:
        sov = [k for k in tied if pos.players[k].sovereign]
        if sov:
            return sov
    return tied
