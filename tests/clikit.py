"""Helpers of the tests that run the `redtable` command through typer's CliRunner."""

from __future__ import annotations

from click.testing import Result


def clean_error(r: Result, *fragments: str) -> str:
    """``r`` is a refusal as every command gives one: exit code 2, nothing on stdout, one line
    ``error: ...`` on stderr (no traceback, short) containing each of ``fragments``; returns it."""
    assert r.exit_code == 2, (r.exit_code, r.stdout, r.stderr, r.exception)
    assert r.stdout == ""
    assert "Traceback" not in r.output and "Traceback" not in r.stderr
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr
    assert len(r.stderr) < 700, r.stderr[:1000]
    for fragment in fragments:
        assert fragment in r.stderr, r.stderr
    return r.stderr
