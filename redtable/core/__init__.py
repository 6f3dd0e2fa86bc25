"""Game-agnostic protocol: games, states, decisions, seeded chance, logs, replay."""

from .errors import GameOver, IllegalAction, InvalidOptions, RedtableError, ReplayError
from .protocol import Action, Decision, Event, Game, HiddenDict, HiddenList, HiddenRead, HiddenSet, State, check_option
from .registry import GAMES, game_class, make_game, title, titles
from .replay import GameRecord, replay
from .rng import Rng
from .title import Title

__all__ = [
    "Action",
    "Decision",
    "Event",
    "Game",
    "State",
    "check_option",
    "Rng",
    "HiddenRead",
    "HiddenList",
    "HiddenDict",
    "HiddenSet",
    "GameOver",
    "IllegalAction",
    "InvalidOptions",
    "RedtableError",
    "ReplayError",
    "GAMES",
    "game_class",
    "make_game",
    "title",
    "titles",
    "Title",
    "GameRecord",
    "replay",
]
