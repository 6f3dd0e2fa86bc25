"""The ``serve`` command's checks at the edge (the server itself runs in the crash test)."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from redtable.server.commands import serve_command

app = typer.Typer(add_completion=False)
app.command("serve")(serve_command)
app.command("noop")(lambda: None)
runner = CliRunner()


@pytest.mark.parametrize(
    "args, says",
    [
        (["--port", "0"], "--port"),
        (["--port", "70000"], "--port"),
        (["--sqlite-sync", "sometimes"], "--sqlite-sync"),
        (["--idle-minutes", "0"], "--idle-minutes"),
        (["--db-writers", "0"], "--db-writers"),
        (["--log-level", "loud"], "--log-level"),
        (["--db", "nosuchdb://x"], "--db"),
        (["--db", "sqlite:///x.db", "--db-schema", "s"], "--db"),
    ],
)
def test_bad_arguments_exit_2(args, says, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["serve", *args])
    assert r.exit_code == 2, r.output
    assert says in r.output and "error:" in r.output


def test_help_names_the_options():
    r = runner.invoke(app, ["serve", "--help"])
    assert r.exit_code == 0
    for opt in (
        "--host",
        "--port",
        "--db",
        "--db-schema",
        "--sqlite-sync",
        "--idle-minutes",
        "--ws-deflate",
        "--db-writers",
    ):
        assert opt in r.output
