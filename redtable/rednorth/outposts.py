"""The five Outposts: colour, name, when their power acts, and its text.

The rulebook says each Outpost adds its *printed* Raid Points to its controller's strength
in its colour but never prints the numbers. They are data: :data:`DEFAULT_OUTPOST_POINTS`
(1 for every Outpost: a small defender's edge that a single Raider still beats) and the
game option ``outpost_points`` (an int for all five, or a ``{colour: int}`` mapping).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import BLUE, COLOURS, GREEN, PURPLE, RED, YELLOW

DEFAULT_OUTPOST_POINTS = 1
MAX_OUTPOST_POINTS = 9
PURPLE_DRAW = 2

# When an Outpost's power acts.
AFTER_DEPLOYMENT = "after-deployment"   # red, yellow: "Activate Outpost Powers"
RESOLUTION_D = "resolution-d"           # green, blue, red token, purple cards


@dataclass(slots=True, frozen=True)
class Outpost:
    colour: int
    name: str
    timing: tuple[str, ...]
    text: str

    @property
    def colour_name(self) -> str:
        return COLOURS[self.colour]


OUTPOSTS: tuple[Outpost, ...] = (
    Outpost(GREEN, "Vinland", (RESOLUTION_D,),
            "In the Resolution phase, after Outposts are awarded, take the Tie Breaker token. "
            "The Tie Breaker player wins all ties they are part of, including final victory."),
    Outpost(RED, "Angleland", (RESOLUTION_D, AFTER_DEPLOYMENT),
            "In the Resolution phase, after Outposts are awarded, take the First Player token. "
            "After Deployment, give the First Player token to a player of your choice, or keep it."),
    Outpost(BLUE, "Rus", (RESOLUTION_D,),
            "In the Resolution phase, after Outposts are awarded, take the Champion token. During "
            "the Player Actions phase of the following round, as an action (Promote), you may "
            "place it on a face-up Jarl: that Jarl adds +2 to each adjacent Raider or Hero."),
    Outpost(PURPLE, "Frankenland", (RESOLUTION_D,),
            f"In the Resolution phase, after Outposts are awarded, draw {PURPLE_DRAW} additional "
            "cards from the deck to your hand."),
    Outpost(YELLOW, "Sax", (AFTER_DEPLOYMENT,),
            "After Deployment, you may select 1 Raider card from the discard pile and add it "
            "face-up to either side of your Raiding Party, before the First Player's first action."),
)
