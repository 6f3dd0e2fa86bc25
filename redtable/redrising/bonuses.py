"""Every Red Rising card's end-game VP bonus, encoded as data.

A card's bonus is a tuple of *clauses* built from a small vocabulary of composable
primitives (see the table at the bottom of this module, :data:`ENCODING`):

Selectors (which cards a clause looks for)
    ``Red``, ``Gold``… (one per colour; ``Green | Yellow | Blue`` is "a Green, Yellow or
    Blue"), ``N("Darrow", …)`` (characters by name; plain strings are accepted wherever a
    selector is), ``sel.but_not("Bridge")`` (an exception), unions of any of these.
Conditions (true or false for one card of one player's final position)
    ``With(sel, n=1)``, ``WithNo(sel)``, ``OnlyOne(colour)``, ``WithBoth(a, b)``,
    ``WithButNot(a, b)``, ``WithOneNotBoth(a, b)``, ``WithOnly(colours…)``,
    ``AllCards(value test, include_self)``, ``AllDifferent(COLORS | INITIALS)``,
    ``Have(SOVEREIGN | sel, …)``, ``HaveNone(…)``, ``Most(resource)``,
    ``Least(resource)``, ``OpponentMore(resource)``, ``SameAsOpponent(resource)``,
    ``InRange(quantity, lo, hi)``, ``EmptyOrFaceDownTop()``, and ``AllOf``, ``AnyOf``, ``Unless`` to combine them.
Quantities (numbers read from the position)
    ``InHand(sel, including_self)``, ``OnLocations(sel)``, ``Banished(sel)``,
    ``DistinctColors()``, ``HandSize()``, ``FLEET``, ``HELIUM``, ``INFLUENCE``,
    ``BestTopValue()``.
Clauses (points)
    ``Points(n, condition)``, ``Each(n, quantity, cap=None)``, ``Gain(quantity)``,
    ``IgnoreLosses(colour)``.

Every primitive evaluates itself against a :class:`Hand` (the player's cards with the
colours and names they count as) and a :class:`Board` (everything else the player's
bonuses may read), renders its own English text (:func:`bonus_text` builds a card's
rules text from the encoding), reports what it reads (:class:`Refs`) so that the
scorer only tries the Gray colours and Orange names that can matter, and compiles itself
once into a fast evaluator (see "Compiled evaluators" below: :data:`BONUS_FNS`, the form
the scorer and the bots use).

Rules applied throughout (rulebook, "Anatomy of a Character Card" and "Game End and
Scoring"): "with" and "for each" look at the *other* cards in the player's hand unless
the clause says otherwise ("including Modjob", "your cards"); "if with" is binary;
"on all locations" counts every card on the four locations and "banished" the banished
pile, not the hand; a face-down card has no colour.

Rulings taken where the card text is open:

- "your cards" / "each of your cards" (Judge, Codebreaker, 4D Painter, Musician, Zanzibar)
  and hand sizes (Darrow, Loan Shark) include the card itself; "with only cards…"
  (Uncle Narol, Priestess, Harmony, Alia Snowsparrow) reads the others and holds when
  there are none.
- "the most … (or tied)" needs at least 1 (nobody has the most of nothing); Influence
  comparisons include the 2-player neutral house.
- "the least … (or tied for the least)" (Administrator: the printed card, not "most")
  compares with every house that has that resource in the game: every other player, and
  for Influence the 2-player neutral house (its 3 tokens never leave the Institute, so a
  neutral count of 0 means there is no neutral house: 3 or more players). 0 is an amount
  like any other: a player with no tokens on the Institute has the least, or shares it
  with every other house at 0. "An opponent has more" and Diplomat's
  "exact same amount" compare with the other players only (0 = 0 counts for Diplomat).
- A Gray counted as another colour is both colours: "for each X and Y" counts a card
  once, Mustang's "different colors" counts both, "with only X…" accepts a card with
  any listed colour, 4D Painter fails when two cards share any colour.
- A face-down card in hand has no colour (and a face-down Gray no extra colour) but keeps
  its name and core value; a face-down top card keeps its core value for Developer.
- A renamed Orange bears only the new name; characters named by name count once per
  name (Nero: -5 per name, not per card: two cards of the same name score no extra).
- Artisan Chef: each negative clause of a Gold card in the hand counts 0; losses of
  other cards caused by Golds (Sefi) still count.
- "with both A and B" needs two different cards; Lawyer's two clauses add up (34).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar, overload

from .cards import BROWN, CARDS, COLOR, COLOR_NAMES, GOLD, GRAY, NAME, NUM_CARDS, OBSIDIAN, PINK, RED, VALUE, card_index

__all__ = [
    "Board",
    "Hand",
    "Refs",
    "FRESH",
    "ENCODING",
    "BONUSES",
    "bonus",
    "bonus_text",
    "bonus_clauses_text",
    "has_bonus",
    "refs",
    "hand_bonuses",
    "initial",
    "mask_of",
    "BONUS_FNS",
    "CLAUSE_FNS",
    "reference_hand_bonuses",
]

FRESH = -1
"""Name of an Orange renamed to "some character nobody's bonus names" (only its first
letter matters, for Codebreaker); see :attr:`Hand.fresh_letters`."""


def mask_of(*colors: int) -> int:
    m = 0
    for c in colors:
        m |= 1 << c
    return m


def initial(name_index: int) -> str:
    """The literal first letter of a printed name ("The Howlers" -> "T")."""
    return NAME[name_index][0].upper()


# --------------------------------------------------------------------------------------
# What a bonus is evaluated against
# --------------------------------------------------------------------------------------


@dataclass(slots=True)
class Hand:
    """A player's hand as scored: per card, the colours (bit mask, 0 when face down) and
    the name (a card index, or :data:`FRESH`) it counts as."""

    cards: tuple[int, ...]
    masks: tuple[int, ...]
    names: tuple[int, ...]
    fresh_letters: frozenset[str] = frozenset()  # first letters a FRESH name may take

    @classmethod
    def plain(cls, cards: Sequence[int], face_down: Iterable[int] = ()) -> Hand:
        down = set(face_down)
        return cls(tuple(cards), tuple(0 if c in down else 1 << COLOR[c] for c in cards), tuple(cards))


@dataclass(slots=True)
class Board:
    """Everything outside the hand that one player's bonuses may read."""

    fleet: int = 0
    helium: int = 0
    influence: int = 0
    sovereign: bool = False
    opp_fleet: tuple[int, ...] = ()
    opp_helium: tuple[int, ...] = ()
    opp_influence: tuple[int, ...] = ()
    neutral_influence: int = 0
    location_masks: tuple[int, ...] = ()  # every card on every location (0 = face down)
    tops: tuple[tuple[int, bool] | None, ...] = (None, None, None, None)  # (core value, face down)
    banished_masks: tuple[int, ...] = ()


@dataclass(slots=True, frozen=True)
class Refs:
    """What a primitive reads in the hand, so the scorer knows which Gray colours and
    Orange names can change a score."""

    colors: int = 0  # colours it looks for in the hand
    names: frozenset[int] = frozenset()  # characters it looks for in the hand
    all_colors: bool = False  # reads every card's colours (all different…)
    distinct: bool = False  # counts different colours: any new colour helps
    initials: bool = False  # reads first letters of names
    negative: bool = False  # may lose points

    def __or__(self, o: Refs) -> Refs:
        return Refs(
            self.colors | o.colors,
            self.names | o.names,
            self.all_colors or o.all_colors,
            self.distinct or o.distinct,
            self.initials or o.initials,
            self.negative or o.negative,
        )


