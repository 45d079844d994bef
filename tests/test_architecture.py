"""The package's shape: stages in folders, no import cycle, a cheap `import adk_memory`."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "adk_memory"
#: The modules shared by every stage; everything else lives in a stage's folder.
SHARED_MODULES = {"__init__", "model", "errors", "config", "text", "engine", "factory"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path, name: str) -> set[str]:
    """Every adk_memory module `path` imports, at module level or inside functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("adk_memory"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base.startswith("adk_memory"):
                found.add(base)
                # `from adk_memory.x import y` may name a submodule y.
                found.update(f"{base}.{a.name}" for a in node.names)
    return found


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {
        name: {m for m in _imports(path, name) if m in modules and m != name}
        for name, path in modules.items()
    }


def test_no_import_cycle_inside_the_package() -> None:
    graph = _graph()
    # A package's __init__ re-exporting its own submodules is not a cycle of behaviour.
    for name, deps in graph.items():
        graph[name] = {d for d in deps if not (name.startswith(d + ".") and d in graph)}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph[node]):
            if state.get(dep) == 1:
                cycle = [*stack[stack.index(dep) :], dep]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if dep not in state:
                visit(dep)
        stack.pop()
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)


def test_only_the_shared_modules_live_at_the_top() -> None:
    top = {p.stem for p in PACKAGE.glob("*.py")}
    assert top <= SHARED_MODULES, f"top-level modules outside a stage: {top - SHARED_MODULES}"


def test_import_adk_memory_stays_cheap() -> None:
    code = (
        "import sys, adk_memory\n"
        "heavy = ['google.adk', 'google.genai', 'fastapi', 'uvicorn', 'onnxruntime']\n"
        "print([m for m in heavy if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_lazy_public_names_resolve() -> None:
    code = (
        "import adk_memory\n"
        "missing = [n for n in adk_memory.__all__ if getattr(adk_memory, n, None) is None]\n"
        "print(missing)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_config_is_the_only_reader_of_adk_memory_variables() -> None:
    """`os.environ` / `os.getenv` / click `envvar=` with an ADK_MEMORY_* name appear nowhere
    but config.py (and agents/ reads its settings through it)."""
    readers = []
    for path in [*PACKAGE.rglob("*.py"), *(PACKAGE.parent / "agents").rglob("*.py")]:
        if path.name == "config.py" and path.parent == PACKAGE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value.startswith("ADK_MEMORY_")
                and _in_env_read(tree, node)
            ):
                readers.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert readers == []


def _in_env_read(tree: ast.AST, constant: ast.Constant) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = ast.unparse(node.func)
            env_call = func.endswith(("environ.get", "getenv", "environ.__getitem__"))
            if env_call and constant in node.args:
                return True
            if any(k.arg == "envvar" and k.value is constant for k in node.keywords):
                return True
        if (
            isinstance(node, ast.Subscript)
            and ast.unparse(node.value).endswith("environ")
            and node.slice is constant
        ):
            return True
    return False
