"""``python -m redtable.server --port 8000 --db ...``: the ``serve`` command without the CLI."""

import typer

from .commands import serve_command

if __name__ == "__main__":
    typer.run(serve_command)
