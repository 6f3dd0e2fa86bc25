"""``python -m redtable.play red-north ...``: the play command on its own (see :mod:`.terminal`)."""

from .terminal import main

main()
