"""Statistics of tournaments: shared wins, Wilson intervals, pairwise results and Elo.

Elo (Bradley-Terry fit)
-----------------------
Each finished game is decomposed into pairwise comparisons between every two seats held
by *different* bots (a bot meeting itself teaches nothing). Seat ``a`` beats seat ``b`` if
it ranks higher by ``(won, score)``: a winner ranks above every non-winner (so a
tie-breaker decides between equal scores), then the higher final score ranks higher;
equal ranks are a draw, worth half a win to each. Comparisons from one game are not
independent, so the ratings are point estimates without error bars.

The strengths ``gamma`` maximise the Bradley-Terry likelihood
``P(i beats j) = gamma_i / (gamma_i + gamma_j)`` with Hunter's MM iteration
``gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j)``. A prior of one virtual draw between
every two bots keeps the fit finite when a bot wins (or loses) every comparison and
connects bots that never met; it pulls ratings slightly toward each other, and its weight
vanishes as games accumulate. Ratings are ``1500 + 400 * log10(gamma_i / mean_gamma)``
with the geometric mean, so **the mean Elo of the field is 1500** and a difference of
400 points means 10:1 odds in a head-to-head comparison. The fit is deterministic: a fixed
number of passes in a fixed order from equal starting strengths, stopped at a fixed
tolerance.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution


def shared_wins(players: int, winners: Sequence[int]) -> list[float]:
    """Win credit per seat: a tie for first between ``k`` seats gives ``1/k`` to each."""
    out = [0.0] * players
    if winners:
        for w in winners:
            out[w] += 1.0 / len(winners)
    return out


def wilson_interval(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (``(0, 1)`` when ``n == 0``).

    ``successes`` may be fractional (shared wins count ``1/k``).
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n))) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def pairwise_outcomes(
    seat_bots: Sequence[int], scores: Sequence[float], winners: Sequence[int]
) -> list[tuple[int, int, float]]:
    """``(bot_a, bot_b, result_of_a)`` for every two seats of one game held by different bots.

    ``result_of_a`` is 1 (a ranks higher), 0 (lower) or 0.5 (same rank); rank is
    ``(seat is a winner, score)``.
    """
    won = set(winners)
    rank = [(s in won, scores[s]) for s in range(len(seat_bots))]
    out = []
    for a in range(len(seat_bots)):
        for b in range(a + 1, len(seat_bots)):
            if seat_bots[a] == seat_bots[b]:
                continue
            r = 1.0 if rank[a] > rank[b] else 0.0 if rank[a] < rank[b] else 0.5
            out.append((seat_bots[a], seat_bots[b], r))
    return out


def elo_ratings(
    n_bots: int,
    outcomes: Iterable[tuple[int, int, float]],
    prior: float = 1.0,
    tol: float = 1e-10,
    max_iter: int = 10_000,
) -> list[float]:
    """Elo ratings (mean 1500) fitted by Bradley-Terry to pairwise ``(a, b, result_of_a)``."""
    if n_bots == 0:
        return []
    wins = [0.0] * n_bots
    games = [[0.0] * n_bots for _ in range(n_bots)]
    for a, b, r in outcomes:
        wins[a] += r
        wins[b] += 1.0 - r
        games[a][b] += 1.0
        games[b][a] += 1.0
    for a in range(n_bots):  # the prior: one virtual draw between every two bots
        for b in range(n_bots):
            if a != b:
                games[a][b] += prior
        wins[a] += prior * (n_bots - 1) / 2
    gamma = [1.0] * n_bots
    for _ in range(max_iter):
        new = []
        for i in range(n_bots):
            denom = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(n_bots) if j != i)
            new.append(wins[i] / denom if denom > 0 else gamma[i])
        g = math.exp(sum(math.log(x) for x in new) / n_bots) if all(x > 0 for x in new) else 1.0
        new = [x / g for x in new]  # keep the geometric mean at 1
        change = max(abs(math.log(x / y)) for x, y in zip(new, gamma, strict=True)) if all(x > 0 for x in new) else 0.0
        gamma = new
        if change < tol:
            break
    return [1500.0 + 400.0 * math.log10(x) if x > 0 else float("-inf") for x in gamma]
