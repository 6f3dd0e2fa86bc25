"""The answers of the account's self-service and notification routes (``selfservice.py``,
``notifyapi.py``): their ``response_model`` (``apimodels.py`` has the rest; this module keeps it
under 800 lines). The routes send their own JSON; the Schemathesis test checks it against these."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .apimodels import Answer
from .notifydb import Settings


class AccountDeleted(Answer):
    deleted: bool = Field(..., description="always true")
    logged_in: bool = Field(..., description="always false: the session cookie is cleared")
    label: str = Field(..., description="the name the account's finished games show now (deleted player #N)")


class AccountExport(Answer):
    """Everything kept about the account (``accountexport.py``; ``docs/security.md`` lists it)."""

    exported_at: float
    format: int = Field(..., description="the export's format version")
    profile: dict[str, Any] = Field(..., description="id, username, created_at, roles")
    email: dict[str, Any] | None = Field(..., description="address, verified, lang, added_at (none: no address)")
    sessions: list[dict[str, Any]] = Field(..., description="created_at, expires_at of each open session")
    settings: dict[str, list[dict[str, Any]]] = Field(..., description="the account's rows of other tables, by table")
    games: list[dict[str, Any]]
    ratings: list[dict[str, Any]]
    rating_history: list[dict[str, Any]]
    chat: list[dict[str, Any]]
    reports_filed: list[dict[str, Any]]
    moderation_notices: list[dict[str, Any]]


class NotificationPage(Answer):
    settings: Settings
    kinds: list[str] = Field(..., description="the kinds of notice, in the page's order")
    email_enabled: bool = Field(..., description="the server sends e-mail at all")
    email_verified: bool = Field(..., description="the account has a verified address (e-mail reaches it)")


class NotificationSettings(Answer):
    settings: Settings


class Unsubscribed(Answer):
    unsubscribed: bool = Field(..., description="always true")
    kind: str = Field(..., description="the kind of e-mail turned off (a notice's kind, or digest)")
