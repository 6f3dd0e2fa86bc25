"""The powers of the Gods and the Outposts as small effect objects: what they do and what
they say, in one place.

An effect is built with its numbers (``GainVP(2)``, ``DrawToHand(4)``), and both its
behaviour and its rules text (:meth:`Effect.text`, in "en", "uk" or "pl", each number in
the plural form it asks for) read them, so a God or an Outpost is one entry of data
(:mod:`.gods`, :mod:`.outposts`) and its text cannot drift from what it does.

The protocol of an effect, all on a state (:class:`~.base.RedNorthBase`) and a seat ``p``:

* :meth:`~Effect.can`: whether it can do anything now (a God is invoked, an Outpost's
  after-Deployment power offered, only then);
* :meth:`~Effect.run`: do it; True when a choice follows, in the effect's :attr:`~Effect.phase`;
* :meth:`~Effect.decision` / :meth:`~Effect.choose`: that choice (the decision's kind is
  the phase's name), ``choose`` returning True once the effect's choices are over;
* :meth:`~Effect.resolve`: an Outpost's Resolution power (step D) for its controller.

``tag`` is the slug of the God or Outpost the effect belongs to: the kind of the events it
logs. God texts are sentences; an Outpost's Resolution power is a clause that follows the
Outposts' timing phrase (:mod:`.outposts`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..core import Decision
from .cards import CHAMPION_BONUS, JARL, KIND_SLUG
from .choices import (
    CARD_END,
    CARD_END_OF,
    CARD_POS,
    CARD_POS_OF,
    ENDS,
    GIVE,
    GIVE_OF,
    HEL_KINDS,
    KEEP,
    LEFT,
    RAIDER_KINDS,
    SKIP,
    SLOT,
    SLOT_OF,
)
from .party import GLORY, GLORY_SHIFT, KIND_MASK, UP
from .phases import ANGLELAND, FREYA_END, HEL_PLACE, LOKI_SLOT, PHASE_NAMES, SAGA_SLOT, SAX

if TYPE_CHECKING:
    from .base import RedNorthBase

LANGS = ("en", "uk", "pl")


def plural_index(n: int, lang: str) -> int:
    """0 (one), 1 (few) or 2 (many/other) for ``n`` in ``lang``."""
    from ..i18n import plural_form

    return plural_form(n, lang)


class Effect:
    """One power (see the module docstring). Subclasses set :attr:`TEXT` and override what they do."""

    __slots__ = ("n",)

    #: Per language, the text's forms: one string, or (one, few, many) when it counts ``n``
    #: ({n} in it); English has (one, other). ``{bonus}`` is the Champion's bonus.
    TEXT: ClassVar[dict[str, tuple[str, ...]]]
    #: The phase of the choice that follows :meth:`run` (-1: none).
    phase: ClassVar[int] = -1
    #: Whether an Outpost's Resolution power also acts in the last round (Ragnarok).
    ragnarok: ClassVar[bool] = False

    def __init__(self, n: int = 0) -> None:
        self.n = n

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.n})" if self.n else f"{type(self).__name__}()"

    def text(self, lang: str = "en") -> str:
        """The rules text in "en", "uk" or "pl", rendered from this effect's numbers."""
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}; choose one of: {', '.join(LANGS)}")
        forms = self.TEXT[lang]
        form = forms[min(plural_index(self.n, lang), len(forms) - 1)] if len(forms) > 1 else forms[0]
        return form.format(n=self.n, bonus=CHAMPION_BONUS)

    @property
    def numbers(self) -> tuple[int, ...]:
        """The numbers its text states (what a test checks the behaviour against)."""
        return (self.n,) if self.n else ()

    def can(self, st: RedNorthBase, p: int) -> bool:
        return True

    def run(self, st: RedNorthBase, p: int, tag: str) -> bool:
        raise NotImplementedError  # pragma: no cover

    def decision(self, st: RedNorthBase, p: int) -> Decision:
        raise AssertionError(f"{self!r} asks no question")  # pragma: no cover

    def choose(self, st: RedNorthBase, action: str, tag: str) -> bool:
        raise AssertionError(f"{self!r} asks no question")  # pragma: no cover

    def resolve(self, st: RedNorthBase, p: int, tag: str) -> dict[str, int] | None:
        """An Outpost's Resolution power for its controller ``p`` (step D); returns a note
        for the Resolution report (what was drawn), or None."""
        raise AssertionError(f"{self!r} is not a Resolution power")  # pragma: no cover


