"""The shape of the code: layers, no import circle, no private name used across modules.

The layer contract itself is import-linter's (pyproject.toml, [tool.importlinter]);
these tests run it, and check what it does not: that no module imports in a
circle (imports inside functions and under TYPE_CHECKING count) and that no
module uses another module's private name.  Each checker is also shown to
catch a deliberate violation, so a green run means something.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("gm", "games")
# Private-looking names that are public API of the standard library.
ALLOWED_PRIVATE = {"_exit", "_replace", "_asdict", "_fields", "_make", "_field_defaults"}


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name -> file, for every module of gm and games under ``root``."""
    found = {}
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The gm/games modules ``name`` imports, wherever in the file the import is."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each a circle of imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def graph_of(root: Path = ROOT) -> dict[str, set[str]]:
    found = modules(root)
    known = set(found)
    return {name: imported(name, path, known) for name, path in found.items()}


def private_uses(source: str, filename: str = "<source>") -> list[str]:
    """Uses of another module's or object's private name in ``source``.

    ``from x import _y``; ``x._y`` where x is not self or cls (a module, another
    object, a class from elsewhere).  Dunder names and a few standard-library
    names (os._exit, namedtuple's _replace...) are not private.
    """
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{filename}:{node.lineno}: from {node.module} import {alias.name}")
        elif isinstance(node, ast.Attribute):
            name = node.attr
            if not name.startswith("_") or name.startswith("__") or name in ALLOWED_PRIVATE:
                continue
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in {"self", "cls"}:
                continue
            if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
                continue
            found.append(f"{filename}:{node.lineno}: {ast.unparse(node)}")
    return found


# --- the checks on the code ----------------------------------------------------------
def test_no_import_circle_anywhere():
    assert import_cycles(graph_of()) == []


def test_no_private_name_used_across_modules():
    problems = []
    for path in modules().values():
        problems += private_uses(path.read_text(), str(path.relative_to(ROOT)))
    assert problems == []


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    lint = Path(sys.executable).with_name("lint-imports")
    env = dict(os.environ, PYTHONPATH=str(root))
    return subprocess.run([str(lint), "--config", str(root / "pyproject.toml")], cwd=str(root),
                          env=env, capture_output=True, text=True, timeout=120)


def test_the_layer_contract_holds():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


# --- each checker catches a deliberate violation --------------------------------------
@pytest.fixture
def tree_copy(tmp_path):
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_an_upward_import_breaks_the_contract(tree_copy):
    model = tree_copy / "gm" / "core" / "model.py"
    model.write_text(model.read_text() + "\nfrom gm.service import engine  # upward\n")
    result = lint_imports(tree_copy)
    assert result.returncode != 0
    assert "BROKEN" in result.stdout and "gm.core.model -> gm.service.engine" in result.stdout


def test_a_rule_module_importing_gm_breaks_the_contract(tree_copy):
    base = tree_copy / "games" / "base.py"
    base.write_text(base.read_text() + "\nimport gm.core.times  # games must not know gm\n")
    result = lint_imports(tree_copy)
    assert result.returncode != 0 and "BROKEN" in result.stdout


def test_a_circle_is_found(tree_copy):
    times = tree_copy / "gm" / "core" / "times.py"
    times.write_text(times.read_text() + "\n\ndef late():\n    from gm.core import options  # hidden in a function\n")
    assert ["gm.core.options", "gm.core.times"] in import_cycles(graph_of(tree_copy))


def test_private_names_across_modules_are_found():
    source = ("from gm.service.intake.ingest import _record\n"
              "import gm.service.outgoing.outbox as outbox\n"
              "def f(engine, other):\n"
              "    engine._archive(1)\n"
              "    return outbox._helper, other._cache\n"
              "class A:\n"
              "    def g(self):\n"
              "        return self._mine, super()._theirs, self.__class__, os._exit\n")
    found = private_uses(source)
    assert len(found) == 4
    assert any("_record" in f for f in found) and any("engine._archive" in f for f in found)
    assert any("outbox._helper" in f for f in found) and any("other._cache" in f for f in found)
