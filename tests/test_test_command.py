"""The README's test command and the one .ci/run runs stay the same command, habits included."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INSTALL = "pip install -q -e '.[test,rl]'"


def _command(path: str) -> str:
    lines = [ln for ln in (ROOT / path).read_text(encoding="utf-8").splitlines() if INSTALL in ln]
    assert len(lines) == 1, f"{path}: expected one test command line, found {len(lines)}"
    return lines[0]


def test_ci_runs_the_readme_test_command():
    readme, ci = _command("README.md"), _command(".ci/run")
    # the README only adds Debian's Chromium in front (.ci/run installs it on a line of its own)
    assert readme.endswith(ci), (readme, ci)
    assert ci.startswith("python3 -m venv .venv")


def test_lint_format_and_types_run_before_the_tests():
    cmd = _command(".ci/run")
    steps = ["ruff check", "ruff format --check", "&& mypy &&", "python -m pytest -n 2"]
    where = [cmd.find(s) for s in steps]
    assert -1 not in where, dict(zip(steps, where, strict=True))
    assert where == sorted(where), dict(zip(steps, where, strict=True))
