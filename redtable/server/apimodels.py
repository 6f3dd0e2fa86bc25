"""The bodies the HTTP API answers with: one pydantic model per answer, the routes' ``response_model``.

``/openapi.json`` is generated from these (``apischema.py`` adds the refusals). A route builds its
answer as a dict and sends it as it is (no copy through the model on the hot path); the
Schemathesis test (``tests/server/test_openapi_live.py``) checks the sent bodies against these
models, so a field added to an answer and not here, or a type that differs, fails there.
Nested values whose shape belongs to a title (a seat's view, an event, a game's options) are
``dict[str, Any]``: their shape is the title's, documented in ``docs/server.md``.

Sections: games and seats (``app.py``), accounts and e-mail (``accounts_api.py``, ``emails.py``),
Web Push (``push.py``), players (``players.py``), moderation (``moderation_api.py``), tables and
quick play (``tableapi.py``), rematches (``rematch.py``), the web UI's data (``web/routes.py``).
The account's self-service and notification answers are in ``apimodels_self.py``, the friends'
in ``apimodels_friends.py`` (this module stays under 800 lines).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Answer(BaseModel):
    """An answer's model names every field it has (``additionalProperties: false`` in the document)."""

    model_config = ConfigDict(extra="forbid")


class SeatInfo(Answer):
    seat: int
    type: str
    bot: str | None
    name: str | None
    joined: bool
    connected: bool


class CreatedSeat(SeatInfo):
    invite: str | None = Field(None, description="secret: give it to that seat's player only")
    invite_url: str | None


class DecisionInfo(Answer):
    player: int
    kind: str
    options: list[str] | None = Field(None, description="only for the seat that decides")
    context: dict[str, Any] | None = Field(None, description="only for the seat that decides")


class TableFacts(Answer):
    """The table's side of a snapshot or an update (``tables.py``: ``Table.public``)."""

    ready: bool = Field(True, description="every seat is taken (a table that starts when full)")
    seated: int = Field(0, description="seats taken (bots included)")
    clock: dict[str, Any] | None = Field(
        None,
        description="the option and, per seat, the seconds left (remaining), whose time runs (running), "
        "when it runs out (deadline) and the server's time (now), all in epoch seconds",
    )
    forfeited: list[int] = Field(default_factory=list, description="rated seats whose time ran out")
    closed: dict[str, Any] | None = Field(
        None, description="an abandoned table: reason (inactive, unfilled or aborted), idle_s, at"
    )
    unrated: str | None = Field(
        None, description="a rated table that will not be rated: same_network or same_device (fairplay.py)"
    )
    confirm: dict[str, Any] | None = Field(
        None, description="a full rated open table asking each person to confirm: until, ready (seats), now"
    )


class GameInfo(Answer):
    game_id: str
    game: str
    title: str
    players: int
    options: dict[str, Any]
    undo: bool
    bot_delay: float
    created_at: float
    seed_chosen_by_creator: bool = Field(..., description="the creator chose the seed (so may know the deal)")
    seed_commitment: str | None = Field(
        None, description='sha256 hex of "<seed>:<salt>"; the finished game\'s record reveals both'
    )
    rated: bool = Field(False, description="the result moves its accounts' ratings (ratings.py)")
    open: bool = Field(False, description="its free seats are listed in the lobby: anyone may sit (tables.py)")
    speed: str = Field("none", description="the clock's kind: realtime, turn or none")
    clock: dict[str, Any] | None = Field(None, description="the clock option (null: no clock)")
    tutorial: bool = Field(False, description="a private lesson of the guided tutorial")
    host: dict[str, Any] | None = Field(
        None, description="who invited the others: the creator's seat (the first person's) and name (join page)"
    )


class GameCreated(GameInfo):
    version: int
    status: str
    url: str
    ws_url: str
    seats: list[CreatedSeat]
    creator_key: str = Field(..., description="secret: lets the creator re-issue an invite nobody has used")
    seed: int | None = Field(None, description="echoed only when the creator chose it")


class Joined(Answer):
    game_id: str
    seat: int
    token: str = Field(..., description="this device's secret token for the seat")
    name: str | None
    url: str
    ws_url: str


