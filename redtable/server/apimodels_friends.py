"""The answers of the friends routes (``friends_api.py``; the rows are built in ``friends.py``):
their ``response_model``. The routes send their own JSON; the Schemathesis test checks it."""

from __future__ import annotations

from pydantic import Field

from .apimodels import Answer


class Friend(Answer):
    username: str
    since: float = Field(..., description="when I followed (epoch seconds)")
    online: bool = Field(..., description="at a table now (a socket of one of their seats is open)")


class SeatedFriend(Answer):
    username: str
    seat: int


class FriendTable(Answer):
    game_id: str
    game: str
    players: int
    seated: int
    created_at: float
    rated: bool
    speed: str | None
    friends: list[SeatedFriend]


class InviteForMe(Answer):
    invite_id: int
    game_id: str
    seat: int
    from_: str | None = Field(..., alias="from", description="the inviter's name")
    at: float
    game: str | None
    players: int | None


class FriendsPage(Answer):
    friends: list[Friend] = Field(..., description="whom I follow, newest first")
    tables: list[FriendTable] = Field(..., description="their open tables with a free seat")
    games: list[FriendTable] = Field(..., description="their live games with every seat taken")
    invites: list[InviteForMe] = Field(..., description="the invitations waiting for me")


class Relation(Answer):
    username: str
    following: bool
    blocking: bool = Field(..., description="I block them (never whether they block me)")


class Blocked(Answer):
    username: str
    since: float


class BlockList(Answer):
    blocks: list[Blocked] = Field(..., description="newest first")


class TableAccounts(Answer):
    players: list[SeatedFriend] = Field(..., description="the seats that play under their account's name")


class InviteSent(Answer):
    invite_id: int
    game_id: str
    seat: int
    username: str


class TableInvite(Answer):
    invite_id: int
    seat: int
    username: str | None


class TableInvites(Answer):
    invites: list[TableInvite]


class Withdrawn(Answer):
    withdrawn: bool = Field(..., description="there was an invitation for that seat")


class MyInvites(Answer):
    invites: list[InviteForMe] = Field(..., description="newest first")


class InviteAccepted(Answer):
    game_id: str
    seat: int
    token: str = Field(..., description="secret: this device's seat token")
    name: str
    url: str
    ws_url: str


class Declined(Answer):
    declined: int = Field(..., description="the invitation's id")
