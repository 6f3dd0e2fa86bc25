"""The deal as OpenSpiel chance nodes: how many, and how many outcomes each.

Its own module so that the observers (which describe a state still being dealt) and the
games (which deal) share it without the observers importing the games.
"""

SEED_BYTES = 8  # the deal: eight chance nodes, one byte of the 64-bit seed each
CHANCE_OUTCOMES = 256
