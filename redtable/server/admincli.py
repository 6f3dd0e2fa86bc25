"""``redtable admin grant|revoke|notice|maintenance|bot``: roles, notices, bot accounts, on the server's database.

They take the same ``--db`` (env ``REDTABLE_DB``) and ``--db-schema`` as ``redtable serve``
and ``redtable db``; every server process reads the result from the database (a fleet included).
Each change is written to the audit log as done by ``cli``. ``redtable.cli`` registers the group::

    app.add_typer(admin_app, name="admin")
"""

from __future__ import annotations

import typer

from ..cliutil import fail
from .dbcli import _db_option, _schema_option, _store

admin_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Moderation roles and site notices on the server's database (docs/moderation.md).",
)

ROLE_HELP = "moderator (reports and actions) or admin (also the audit log and the site notices)"


def _role(role: str) -> str:
    from .moderation import ROLES

    if role not in ROLES:
        fail(f"--role must be one of {', '.join(ROLES)}, got {role!r}")
    return role


def _account(store, username: str):
    from .accounts import account_by_name

    found = account_by_name(store, username)
    if found is None:
        fail(f"no account named {username!r} on this database (usernames ignore case)")
    return found[0]


@admin_app.command("grant")
def grant_command(
    username: str = typer.Argument(..., help="the account"),
    role: str = typer.Option(..., "--role", help=ROLE_HELP),
    db: str | None = _db_option(),
    db_schema: str | None = _schema_option(),
) -> None:
    """Give an account a role."""
    from . import moderation as mod

    role = _role(role)
    store = _store(db, db_schema)
    try:
        store.create_tables()
        account = _account(store, username)
        if mod.grant(store, account.id, role, "cli"):
            mod.record_action(store, actor_id=None, actor="cli", action="grant", account_id=account.id, reason=role)
            typer.echo(f"{account.username} is now {role}")
        else:
            typer.echo(f"{account.username} was {role} already")
    finally:
        store.dispose()


@admin_app.command("revoke")
def revoke_command(
    username: str = typer.Argument(..., help="the account"),
    role: str = typer.Option(..., "--role", help=ROLE_HELP),
    db: str | None = _db_option(),
    db_schema: str | None = _schema_option(),
) -> None:
    """Take a role from an account."""
    from . import moderation as mod

    role = _role(role)
    store = _store(db, db_schema)
    try:
        store.create_tables()
        account = _account(store, username)
        if mod.revoke(store, account.id, role):
            mod.record_action(store, actor_id=None, actor="cli", action="revoke", account_id=account.id, reason=role)
            typer.echo(f"{account.username} is no longer {role}")
        else:
            typer.echo(f"{account.username} was not {role}")
    finally:
        store.dispose()


@admin_app.command("notice")
def notice_command(
    text: str = typer.Argument(..., help='the banner every page shows; "" removes it'),
    db: str | None = _db_option(),
    db_schema: str | None = _schema_option(),
) -> None:
    """Set the announcement banner (at most 300 characters; "" removes it)."""
    from . import moderation as mod
    from .errors import ApiError

    try:
        banner = mod.check_banner(text)
    except ApiError as e:
        fail(e.message)
    store = _store(db, db_schema)
    try:
        store.create_tables()
        mod.set_site(store, "banner", banner, "cli")
        mod.record_action(store, actor_id=None, actor="cli", action="banner", reason=banner or "(removed)")
    finally:
        store.dispose()
    typer.echo(f"banner: {banner}" if banner else "banner removed")


@admin_app.command("maintenance")
def maintenance_command(
    state: str = typer.Argument(..., metavar="on|off", help="on: no new tables (games under way go on)"),
    db: str | None = _db_option(),
    db_schema: str | None = _schema_option(),
) -> None:
    """Turn the maintenance mode on (creating a table answers 503 maintenance) or off."""
    from . import moderation as mod

    if state not in ("on", "off"):
        fail(f"say on or off, got {state!r}")
    store = _store(db, db_schema)
    try:
        store.create_tables()
        mod.set_site(store, "maintenance", state, "cli")
        mod.record_action(store, actor_id=None, actor="cli", action="maintenance", reason=state)
    finally:
        store.dispose()
    typer.echo(f"maintenance {state}")


@admin_app.command("bot")
def bot_command(
    username: str = typer.Argument(..., help="the account"),
    db: str | None = _db_option(),
    db_schema: str | None = _schema_option(),
) -> None:
    """Make an account a bot account (docs/bots.md): irreversible; an admin may do it after games too."""
    from . import moderation as mod
    from .botaccounts import make_bot

    store = _store(db, db_schema)
    try:
        store.create_tables()
        account = _account(store, username)
        if make_bot(store, account.id, "admin", force=True):
            mod.record_action(store, actor_id=None, actor="cli", action="bot", account_id=account.id, reason="bot")
            typer.echo(f"{account.username} is now a bot account")
        else:
            typer.echo(f"{account.username} was a bot account already")
    finally:
        store.dispose()
