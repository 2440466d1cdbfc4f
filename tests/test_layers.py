"""The layers hold: every module's imports are read from its source, and an edge the
layout forbids fails with the module, the line and the name it imports.

- `bot/app` (the core) imports no aiogram, no aiohttp and nothing of `bot/telegram` or
  `bot/server`: a second front end plugs in beside Telegram, not through it.
- `handlers/` (Telegram's input side) imports no `storage` and no `domino`: it asks the
  core and the adapter.
- `bot/webapp` (the Mini App) imports the core, the Telegram presenters' words, render,
  i18n, domino and aiohttp; never aiogram, `bot/server`, nor `storage` but the
  records the core hands it (`storage.records`): it reads and writes through the core.
  Nothing but `bot/server` imports it.
- Nothing imports `bot/server` (the composition root) but itself and `python -m bot`.
- The packages (`domino`, `storage`, `render`, `i18n`, `handlers` and bot's parts)
  import one another without a cycle.

Imports under `if TYPE_CHECKING:` count too: a type the core names is a type it knows.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("bot", "handlers", "render", "storage", "domino", "i18n")
# The packages whose graph must have no cycle: bot's parts count as packages.
PACKAGES = (
    "bot.app",
    "bot.telegram",
    "bot.server",
    "bot.infra",
    "bot.webapp",
    "handlers",
    "render",
    "storage",
    "domino",
    "i18n",
)


@dataclass(frozen=True, slots=True)
class Edge:
    module: str  # the importing module, dotted
    line: int
    target: str  # the imported module (or a name inside it), dotted

    def __str__(self) -> str:
        path = self.module.replace(".", "/")
        return f"{path}:{self.line}: imports {self.target}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> Iterator[Edge]:
    """Every module (or name from a module) the file imports, relative imports resolved."""
    module = module_name(path)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Edge(module, node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                # `from bot import server` names a module; `from x import Name` a name in x.
                yield Edge(module, node.lineno, f"{source}.{alias.name}")


def all_edges() -> list[Edge]:
    return [
        edge
        for folder in SOURCES
        for path in sorted((ROOT / folder).rglob("*.py"))
        for edge in imports_of(path)
    ]


def under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def package_of(name: str) -> str | None:
    return next((package for package in PACKAGES if under(name, package)), None)


EDGES = all_edges()


def test_the_scan_sees_the_code() -> None:
    modules = {edge.module for edge in EDGES}
    assert {"bot.app.usecases.play", "handlers.buttons", "domino.match"} <= modules
    assert any(under(edge.target, "aiogram") for edge in EDGES)


@pytest.mark.parametrize(
    ("source", "forbidden"),
    [
        ("bot.app", ("aiogram", "aiohttp", "bot.telegram", "bot.server")),
        ("handlers", ("storage", "domino")),
    ],
)
def test_a_layer_imports_nothing_it_must_not(source: str, forbidden: tuple[str, ...]) -> None:
    wrong = [
        str(edge)
        for edge in EDGES
        if under(edge.module, source) and any(under(edge.target, name) for name in forbidden)
    ]
    assert wrong == []


def test_the_mini_app_goes_through_the_core() -> None:
    wrong = [
        str(edge)
        for edge in EDGES
        if under(edge.module, "bot.webapp")
        and (
            any(under(edge.target, name) for name in ("aiogram", "bot.server", "handlers"))
            or (under(edge.target, "storage") and not under(edge.target, "storage.records"))
        )
    ]
    assert wrong == []


def test_only_the_composition_root_imports_the_mini_app() -> None:
    wrong = [
        str(edge)
        for edge in EDGES
        if under(edge.target, "bot.webapp")
        and not under(edge.module, "bot.webapp")
        and not under(edge.module, "bot.server")
    ]
    assert wrong == []


def test_nothing_imports_the_composition_root() -> None:
    wrong = [
        str(edge)
        for edge in EDGES
        if under(edge.target, "bot.server")
        and not under(edge.module, "bot.server")
        and edge.module != "bot.__main__"
    ]
    assert wrong == []


def test_the_packages_import_one_another_without_a_cycle() -> None:
    graph: dict[str, set[str]] = {package: set() for package in PACKAGES}
    witness: dict[tuple[str, str], Edge] = {}
    for edge in EDGES:
        source, target = package_of(edge.module), package_of(edge.target)
        if source and target and source != target:
            graph[source].add(target)
            witness.setdefault((source, target), edge)
    cycles = []
    for start in PACKAGES:
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for following in sorted(graph[node]):
                if following == start:
                    cycles.append([*path, start])
                elif following not in path and following > start:
                    stack.append((following, [*path, following]))
    explained = [
        " → ".join(cycle)
        + " ("
        + "; ".join(str(witness[pair]) for pair in itertools.pairwise(cycle))
        + ")"
        for cycle in cycles
    ]
    assert explained == []
