"""A learned evaluation: each seat's chance to win a position, from a few features of the seat.

The model is a *conditional logit*: seat ``p`` gets the score
``s_p = a . f_p + phase * (b . f_p)``, where ``f_p`` are the seat's features
(:data:`RR_FEATURES`), ``phase`` in (0, 1] grows as the end of the game nears (the same
features weigh differently early and late), and the win chances are ``softmax(s)``. It is
fitted by maximum likelihood on positions of self-play games labelled with who won them
(:mod:`.train_value`); there is one weight vector per player count.

Why a model at all: the search (:mod:`.expert`) needs a value for the positions it
reaches, and in Red Rising a random playout to the end of the game costs about a
millisecond and predicts the real winner of a position *worse* than this model does
(measured on held-out heuristic self-play games with a first fit: log-loss 0.62 for the
mean of four random playouts against 0.57 for the model in 2-player games, 1.22 against
0.91 in 4-player games; the hand-made evaluation's softmax at its temperature of 12
points, 1.18 and 1.73: far too sure of itself), while the model costs some 30 µs. The
shipped files record their own held-out log-loss (``training``).

Used on determinizations only (resampled states), like every evaluation of the bots: it
reads their hands and tokens directly, which reveals nothing.

The weights ship with the package (``models/<game>.json``) and load offline through
:mod:`importlib.resources`; inference is pure Python (a few dozen multiplications per
seat: faster than numpy's call overhead at this size).
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from ..core import GAMES, title, titles
from ..rednorth.cards import NKINDS, ROUND_VP, ROUNDS
from ..rednorth.resolution import raid_points
from ..redrising.scoring import FLEET_VP
from .eval_rednorth import GOD_STRENGTH, RNEval
from .eval_redrising import HAND_LIMIT, RREval, influence_rows, turns_left

RR_FEATURES = (
    "card_points",  # core values and end-game bonuses of the hand now (Gray/Orange at their mean)
    "fleet_points",  # the Fleet Track's scorepad row
    "helium",
    "influence_points",  # the Influence row (ranked)
    "sovereign",
    "hand_size",
    "excess_cards",
    "fleet",
    "influence",
    "turns_behind",  # turns taken minus the most any seat took
    "to_move",  # 1 for the seat whose turn starts
    "fleet_progress",  # what the next Fleet steps are worth in the turns left (RREval's progress)
)
"""The per-seat features of a Red Rising position, in the model's order."""

PHASE_SCALE = 4.0  # phase = 1 / (1 + turns_left / PHASE_SCALE)


class RRFeatures:
    """Red Rising features (:data:`RR_FEATURES`) of every seat, and the game's phase."""

    def __init__(self) -> None:
        self.rr = RREval()

    def __call__(self, st) -> tuple[list[list[float]], float]:
        n = st.n
        parts: dict = {}
        card_points = self.rr.card_points
        fleet, helium, influence, hands, turns = st.fleet, st.helium, st.influence, st.hands, st.turns
        infl = influence_rows(influence, st.neutral)
        left = turns_left(st)
        most = max(turns)
        d = st.dec
        mover = d[0] if d is not None else -1
        sov = st.sovereign
        rows = []
        for p in range(n):
            f = fleet[p]
            h = len(hands[p])
            progress = 0.0
            if f >= 2:
                gain = (FLEET_VP[f + 2 if f < 9 else 10] - FLEET_VP[f]) * 0.5 - 3
                if gain > 0:
                    progress = (left if left < 2.0 else 2.0) * gain
            rows.append(
                [
                    float(card_points(st, p, parts)),
                    float(FLEET_VP[f]),
                    float(helium[p]),
                    float(infl[p]),
                    1.0 if sov == p else 0.0,
                    float(h),
                    float(h - HAND_LIMIT) if h > HAND_LIMIT else 0.0,
                    float(f),
                    float(influence[p]),
                    float(turns[p] - most),
                    1.0 if p == mover else 0.0,
                    progress,
                ]
            )
        return rows, 1.0 / (1.0 + left / PHASE_SCALE)


RN_FEATURES = (
    "vp",  # victory points scored
    "round_vp",  # expected VP of this round's Outposts (RNEval: a softmax of the Raid Points now)
    "future_vp",  # expected VP of the later rounds (RNEval: a share by strength)
    "raid_points",  # Raid Points on the board now, all Outposts
    "glory",
    "hand_strength",  # Raid Points of the cards in hand
    "god_strength",  # the God in front of the seat, not invoked yet
    "tiebreaker",
    "passed",
    "to_move",
)
"""The per-seat features of a Red North position, in the model's order."""