NO_REFS = Refs()


def _others(h: Hand, i: int) -> list[int]:
    return [j for j in range(len(h.cards)) if j != i]


# --------------------------------------------------------------------------------------
# English helpers
# --------------------------------------------------------------------------------------


def _color_word(c: int) -> str:
    return COLOR_NAMES[c].capitalize()


def _article(word: str) -> str:
    return ("an " if word[0] in "AEIOU" else "a ") + word


def _join(items: Sequence[str], word: str) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        return f"{items[0]} {word} {items[1]}"
    return ", ".join(items[:-1]) + f", {word} {items[-1]}"


def _join_no_oxford(items: Sequence[str], word: str) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} {items[-1]}"


def _number_range(lo: int | None, hi: int | None) -> str:
    if hi is None:
        return f"at least {lo}"
    if not lo:
        return f"{hi} or fewer"
    if lo == hi:
        return f"exactly {lo}"
    if hi == lo + 1:
        return f"{lo} or {hi}"
    return f"{lo}-{hi}"


def _fmt_points(n: int) -> str:
    return f"{n} VP"


# --------------------------------------------------------------------------------------
# Selectors: which cards of the hand a clause looks for
# --------------------------------------------------------------------------------------


class Sel:
    """Matches a card by the colours and the name it counts as."""

    __slots__ = ()

    def match(self, mask: int, name: int) -> bool:
        raise NotImplementedError

    def refs(self) -> Refs:
        raise NotImplementedError

    def parts(self) -> tuple[Sel, ...]:
        return (self,)

    def names_only(self) -> bool:
        return all(isinstance(p, N) for p in self.parts())

    def mask(self) -> int:
        return 0

    def form(self) -> Form:
        """How the compiled evaluators test a card against this selector (see :class:`Form`)."""
        return Form(pred=self.match)

    # text
    def a(self, me: int) -> str:  # "a Silver", "another Red", "Darrow"
        raise NotImplementedError

    def each(self, me: int) -> str:  # "Green, Yellow and Blue", "other Red"
        raise NotImplementedError

    def plural(self, me: int) -> str:  # "Golds", "other Golds", "Obsidians"
        raise NotImplementedError

    def __or__(self, other: Sel | str) -> Sel:
        other = _sel(other)
        if isinstance(self, C) and isinstance(other, C):
            return C(*self.colors, *other.colors)
        if isinstance(self, N) and isinstance(other, N):
            return N(*self.names, *other.names)
        return Or(*self.parts(), *other.parts())

    def but_not(self, *names: str) -> Sel:
        return Except(self, N(*names))


def is_own_color(me: int, mask: int) -> bool:
    return me >= 0 and bool(mask & (1 << COLOR[me]))


class C(Sel):
    """Cards of any of these colours (a Gray counted as another colour matches it too)."""

    __slots__ = ("colors", "_mask")

    def __init__(self, *colors: int) -> None:
        self.colors = tuple(colors)
        self._mask = mask_of(*colors)

    @overload
    def __or__(self, other: C) -> C: ...
    @overload
    def __or__(self, other: Sel | str) -> Sel: ...
    def __or__(self, other: Sel | str) -> Sel:
        """Colours or colours are colours (``Pink | Violet``); see :meth:`Sel.__or__`."""
        return Sel.__or__(self, other)

    def match(self, mask: int, name: int) -> bool:
        return bool(mask & self._mask)

    def mask(self) -> int:
        return self._mask

    def form(self) -> Form:
        return Form(mask=self._mask)

    def refs(self) -> Refs:
        return Refs(colors=self._mask)

    def _words(self) -> list[str]:
        return [_color_word(c) for c in self.colors]

    def a(self, me: int) -> str:
        if is_own_color(me, self._mask):
            return "another " + _join_no_oxford(self._words(), "or")
        return _article(_join_no_oxford(self._words(), "or"))

    def each(self, me: int) -> str:
        text = _join_no_oxford(self._words(), "and")
        return ("other " + text) if is_own_color(me, self._mask) else text

    def plural(self, me: int) -> str:
        text = _join_no_oxford([w + "s" for w in self._words()], "or")
        return ("other " + text) if is_own_color(me, self._mask) else text

    def __repr__(self) -> str:
        return "|".join(_color_word(c) for c in self.colors)


class N(Sel):
    """Characters by name (an Orange renamed to that name matches; a card renamed away
    from it does not)."""

    __slots__ = ("names",)

    def __init__(self, *names: str | int) -> None:
        self.names = tuple(card_index(n) if isinstance(n, str) else n for n in names)

    def match(self, mask: int, name: int) -> bool:
        return name in self.names

    def form(self) -> Form:
        return Form(names=frozenset(self.names))

    def refs(self) -> Refs:
        return Refs(names=frozenset(self.names))

    def _words(self) -> list[str]:
        return [NAME[n] for n in self.names]

    def a(self, me: int) -> str:
        return _join(self._words(), "or")

    def each(self, me: int) -> str:
        return _join_no_oxford(self._words(), "and")

    plural = a

    def __repr__(self) -> str:
        return "N(" + ", ".join(map(repr, self._words())) + ")"


class Or(Sel):
    """Any of several selectors: "Victra, The Howlers, or a Red"."""

    __slots__ = ("items",)

    def __init__(self, *items: Sel) -> None:
        self.items = tuple(items)

    def parts(self) -> tuple[Sel, ...]:
        return self.items

    def match(self, mask: int, name: int) -> bool:
        return any(s.match(mask, name) for s in self.items)

    def form(self) -> Form:
        forms = [s.form() for s in self.items]
        if any(f.pred is not None or f.exclude for f in forms):
            return Form(pred=self.match)
        m, names = 0, frozenset[int]()
        for f in forms:
            m |= f.mask
            names |= f.names
        return Form(mask=m, names=names)

    def mask(self) -> int:
        m = 0
        for s in self.items:
            m |= s.mask()
        return m

    def refs(self) -> Refs:
        r = NO_REFS
        for s in self.items:
            r |= s.refs()
        return r

    def _flat(self) -> list[tuple[str, Sel]]:
        out: list[tuple[str, Sel]] = []
        for s in self.items:
            if isinstance(s, N):
                out += [("n", N(n)) for n in s.names]
            else:
                out.append(("s", s))
        return out

    def a(self, me: int) -> str:
        return _join([s.a(me) for _, s in self._flat()], "or")

    def each(self, me: int) -> str:
        return _join_no_oxford([s.each(me) for _, s in self._flat()], "and")

    def plural(self, me: int) -> str:
        return _join([s.plural(me) for _, s in self._flat()], "or")


class Except(Sel):
    """``sel`` except the named characters: "a Gray except Bridge"."""

    __slots__ = ("sel", "excluded")

    def __init__(self, sel: Sel, excluded: N) -> None:
        self.sel = sel
        self.excluded = excluded

    def match(self, mask: int, name: int) -> bool:
        return self.sel.match(mask, name) and name not in self.excluded.names

    def mask(self) -> int:
        return self.sel.mask()

    def form(self) -> Form:
        inner = self.sel.form()
        if inner.pred is not None or inner.exclude:
            return Form(pred=self.match)
        return Form(mask=inner.mask, names=inner.names, exclude=frozenset(self.excluded.names))

    def refs(self) -> Refs:
        return self.sel.refs() | self.excluded.refs()

    def a(self, me: int) -> str:
        return f"{self.sel.a(me)} except {self.excluded.a(me)}"

    def each(self, me: int) -> str:
        return f"{self.sel.each(me)} except {self.excluded.a(me)}"

    def plural(self, me: int) -> str:
        return f"{self.sel.plural(me)} except {self.excluded.a(me)}"