class GameState(GameInfo, TableFacts):
    type: Literal["state"]
    version: int
    step: int
    status: Literal["waiting", "active", "finished", "abandoned"] = Field(
        ..., description="waiting: for its seats to be taken (nobody decides, no bot moves, no clock runs)"
    )
    seat: int | None
    seats: list[SeatInfo]
    view: dict[str, Any] = Field(..., description="state.view(seat): what this seat (or a spectator) may see")
    decision: DecisionInfo | None
    can_undo: bool
    result: dict[str, Any] | None
    events: list[dict[str, Any]] | None = Field(None, description="the log's events this seat may see")


class GameUpdate(TableFacts):
    type: Literal["update"]
    game_id: str
    version: int
    step: int
    by: int | None
    status: str
    view: dict[str, Any]
    decision: DecisionInfo | None
    events: list[dict[str, Any]]
    can_undo: bool
    result: dict[str, Any] | None
    action: str | None = Field(None, description="the decision just made, to its decider only")


class LogStep(Answer):
    step: int
    seat: int
    events: list[dict[str, Any]]
    action: str | None = Field(None, description="only the reader's own decisions")


class GameLog(Answer):
    game_id: str
    game: str
    seat: int | None
    version: int
    steps: int
    status: str
    setup: list[dict[str, Any]]
    log: list[LogStep]
    result: dict[str, Any] | None
    decision: DecisionInfo | None


class ReplayStep(Answer):
    game_id: str
    step: int
    steps: int
    seat: int | None
    by: int | None
    view: dict[str, Any]
    decision: DecisionInfo | None
    events: list[dict[str, Any]]
    action: str | None = None
    hands: list[list[Any]] | None = Field(
        None, description="every seat's hand at this step: only once the game is over (its record is public then)"
    )


class GameSummary(Answer):
    id: str
    game: str
    players: int
    status: str
    created_at: float
    finished_at: float | None
    steps: int
    seats: list[dict[str, Any]]
    seed_chosen_by_creator: bool
    seed_commitment: str | None
    rated: bool = Field(False, description="its result moves its accounts' ratings")


class Title(Answer):
    name: str
    title: str
    min_players: int
    max_players: int
    options: dict[str, Any]
    bots: list[str] = Field(..., description="the bot presets a seat may have")


class NewInvite(Answer):
    game_id: str
    seat: int
    invite: str = Field(..., description="secret: the seat's new invite (the old one no longer works)")
    invite_url: str
    signed_out: int | None = Field(None, description="devices signed out")


class ChatMessage(Answer):
    chat_id: int
    channel: Literal["players", "spectators"]
    seat: int | None = Field(..., description="the author's seat; None: a spectator")
    author: str | None = Field(..., description="a spectator's account name or guest tag; a seat's name then")
    guest: bool
    text: str = Field(..., description="plain text (never markup), at most 300 characters")
    step: int = Field(..., description="the game's step when it was written (the replay shows it from there)")
    at: float


class ChatHistory(Answer):
    game_id: str
    seat: int | None
    channels: list[str] = Field(..., description="the channels the reader may read")
    write: str = Field(..., description="the channel the reader writes in (over the WebSocket)")
    max: int
    messages: list[ChatMessage]
    more: bool = Field(..., description="older messages remain (ask with before=<the first chat_id>)")
    muted: list[int | str] = Field(..., description="the seats (and 'spectators') this seat muted")


class Health(Answer):
    ok: bool
    db: str = Field(..., description="sqlite or postgresql")
    games_in_memory: int
    connections: int
    decisions: int
    commits: int
    commit_seconds: float
    pid: int
    fleet: dict[str, Any] | None = Field(None, description="this process's part in the fleet (PostgreSQL)")
    tables: dict[str, int] = Field(..., description="timeouts, forfeits, closed tables, stale claims")


class Record(Answer):
    """A finished game's record (``redtable replay`` reads it)."""

    format: int | str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    actions: list[str]
    events: list[dict[str, Any]]
    result: dict[str, Any] | None = None
    salt: str
    seed_commitment: str | None
    seed_chosen_by_creator: bool


# ---------------------------------------------------------------------- accounts and e-mail
class SessionInfo(Answer):
    logged_in: bool
    username: str | None = None
    csrf: str | None = Field(None, description="send it as X-CSRF-Token with every write while logged in")
    email_enabled: bool = Field(
        False, description="the server sends e-mail: only then are an address and a forgotten password's link offered"
    )