# ------------------------------------------------------------------------------- Gods
class RetrieveSetAsideHero(Effect):
    """Thor: the Spring Hero nobody claimed comes to the hand (publicly)."""

    __slots__ = ()
    TEXT = {
        "en": (
            "Retrieve the Hero card discarded as part of the leftover Muster Group at the end of "
            "the Spring round, and add it to your hand.",
        ),
        "uk": (
            "Заберіть карту героя, відкладену разом із незатребуваною групою збору наприкінці весняного "
            "раунду, і додайте її собі на руку.",
        ),
        "pl": (
            "Odzyskaj kartę Bohatera odrzuconą wraz z nieodebraną grupą werbunkową na koniec rundy Wiosny i "
            "dodaj ją do ręki.",
        ),
    }

    def can(self, st: RedNorthBase, p: int) -> bool:
        return st.set_aside >= 0

    def run(self, st: RedNorthBase, p: int, tag: str) -> bool:
        k = st.set_aside
        st.set_aside = -1
        st.hands[p][k] += 1
        st.hand_n[p] += 1
        st.known[p][k] += 1
        st.log_event(tag, {"player": p, "card": KIND_SLUG[k]})
        return False


class PlaceGlory(Effect):
    """Loki: ``n`` Glory tokens from the supply, one choice of a non-Jarl slot each."""

    __slots__ = ()
    phase = LOKI_SLOT
    TEXT = {
        "en": (
            "Take {n} Glory token from the supply and immediately place it on any card in your Party, "
            "face-up or face-down. Glory tokens may not be placed on Jarls.",
            "Take {n} Glory tokens from the supply and immediately place them on any cards in your Party, "
            "face-up or face-down. Glory tokens may not be placed on Jarls.",
        ),
        "uk": (
            "Візьміть {n} фішку слави із запасу й одразу покладіть її на будь-яку карту вашого загону, горілиць "
            "чи долілиць. Фішки слави не можна класти на ярлів.",
            "Візьміть {n} фішки слави із запасу й одразу покладіть їх на будь-які карти вашого загону, горілиць "
            "чи долілиць. Фішки слави не можна класти на ярлів.",
            "Візьміть {n} фішок слави із запасу й одразу покладіть їх на будь-які карти вашого загону, горілиць "
            "чи долілиць. Фішки слави не можна класти на ярлів.",
        ),
        "pl": (
            "Weź {n} znacznik Chwały z zasobów i od razu połóż go na dowolnej karcie swojej drużyny, odkrytej "
            "lub zakrytej. Znaczników Chwały nie można kłaść na Jarlach.",
            "Weź {n} znaczniki Chwały z zasobów i od razu połóż je na dowolnych kartach swojej drużyny, "
            "odkrytych lub zakrytych. Znaczników Chwały nie można kłaść na Jarlach.",
            "Weź {n} znaczników Chwały z zasobów i od razu połóż je na dowolnych kartach swojej drużyny, "
            "odkrytych lub zakrytych. Znaczników Chwały nie można kłaść na Jarlach.",
        ),
    }

    def can(self, st: RedNorthBase, p: int) -> bool:
        return any(s & KIND_MASK != JARL for s in st.parties[p])

    def run(self, st: RedNorthBase, p: int, tag: str) -> bool:
        st.phase = self.phase
        st.sub = self.n
        return True

    def decision(self, st: RedNorthBase, p: int) -> Decision:
        party = st.parties[p]
        return Decision(
            p,
            PHASE_NAMES[self.phase],
            tuple([SLOT[i] for i in range(len(party)) if party[i] & KIND_MASK != JARL]),
            {"glory_left": st.sub},
        )

    def choose(self, st: RedNorthBase, action: str, tag: str) -> bool:
        i = SLOT_OF[action]
        p = st.actor
        st.parties[p][i] += GLORY
        st.sub -= 1
        st.log_event(tag, {"player": p, "slot": i})
        return st.sub <= 0