Red, Brown, Pink, Violet, Yellow, Green, Blue, Orange, Gray, Obsidian, Silver, White, Copper, Gold = (
    C(c) for c in range(14)
)


def _sel(x: Sel | str) -> Sel:
    return N(x) if isinstance(x, str) else x


def _union(items: Sequence[Sel | str]) -> Sel:
    sels = [_sel(x) for x in items]
    out = sels[0]
    for s in sels[1:]:
        out = out | s
    return out


# --------------------------------------------------------------------------------------
# Compiled evaluators
# --------------------------------------------------------------------------------------
#
# Every primitive has a plain evaluation (``Sel.match``, ``Qty.value``, ``Cond.holds``,
# ``Clause.value``): the reference, written for clarity. ``compile()`` turns a primitive
# into a function ``(hand, i, board)`` built once from the same data, with the selector
# tests folded into one loop specialised to what the selector reads (its :class:`Form`:
# colours only, names only, both, an exception list, or a general predicate).
# :data:`BONUS_FNS` holds each card's whole bonus compiled this way; the scorer and the
# bots evaluate hands through it. A primitive without a specialised ``compile`` uses its
# reference evaluation, and a subclass that redefines the evaluation gets the reference
# back (:func:`_reference_compile`), so a compiled form can never drift from the
# primitive it came from. tests/redrising/test_scoring_compiled.py checks both against
# each other on every card.

Eval = Callable[[Hand, int, Board], int]
Test = Callable[[Hand, int, Board], bool]


@dataclass(frozen=True, slots=True)
class Form:
    """What a card must be to match a selector: any colour of ``mask`` or any name of
    ``names``, and no name of ``exclude``; or, when ``pred`` is set, ``pred(mask, name)``."""

    mask: int = 0
    names: frozenset[int] = frozenset()
    exclude: frozenset[int] = frozenset()
    pred: Callable[[int, int], bool] | None = None


_T = TypeVar("_T")


def _find_other(form: Form, yes: _T, no: _T) -> Callable[[Hand, int, Board], _T]:
    """``yes`` if another card of the hand (not card ``i``) matches ``form``, else ``no``."""
    m, names, excl, pred = form.mask, form.names, form.exclude, form.pred
    if pred is not None:

        def find(h: Hand, i: int, b: Board) -> _T:
            masks, ns = h.masks, h.names
            for j in range(len(masks)):
                if j != i and pred(masks[j], ns[j]):
                    return yes
            return no
    elif excl:

        def find(h: Hand, i: int, b: Board) -> _T:
            ns = h.names
            for j, x in enumerate(h.masks):
                if j != i and (x & m or ns[j] in names) and ns[j] not in excl:
                    return yes
            return no
    elif not names:

        def find(h: Hand, i: int, b: Board) -> _T:
            for j, x in enumerate(h.masks):
                if x & m and j != i:
                    return yes
            return no
    elif not m:

        def find(h: Hand, i: int, b: Board) -> _T:
            for j, n in enumerate(h.names):
                if n in names and j != i:
                    return yes
            return no
    else:

        def find(h: Hand, i: int, b: Board) -> _T:
            ns = h.names
            for j, x in enumerate(h.masks):
                if (x & m or ns[j] in names) and j != i:
                    return yes
            return no

    return find


def _count_in_hand(form: Form, including_self: bool, distinct_names: bool) -> Eval | None:
    """How many cards of the hand match (``distinct_names``: how many different names),
    for the forms worth a loop of their own; None for the others."""
    m, names = form.mask, form.names
    if form.pred is not None or form.exclude:
        return None
    if distinct_names:
        if m:
            return None
        if including_self:
            return lambda h, i, b: len({n for n in h.names if n in names})
        return lambda h, i, b: len({n for j, n in enumerate(h.names) if n in names and j != i})
    if names:
        return None
    if including_self:
        return lambda h, i, b: sum([1 for x in h.masks if x & m])
    return lambda h, i, b: sum([1 for j, x in enumerate(h.masks) if x & m and j != i])


def _zero(h: Hand, i: int, b: Board) -> int:
    return 0


def _reference_compile(cls: type, evaluation: str) -> None:
    """A class that defines its own ``evaluation`` but no ``compile`` compiles to that
    evaluation, never to a parent's specialised form (which would read the parent's rule)."""
    if evaluation in cls.__dict__ and "compile" not in cls.__dict__:
        setattr(cls, "compile", lambda self: getattr(self, evaluation))  # noqa: B010  (a class built at import)


# --------------------------------------------------------------------------------------
# Quantities
# --------------------------------------------------------------------------------------


class Qty:
    __slots__ = ()

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        _reference_compile(cls, "value")

    def value(self, h: Hand, i: int, b: Board) -> int:
        raise NotImplementedError

    def compile(self) -> Eval:
        """This quantity as one function ``(hand, i, board) -> int`` (see "Compiled evaluators")."""
        return self.value

    def refs(self) -> Refs:
        return NO_REFS

    def each(self, me: int) -> str:  # the words after "N VP"
        raise NotImplementedError

    def amount(self, me: int, lo: int | None, hi: int | None) -> str:  # "you have at least 5 Helium"
        raise NotImplementedError

    def gain(self, me: int) -> str:  # "Gain points equal to …"
        raise NotImplementedError


class InHand(Qty):
    """How many *other* cards of the hand match (``including_self``: the card counts too).
    Characters named by name count once per name (two cards of one name score no extra)."""

    __slots__ = ("sel", "including_self")

    def __init__(self, *items: Sel | str, including_self: bool = False) -> None:
        self.sel = _union(items)
        self.including_self = including_self

    def value(self, h: Hand, i: int, b: Board) -> int:
        match = self.sel.match
        idx = range(len(h.cards)) if self.including_self else _others(h, i)
        if self.sel.names_only():
            return len({h.names[j] for j in idx if match(h.masks[j], h.names[j])})
        return sum(1 for j in idx if match(h.masks[j], h.names[j]))

    def compile(self) -> Eval:
        fn = _count_in_hand(self.sel.form(), self.including_self, self.sel.names_only())
        return fn if fn is not None else self.value

    def refs(self) -> Refs:
        return self.sel.refs()

    def each(self, me: int) -> str:
        if self.sel.names_only():
            return "each for " + self.sel.each(me)
        if self.including_self:
            return f"for each {self.sel.each(-1)} (including {NAME[me]})"
        return "for each " + self.sel.each(me)

    def amount(self, me: int, lo: int | None, hi: int | None) -> str:
        return f"you have {_number_range(lo, hi)} {self.sel.plural(me)}"


class OnLocations(Qty):
    """Cards of these colours on all four locations (any depth; face-down cards have no
    colour). Reads the board, not the hand."""

    __slots__ = ("sel",)

    def __init__(self, sel: C) -> None:
        self.sel = sel

    def value(self, h: Hand, i: int, b: Board) -> int:
        m = self.sel.mask()
        return sum(1 for lm in b.location_masks if lm & m)

    def compile(self) -> Eval:
        m = self.sel.mask()
        return lambda h, i, b: sum([1 for lm in b.location_masks if lm & m])

    def each(self, me: int) -> str:
        return f"for each {self.sel.each(-1)} on all locations"


