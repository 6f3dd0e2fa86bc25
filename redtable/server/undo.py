"""The undo rule, decided once per accepted decision from the core protocol alone.

A decision may later be undone (if the game allows undo and it is still the last one in
the log and the deciding seat asks) only when undoing it cannot give anybody an edge:

1. **No chance was used**: the state's :class:`~redtable.core.Rng` has the same state after
   the decision as before (no die roll, shuffle or random pick). The generator is found as
   the state's ``rng`` attribute, else any attribute holding an ``Rng``; a state without
   one is never undoable.
2. **Nobody else was told anything privately**: no event produced by the decision has an
   audience (``Event.to``) other than the decider alone (another seat drawing a card, say).
3. **The decider learned nothing hidden**: the decision is applied to two states the
   decider cannot tell apart from the real one (``State.resample(decider, rng)``, the same
   call search bots use), and the decider's view and new events are the same as in the
   real game. A card revealed from the deck, an opponent's face-down card turned up, a
   card drawn into the decider's hand: all differ between re-dealt states and so are
   caught, whether the event is public or private. A game whose states do not implement
   ``resample`` gets no undo (nothing can be proved).

Rules 2 and 3 together are "no hidden information was revealed". An undo also never
crosses another player's decision: only the last decision of the log can be undone, by
the seat that made it. The server rebuilds the game from the seed and the log minus that
decision.
"""

from __future__ import annotations

from typing import Any

from ..core import Rng, State
from ..core.errors import RedtableError

SAMPLES = 2


def find_rng(state: State) -> Rng | None:
    r = getattr(state, "rng", None)
    if isinstance(r, Rng):
        return r
    for cls in type(state).__mro__:
        for name in getattr(cls, "__slots__", ()):
            v = getattr(state, name, None)
            if isinstance(v, Rng):
                return v
    for v in getattr(state, "__dict__", {}).values():
        if isinstance(v, Rng):
            return v
    return None


def _new_events(state: State, start: int, player: int) -> list[Any]:
    return [e.to_json() for e in state.events[start:] if e.visible_to(player)]


def undo_check(before: State, action: str, salt: int = 0) -> tuple[bool, str]:
    """Whether applying ``action`` (legal) to ``before`` could be undone; ``before`` is not changed.

    Returns ``(undoable, reason)``; the reason names the rule that forbids it.
    """
    d = before.decision()
    if d is None:
        return False, "the game is over"
    p = d.player
    rng_before = find_rng(before)
    if rng_before is None:
        return False, "the game has no seeded generator to check chance against"
    after = before.clone()
    after.apply(action)
    rng_after = find_rng(after)
    if rng_after is None or rng_after.state != rng_before.state:
        return False, "chance was used (a die roll, shuffle or random pick)"
    start = len(before.events)
    for e in after.events[start:]:
        if e.to is not None and tuple(e.to) != (p,):
            return False, "another seat was shown hidden information"
    view_after = after.view(p)
    events_after = _new_events(after, start, p)
    view_before = before.view(p)
    for i in range(SAMPLES):
        try:
            alt = before.resample(p, Rng((salt * 1_000_003 + i * 7919 + 1) & ((1 << 64) - 1)))
        except NotImplementedError:
            return False, "the game cannot show that no hidden information was revealed"
        if alt.view(p) != view_before:
            return False, "the game cannot show that no hidden information was revealed"
        alt_start = len(alt.events)
        try:
            alt.apply(action)
        except RedtableError:
            return False, "the game cannot show that no hidden information was revealed"
        if alt.view(p) != view_after or _new_events(alt, alt_start, p) != events_after:
            return False, "hidden information was revealed"
    return True, "no chance used and no hidden information revealed"