class GainVP(Effect):
    """Odin: ``n`` VP."""

    __slots__ = ()
    TEXT = {"en": ("Gain {n} VP.",), "uk": ("Отримайте {n} ПО.",), "pl": ("Zyskaj {n} PZ.",)}

    def run(self, st: RedNorthBase, p: int, tag: str) -> bool:
        st.vp[p] += self.n
        st.log_event(tag, {"player": p, "vp": self.n})
        return False


class DrawFaceDown(Effect):
    """Freya: the top card of the deck, seen only by its drawer, goes face down at an end of
    the Party (one card: the pending card is held in ``sub``)."""

    __slots__ = ()
    phase = FREYA_END
    TEXT = {
        "en": (
            "Draw {n} card from the deck, look at it secretly, and place it face-down at either end of "
            "your Raiding Party.",
            "Draw {n} cards from the deck, look at them secretly, and place them face-down at either end of "
            "your Raiding Party.",
        ),
        "uk": (
            "Візьміть {n} карту з колоди, таємно подивіться на неї й покладіть її долілиць на будь-який край "
            "вашого загону.",
            "Візьміть {n} карти з колоди, таємно подивіться на них і покладіть їх долілиць на будь-який край "
            "вашого загону.",
            "Візьміть {n} карт з колоди, таємно подивіться на них і покладіть їх долілиць на будь-який край "
            "вашого загону.",
        ),
        "pl": (
            "Dobierz {n} kartę z talii, obejrzyj ją w tajemnicy i połóż ją zakrytą na dowolnym końcu swojej drużyny.",
            "Dobierz {n} karty z talii, obejrzyj je w tajemnicy i połóż je zakryte na dowolnym końcu swojej drużyny.",
            "Dobierz {n} kart z talii, obejrzyj je w tajemnicy i połóż je zakryte na dowolnym końcu swojej drużyny.",
        ),
    }

    def __init__(self, n: int = 1) -> None:
        if n != 1:
            raise ValueError(f"DrawFaceDown places one card (the pending card is one int), got n={n}")
        super().__init__(n)

    def can(self, st: RedNorthBase, p: int) -> bool:
        return bool(st.deck)

    def run(self, st: RedNorthBase, p: int, tag: str) -> bool:
        k = st.draw_pile(self.n)[0]  # can() checked the deck is not empty
        st.phase = self.phase
        st.sub = k
        st.log_event("draw", {"player": p, "cards": [KIND_SLUG[k]]}, (p,))
        return True

    def decision(self, st: RedNorthBase, p: int) -> Decision:
        return Decision(p, PHASE_NAMES[self.phase], ENDS, {"card": KIND_SLUG[st.sub]})

    def choose(self, st: RedNorthBase, action: str, tag: str) -> bool:
        p = st.actor
        k = st.sub
        if ENDS.index(action) == LEFT:
            st.parties[p].insert(0, k)
        else:
            st.parties[p].append(k)
        st.log_event(tag, {"player": p, "end": action})
        return True


class RetrieveGlory(Effect):
    """Nornir: every Glory token of the Party back to the player's supply."""

    __slots__ = ()
    TEXT = {
        "en": (
            "Retrieve all Glory tokens from all cards in your Raiding Party. You may replay them later this "
            "round individually, as regular actions.",
        ),
        "uk": (
            "Заберіть усі фішки слави з усіх карт вашого загону. Пізніше в цьому раунді ви можете знову "
            "викладати їх по одній звичайними діями.",
        ),
        "pl": (
            "Zabierz wszystkie znaczniki Chwały ze wszystkich kart swojej drużyny. Później w tej rundzie możesz "
            "je ponownie kłaść pojedynczo jako zwykłe akcje.",
        ),
    }

    def can(self, st: RedNorthBase, p: int) -> bool:
        return any(s >> GLORY_SHIFT for s in st.parties[p])

    def run(self, st: RedNorthBase, p: int, tag: str) -> bool:
        party = st.parties[p]
        back = 0
        for i, s in enumerate(party):
            if s >> GLORY_SHIFT:
                back += s >> GLORY_SHIFT
                party[i] = s & (GLORY - 1)
        st.glory[p] += back
        st.log_event(tag, {"player": p, "glory": back})
        return False