class Banished(Qty):
    """Cards in the banished pile (of these colours, or all)."""

    __slots__ = ("sel",)

    def __init__(self, sel: C | None = None) -> None:
        self.sel = sel

    def value(self, h: Hand, i: int, b: Board) -> int:
        if self.sel is None:
            return len(b.banished_masks)
        m = self.sel.mask()
        return sum(1 for bm in b.banished_masks if bm & m)

    def compile(self) -> Eval:
        if self.sel is None:
            return lambda h, i, b: len(b.banished_masks)
        m = self.sel.mask()
        return lambda h, i, b: sum([1 for bm in b.banished_masks if bm & m])

    def each(self, me: int) -> str:
        return "for each banished " + ("card" if self.sel is None else self.sel.each(-1))

    def amount(self, me: int, lo: int | None, hi: int | None) -> str:
        if self.sel is not None:
            verb = "is" if (lo == 1 and hi is None) else "are"
            return f"there {verb} {_number_range(lo, hi)} banished {self.sel.each(-1)}"
        return f"there are {_number_range(lo, hi)} banished cards at the beginning of end-game scoring"


class DistinctColors(Qty):
    """How many different colours the other cards have (a Gray counted as another colour
    brings both)."""

    __slots__ = ()

    def value(self, h: Hand, i: int, b: Board) -> int:
        m = 0
        for j in _others(h, i):
            m |= h.masks[j]
        return m.bit_count()

    def refs(self) -> Refs:
        return Refs(all_colors=True, distinct=True)

    def each(self, me: int) -> str:
        return "for each different color"


class HandSize(Qty):
    """The number of cards in hand, this one included."""

    __slots__ = ()

    def value(self, h: Hand, i: int, b: Board) -> int:
        return len(h.cards)

    def each(self, me: int) -> str:
        return "for each of your cards"

    def amount(self, me: int, lo: int | None, hi: int | None) -> str:
        return f"you have {_number_range(lo, hi)} cards (including {NAME[me]})"


class _Token(Qty):
    __slots__ = ()
    words: dict[str, str] = {}

    def mine(self, b: Board) -> int:
        raise NotImplementedError

    def opponents(self, b: Board) -> tuple[int, ...]:
        raise NotImplementedError

    def rivals(self, b: Board) -> tuple[int, ...]:
        """Whom "the most" and "the least" compare with."""
        return self.opponents(b)

    def value(self, h: Hand, i: int, b: Board) -> int:
        return self.mine(b)

    def compile(self) -> Eval:
        mine = self.mine
        return lambda h, i, b: mine(b)

    def each(self, me: int) -> str:
        return self.words["each"]

    def amount(self, me: int, lo: int | None, hi: int | None) -> str:
        return self.words["amount"].format(_number_range(lo, hi))

    def gain(self, me: int) -> str:
        return self.words["gain"]


class _Fleet(_Token):
    __slots__ = ()
    words = {
        "amount": "your Fleet Track position is {}",
        "gain": "Gain points equal to your position on the Fleet Track (0-10)",
        "most": "you are the most advanced on the Fleet Track (or tied for the most)",
        "least": "you are the least advanced on the Fleet Track (or tied for the least)",
        "more": "an opponent is more advanced on the Fleet Track",
        "same": "you and any opponent are at the exact same position on the Fleet Track",
    }

    def mine(self, b: Board) -> int:
        return b.fleet

    def opponents(self, b: Board) -> tuple[int, ...]:
        return b.opp_fleet


class _Helium(_Token):
    __slots__ = ()
    words = {
        "each": "for each Helium",
        "amount": "you have {} Helium",
        "most": "you have the most Helium (or tied for the most)",
        "least": "you have the least Helium (or tied for the least)",
        "more": "any opponent has more Helium than you",
        "same": "you and any opponent have the exact same amount of Helium",
    }

    def mine(self, b: Board) -> int:
        return b.helium

    def opponents(self, b: Board) -> tuple[int, ...]:
        return b.opp_helium


class _Influence(_Token):
    __slots__ = ()
    words = {
        "each": "for each of your Influence tokens on the Institute",
        "amount": "you have {} Influence on the Institute",
        "most": "you have the most Influence on the Institute (or tied for the most)",
        "least": "you have the least Influence on the Institute (or tied for the least)",
        "more": "an opponent has more Influence on the Institute than you",
        "same": "you and any opponent have the exact same amount of Influence on the Institute",
    }

    def mine(self, b: Board) -> int:
        return b.influence

    def opponents(self, b: Board) -> tuple[int, ...]:
        return b.opp_influence

    def rivals(self, b: Board) -> tuple[int, ...]:
        # the 2-player neutral house counts as a third house in every end-game comparison
        return b.opp_influence + ((b.neutral_influence,) if b.neutral_influence else ())


FLEET, HELIUM, INFLUENCE = _Fleet(), _Helium(), _Influence()


class BestTopValue(Qty):
    """The core value of the top card of any location (the player picks the best)."""

    __slots__ = ()

    def value(self, h: Hand, i: int, b: Board) -> int:
        return max((t[0] for t in b.tops if t is not None), default=0)

    def gain(self, me: int) -> str:
        return "Gain the core value of the top card of any location"


# --------------------------------------------------------------------------------------
# Conditions
# --------------------------------------------------------------------------------------


class Cond:
    __slots__ = ()

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        _reference_compile(cls, "holds")
        if "holds" in cls.__dict__ and "compile_points" not in cls.__dict__:
            setattr(cls, "compile_points", Cond.compile_points)  # noqa: B010  (a class built at import)

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        raise NotImplementedError

    def compile(self) -> Test:
        """This condition as one function ``(hand, i, board) -> truth`` (see "Compiled evaluators")."""
        return self.holds

    def compile_points(self, n: int) -> Eval:
        """``n`` if the condition holds, else 0, as one function (what :class:`Points` compiles to)."""
        test = self.compile()
        return lambda h, i, b: n if test(h, i, b) else 0

    def refs(self) -> Refs:
        return NO_REFS

    def text(self, me: int) -> str:
        raise NotImplementedError

    def clause(self, me: int) -> str:
        return "if " + self.text(me)


def _count(sel: Sel, h: Hand, i: int) -> int:
    return sum(1 for j in _others(h, i) if sel.match(h.masks[j], h.names[j]))


def _any(sel: Sel, h: Hand, i: int) -> bool:
    match = sel.match
    masks, names = h.masks, h.names
    return any(j != i and match(masks[j], names[j]) for j in range(len(masks)))


class With(Cond):
    """At least ``n`` (default 1) other cards match: "with Orion, Virga, or Pelus"."""

    __slots__ = ("sel", "n")

    def __init__(self, *items: Sel | str, n: int = 1) -> None:
        self.sel = _union(items)
        self.n = n

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        return _any(self.sel, h, i) if self.n == 1 else _count(self.sel, h, i) >= self.n

    def compile(self) -> Test:
        return _find_other(self.sel.form(), True, False) if self.n == 1 else self.holds

    def compile_points(self, n: int) -> Eval:
        return _find_other(self.sel.form(), n, 0) if self.n == 1 else Cond.compile_points(self, n)

    def refs(self) -> Refs:
        return self.sel.refs()

    def text(self, me: int) -> str:
        return "with " + (self.sel.a(me) if self.n == 1 else f"{self.n} {self.sel.plural(me)}")


