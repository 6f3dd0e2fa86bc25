"""The browser UI: static ES modules + CSS under ``static/`` (no build step), served by the
game server at ``/``, and a small API router (``routes.py``) for what only the UI needs:
the card gallery, the physical-game score calculator and the final hands of a finished game.

See ``docs/web.md``.
"""

from __future__ import annotations

from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "static"

__all__ = ["STATIC_DIR"]