class DrawToHand(Effect):
    """Tyr: ``n`` cards from the deck to the hand, secretly (fewer if the deck runs out)."""

    __slots__ = ()
    TEXT = {
        "en": (
            "Draw {n} card from the deck and add it to your hand.",
            "Draw {n} cards from the deck and add them to your hand.",
        ),
        "uk": (
            "Візьміть {n} карту з колоди й додайте її собі на руку.",
            "Візьміть {n} карти з колоди й додайте їх собі на руку.",
            "Візьміть {n} карт з колоди й додайте їх собі на руку.",
        ),
        "pl": (
            "Dobierz {n} kartę z talii na rękę.",
            "Dobierz {n} karty z talii na rękę.",
            "Dobierz {n} kart z talii na rękę.",
        ),
    }

    def can(self, st: RedNorthBase, p: int) -> bool:
        return bool(st.deck)

    def run(self, st: RedNorthBase, p: int, tag: str) -> bool:
        got = st.draw_cards(p, self.n)
        st.log_event(tag, {"player": p, "count": len(got)})
        st.log_event("draw", {"player": p, "cards": [KIND_SLUG[k] for k in got]}, (p,))
        return False


class RevealOneEach(Effect):
    """Saga: in seat order from the invoker's left, one face-down card of each opponent's
    Party turns up, the invoker choosing which (opponents with none are skipped)."""

    __slots__ = ()
    phase = SAGA_SLOT
    TEXT = {
        "en": (
            "Turn 1 card of your choice in each opponent's Raiding Party face-up. Skip players who have no "
            "face-down cards in their Party.",
        ),
        "uk": (
            "Переверніть горілиць по 1 карті на ваш вибір у загоні кожного суперника. Пропустіть гравців, у "
            "загоні яких немає карт долілиць.",
        ),
        "pl": (
            "Odkryj po 1 wybranej karcie w drużynie każdego przeciwnika. Pomiń graczy, którzy nie mają w "
            "drużynie zakrytych kart.",
        ),
    }

    def can(self, st: RedNorthBase, p: int) -> bool:
        return any(not s & UP for q in range(st.P) if q != p for s in st.parties[q])

    def run(self, st: RedNorthBase, p: int, tag: str) -> bool:
        P = st.P
        st.queue = [(p + i) % P for i in range(1, P)]
        return self._next(st)

    def _next(self, st: RedNorthBase) -> bool:
        q = st.queue
        while q and all(s & UP for s in st.parties[q[0]]):
            q.pop(0)  # skip players who have no face-down cards
        if q:
            st.phase = self.phase
            return True
        return False

    def decision(self, st: RedNorthBase, p: int) -> Decision:
        q = st.queue[0]
        party = st.parties[q]
        return Decision(
            p,
            PHASE_NAMES[self.phase],
            tuple([SLOT[i] for i in range(len(party)) if not party[i] & UP]),
            {"opponent": q},
        )

    def choose(self, st: RedNorthBase, action: str, tag: str) -> bool:
        i = SLOT_OF[action]
        q = st.queue.pop(0)
        party = st.parties[q]
        s = party[i]
        party[i] = s | UP
        st.reveal_card(q, s & KIND_MASK)
        st.log_event(tag, {"player": st.actor, "opponent": q, "slot": i, "card": KIND_SLUG[s & KIND_MASK]})
        return not self._next(st)


