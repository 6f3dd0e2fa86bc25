"""More answers' models (``apimodels.py`` has the rest and the rules; this module keeps that one
under 800 lines): bot accounts and API tokens (``botaccounts_api.py``, ``botboard.py``), the
open data's choice (``publicgames.py``), the expert's review (``reviews.py``) and hints
(``hints.py``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .apimodels import Answer, Rating, Record


# ---------------------------------------------------------------------- bot accounts and API tokens
class TokenRow(Answer):
    id: int
    prefix: str = Field(..., description="the token's first characters, to tell tokens apart")
    label: str
    scopes: list[str]
    created_at: float
    last_used_at: float | None = Field(..., description="epoch seconds (noted at most once a minute)")


class Tokens(Answer):
    bot: bool = Field(..., description="the account is a bot account")
    scopes: list[str] = Field(..., description="the scopes a token may carry")
    tokens: list[TokenRow] = Field(..., description="newest first; never the tokens themselves")


class TokenMade(TokenRow):
    token: str = Field(..., description="secret, shown this once: only its hash is kept")


class TokenRevoked(Answer):
    revoked: int


class MadeBot(Answer):
    username: str
    bot: Literal[True]
    made: bool = Field(..., description="false: the account was a bot account already")


class BotAccount(Answer):
    username: str
    bot: bool


class BotSeat(Answer):
    seat: int
    username: str


class GameBots(Answer):
    game_id: str
    bot_game: bool = Field(..., description="a seat is held by a bot account")
    bot_seats: list[BotSeat]


class BotBoardRow(Rating):
    rank: int
    username: str | None = Field(..., description="a bot account's name (null for a preset)")
    preset: str | None = Field(..., description="a bot preset's name (null for a bot account)")
    bot_account: bool


class BotBoard(Answer):
    title: str
    total: int
    limit: int
    offset: int
    players: list[BotBoardRow]


# ---------------------------------------------------------------------- the open data's choice
class PublicGamesChoice(Answer):
    public_games: bool = Field(..., description="my games go into the open data under my name")


# ---------------------------------------------------------------------- review and hints
class Consequence(Answer):
    """A fact the seat can know in which the preferred option does better (redtable.review.consequences)."""

    fact: Literal["sovereign", "influence", "helium", "fleet", "points", "cards", "vp", "outposts", "champion", "glory"]
    taken: float = Field(..., description="its mean at the horizon after the option taken (a token: the share held)")
    preferred: float = Field(..., description="after the preferred option")
    now: float = Field(..., description="at the decision")


class ReviewedDecision(Answer):
    step: int = Field(..., description="its index in the record's actions")
    taken: str
    preferred: str = Field(..., description="the expert's option")
    win_before: float
    win_taken: float
    win_preferred: float
    mark: Literal["mistake", "blunder"] | None = Field(..., description="more than 5 / 15 points lost")
    round: int | None = Field(None, description="a game in rounds: the round")
    vp_taken: float | None = Field(None, description="a game in rounds: expected VP at the round's end")
    vp_preferred: float | None = None
    why: list[Consequence] = Field(
        default_factory=list,
        description="what the preferred option would have done better, best first (the page words it: review.why.*)",
    )


class Review(Answer):
    seat: int
    decisions: list[ReviewedDecision]


class ReviewRunning(Answer):
    seat: int
    status: Literal["running"]
    done: int = Field(..., description="decisions reviewed so far")
    total: int = Field(..., description="the seat's decisions (0 while they are counted)")


class Hint(Answer):
    step: int
    preferred: str = Field(..., description="the option the expert prefers")
    win: float | None = Field(..., description="the seat's chance to win after it, in [0, 1] (null: one option)")
    second: str | None = Field(..., description="the runner-up (null: none)")
    win_second: float | None
    why: list[Consequence] = Field(
        default_factory=list, description="what the preferred option does better than the runner-up (hint.why_more)"
    )


class HintMark(Answer):
    seat: int
    step: int


class HintsUsed(Answer):
    hints: list[HintMark]


class HintedRecord(Record):
    """A finished game's record (``GET /api/games/{id}/record``), with where hints were used."""

    hints: list[HintMark] | None = Field(None, description="the game was played with the expert's hints: where")
