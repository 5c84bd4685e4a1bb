"""The layers contract: the apps import in one direction only, and no modules import each other
in a circle.

From the bottom up: the engine (``scoring.engine``, no Django) <- clubs <- matches <- the club
nights (``nights``) and the ladders (the rest of ``scoring``), which know nothing of each other
<- the API and the project (``config``). A module may import from its
own layer and the layers below, never from one above, not even inside a function; a lower layer
hears of changes above it through the signals in ``clubs/signals.py`` and ``matches/signals.py``
(their receivers are connected in the upper apps' ``AppConfig.ready()``). Migrations are left
out: they import nothing of the apps' code.
"""

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = {  # a top-level package (or the engine) -> its layer, lowest first
    "scoring.engine": 0,
    "clubs": 1,
    "matches": 2,
    "nights": 3,
    "scoring": 3,
    "api": 4,
    "config": 4,
}
PACKAGES = ("clubs", "matches", "nights", "scoring", "api", "config")


def modules() -> dict[str, Path]:
    """Every module of the apps, by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """The modules of the apps that ``name`` imports anywhere in its text, with the line."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from x import y`` imports the module x.y when there is one, else x.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target, node.lineno


def layer(name: str) -> int | None:
    for prefix, rank in LAYERS.items():
        if name == prefix or name.startswith(prefix + "."):
            return rank
    return None


def graph() -> dict[str, dict[str, int]]:
    known = modules()
    return {name: dict(imports(name, path, known)) for name, path in known.items()}


def circles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_app_imports_from_a_layer_above_it() -> None:
    upward = [
        f"{name} (line {line}) -> {target}"
        for name, targets in sorted(graph().items())
        for target, line in sorted(targets.items())
        if layer(target) > layer(name)
    ]
    assert not upward, "imports from a higher layer:\n" + "\n".join(upward)


def side(name: str) -> str | None:
    """Which side of layer 3 a module is on: the club nights, or the ladders (``scoring``
    outside its engine)."""
    if layer(name) != 3:
        return None
    return name.partition(".")[0]


def test_the_club_nights_and_the_ladders_know_nothing_of_each_other() -> None:
    crossing = [
        f"{name} (line {line}) -> {target}"
        for name, targets in sorted(graph().items())
        for target, line in sorted(targets.items())
        if side(name) is not None and side(target) not in (None, side(name))
    ]
    assert not crossing, "imports between nights and the ladders:\n" + "\n".join(crossing)


def test_no_modules_import_each_other_in_a_circle() -> None:
    edges = graph()
    lines = []
    for group in circles(edges):
        lines.append("circle: " + ", ".join(group))
        lines += [
            f"  {name} (line {edges[name][target]}) -> {target}"
            for name in group
            for target in sorted(edges[name])
            if target in group
        ]
    assert not lines, "\n".join(lines)


def test_the_contract_reads_imports_inside_functions_and_relative_ones() -> None:
    edges = graph()
    assert "scoring.services" in edges["scoring.tasks"]  # ``from . import services``
    assert "api.schema" in edges["api.apps"]  # imported inside ``ready()``
    assert layer("scoring.engine.sheet") == 0 and layer("scoring.tasks") == 3
    assert side("scoring.engine.sheet") is None and side("matches.services") is None
    assert side("scoring.tasks") == "scoring" and side("nights.pad") == "nights"