class WithNo(Cond):
    """No other card matches: "with no Golds" (``style="without"``: "without a Blue")."""

    __slots__ = ("sel", "style")

    def __init__(self, *items: Sel | str, style: str = "no") -> None:
        self.sel = _union(items)
        self.style = style

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        return not _any(self.sel, h, i)

    def compile(self) -> Test:
        return _find_other(self.sel.form(), False, True)

    def compile_points(self, n: int) -> Eval:
        return _find_other(self.sel.form(), 0, n)

    def refs(self) -> Refs:
        return self.sel.refs()

    def text(self, me: int) -> str:
        if self.style == "without":
            return "without " + self.sel.a(me)
        return "with no " + self.sel.plural(me)


class OnlyOne(WithNo):
    """This card is the only one of its colour in hand: "this is your only Obsidian"."""

    __slots__ = ()

    def __init__(self, sel: C) -> None:
        super().__init__(sel)

    def text(self, me: int) -> str:
        return f"this is your only {self.sel.each(-1)}"


class WithBoth(Cond):
    """ "with both Mustang and Darrow" (two different other cards when one card could be both)."""

    __slots__ = ("a", "b")

    def __init__(self, a: Sel | str, b: Sel | str) -> None:
        self.a, self.b = _sel(a), _sel(b)

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        others = _others(h, i)
        ja = [j for j in others if self.a.match(h.masks[j], h.names[j])]
        jb = [j for j in others if self.b.match(h.masks[j], h.names[j])]
        return bool(ja) and bool(jb) and (len(set(ja) | set(jb)) >= 2)

    def refs(self) -> Refs:
        return self.a.refs() | self.b.refs()

    def text(self, me: int) -> str:
        return f"with both {self.a.a(me)} and {self.b.a(me)}"


class WithButNot(Cond):
    """ "with Darrow (but not Mustang)"."""

    __slots__ = ("a", "b")

    def __init__(self, a: Sel | str, b: Sel | str) -> None:
        self.a, self.b = _sel(a), _sel(b)

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        return _any(self.a, h, i) and not _any(self.b, h, i)

    def compile(self) -> Test:
        with_a, without_b = _find_other(self.a.form(), True, False), _find_other(self.b.form(), False, True)
        return lambda h, i, b: with_a(h, i, b) and without_b(h, i, b)

    def refs(self) -> Refs:
        return self.a.refs() | self.b.refs()

    def text(self, me: int) -> str:
        return f"with {self.a.a(me)} (but not {self.b.a(me)})"


class WithOneNotBoth(Cond):
    """ "with a Gold or a Red (but not both)"."""

    __slots__ = ("a", "b")

    def __init__(self, a: Sel | str, b: Sel | str) -> None:
        self.a, self.b = _sel(a), _sel(b)

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        return _any(self.a, h, i) != _any(self.b, h, i)

    def compile(self) -> Test:
        with_a, with_b = _find_other(self.a.form(), True, False), _find_other(self.b.form(), True, False)
        return lambda h, i, b: with_a(h, i, b) != with_b(h, i, b)

    def refs(self) -> Refs:
        return self.a.refs() | self.b.refs()

    def text(self, me: int) -> str:
        return f"with {self.a.a(me)} or {self.b.a(me)} (but not both)"


class WithOnly(Cond):
    """Every other card has one of these colours (a face-down card has none; a Gray
    counted as one of them qualifies). True when there are no other cards."""

    __slots__ = ("colors", "_mask")

    def __init__(self, *colors: int) -> None:
        self.colors = colors
        self._mask = mask_of(*colors)

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        m = self._mask
        masks = h.masks
        for j in range(len(masks)):
            if j != i and not masks[j] & m:
                return False
        return True

    def refs(self) -> Refs:
        return Refs(colors=self._mask)

    def text(self, me: int) -> str:
        return "with only " + _join_no_oxford([_color_word(c) + "s" for c in self.colors], "and/or")


@dataclass(frozen=True, slots=True)
class ValueTest:
    """A test of a core value, with its two English forms."""

    kind: str
    n: int = 0

    def __call__(self, v: int) -> bool:
        if self.kind == "max":
            return v <= self.n
        if self.kind == "min":
            return v >= self.n
        return v % 2 == (0 if self.kind == "even" else 1)

    def plural(self) -> str:  # "cards having core values …"
        return {
            "max": f"of {self.n} points or less",
            "min": f"of at least {self.n} points",
            "even": "that are even numbers",
            "odd": "that are odd numbers",
        }[self.kind]

    def singular(self) -> str:  # "the core value of each of your cards …"
        return {
            "max": f"is {self.n} points or less",
            "min": f"is at least {self.n} points",
            "even": "is an even number",
            "odd": "is an odd number",
        }[self.kind]


def at_most(n: int) -> ValueTest:
    return ValueTest("max", n)


def at_least(n: int) -> ValueTest:
    return ValueTest("min", n)


EVEN, ODD = ValueTest("even"), ValueTest("odd")


class AllCards(Cond):
    """Every card's core value passes ``test``: the other cards ("with only cards having
    core values of 10 points or less") or all of them ("each of your cards")."""

    __slots__ = ("test", "include_self")

    def __init__(self, test: ValueTest, include_self: bool = False) -> None:
        self.test = test
        self.include_self = include_self

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        t = self.test
        return all(t(VALUE[c]) for j, c in enumerate(h.cards) if self.include_self or j != i)

    def text(self, me: int) -> str:
        if self.include_self:
            return f"the core value of each of your cards {self.test.singular()}"
        return f"with only cards having core values {self.test.plural()}"


COLORS, INITIALS = "colors", "initials"


class AllDifferent(Cond):
    """All cards of the hand, this one included, differ in colour (no two share a colour;
    a face-down card has none to share) or in the first letter of their name."""

    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        assert key in (COLORS, INITIALS)
        self.key = key

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        if self.key == COLORS:
            seen = 0
            for m in h.masks:
                if seen & m:
                    return False
                seen |= m
            return True
        letters: set[str] = set()
        fresh = 0
        for n in h.names:
            if n == FRESH:
                fresh += 1
                continue
            letter = initial(n)
            if letter in letters:
                return False
            letters.add(letter)
        return fresh == 0 or fresh <= len(h.fresh_letters - letters)

    def refs(self) -> Refs:
        return Refs(all_colors=True) if self.key == COLORS else Refs(initials=True)

    def text(self, me: int) -> str:
        if self.key == COLORS:
            return "each of your cards is a different color"
        return "the first letters of the names of your cards are all different"


SOVEREIGN = "sovereign"


class Have(Cond):
    """You have any of: the Sovereign token, or another card matching a selector."""

    __slots__ = ("sovereign", "sel")

    def __init__(self, *items: str | Sel) -> None:
        self.sovereign = SOVEREIGN in items
        rest = [x for x in items if x != SOVEREIGN]
        self.sel = _union(rest) if rest else None

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        return (self.sovereign and b.sovereign) or (self.sel is not None and _any(self.sel, h, i))

    def compile(self) -> Test:
        if self.sel is None:
            return (lambda h, i, b: b.sovereign) if self.sovereign else (lambda h, i, b: False)
        find = _find_other(self.sel.form(), True, False)
        if not self.sovereign:
            return find
        return lambda h, i, b: b.sovereign or find(h, i, b)

    def refs(self) -> Refs:
        return self.sel.refs() if self.sel is not None else NO_REFS

    def _words(self, me: int) -> list[str]:
        words = ["the Sovereign token"] if self.sovereign else []
        if isinstance(self.sel, N):
            words += [NAME[n] for n in self.sel.names]
        elif self.sel is not None:
            words.append(self.sel.a(me))
        return words

    def text(self, me: int) -> str:
        return "you have " + _join(self._words(me), "or")


