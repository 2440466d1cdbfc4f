"""The engine's imports: no cycles between its modules, nothing outside the standard library.

Every module of `domino/` is parsed (not imported) and every import statement in it
counts, wherever it stands: at module level, inside a function, or under
`if TYPE_CHECKING:`. A lazy or type-only import that closes a cycle is a cycle all the
same: it only moves the failure from import time to the first call, or hides it from
the type checker's readers.

An edge goes from a module to the module it names: `from domino.ai import heuristic`
names `domino.ai.heuristic` (a submodule), `from domino.ai import Decision` names the
package `domino.ai`. The parent packages Python runs first (`domino` before
`domino.tiles`) are not edges: every module would then depend on `domino/__init__.py`,
which gathers the public names of all of them.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "domino"
PACKAGE = "domino"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def imported(name: str, tree: ast.Module) -> Iterator[tuple[str, int]]:
    """Each module `name`'s source imports (its absolute dotted name), with the line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                # Relative: `.` is this module's package (the package itself for __init__).
                base = name.split(".")
                if not is_package(name):
                    base.pop()
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                yield (submodule if submodule in MODULES else source), node.lineno


def parsed(name: str) -> ast.Module:
    return ast.parse(MODULES[name].read_text(encoding="utf-8"), filename=str(MODULES[name]))


def import_graph() -> dict[str, set[str]]:
    """Module -> the domino modules it imports (itself excluded only if it never does)."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name in MODULES:
        for target, _ in imported(name, parsed(name)):
            if target == PACKAGE or target.startswith(PACKAGE + "."):
                assert target in MODULES, f"{name} imports {target}, which is not a module"
                graph[name].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of `graph` as a path that ends where it starts, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done (no cycle through it)
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                cycle = visit(target)
                if cycle is not None:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle is not None:
                return cycle
    return None


def test_every_module_is_seen() -> None:
    assert {"domino", "domino.rules", "domino.variants", "domino.ai", "domino.ai.search"} <= set(
        MODULES
    )


def test_the_imports_between_domino_modules_have_no_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or ())


def test_domino_imports_only_the_standard_library_and_itself() -> None:
    foreign = sorted(
        f"{MODULES[name].relative_to(ROOT.parent)}:{line} imports {target}"
        for name in MODULES
        for target, line in imported(name, parsed(name))
        if target.split(".")[0] not in sys.stdlib_module_names and target.split(".")[0] != PACKAGE
    )
    assert foreign == []


def test_no_module_is_imported_by_a_name_computed_at_run_time() -> None:
    """`importlib.import_module` or `__import__` would hide an edge from the graph above."""
    hidden = sorted(
        f"{MODULES[name].relative_to(ROOT.parent)}:{node.lineno}"
        for name in MODULES
        for node in ast.walk(parsed(name))
        if (isinstance(node, ast.Attribute) and node.attr == "import_module")
        or (isinstance(node, ast.Name) and node.id in ("__import__", "import_module"))
    )
    assert hidden == []


@pytest.mark.parametrize(
    ("graph", "cycle"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
        ({"a": {"a"}}, ["a", "a"]),
        ({"a": {"b", "c"}, "b": {"c"}, "c": {"b"}}, ["b", "c", "b"]),
    ],
)
def test_find_cycle_finds_one_and_names_it(
    graph: dict[str, set[str]], cycle: list[str] | None
) -> None:
    assert find_cycle(graph) == cycle


def test_the_graph_counts_lazy_and_type_only_imports(tmp_path: Path) -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from domino.variants import GameVariant\n"
        "def game():\n"
        "    from domino import variants\n"
        "    import domino.tiles\n"
    )
    found = {target for target, _ in imported("domino.rules", ast.parse(source))}
    assert found == {"typing", "domino.variants", "domino.tiles"}
