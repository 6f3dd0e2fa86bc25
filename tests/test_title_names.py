"""Outside its rules package, a title is named only by the registry and by its own
presentation modules (the terminal renderer its Title points to): every other consumer
reads the title value (:mod:`redtable.core.title`) instead of comparing names.

The check is on the syntax tree: a string constant equal to a title's name (``"red-north"``
in a comparison, a dict key, a default argument...) is a naming; a docstring or message
that mentions the name inside longer text is not.
"""

from __future__ import annotations

import ast
from pathlib import Path

from redtable.core import registry

ROOT = Path(__file__).resolve().parent.parent / "redtable"


def _module_file(dotted: str) -> Path:
    module = dotted.partition(":")[0]
    return ROOT.parent.joinpath(*module.split(".")).with_suffix(".py")


def shipped_titles() -> dict[str, str]:
    """Name -> the title value's path, for the titles redtable ships (not test titles)."""
    return {name: ref for name, ref in registry.TITLES.items() if not ref.startswith("<")}


def allowed_files() -> set[Path]:
    """The registry and each title's presentation modules (its terminal renderer)."""
    out = {ROOT / "core" / "registry.py"}
    for t in registry.titles():
        if isinstance(t.terminal, str):
            out.add(_module_file(t.terminal))
    return out


def rules_packages() -> list[Path]:
    """Each shipped title's package (the one holding its title value)."""
    return [_module_file(ref).parent for ref in shipped_titles().values()]


def namings(root: Path, names: set[str], skip_dirs: list[Path], allowed: set[Path]) -> list[str]:
    """``file:line: 'name'`` for each string constant equal to one of ``names`` in the
    ``.py`` files under ``root``, leaving out ``skip_dirs`` and the ``allowed`` files."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if path in allowed or any(path.is_relative_to(d) for d in skip_dirs):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
                found.append(f"{path.relative_to(root.parent)}:{node.lineno}: {node.value!r}")
    return found


def test_no_module_outside_the_rules_packages_names_a_title():
    names = set(shipped_titles())
    assert len(names) >= 2
    found = namings(ROOT, names, rules_packages(), allowed_files())
    assert not found, "name a title outside its rules package (read the Title instead):\n" + "\n".join(found)


def test_the_allow_list_is_what_it_says():
    allowed = allowed_files()
    assert ROOT / "core" / "registry.py" in allowed
    # the terminal renderers of both shipped titles, and they exist
    assert {p.name for p in allowed} >= {"registry.py", "render_redrising.py", "render_rednorth.py"}
    assert all(p.is_file() for p in allowed)
    assert {p.name for p in rules_packages()} == {"redrising", "rednorth"}


def test_the_check_finds_a_branch_on_a_name(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "rules").mkdir(parents=True)
    (pkg / "rules" / "title.py").write_text('NAME = "toy-game"\n')
    (pkg / "consumer.py").write_text(
        '"""Plays "toy-game" and others."""\n'
        "def f(game):\n"
        '    if game == "toy-game":\n'
        "        return 1\n"
        '    return {"toy-game": 2}.get(game, f"no {game}: toy-game")\n'
    )
    (pkg / "presenter.py").write_text('SHOWN = "toy-game"\n')
    found = namings(pkg, {"toy-game"}, [pkg / "rules"], {pkg / "presenter.py"})
    # the comparison and the dict key; not the docstring, the message, the rules package
    # or the allowed presentation module
    assert found == ["pkg/consumer.py:3: 'toy-game'", "pkg/consumer.py:5: 'toy-game'"]
    assert len(namings(pkg, {"toy-game"}, [], set())) == 4
