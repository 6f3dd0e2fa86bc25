"""Make the bots' test helpers (GuardedState, random_positions) importable here too."""

import sys
from pathlib import Path

_bots = str(Path(__file__).resolve().parent.parent / "bots")
if _bots not in sys.path:
    sys.path.insert(0, _bots)