class AccountPage(Answer):
    username: str
    email: str | None
    email_verified: bool
    email_lang: str | None
    email_enabled: bool = Field(..., description="the server sends e-mail (an SMTP server is configured)")


class EmailSet(Answer):
    email: str | None
    email_verified: bool
    sent: bool | None = Field(None, description="a verification link was mailed")


class Verified(Answer):
    verified: bool


class ResetSent(Answer):
    sent: bool
    message: str


class PasswordReset(Answer):
    reset: bool
    logged_in: bool


class PasswordChanged(Answer):
    changed: bool
    sessions_ended: int


class SignedOut(Answer):
    logged_in: bool
    sessions_ended: int


# ---------------------------------------------------------------------- Web Push
class PushKey(Answer):
    public_key: str = Field(..., description="the VAPID public key, base64url (applicationServerKey)")


class Subscribed(Answer):
    subscribed: bool
    removed: bool | int | None = Field(None, description="unsubscribe: whether a subscription was removed")


# ---------------------------------------------------------------------- players
class Rating(Answer):
    mu: float
    sigma: float
    ordinal: float = Field(..., description="mu - 3 sigma: the board's order")
    games: int
    provisional: bool


class RatingPoint(Answer):
    game_id: str
    at: float
    players: int
    place: int
    mu: float
    sigma: float
    ordinal: float
    mu_before: float
    sigma_before: float
    ordinal_before: float


class TitleStats(Answer):
    game: str
    players: int
    played: int
    won: int


class RecentGame(Answer):
    game_id: str
    game: str
    players: int
    status: str
    created_at: float
    finished_at: float | None
    seat: int
    won: bool | None
    rated: bool
    url: str


class Profile(Answer):
    username: str
    created_at: float
    stats: list[TitleStats]
    ratings: dict[str, Rating] = Field(..., description="per title, against people")
    history: dict[str, list[RatingPoint]]
    bot_ratings: dict[str, Rating] = Field(..., description="per title, against bots")
    bot_history: dict[str, list[RatingPoint]]
    presets: dict[str, dict[str, Rating]] = Field(..., description="the bot presets' ratings, per title played")
    recent: list[RecentGame]


class BoardRow(Rating):
    rank: int
    username: str | None
    bot: str | None
    is_bot: bool


class Leaderboard(Answer):
    title: str
    total: int
    limit: int
    offset: int
    players: list[BoardRow]


# ---------------------------------------------------------------------- moderation
class ReportFiled(Answer):
    report_id: int
    status: Literal["open"]


class Site(Answer):
    banner: str | None
    maintenance: bool


class Sanction(Answer):
    until: float | None
    reason: str | None


class Notices(Answer):
    role: str | None = Field(..., description="moderator, admin or null")
    notices: list[dict[str, Any]]
    sanctions: dict[str, Sanction]


class Seen(Answer):
    seen: int


class Report(Answer):
    report_id: int
    kind: str = Field(..., description="message, player or game")
    target: str | None
    account: str | None = Field(..., description="the reported account's name")
    game_id: str | None
    chat_id: int | None
    reason: str
    note: str | None
    status: str = Field(..., description="open, resolved or dismissed")
    reporter: str | None
    reporter_guest: bool
    created_at: float
    closed_at: float | None
    replay: str | None


class Reports(Answer):
    reports: list[Report]


class AuditEntry(Answer):
    action_id: int
    at: float
    actor: str | None
    action: str
    account: str | None
    game_id: str | None
    chat_id: int | None
    report_id: int | None
    until: float | None
    reason: str | None
    detail: dict[str, Any] | None


class ContextLine(Answer):
    chat_id: int
    channel: str
    seat: int | None
    author: str | None
    guest: bool
    text: str
    step: int
    at: float
    removed: bool
    reported: bool


class ReportContext(Report):
    chat: list[ContextLine] = Field(..., description="the chat around the message (removed lines with their text)")
    account_reports: list[Report] = Field(..., description="the reported account's other reports")
    account_actions: list[AuditEntry] = Field(..., description="the actions taken on the account")
    sanctions: dict[str, Sanction] | None = Field(None, description="the account's sanctions in force")