class HaveNone(Have):
    """You have none of them: "you don't have either the Sovereign token or Lysander"."""

    __slots__ = ()

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        return not Have.holds(self, h, i, b)

    def compile(self) -> Test:
        have = Have.compile(self)
        return lambda h, i, b: not have(h, i, b)

    def text(self, me: int) -> str:
        words = self._words(me)
        if len(words) == 1:
            return "you don't have " + words[0]
        return "you don't have either " + _join(words, "or")


class Most(Cond):
    """You have the most (ties count) of a resource, and at least 1."""

    __slots__ = ("res",)

    def __init__(self, res: _Token) -> None:
        self.res = res

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        mine = self.res.mine(b)
        return mine > 0 and all(mine >= v for v in self.res.rivals(b))

    def text(self, me: int) -> str:
        return self.res.words["most"]


class Least(Cond):
    """You have the least (ties count) of a resource; 0 counts (see the rulings above)."""

    __slots__ = ("res",)

    def __init__(self, res: _Token) -> None:
        self.res = res

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        mine = self.res.mine(b)
        return all(mine <= v for v in self.res.rivals(b))

    def text(self, me: int) -> str:
        return self.res.words["least"]


class OpponentMore(Cond):
    """An opponent has more of a resource than you."""

    __slots__ = ("res",)

    def __init__(self, res: _Token) -> None:
        self.res = res

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        mine = self.res.mine(b)
        return any(v > mine for v in self.res.opponents(b))

    def text(self, me: int) -> str:
        return self.res.words["more"]


class SameAsOpponent(Cond):
    """You and an opponent (a player, not the neutral house) have exactly the same amount."""

    __slots__ = ("res",)

    def __init__(self, res: _Token) -> None:
        self.res = res

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        return self.res.mine(b) in self.res.opponents(b)

    def text(self, me: int) -> str:
        return self.res.words["same"]


class InRange(Cond):
    """``lo <= quantity <= hi`` (``hi=None``: no upper bound)."""

    __slots__ = ("qty", "lo", "hi")

    def __init__(self, qty: Qty, lo: int | None, hi: int | None = None) -> None:
        self.qty, self.lo, self.hi = qty, lo, hi

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        v = self.qty.value(h, i, b)
        return (self.lo is None or v >= self.lo) and (self.hi is None or v <= self.hi)

    def compile(self) -> Test:
        qty, lo, hi = self.qty.compile(), self.lo, self.hi
        if hi is None:
            return (lambda h, i, b: True) if lo is None else (lambda h, i, b: qty(h, i, b) >= lo)
        if lo is None:
            return lambda h, i, b: qty(h, i, b) <= hi
        return lambda h, i, b: lo <= qty(h, i, b) <= hi

    def refs(self) -> Refs:
        return self.qty.refs()

    def text(self, me: int) -> str:
        return self.qty.amount(me, self.lo, self.hi)


class EmptyOrFaceDownTop(Cond):
    """Some location has no cards, or a face-down card on top."""

    __slots__ = ()

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        return any(t is None or t[1] for t in b.tops)

    def text(self, me: int) -> str:
        return "there is at least 1 location with no cards or where the top card is face down"


def _merge_with(parts: list[str], word: str) -> str:
    """Join condition texts, dropping a repeated lead ("with ", "you have "):
    "with a Gold and no Obsidians"."""
    out = [parts[0]]
    for p in parts[1:]:
        for lead in ("with ", "you have "):
            if p.startswith(lead) and parts[0].startswith(lead):
                p = p[len(lead) :]
                break
        out.append(p)
    return _join_no_oxford(out, word)


class AllOf(Cond):
    __slots__ = ("conds",)

    def __init__(self, *conds: Cond) -> None:
        self.conds = conds

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        return all(c.holds(h, i, b) for c in self.conds)

    def compile(self) -> Test:
        tests = tuple(c.compile() for c in self.conds)
        return lambda h, i, b: all([t(h, i, b) for t in tests])

    def refs(self) -> Refs:
        r = NO_REFS
        for c in self.conds:
            r |= c.refs()
        return r

    def text(self, me: int) -> str:
        return _merge_with([c.text(me) for c in self.conds], "and")


class AnyOf(AllOf):
    __slots__ = ()

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        return any(c.holds(h, i, b) for c in self.conds)

    def compile(self) -> Test:
        tests = tuple(c.compile() for c in self.conds)
        return lambda h, i, b: any([t(h, i, b) for t in tests])

    def text(self, me: int) -> str:
        return _merge_with([c.text(me) for c in self.conds], "or")


class Unless(Cond):
    """The opposite of a condition, phrased "unless …"."""

    __slots__ = ("cond",)

    def __init__(self, cond: Cond) -> None:
        self.cond = cond

    def holds(self, h: Hand, i: int, b: Board) -> bool:
        return not self.cond.holds(h, i, b)

    def compile(self) -> Test:
        test = self.cond.compile()
        return lambda h, i, b: not test(h, i, b)

    def refs(self) -> Refs:
        return self.cond.refs()

    def text(self, me: int) -> str:
        return "not " + self.cond.text(me)

    def clause(self, me: int) -> str:
        return "unless " + self.cond.text(me)


# --------------------------------------------------------------------------------------
# Clauses
# --------------------------------------------------------------------------------------


class Clause:
    __slots__ = ()

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        _reference_compile(cls, "value")

    def value(self, h: Hand, i: int, b: Board) -> int:
        raise NotImplementedError

    def compile(self) -> Eval:
        """This clause's points as one function ``(hand, i, board) -> int`` (see "Compiled evaluators")."""
        return self.value

    def refs(self) -> Refs:
        return NO_REFS

    def text(self, me: int) -> str:
        raise NotImplementedError


class Points(Clause):
    """``n`` points if the condition holds: "14 VP if with a Silver" (binary)."""

    __slots__ = ("n", "cond")

    def __init__(self, n: int, cond: Cond) -> None:
        self.n, self.cond = n, cond

    def value(self, h: Hand, i: int, b: Board) -> int:
        return self.n if self.cond.holds(h, i, b) else 0

    def compile(self) -> Eval:
        return self.cond.compile_points(self.n)

    def refs(self) -> Refs:
        return self.cond.refs() | Refs(negative=self.n < 0)

    def text(self, me: int) -> str:
        return f"{_fmt_points(self.n)} {self.cond.clause(me)}."


class Each(Clause):
    """``n`` points per unit of a quantity, optionally capped: "5 VP for each Helium (max 25 points)"."""

    __slots__ = ("n", "qty", "cap")

    def __init__(self, n: int, qty: Qty, cap: int | None = None) -> None:
        self.n, self.qty, self.cap = n, qty, cap

    def value(self, h: Hand, i: int, b: Board) -> int:
        v = self.n * self.qty.value(h, i, b)
        return min(v, self.cap) if self.cap is not None else v

    def compile(self) -> Eval:
        qty, n, cap = self.qty.compile(), self.n, self.cap
        if cap is None:
            return lambda h, i, b: n * qty(h, i, b)
        return lambda h, i, b: min(n * qty(h, i, b), cap)

    def refs(self) -> Refs:
        return self.qty.refs() | Refs(negative=self.n < 0)

    def text(self, me: int) -> str:
        cap = f" (max {self.cap} points)" if self.cap is not None else ""
        return f"{_fmt_points(self.n)} {self.qty.each(me)}{cap}."


