"""The undo rule, decided once per accepted decision from the core protocol alone.

A decision may later be undone (if the game allows undo and it is still the last one in
the log and the deciding seat asks) only when the engine can show that nothing about it
depended on, or revealed, hidden information. The check is exact and fails closed: no
random re-deals, nothing is assumed that the engine does not prove.

1. **No chance was used**: the state's :class:`~redtable.core.Rng` has the same state after
   the decision as before (no die roll, shuffle or random pick). The generator is found as
   the state's ``rng`` attribute, else any attribute holding an ``Rng``; a state without
   one is never undoable.
2. **No private event**: the decision produced no event with an audience (``Event.to``
   not None), not even one to the decider alone (a card drawn, a card looked at).
3. **The decider decides next**: the game goes on and its next decision is the same
   seat's. Nobody else was asked anything in between (a block window, say), so nobody
   else acted on it.
4. **Nothing hidden was read**: the decision is applied to a throwaway copy armed with
   :meth:`State.arm_hidden` for the decider: every container holding what the decider may
   not know (the deck's order, other seats' hands, face-down cards, ...) is a tripwire that
   records any read of its contents, and the next decision is built there too. Any trip
   forbids undo: whether an opponent is offered a block, what the top card is, which card
   lies face down... A game whose states cannot arm themselves gets no undo.

Rule 4 makes the outcome of the decision a function of what the decider already knew, so
undoing it gives nobody an edge; it also makes undoability itself depend on nothing hidden
(the run up to a tripwire reads only visible facts). Only the last decision of the log can
be undone, by the seat that made it; the server rebuilds the game from the seed and the log
minus that decision.
"""

from __future__ import annotations

from ..core import IllegalAction, Rng, State

UNDOABLE = "no chance used and nothing hidden read or revealed"
GAME_OVER = "the game is over"
NO_RNG = "the game has no seeded generator to check chance against"
CANNOT_ARM = "the game cannot show that no hidden information was read"
CHANCE = "chance was used (a die roll, shuffle or random pick)"
PRIVATE = "a private event was produced (someone was shown something only they may see)"
OTHER_SEAT = "another seat decides next"
ENDS_GAME = "the decision ends the game"
HIDDEN = "hidden information was read"


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


def undo_check(before: State, action: str, salt: int = 0) -> tuple[bool, str]:
    """Whether applying ``action`` (legal) to ``before`` could be undone; ``before`` is not changed.

    Returns ``(undoable, reason)``; the reason names the rule that forbids it. ``salt`` is
    unused (the check samples nothing); it is kept for callers.
    """
    d = before.decision()
    if d is None:
        return False, GAME_OVER
    if action not in d.options:
        raise IllegalAction(action, d.options, d.player, d.kind)
    p = d.player
    rng = find_rng(before)
    if rng is None:
        return False, NO_RNG
    rng_state = rng.state
    trial = before.clone()
    start = len(trial.events)
    trips = trial.arm_hidden(p)
    if trips is None:
        return False, _plain_reason(before, action, p, rng_state) or CANNOT_ARM
    try:
        trial.apply(action)
        nxt = trial.decision()
    except Exception:  # HiddenRead, or the armed copy met something it cannot vouch for
        # name the plainer rule when one forbids it too (the usual trip is building the
        # next seat's decision: their hand is read)
        return False, _plain_reason(before, action, p, rng_state) or (HIDDEN if trips else CANNOT_ARM)
    if trips:  # a tripwire fired and the engine swallowed the HiddenRead
        return False, _plain_reason(before, action, p, rng_state) or HIDDEN
    return _rules_after(trial, start, p, nxt, rng_state) or (True, UNDOABLE)


def _rules_after(after: State, start: int, p: int, nxt, rng_state: int) -> tuple[bool, str] | None:
    """Rules 1-3 on the state after the decision: the refusal, or None when they allow it."""
    rng = find_rng(after)
    if rng is None or rng.state != rng_state:
        return False, CHANCE
    for e in after.events[start:]:
        if e.to is not None:
            return False, PRIVATE
    if nxt is None:
        return False, ENDS_GAME
    if nxt.player != p:
        return False, OTHER_SEAT
    return None


def _plain_reason(before: State, action: str, p: int, rng_state: int) -> str | None:
    """The reason rules 1-3 give, found on an unarmed copy (None: they allow it)."""
    after = before.clone()
    start = len(after.events)
    after.apply(action)
    refused = _rules_after(after, start, p, after.decision(), rng_state)
    return refused[1] if refused else None
