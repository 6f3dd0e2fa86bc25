"""Making a row (``schema.FIELDS``) from a game played here: ``redtable simulate --save-games``.

The server's rows are made from its tables (``redtable/server/dataexport.py``); both end in
the same field list, so one loader reads either.
"""

from __future__ import annotations

from typing import Any

from .schema import SCHEMA_VERSION


def empty_seat(seat: int, kind: str) -> dict[str, Any]:
    return {
        "seat": seat,
        "kind": kind,
        "bot": None,
        "player": None,
        "username": None,
        "score": None,
        "place": None,
        "mu_before": None,
        "sigma_before": None,
        "mu_after": None,
        "sigma_after": None,
    }


def places(scores: list[float], winners: list[int]) -> list[int]:
    """Winners share place 1, the others follow by score, equal scores tying (the server's rule
    without forfeits: ``ratings.places_of``)."""
    ahead = len(set(winners))
    out = []
    for seat, s in enumerate(scores):
        if seat in winners:
            out.append(1)
        else:
            out.append(1 + ahead + sum(1 for o, x in enumerate(scores) if o not in winners and x > s))
    return out


def simulated_row(record: dict[str, Any], game_id: str, bots: list[str]) -> dict[str, Any]:
    """The row of a game bots played, from its saved-game record (``GameRecord.to_json(state)``:
    ``result`` present when it finished) and each seat's bot spec. No dates: a simulation's rows
    depend on its seed alone, like the rest of its output."""
    players = record["players"]
    result = record.get("result")
    scores = [float(s) for s in result["scores"]] if result else None
    winners = list(result["winners"]) if result else []
    seats = [empty_seat(i, "bot") for i in range(players)]
    ranks = places(scores, winners) if scores is not None else None
    for i, seat in enumerate(seats):
        seat["bot"] = bots[i]
        if scores is not None and ranks is not None:
            seat["score"], seat["place"] = scores[i], ranks[i]
    return {
        "schema_version": SCHEMA_VERSION,
        "source": "simulate",
        "game_id": game_id,
        "game": record["game"],
        "players": players,
        "options": dict(record.get("options", {})),
        "seed": record["seed"],
        "salt": None,
        "seed_commitment": None,
        "seed_chosen": True,
        "actions": list(record["actions"]),
        "decisions": len(record["actions"]),
        "scores": scores,
        "winners": winners,
        "forfeited": [],
        "rated": False,
        "seats": seats,
        "created_at": None,
        "finished_at": None,
    }