class Gain(Clause):
    """Points equal to a quantity: "Gain points equal to your position on the Fleet Track"."""

    __slots__ = ("qty",)

    def __init__(self, qty: Qty) -> None:
        self.qty = qty

    def value(self, h: Hand, i: int, b: Board) -> int:
        return self.qty.value(h, i, b)

    def compile(self) -> Eval:
        return self.qty.compile()

    def refs(self) -> Refs:
        return self.qty.refs()

    def text(self, me: int) -> str:
        return self.qty.gain(me) + "."


class IgnoreLosses(Clause):
    """While this card is in hand, the negative bonus clauses of cards of this colour
    score 0 (Artisan Chef: "Ignore any lost points from Golds")."""

    __slots__ = ("sel",)

    def __init__(self, sel: C) -> None:
        self.sel = sel

    def value(self, h: Hand, i: int, b: Board) -> int:
        return 0

    def compile(self) -> Eval:
        return _zero

    def refs(self) -> Refs:
        return self.sel.refs()

    def text(self, me: int) -> str:
        return f"Ignore any lost points from {self.sel.plural(-1)}."


# --------------------------------------------------------------------------------------
# The cards (printed bonus of every card, in the cards module's order)
# --------------------------------------------------------------------------------------

PAX = ("Pax au Telemanus", "The Pax")

ENCODING: dict[str, tuple[Clause, ...]] = {
    # Red
    "Arlus": (Points(25, WithNo(Gold)),),
    "Dancer": (Points(11, WithNo(Gray)), Points(11, WithNo(Gold))),
    "Darrow": (Points(30, InRange(HandSize(), 7)),),
    "Deanna": (Points(26, With(Red)),),
    "Eo": (Each(10, InHand(Red)), Points(-10, With(Gray.but_not("Bridge")))),
    "Harmony": (Points(33, WithOnly(RED, PINK, BROWN, OBSIDIAN)),),
    "Uncle Narol": (Points(40, AllCards(at_most(10))),),
    # Brown
    "Artisan Chef": (Each(5, InHand(Gold)), IgnoreLosses(Gold)),
    "Assassin": (Each(10, InHand(Obsidian)),),
    "Gardener": (Each(5, InHand(Violet | Pink)),),
    "Janitor": (Each(5, InHand(Green | Yellow | Blue)),),
    "Mess Hall Cook": (Each(5, InHand(Gray | Orange)),),
    "Modjob": (Each(5, InHand(Red | Brown, including_self=True)),),
    "Nanny": (Each(5, InHand(Silver | White | Copper)),),
    # Pink
    "Calliope": (Points(20, With("The Jackal")),),
    "Conversationalist": (Points(15, With(White)),),
    "Evey": (Points(15, With("Darrow")), Points(-15, With("Mickey the Carver"))),
    "Garden-trained Rose": (Points(14, With(Silver)),),
    "Masseuse": (Points(16, With(Copper)),),
    "Matteo": (Points(17, With(Pink, "Quicksilver")),),
    "Theodora": (Points(14, WithOneNotBoth(Gold, Red)),),
    # Violet
    "4D Painter": (Points(31, AllDifferent(COLORS)),),
    "Holo Host": (Points(18, Most(INFLUENCE)),),
    "Mickey the Carver": (Points(10, InRange(Banished(Red), 1)), Points(10, With(Gold))),
    "Musician": (Points(32, AllCards(EVEN, include_self=True)),),
    "Reporter": (Points(29, Most(HELIUM)),),
    "Vlogger": (Points(23, Most(FLEET)),),
    "Zanzibar": (Points(31, AllCards(ODD, include_self=True)),),
    # Yellow
    "Group Counselor": (Each(-1, Banished()),),
    "Pathologist": (Points(10, InRange(Banished(), 5, 9)), Points(25, InRange(Banished(), 10))),
    "Researcher": (Points(17, InRange(Banished(), None, 4)),),
    "Surgeon": (Each(5, InHand(Gold)),),
    # Green
    "Codebreaker": (Points(22, AllDifferent(INITIALS)),),
    "Dataport Specialist": (Points(26, With(Blue)),),
    "Developer": (Gain(BestTopValue()),),
    "Firewall Expert": (Points(22, EmptyOrFaceDownTop()),),
    "Holo Designer": (Points(28, With(Violet)),),
    # Blue
    "Invictus": (Points(16, Most(FLEET)), Points(-9, OpponentMore(FLEET))),
    "Morning Star": (Points(-15, Unless(With("Orion", "Virga", "Pelus"))),),
    "Orion": (Points(10, With(*PAX)), Gain(FLEET)),
    "Pelus": (Points(20, InRange(FLEET, 5, 7)), Points(35, InRange(FLEET, 8, 10))),
    "Quietus": (Points(16, Most(INFLUENCE)),),
    "The Pax": (Points(15, With("Darrow", "Sevro", "Orion", "Virga", "Pelus")),),
    "Virga": (Points(15, InRange(FLEET, 6, 8)), Points(30, InRange(FLEET, 9, 10))),
    # Orange
    "Aegis Craftsman": (Points(10, With(Gold)), Points(10, WithNo(Obsidian))),
    "Artificer": (Points(20, WithBoth(Orange, Gold)),),
    "Cyther": (Points(16, With(Blue)),),
    "Gravboot Cobbler": (Points(14, With(Gold | Gray)),),
    "Pulse Armorer": (Points(17, With(Gray)),),
    "Pulse Fist Engineer": (Points(18, With(Obsidian)),),
    "Razor Designer": (Points(13, AllOf(With(Gold), WithNo(Obsidian))),),
    # Gray
    "Bridge": (Each(5, OnLocations(Pink | Violet)),),
    "Colonel Valentin": (Each(5, OnLocations(Gold)),),
    "Danto": (Each(5, OnLocations(Copper | White)),),
    "Holiday": (Each(5, OnLocations(Orange | Blue)),),
    "Sun Hwa": (Each(5, OnLocations(Obsidian | Green)),),
    "Trigg": (Each(5, OnLocations(Gray | Yellow)),),
    "Ugly Dan": (Each(5, OnLocations(Red | Brown)),),
    # Obsidian
    "Alfrun": (Points(10, With("Nero")), Points(10, With("Jopho"))),
    "Alia Snowsparrow": (Points(24, WithOnly(GOLD, GRAY, OBSIDIAN)),),
    "Helga": (Points(16, With(*PAX)),),
    "Jopho": (Points(10, With("Alfrun")), Points(10, With("Nero"))),
    "Ragnar": (Points(10, With(Orange)), Points(10, With("Sefi"))),
    "Sefi": (Points(20, With("Ragnar")), Each(-5, InHand(Gold))),
    "Stained": (Points(15, OnlyOne(Obsidian)),),
    # Silver
    "CEO": (Points(18, InRange(HELIUM, 5)),),
    "Loan Shark": (Points(7, InRange(HandSize(), 7)),),
    "Quicksilver": (Points(-30, OpponentMore(HELIUM)),),
    "Sponsor": (Each(2, INFLUENCE),),
    "Stock Broker": (Each(5, HELIUM, cap=25),),
    # White
    "Judge": (Each(3, HandSize()),),
    "Magistrate": (Points(15, AllOf(InRange(HELIUM, 3), InRange(INFLUENCE, 3), InRange(FLEET, 3))),),
    "Orator": (Points(21, HaveNone(SOVEREIGN)),),
    "Priestess": (Points(20, AllCards(at_least(20))),),
    "Seer": (Points(11, Have(SOVEREIGN)),),
    # Copper
    "Administrator": (Points(15, Least(INFLUENCE)),),
    "Bondilus": (Points(5, Have(SOVEREIGN)), Points(5, With(Gold))),
    "Diplomat": (Points(19, SameAsOpponent(INFLUENCE)),),
    "Lawyer": (Points(12, With(White.but_not("Judge"))), Points(22, With("Judge"))),
    "Politician": (Points(15, Most(INFLUENCE)),),
    "Timony": (Each(3, INFLUENCE),),
    # Gold
    "Aja": (Points(15, With("Octavia")),),
    "Antonia": (Points(15, AnyOf(With("The Jackal"), With(Gold, n=2))), Points(-10, With("Victra", "Sevro"))),
    "Ash Lord": (Each(5, InHand(Blue)), Each(5, Banished(Blue))),
    "Boneriders": (Points(15, With("The Jackal", Gray)),),
    "Cassius": (Points(40, WithBoth("Mustang", "Darrow")), Points(-20, WithButNot("Darrow", "Mustang"))),
    "Fitchner": (Points(10, With(Red)), Points(10, With("Sevro"))),
    "Karnus": (Points(30, With("Cassius")), Points(-15, With("Mustang", "The Jackal", "Nero"))),
    "Lorn": (Points(15, WithNo(Gold)),),
    "Lysander": (Points(20, Have(SOVEREIGN, "Octavia", "Cassius")),),
    "Mustang": (Each(5, DistinctColors()),),
    "Nero": (Points(10, Have(SOVEREIGN)), Each(-5, InHand("Cassius", "Karnus", "Octavia"))),
    "Octavia": (Points(-30, HaveNone(SOVEREIGN, "Lysander")),),
    "Pax au Telemanus": (Points(20, With(Obsidian, "Mustang")),),
    "Romulus": (
        Points(15, Have(SOVEREIGN)),
        Points(-25, AnyOf(With("Roque", "Octavia"), WithNo(Blue, style="without"))),
    ),
    "Roque": (Each(5, InHand(Blue)),),
    "Sevro": (Points(20, With("Victra", "The Howlers", Red)),),
    "Tactus": (Points(20, With("Octavia", "Darrow", Pink)),),
    "The Howlers": (Points(15, With("Sevro")),),
    "The Jackal": (Points(30, Have(SOVEREIGN)), Points(-30, With("Darrow", "Octavia"))),
    "The Telemanuses": (Points(15, With(*PAX)),),
    "Victra": (Points(10, With("The Howlers")), Points(10, With("Sevro", "Darrow"))),
}
"""Printed name -> the card's end-game bonus clauses. Cards without an end-game bonus
(Auctioneer, Banker, Dr. Virany, Hacker, Hypnotist, Investor, Justice, Martyr, Online
Gambler, Psychologist: their end-of-game abilities are resolved before scoring) are absent."""