class ReportClosed(Answer):
    report_id: int
    status: Literal["resolved", "dismissed"]


class ActionTaken(Answer):
    action: str
    action_id: int
    username: str | None = Field(None, description="an action on an account: its name")
    until: float | None = Field(None, description="a mute's or suspension's end (null: until lifted)")
    seats: list[Any] | None = Field(None, description="a suspension or ban: the seats bots now play")
    chat_id: int | None = None
    game_id: str | None = None
    changed: Any = Field(None, description="undo_ratings: the ratings recomputed")


class Audit(Answer):
    actions: list[AuditEntry]


# ---------------------------------------------------------------------- tables and quick play
class TableSeat(Answer):
    seat: int
    type: str
    bot: str | None
    name: str | None
    joined: bool


class OpenTable(Answer):
    game_id: str
    game: str
    players: int
    seated: int
    created_at: float
    rated: bool
    speed: str
    clock: dict[str, Any] | None
    seats: list[TableSeat]


class Seated(Answer):
    game_id: str
    seat: int
    token: str = Field(..., description="this device's secret token for the seat")
    name: str | None
    ready: bool
    url: str
    ws_url: str


class ReadyConfirmed(Answer):
    game_id: str
    seat: int
    ready: list[int]
    started: bool


class BotsFilled(Answer):
    game_id: str
    seats: list[int]
    bot: str
    ready: bool


class QueueState(Answer):
    status: Literal["waiting", "starting", "matched"]
    game: str
    players: int
    speed: str
    rated: bool
    ticket: str | None = Field(None, description="secret: poll with it (it becomes the seat's token)")
    waiting: int | None = None
    waited: float | None = None
    bots_after: float | None = None
    bots: bool | None = None
    game_id: str | None = None
    seat: int | None = None
    token: str | None = None
    url: str | None = None
    ws_url: str | None = None


class LeftQueue(Answer):
    left: bool


class MyGame(GameInfo):
    """One game of "my games": whose turn, my time left, whether it is over."""

    seat: int | None
    status: str
    ready: bool
    seated: int
    turn: int | None
    my_turn: bool
    step: int
    seats: list[SeatInfo]
    closed: dict[str, Any] | None
    result: dict[str, Any] | None


class GoneGame(Answer):
    """A held token whose game or seat is gone."""

    game_id: str
    gone: Literal[True]
    error: str = Field(..., description="why: the refusal's code (unknown_game, bad_token...)")


# ---------------------------------------------------------------------- rematches
class RematchOffer(Answer):
    status: str = Field(..., description="open, started, declined or lapsed")
    game_id: str
    by: int
    until: float
    now: float
    people: list[int]
    accepted: list[int]
    declined_by: int | None


class RematchState(Answer):
    game_id: str
    rematch: RematchOffer | None


class RematchAnswer(Answer):
    """An ask: the new table, this seat there and its token; a decline: ``declined``. ``game_id``
    is the new table's on an ask, the finished game's on a decline."""

    game_id: str
    rematch: RematchOffer | None
    declined: bool | None = None
    offered: bool | None = Field(None, description="this ask made the offer (the first one)")
    seat: int | None = Field(None, description="this seat at the new table")
    token: str | None = Field(None, description="secret: this device's token for it")
    name: str | None = None
    ready: bool | None = None
    url: str | None = None
    ws_url: str | None = None


# ---------------------------------------------------------------------- the web UI's data
class Gallery(Answer):
    """A title's cards with their texts in ``lang``; the other fields are the title's own (its gallery)."""

    model_config = ConfigDict(extra="allow")
    lang: str


class Scorepad(Answer):
    rows: list[str]
    players: list[dict[str, Any]]
    winners: list[Any]


class FinalHands(Answer):
    game: str
    hands: list[Any]
    choices: list[dict[str, Any]] | None = None


class RunningScore(Answer):
    """The score as the asking seat may know it; the fields after ``status`` are the title's own."""

    model_config = ConfigDict(extra="allow")
    game_id: str
    version: int
    step: int
    status: str


class RulesPage(Answer):
    """A title's rules page data (``web/rules_data.py``): the title's own fields."""

    model_config = ConfigDict(extra="allow")
