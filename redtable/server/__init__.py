"""The online game server: HTTP + WebSocket API over the core protocol, games stored through SQLAlchemy.

``create_app(db=...)`` builds the FastAPI app; ``redtable serve`` (``serve_command``) runs it.
See ``docs/server.md``.
"""

from __future__ import annotations


def create_app(*args, **kwargs):
    from .app import create_app as make

    return make(*args, **kwargs)


__all__ = ["create_app"]
