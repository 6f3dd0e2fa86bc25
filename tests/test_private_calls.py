"""No module reaches into another's private names.

A method or attribute whose name starts with ``_`` belongs to its module: another module that needs
it is using an interface nobody declared, and the next change to the owner breaks it silently.
The check reads the package's source (ast): for every attribute access ``obj._name`` whose
object is not ``self``/``cls``, the name must be defined by the accessing module itself (a class
of its own), not only by another module of the package.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "redtable"


@cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def defined_privates(tree: ast.Module) -> set[str]:
    """The private names a module defines: its functions and methods, and attributes it sets on ``self``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name.startswith("_"):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and node.attr.startswith("_"):
            names.add(node.attr)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name) and t.id.startswith("_")}
    return {n for n in names if not (n.startswith("__") and n.endswith("__"))}


def foreign_private_uses(files: list[Path]) -> list[str]:
    own = {f: defined_privates(parsed(f)) for f in files}
    everyone = set().union(*own.values())
    found = []
    for f in files:
        for node in ast.walk(parsed(f)):
            # getattr(obj, "_name") / hasattr(...) spell the same reach with a string (and a rename
            # of the owner's name turns them silently false instead of failing)
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr", "setattr")
                and len(node.args) >= 2
                and not (isinstance(node.args[0], ast.Name) and node.args[0].id in ("self", "cls"))
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
                and node.args[1].value.startswith("_")
                and not node.args[1].value.startswith("__")
                and node.args[1].value not in own[f]
            ):
                found.append(f"{f.name}:{node.lineno}: {node.func.id}(..., {node.args[1].value!r})")
                continue
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            # a collaborator held by this object (``self.hub._x``) is another module's even when this
            # module happens to have a private name of its own spelled the same
            held = isinstance(node.value, ast.Attribute) and isinstance(node.value.value, ast.Name)
            held = held and node.value.value.id == "self"
            others = {n for g, names in own.items() if g != f for n in names}
            if node.attr in everyone and (node.attr not in own[f] or (held and node.attr in others)):
                found.append(f"{f.name}:{node.lineno}: .{node.attr}")
    return found


def test_no_module_uses_another_modules_private_names():
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 150
    found = foreign_private_uses(files)
    assert not found, "private names of another module used:\n" + "\n".join(found)


def test_the_check_can_fail(tmp_path):
    (tmp_path / "owner.py").write_text("class Hub:\n    def _write(self):\n        pass\n")
    (tmp_path / "user.py").write_text("def go(hub):\n    hub._write()\n")
    (tmp_path / "fine.py").write_text("class Own:\n    def _x(self):\n        pass\n\ndef go(o):\n    o._x()\n")
    # a twin of its own does not hide a call into the collaborator's
    (tmp_path / "twin.py").write_text("class C:\n    def _write(self):\n        self.hub._write()\n")
    # nor does a string: a rename would make these silently false
    (tmp_path / "spelt.py").write_text("def go(store):\n    return hasattr(store, '_write')\n")
    files = sorted(tmp_path.glob("*.py"))
    assert foreign_private_uses(files) == [
        "spelt.py:2: hasattr(..., '_write')",
        "twin.py:3: ._write",
        "user.py:2: ._write",
    ]


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__])