class RNFeatures:
    """Red North features (:data:`RN_FEATURES`) of every seat, and the game's phase."""

    def __init__(self) -> None:
        self.rn = RNEval()

    def __call__(self, st) -> tuple[list[list[float]], float]:
        P = st.P
        rn = self.rn
        r = st.round
        rv = ROUND_VP[r] if r <= ROUNDS else 0
        owner = st.owner
        tb = st.tiebreaker
        round_vp = [0.0] * P
        raid = [0.0] * P
        if st.result is None:
            pts = raid_points(st.parties, owner, st.opts_pts, st.in_play)
            for c in st.colours:
                row = pts[c]
                for q in range(P):
                    raid[q] += row[q]
            rn.add_round_vp(st, pts, rv, round_vp)
        future = len(st.colours) * sum(ROUND_VP[r + 1 : ROUNDS + 1]) if st.result is None else 0
        cv = rn.card_value
        muster = st.muster
        mv = (sum(rn.group_value(h, cards) for h, cards in muster) / len(muster)) if muster and future else 0.0
        hand = []
        gods = []
        S = []
        for q in range(P):
            h = st.hands[q]
            hs = sum(h[k] * cv[k] for k in range(NKINDS) if h[k])
            g = st.god[q]
            gs = GOD_STRENGTH[g] if g >= 0 and not st.invoked[q] else 0.0
            hand.append(hs)
            gods.append(gs)
            s = hs + rn.glory * st.glory[q] + gs + (0.0 if st.passed[q] else mv)
            S.append(max(s, 0.1) ** rn.alpha)
        tot = sum(S)
        d = st.decision()
        mover = d.player if d is not None else -1
        rows = [
            [
                float(st.vp[q]),
                round_vp[q],
                future * S[q] / tot if future else 0.0,
                float(raid[q]),
                float(st.glory[q]),
                hand[q],
                gods[q],
                1.0 if q == tb else 0.0,
                1.0 if st.passed[q] else 0.0,
                1.0 if q == mover else 0.0,
            ]
            for q in range(P)
        ]
        return rows, min(r, ROUNDS) / ROUNDS


class Learned(NamedTuple):
    """A title's learned evaluation (its ``learned`` part): the feature names, the phase's
    formula (recorded in a model file) and the featurizer class."""

    features: tuple[str, ...]
    phase: str
    featurizer: Any


RED_RISING = Learned(RR_FEATURES, f"1 / (1 + turns_left / {PHASE_SCALE:g})", RRFeatures)
RED_NORTH = Learned(RN_FEATURES, "round / 3", RNFeatures)


def learned(game: object) -> Learned | None:
    """The learned evaluation of the title called ``game`` (None: it has none, or no such title)."""
    if not isinstance(game, str) or game not in GAMES:
        return None
    return title(game).load("learned")


def learned_titles() -> list[str]:
    """The titles that have a learned evaluation."""
    return [t.name for t in titles() if t.learned is not None]


class LinearValue:
    """Win chances per seat from the conditional-logit weights of one game (all player counts).

    ``weights[players] = (a, b)``: the coefficients of the raw features and of the features
    times the phase (standardisation folded in: a constant per feature cancels in the softmax).
    A player count without weights uses the nearest one that has them.
    """

    def __init__(self, game: str, weights: dict[int, tuple[list[float], list[float]]]) -> None:
        spec = learned(game)
        if spec is None:
            raise ValueError(f"no learned evaluation for game {game!r}; known: {', '.join(learned_titles())}")
        if not weights:
            raise ValueError(f"learned evaluation of {game}: no weights")
        k = len(spec.features)
        for players, (a, b) in weights.items():
            if len(a) != k or len(b) != k:
                raise ValueError(f"learned evaluation of {game}, {players} players: {k} weights expected per part")
        self.game = game
        self.weights = weights
        self.spec = spec
        self.features = spec.featurizer()

    def for_players(self, players: int) -> tuple[list[float], list[float]]:
        best = min(self.weights, key=lambda q: (abs(q - players), q))
        return self.weights[best]

    def utilities(self, st) -> list[float]:
        rows, phase = self.features(st)
        a, b = self.for_players(len(rows))
        scores = []
        for f in rows:
            s = 0.0
            t = 0.0
            for x, wa, wb in zip(f, a, b, strict=True):
                s += wa * x
                t += wb * x
            scores.append(s + phase * t)
        top = max(scores)
        ex = [math.exp(s - top) for s in scores]
        tot = sum(ex)
        return [e / tot for e in ex]

    def to_json(self, meta: dict[str, Any] | None = None) -> dict[str, Any]:
        return {
            "game": self.game,
            "model": "conditional-logit",
            "features": list(self.spec.features),
            "phase": self.spec.phase,
            "weights": {str(p): {"a": a, "b": b} for p, (a, b) in sorted(self.weights.items())},
            **(meta or {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LinearValue:
        game = data.get("game")
        spec = learned(game)
        if spec is None:
            raise ValueError(f"learned evaluation file: unknown game {game!r}")
        assert isinstance(game, str)
        if data.get("features") != list(spec.features):
            raise ValueError(f"learned evaluation file for {game}: its features are not this version's")
        weights = {int(p): (list(map(float, w["a"])), list(map(float, w["b"]))) for p, w in data["weights"].items()}
        return cls(game, weights)


def model_path(game: str):
    return resources.files(__package__).joinpath("models", f"{game}.json")


@cache
def load_value(game: str) -> LinearValue | None:
    """The shipped model of ``game`` (read once per process), or None if the game has none."""
    if learned(game) is None:
        return None
    return LinearValue.from_json(json.loads(model_path(game).read_text()))
