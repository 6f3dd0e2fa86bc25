"""No import cycle among the modules of the ``redtable`` package.

The graph is built from the source, not by importing it: every ``.py`` file under
``redtable/`` is parsed with :mod:`ast`, and each ``import`` / ``from ... import``
statement becomes an edge from its module to the module it names (relative imports are
resolved against the importing module's package; ``from pkg import name`` points at the
submodule ``pkg.name`` when there is one, else at ``pkg`` itself).

What counts as an edge, and why:

* Imports anywhere in the module count, **including those inside functions and
  methods**. A deferred import is still a dependency: the module cannot do its work
  without the other one, and deferring the import only hides a cycle from the loader
  (``bots/base.py`` once imported the concrete bots inside ``make_bot``, and
  ``sim/parallel.py`` imported ``sim/ray_backend.py`` inside a function while
  ``ray_backend`` imported ``parallel`` at the top: both were cycles).
* Imports under ``if TYPE_CHECKING:`` do **not** count: they never run, and an
  annotation naming a type of another layer does not make one module need the other.
* A package's ``__init__`` is not an implicit dependency of its submodules (Python runs
  it first, but it is the package's public face, which may re-export from below).
* Imports of modules outside ``redtable`` are ignored, and so are modules named in
  strings and imported at run time with ``importlib`` (``core/registry.py``'s table of
  games, the lazy ``envs.__getattr__``): such a table is how a lower layer names a higher
  one without depending on it (core names the engines, which import core).

The graph tools are plain functions so that the tests below can run them on a synthetic
package in ``tmp_path`` and show that a cycle made on purpose is found.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "redtable"


def module_names(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file under the package ``root``."""
    out: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, at any depth, except ``if TYPE_CHECKING:`` blocks."""
    out: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def _resolve_base(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from`` statement imports from."""
    if node.level == 0:
        return node.module or ""
    package = module.split(".") if is_package else module.split(".")[:-1]
    if node.level - 1 > len(package):
        raise ValueError(f"{module}: relative import beyond the top-level package")
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


@functools.cache
def _parsed_at(path: Path, mtime_ns: int) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _parsed(path: Path) -> ast.AST:
    """A file's syntax tree, parsed once per process while the file is unchanged (the tests
    below read the whole package several times)."""
    return _parsed_at(path, path.stat().st_mtime_ns)


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (see the module docstring)."""
    modules = module_names(root)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        tree = _parsed(path)
        for node in _import_nodes(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = _resolve_base(module, is_package, node)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in modules else base)
            for target in targets:
                # "import a.b.c" when only a.b is ours (or a typo): the longest known prefix
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != module:
                    graph[module].add(target)
    return graph


def components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (each sorted, the list
    sorted): the sets of modules that import each other round a cycle (Tarjan's algorithm,
    iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One concrete cycle (``[a, b, ..., a]``) per component, sorted for stable messages."""
    return sorted(_cycle_in(graph, set(c)) for c in components(graph))