class PlaceFromDiscard(Effect):
    """Hel: a discarded Raider or Jarl face up anywhere in the Party."""

    __slots__ = ()
    phase = HEL_PLACE
    TEXT = {
        "en": (
            "Search the discard pile for any 1 Jarl or Raider card and place it face-up anywhere in your "
            "Raiding Party, even between other cards.",
        ),
        "uk": (
            "Знайдіть у скиді будь-яку 1 карту ярла чи рейдера й покладіть її горілиць будь-де у вашому "
            "загоні, навіть між іншими картами.",
        ),
        "pl": (
            "Przeszukaj odrzucone karty, weź dowolnego 1 Jarla lub Najeźdźcę i połóż go odkrytego w dowolnym "
            "miejscu swojej drużyny, nawet między innymi kartami.",
        ),
    }

    def can(self, st: RedNorthBase, p: int) -> bool:
        return any(st.discard[k] for k in HEL_KINDS)

    def run(self, st: RedNorthBase, p: int, tag: str) -> bool:
        st.phase = self.phase
        return True

    def decision(self, st: RedNorthBase, p: int) -> Decision:
        n = len(st.parties[p]) + 1
        opts: list[str] = []
        for k in HEL_KINDS:
            if st.discard[k]:
                opts += CARD_POS[k][:n]
        return Decision(p, PHASE_NAMES[self.phase], tuple(opts), {})

    def choose(self, st: RedNorthBase, action: str, tag: str) -> bool:
        k, pos = CARD_POS_OF[action]
        p = st.actor
        st.discard[k] -= 1
        st.parties[p].insert(pos, k | UP)
        st.log_event(tag, {"player": p, "card": KIND_SLUG[k], "position": pos})
        return True


# --------------------------------------------------- Outposts: Resolution, step D
class TakeTieBreaker(Effect):
    """Vinland: the Tie Breaker token (also in Ragnarok, where it can decide the game)."""

    __slots__ = ()
    ragnarok = True
    TEXT = {
        "en": (
            "take the Tie Breaker token. The Tie Breaker player wins all ties they are part of, including "
            "final victory.",
        ),
        "uk": (
            "візьміть фішку тайбрейкера. Власник тайбрейкера виграє всі нічиї, в яких бере участь, "
            "зокрема й фінальну перемогу.",
        ),
        "pl": (
            "weź znacznik Rozjemcy. Rozjemca wygrywa wszystkie remisy, w których bierze udział, także "
            "o zwycięstwo w grze.",
        ),
    }

    def resolve(self, st: RedNorthBase, p: int, tag: str) -> dict[str, int] | None:
        st.tiebreaker = p
        return None


class TakeFirstPlayer(Effect):
    """Angleland: the First Player token."""

    __slots__ = ()
    TEXT = {
        "en": ("take the First Player token.",),
        "uk": ("візьміть фішку першого гравця.",),
        "pl": ("weź znacznik pierwszego gracza.",),
    }

    def resolve(self, st: RedNorthBase, p: int, tag: str) -> dict[str, int] | None:
        st.first = p
        return None


class TakeChampion(Effect):
    """Rus: the Champion token, for a Promote action next round."""

    __slots__ = ()
    TEXT = {
        "en": (
            "take the Champion token. During the Player Actions phase of the following round, as an action "
            "(Promote), you may place it on a face-up Jarl: that Jarl adds +{bonus} to each adjacent Raider "
            "or Hero.",
        ),
        "uk": (
            "візьміть фішку чемпіона. Під час дій гравців наступного раунду ви можете дією «Підвищити» "
            "покласти її на ярла, що лежить горілиць: цей ярл додає +{bonus} кожному сусідньому рейдеру чи "
            "герою.",
        ),
        "pl": (
            "weź znacznik Czempiona. W akcjach graczy następnej rundy możesz akcją Awansuj położyć go "
            "na odkrytym Jarlu: ten Jarl dodaje +{bonus} każdemu sąsiedniemu Najeźdźcy lub Bohaterowi.",
        ),
    }

    @property
    def numbers(self) -> tuple[int, ...]:
        return (CHAMPION_BONUS,)

    def resolve(self, st: RedNorthBase, p: int, tag: str) -> dict[str, int] | None:
        st.champion = p
        return None