BONUSES: tuple[tuple[Clause, ...], ...] = tuple(ENCODING.get(c.name, ()) for c in CARDS)
assert all(card_index(n) >= 0 for n in ENCODING) and len(BONUSES) == NUM_CARDS


def _card_refs(card: int) -> Refs:
    r = NO_REFS
    for cl in BONUSES[card]:
        r |= cl.refs()
    return r


REFS: tuple[Refs, ...] = tuple(_card_refs(c) for c in range(NUM_CARDS))
IGNORES: tuple[int, ...] = tuple(
    sum(cl.sel.mask() for cl in BONUSES[c] if isinstance(cl, IgnoreLosses)) for c in range(NUM_CARDS)
)
"""Per card, the colours whose lost points it cancels (bit mask)."""


def _sum_of(fns: tuple[Eval, ...]) -> Eval:
    if not fns:
        return _zero
    if len(fns) == 1:
        return fns[0]
    if len(fns) == 2:
        f, g = fns
        return lambda h, i, b: f(h, i, b) + g(h, i, b)
    return lambda h, i, b: sum([f(h, i, b) for f in fns])


CLAUSE_FNS: tuple[tuple[Eval, ...], ...] = tuple(tuple(cl.compile() for cl in BONUSES[c]) for c in range(NUM_CARDS))
"""Per card, its bonus clauses compiled (in :data:`BONUSES` order)."""
BONUS_FNS: tuple[Eval, ...] = tuple(_sum_of(fns) for fns in CLAUSE_FNS)
"""Per card, its whole bonus compiled: ``BONUS_FNS[card](hand, i, board)`` is the points of
the card at position ``i`` of the hand (no lost points cancelled: see :func:`hand_bonuses`)."""


def bonus(card: int) -> tuple[Clause, ...]:
    return BONUSES[card]


def has_bonus(card: int) -> bool:
    return bool(BONUSES[card])


def refs(card: int) -> Refs:
    return REFS[card]


def bonus_clauses_text(card: int, lang: str = "en") -> list[str]:
    """The card's bonus in English, one sentence per clause, rendered from the encoding.

    Other languages are rendered by :mod:`redtable.redrising.lang` (``lang.bonus_text``),
    which reads this encoding: this module does not import it back.
    """
    if lang != "en":
        raise ValueError(
            f"bonuses renders English only, not {lang!r}: "
            "use redtable.redrising.lang.bonus_text(card, lang) for 'uk' or 'pl'"
        )
    return [cl.text(card) for cl in BONUSES[card]]


def bonus_text(card: int, lang: str = "en") -> str:
    """The card's end-game bonus as English rules text, rendered from the encoding ("" if
    none); ``redtable.redrising.lang.bonus_text`` renders every language."""
    return " ".join(bonus_clauses_text(card, lang))


def hand_bonuses(h: Hand, b: Board) -> list[int]:
    """Each card's bonus points (without its core value) for this hand and board.

    Cards that ignore lost points (Artisan Chef) turn every negative clause of a card of
    the given colour into 0, clause by clause. Evaluated through the compiled bonuses
    (:data:`BONUS_FNS`); :func:`reference_hand_bonuses` is the same by the plain evaluation.
    """
    ignore = 0
    cards = h.cards
    for c in cards:
        ignore |= IGNORES[c]
    if not ignore:
        return [BONUS_FNS[c](h, i, b) for i, c in enumerate(cards)]
    masks = h.masks
    return [
        sum([max(f(h, i, b), 0) for f in CLAUSE_FNS[c]]) if ignore & masks[i] else BONUS_FNS[c](h, i, b)
        for i, c in enumerate(cards)
    ]


def reference_hand_bonuses(h: Hand, b: Board) -> list[int]:
    """:func:`hand_bonuses` by the primitives' plain evaluation (``Clause.value``): the
    reference the compiled bonuses are checked against."""
    ignore = 0
    for c in h.cards:
        ignore |= IGNORES[c]
    out = []
    for i, c in enumerate(h.cards):
        total = 0
        cancels = bool(ignore & h.masks[i])
        for cl in BONUSES[c]:
            v = cl.value(h, i, b)
            if v < 0 and cancels:
                v = 0
            total += v
        out.append(total)
    return out