def _cycle_in(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest cycle through the component's first module (breadth-first search)."""
    start = min(component)
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for child in sorted(graph[node] & component):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return [start, *reversed(path[:-1]), start] if node != start else [start, start]
                if child not in parent:
                    parent[child] = node
                    nxt.append(child)
        frontier = nxt
    raise AssertionError(f"no cycle in component {sorted(component)}")  # pragma: no cover


def _describe(found: list[list[str]]) -> str:
    return "import cycles:\n" + "\n".join("  " + " -> ".join(c) for c in found)


# ------------------------------------------------------------------------------ tests


def test_redtable_has_no_import_cycle():
    graph = import_graph(ROOT)
    assert len(graph) > 50, "the package was not found"
    found = components(graph)
    assert not found, _describe(cycles(graph))


def test_the_cycles_of_this_work_are_gone():
    """None of the modules of the cycles broken so far is part of any cycle: bots base <->
    concrete bots, the ability families <-> abilities.py, parallel <->
    ray_backend, bonuses <-> lang/bonuses_text: none is part of any cycle."""
    graph = import_graph(ROOT)
    in_cycles = {m for c in components(graph) for m in c}
    for module in (
        "bots.base",
        "bots.registry",
        "bots.random_bot",
        "bots.heuristic",
        "bots.ismcts",
        "redrising.abilities",
        "redrising.abilities_gold",
        "redrising.abilities_highcaste",
        "redrising.abilities_lowcaste",
        "redrising.ability_table",
        "redrising.rules",
        "redrising.state",
        "redrising.flow",
        "redrising.hidden",
        "redrising.views",
        "redrising.bonuses",
        "redrising.scoring",
        "sim.parallel",
        "sim.ray_backend",
        "sim.backend",
        "sim.stats",
        "rednorth.cards",
        "rednorth.outposts",
        "rednorth.gods",
        "rednorth.effects",
        "rednorth.game",
        "redrising.effects",
        "redrising.engine",
        "redrising.lang",
        "redrising.words",
        "redrising.lang.core",
        "redrising.lang.uk",
        "redrising.lang.pl",
        "envs.openspiel.games",
        "envs.openspiel.observers",
        "server.app",
        "web.routes",
        "server.errors",
        "server.validate",
    ):
        assert "redtable." + module not in in_cycles, module


def test_the_graph_sees_the_layers_it_should():
    """Spot checks that the parser reads real edges (a graph with no edges has no cycles)."""
    graph = import_graph(ROOT)
    assert "redtable.core" in graph["redtable.bots.random_bot"]  # from ..core import
    assert "redtable.bots.base" in graph["redtable.bots.random_bot"]  # from .base import
    assert "redtable.sim.ray_backend" in graph["redtable.sim.parallel"]  # an import inside a method
    assert "redtable.sim.parallel" not in graph["redtable.sim.ray_backend"]
    assert "redtable.redrising.abilities_gold" in graph["redtable.redrising.abilities"]
    assert "redtable.redrising.scoring" in graph["redtable.redrising.engine"]  # inside a function


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_a_cycle_made_on_purpose_is_found(tmp_path):
    pkg = _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/base.py": (
                "import os\n\ndef make():\n    from .impl import Impl  # deferred: still an edge\n    return Impl()\n"
            ),
            "pkg/impl.py": "from .base import make\nfrom pkg.util import helper\n",
            "pkg/util.py": "import json\n",
            "pkg/sub/__init__.py": "from .. import util\n",
            "pkg/sub/leaf.py": "from ..sub import deep\n",
            "pkg/sub/deep.py": "from ..util import helper\n",
        },
    )
    graph = import_graph(pkg)
    assert graph["pkg.impl"] == {"pkg.base", "pkg.util"}
    assert graph["pkg.sub"] == {"pkg.util"}
    assert graph["pkg.sub.leaf"] == {"pkg.sub.deep"}
    assert graph["pkg.sub.deep"] == {"pkg.util"}
    assert cycles(graph) == [["pkg.base", "pkg.impl", "pkg.base"]]
    assert components(graph) == [["pkg.base", "pkg.impl"]]
    assert "pkg.base -> pkg.impl -> pkg.base" in _describe(cycles(graph))


def test_longer_cycles_and_several_components(tmp_path):
    pkg = _write(
        tmp_path,
        {
            "pkg/__init__.py": "from . import a\n",
            "pkg/a.py": "from . import b\n",
            "pkg/b.py": "import pkg.c\n",
            "pkg/c.py": "from .a import x\n",
            "pkg/d.py": "from pkg import e\n",
            "pkg/e.py": "def f():\n    import pkg.d\n",
        },
    )
    graph = import_graph(pkg)
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"], ["pkg.d", "pkg.e", "pkg.d"]]
    assert components(graph) == [["pkg.a", "pkg.b", "pkg.c"], ["pkg.d", "pkg.e"]]