class DrawExtra(Effect):
    """Frankenland: ``n`` more cards to the hand, secretly; the Resolution report says how many."""

    __slots__ = ()
    TEXT = {
        "en": (
            "draw {n} additional card from the deck to your hand.",
            "draw {n} additional cards from the deck to your hand.",
        ),
        "uk": (
            "візьміть {n} додаткову карту з колоди собі на руку.",
            "візьміть {n} додаткові карти з колоди собі на руку.",
            "візьміть {n} додаткових карт з колоди собі на руку.",
        ),
        "pl": (
            "dobierz z talii {n} dodatkową kartę na rękę.",
            "dobierz z talii {n} dodatkowe karty na rękę.",
            "dobierz z talii {n} dodatkowych kart na rękę.",
        ),
    }

    def resolve(self, st: RedNorthBase, p: int, tag: str) -> dict[str, int] | None:
        got = st.draw_cards(p, self.n)
        st.log_event("draw", {"player": p, "cards": [KIND_SLUG[k] for k in got]}, (p,))
        return {"player": p, "count": len(got)}


# ---------------------------------------------------- Outposts: after Deployment
class GiveFirstPlayer(Effect):
    """Angleland: the controller keeps the First Player token or gives it to anyone."""

    __slots__ = ()
    phase = ANGLELAND
    TEXT = {
        "en": ("After Deployment, give the First Player token to a player of your choice, or keep it.",),
        "uk": ("Після розгортання віддайте фішку першого гравця будь-кому на ваш вибір або залиште її собі.",),
        "pl": ("Po Rozstawieniu przekaż znacznik pierwszego gracza wybranemu graczowi albo go zatrzymaj.",),
    }

    def decision(self, st: RedNorthBase, p: int) -> Decision:
        return Decision(
            p, PHASE_NAMES[self.phase], (KEEP, *[GIVE[q] for q in range(st.P) if q != p]), {"first_player": st.first}
        )

    def choose(self, st: RedNorthBase, action: str, tag: str) -> bool:
        q = st.actor if action == KEEP else GIVE_OF[action]
        st.first = q
        st.log_event("first-player", {"player": st.actor, "recipient": q, "by": tag})
        return True


class RaiderFromDiscard(Effect):
    """Sax: the controller may add a discarded Raider face up at an end of the Party."""

    __slots__ = ()
    phase = SAX
    TEXT = {
        "en": (
            "After Deployment, you may select 1 Raider card from the discard pile and add it face-up to "
            "either side of your Raiding Party, before the First Player's first action.",
        ),
        "uk": (
            "Після розгортання можете взяти 1 карту рейдера зі скиду й додати її горілиць на будь-який край "
            "вашого загону до першої дії першого гравця.",
        ),
        "pl": (
            "Po Rozstawieniu możesz wziąć 1 kartę Najeźdźcy spośród odrzuconych i dołożyć ją odkrytą na "
            "dowolny koniec swojej drużyny przed pierwszą akcją pierwszego gracza.",
        ),
    }

    def can(self, st: RedNorthBase, p: int) -> bool:
        return any(st.discard[k] for k in RAIDER_KINDS)

    def decision(self, st: RedNorthBase, p: int) -> Decision:
        opts = [SKIP]
        for k in RAIDER_KINDS:
            if st.discard[k]:
                opts += CARD_END[k]
        return Decision(p, PHASE_NAMES[self.phase], tuple(opts), {})

    def choose(self, st: RedNorthBase, action: str, tag: str) -> bool:
        p = st.actor
        if action != SKIP:
            k, end = CARD_END_OF[action]
            st.discard[k] -= 1
            if end == LEFT:
                st.parties[p].insert(0, k | UP)
            else:
                st.parties[p].append(k | UP)
            st.log_event(tag, {"player": p, "card": KIND_SLUG[k], "end": ENDS[end]})
        else:
            st.log_event(tag, {"player": p, "card": None})
        return True
