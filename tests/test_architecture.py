"""The house by concern (docs/architecture.md), read from the imports themselves: no arrow runs
back up, no circle closes, no private name crosses from one module to another, and no production
module imports a benchmark. A new upward import fails here, naming the file and the line."""
from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Lower first. A module may import its own folder and anything below it, never above. Folders on
# one rung do not import each other (scanning never needs the game log, nor the readers scanning).
LAYERS = [
    ["card_tags"],                                           # card catalogs and tag payloads
    ["companion.rules"],                                     # the referees: pure, no I/O
    ["companion.gamelog", "companion.scan", "companion.rfid"],  # the log; the camera; the readers
    ["companion.pi"],                                        # the Pi: health checks, systemd, mDNS
    ["companion.web"],                                       # the dashboard
    ["companion.hub"],                                       # many tables (serves with the web server)
    ["companion.service"],                                   # one table's running service
    ["companion.wiring"],                                    # hardware into the service
    ["companion.demo"],                                      # simulated players at the virtual table
    ["companion.commands"],                                  # the service's own commands
    ["companion.cli"],                                       # the entry point
    ["companion.__main__"],                                  # `python -m companion`
    ["companion.bench"],                                     # benchmarks and fuzzers: nothing imports them
]


@dataclass(frozen=True)
class Import:
    source: str        # the importing module
    target: str        # the imported module
    names: tuple[str, ...]
    where: str         # file:line


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def production_modules() -> dict[str, Path]:
    files = [*ROOT.glob("companion/**/*.py"), *ROOT.glob("card_tags/**/*.py")]
    return {module_name(p): p for p in files}


def statements(tree: ast.AST) -> Iterator[ast.AST]:
    """Every statement of a module, however deeply nested (in functions, classes, branches, handlers):
    an import is a statement, so the expressions, most of a module's nodes, need no visit (ast.walk
    visiting them too was a third of this module's time)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(child for child in ast.iter_child_nodes(node)
                    if isinstance(child, ast.stmt | ast.excepthandler | ast.match_case))


def imports_of(name: str, path: Path, known: set[str]) -> list[Import]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    relative = path.relative_to(ROOT)
    for node in statements(ast.parse(path.read_text(), str(path))):  # lazy imports in functions too
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        where = f"{relative}:{node.lineno}"
        if isinstance(node, ast.Import):
            found += [Import(name, a.name, (), where) for a in node.names if a.name in known]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join([*base, node.module] if node.module else base)
            names = tuple(a.name for a in node.names)
            submodules = [f"{target}.{n}" for n in names if f"{target}.{n}" in known]
            if target in known and len(submodules) < len(names):
                found.append(Import(name, target, names, where))
            found += [Import(name, m, (), where) for m in submodules]
    return [i for i in found if i.target != i.source and i.target != "companion"]


@cache
def all_imports() -> tuple[Import, ...]:
    """Every import in the production code, read once per test process (the tests only read it)."""
    modules = production_modules()
    known = set(modules)
    return tuple(i for name, path in modules.items() for i in imports_of(name, path, known))


def folder(module: str) -> tuple[int, str]:
    """The rung of a module and the folder it belongs to."""
    for rung, folders in enumerate(LAYERS):
        for f in folders:
            if module == f or module.startswith(f + "."):
                return rung, f
    raise AssertionError(f"{module} is in no folder of LAYERS: add it where it belongs")


def game_package(module: str) -> str | None:
    parts = module.split(".")
    return ".".join(parts[:3]) if parts[:2] == ["companion", "rules"] and len(parts) >= 3 else None


def test_no_import_runs_back_up_or_across_a_rung():
    wrong = []
    for i in all_imports():
        (rung, here), (target_rung, there) = folder(i.source), folder(i.target)
        if target_rung > rung or (target_rung == rung and here != there):
            wrong.append(f"{i.where}: {i.source} ({here}) imports {i.target} ({there})")
    assert wrong == []


def test_no_production_module_imports_a_benchmark():
    wrong = [f"{i.where}: {i.source} imports {i.target}" for i in all_imports()
             if i.target.startswith("companion.bench") and not i.source.startswith("companion.bench")]
    assert wrong == []


def test_no_private_name_crosses_a_module_boundary():
    # Within one game's package, its modules are one referee and may share helpers.
    wrong = [f"{i.where}: {i.source} takes {n} from {i.target}" for i in all_imports() for n in i.names
             if n.startswith("_") and not n.startswith("__")
             and not (game_package(i.source) and game_package(i.source) == game_package(i.target))]
    assert wrong == []


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_circles_are_found():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_circle_of_imports_anywhere_not_even_inside_one_games_package():
    # Issue 31: no import cycle in any game (lazy and type-checking imports counted).
    edges: dict[str, set[str]] = {}
    for i in all_imports():
        edges.setdefault(i.source, set()).add(i.target)
    assert circles(edges) == []


def test_every_folder_says_why_it_exists():
    for init in [*ROOT.glob("companion/*/__init__.py"), ROOT / "card_tags" / "__init__.py"]:
        doc = ast.get_docstring(ast.parse(init.read_text()))
        assert doc, f"{init.relative_to(ROOT)} has no docstring saying what the folder is for"