def test_what_does_not_count(tmp_path):
    """TYPE_CHECKING imports, a package's __init__ re-exporting its submodules, imports
    of other packages: no edge, so no cycle."""
    pkg = _write(
        tmp_path,
        {
            "pkg/__init__.py": "from .a import A\nfrom .b import B\n",
            "pkg/a.py": (
                "from __future__ import annotations\nfrom typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from .b import B\nelse:\n    import json\n"
            ),
            "pkg/b.py": "from .a import A\nimport typing\n",
            "pkg/c.py": "import typing as t\nif t.TYPE_CHECKING:\n    from . import b\n",
        },
    )
    graph = import_graph(pkg)
    assert graph["pkg.a"] == set()
    assert graph["pkg.b"] == {"pkg.a"}
    assert graph["pkg.c"] == set()
    assert graph["pkg"] == {"pkg.a", "pkg.b"}
    assert cycles(graph) == []


# ------------------------------------------------------------------------------ layers

#: The rules packages: engines, their data and their words; no front end.
RULES_PACKAGES = ("redtable.redrising", "redtable.rednorth")
#: What a rules package may not import: the terminal (typer, rich) and the web server.
FRONT_END_LIBRARIES = ("typer", "rich", "fastapi", "starlette", "uvicorn")
#: Terminal commands of Red Rising that still live in its package (the ``redtable cards`` and
#: ``redtable score`` commands and the score pad's prompts); nothing else in a rules package
#: may import them (checked below), so the engine and its data never pull a front end in.
TERMINAL_MODULES = (
    "redtable.redrising.gallery_cli",
    "redtable.redrising.score_cli",
    "redtable.redrising.scorepad",
)


def _external_imports(path: Path) -> set[str]:
    """The top-level names of the modules outside ``redtable`` that a file imports (any depth,
    except ``if TYPE_CHECKING:`` blocks)."""
    out: set[str] = set()
    for node in _import_nodes(_parsed(path)):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


def _rules_modules() -> dict[str, Path]:
    return {
        name: path
        for name, path in module_names(ROOT).items()
        if name.startswith(tuple(p + "." for p in RULES_PACKAGES)) or name in RULES_PACKAGES
    }


def test_rules_packages_import_no_front_end():
    """The layers, not only the absence of cycles: no module of a rules package (other than the
    declared terminal commands) imports typer, rich or the web server, and none imports, even
    indirectly through another redtable module, a module that does."""
    modules = _rules_modules()
    assert "redtable.redrising.engine" in modules and "redtable.rednorth.game" in modules
    graph = import_graph(ROOT)
    front = {name for name, path in module_names(ROOT).items() if _external_imports(path) & set(FRONT_END_LIBRARIES)}
    bad = []
    for name, path in modules.items():
        if name in TERMINAL_MODULES:
            continue
        direct = sorted(_external_imports(path) & set(FRONT_END_LIBRARIES))
        if direct:
            bad.append(f"{name} imports {', '.join(direct)}")
        seen, stack = {name}, [name]
        while stack:
            for dep in graph.get(stack.pop(), ()):
                if dep in seen:
                    continue
                seen.add(dep)
                if dep in front:
                    bad.append(f"{name} reaches {dep}, which imports a front end")
                else:
                    stack.append(dep)
    assert not bad, "\n".join(bad)


@pytest.mark.multiprocess  # a fresh interpreter imports the rules packages
def test_the_engines_load_without_a_front_end():
    """At run time too: importing every module of the rules packages but the terminal commands
    loads none of typer, rich, fastapi."""
    import subprocess
    import sys

    names = sorted(n for n in _rules_modules() if n not in TERMINAL_MODULES)
    code = (
        "import importlib, sys\n"
        f"for n in {names!r}:\n    importlib.import_module(n)\n"
        f"print(sorted(m for m in {FRONT_END_LIBRARIES!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_the_layer_check_sees_a_front_end_import(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("import os\nfrom rich.text import Text\nif TYPE_CHECKING:\n    import typer\n", encoding="utf-8")
    assert _external_imports(path) == {"os", "rich"}
