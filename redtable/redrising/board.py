"""Fixed facts of the Red Rising board: locations, houses, the Rising die, thresholds."""

from __future__ import annotations

JUPITER, MARS, LUNA, INSTITUTE = range(4)
LOCATIONS = (JUPITER, MARS, LUNA, INSTITUTE)
LOCATION_NAMES = ("jupiter", "mars", "luna", "institute")
LOCATION_TITLES = ("Jupiter", "Mars", "Luna", "The Institute")
LOCATION_OF_NAME = {n: i for i, n in enumerate(LOCATION_NAMES)}

# Houses, in the rulebook's order. Each triggers when its owner gains the Sovereign token.
APOLLO, CERES, DIANA, HOUSE_JUPITER, HOUSE_MARS, MINERVA = range(6)
HOUSE_NAMES = ("apollo", "ceres", "diana", "jupiter", "mars", "minerva")
HOUSE_TITLES = ("Apollo", "Ceres", "Diana", "Jupiter", "Mars", "Minerva")
HOUSE_TEXT = (
    "Take the first and the last turns. Whenever you gain the Sovereign token (even if you already have "
    "it), reveal and place (not deploy) the top card of the deck on any location.",
    "Begin the game with +1 card. Whenever you gain the Sovereign token (even if you already have it), "
    "banish any 1 card from a location of your choice. At end of game (before scoring), banish 1 card "
    "from your hand.",
    "Whenever you gain the Sovereign token (even if you already have it), place 1 Influence on the Institute.",
    "Whenever you gain the Sovereign token (even if you already have it), advance once on the Fleet Track.",
    "Whenever you gain the Sovereign token (even if you already have it), gain 1 Helium.",
    "Whenever you gain the Sovereign token (even if you already have it), roll the Rising die and gain "
    "the bonus. If the result is the Sovereign token, select any other bonus on the die.",
)

# The Rising die: four location bonuses and two board actions.
DIE_FACES = ("jupiter", "mars", "luna", "institute", "banish", "place")
DIE_TEXT = {
    "jupiter": "Advance once on the Fleet Track.",
    "mars": "Gain 1 Helium.",
    "luna": "Gain (or keep) the Sovereign token.",
    "institute": "Place 1 Influence on the Institute.",
    "banish": "Banish the top card of a location of your choice.",
    "place": "Reveal the top card of the deck and place (not deploy) it on any location.",
}

FLEET_MAX = 10
INFLUENCE_TOKENS = 10
NEUTRAL_INFLUENCE_2P = 3
HAND_SIZE = 5
THRESHOLD = 7  # Helium tokens, Influence on the Institute, Fleet Track position
FLEET_VP = (0, 1, 3, 6, 10, 15, 21, 28, 34, 39, 43)
