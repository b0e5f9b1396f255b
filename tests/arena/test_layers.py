"""arena/ is four layers: a module imports only its own layer, the layers above it, and arena.errors."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ARENA = Path(__file__).resolve().parents[2] / "arena"
LAYERS = ("engine", "ratings", "tournaments", "play")
"""From the bottom up: a layer may import the ones before it in this tuple, never one after."""


def _arena_imports(path: Path) -> list[str]:
    """The arena.* modules that one source file imports."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "arena":
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names if alias.name.split(".")[0] == "arena")
    return found


@pytest.mark.parametrize("layer", LAYERS)
def test_a_layer_imports_no_layer_above_it(layer: str) -> None:
    allowed = set(LAYERS[: LAYERS.index(layer) + 1])
    wrong = [
        f"{path.relative_to(ARENA)} imports {module}"
        for path in sorted((ARENA / layer).glob("*.py"))
        for module in _arena_imports(path)
        if module.split(".")[1:2] and module.split(".")[1] in LAYERS and module.split(".")[1] not in allowed
    ]
    assert wrong == []


def test_every_arena_module_lives_in_a_layer() -> None:
    top_level = sorted(p.stem for p in ARENA.glob("*.py"))
    assert top_level == ["__init__", "__main__", "cli", "errors"]


def test_arena_imports_without_django_or_docker() -> None:
    code = (
        "import sys, importlib, pkgutil, arena\n"
        "for m in pkgutil.walk_packages(arena.__path__, 'arena.'):\n"
        "    m.name.endswith('__main__') or importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('django', 'docker', 'celery'))\n"
        "print(bad)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ARENA.parent
    )
    assert out.stdout.strip() == "[]"
