"""gammon.engine.cache: cached Numba kernels that call into other files are recompiled when those files change."""

from __future__ import annotations

import importlib
import inspect
import types
from pathlib import Path

from numba.core.registry import CPUDispatcher

from gammon.engine import cache

KERNEL_MODULES = (
    "gammon.outcomes",
    "gammon.engine.analysis",
    "gammon.engine.encoding",
    "gammon.engine.movegen",
    "gammon.engine.network",
    "gammon.engine.search",
    "gammon.engine.terms",
    "gammon.train.selfplay",
    "gammon.train.sparse",
    "gammon.train.td",
    "gammon.bearoff.kernels",
)


def _kernels(module):
    return [(name, obj) for name, obj in vars(module).items()
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == module.__name__]


def _callees(kernel):
    """The Numba functions ``kernel`` names, directly or as ``module.attribute``."""
    found = []
    names = kernel.py_func.__code__.co_names
    for name in names:
        value = kernel.py_func.__globals__.get(name)
        if isinstance(value, CPUDispatcher):
            found.append(value)
        elif isinstance(value, types.ModuleType):
            found += [getattr(value, a) for a in names if isinstance(getattr(value, a, None), CPUDispatcher)]
    return found


def test_every_kernel_that_depends_on_another_file_is_marked_cross_file():
    # Given every compiled function of the package's kernel modules
    root = Path(cache.__file__).parents[1]
    kernels = {id(k): (m, n, k) for m in KERNEL_MODULES for n, k in _kernels(importlib.import_module(m))}
    # Then a kernel that calls another file's Numba function, or a marked kernel
    # of its own file, is marked itself (its cached code embeds theirs)
    changed = True
    while changed:
        changed = False
        for module_name, name, kernel in kernels.values():
            for callee in _callees(kernel):
                foreign = inspect.getfile(callee.py_func) != inspect.getfile(kernel.py_func)
                if (foreign or callee in cache._kernels) and kernel not in cache._kernels:
                    raise AssertionError(f"{module_name}.{name} calls {callee.py_func.__name__} but is not marked cross_file")
                if foreign:
                    source = Path(inspect.getfile(callee.py_func)).resolve().relative_to(root.resolve())
                    assert source.as_posix() in cache.SOURCES, f"{source} is not in the cache guard's SOURCES"


class _FakeCache:
    def __init__(self):
        self.flushed = 0

    def flush(self):
        self.flushed += 1


def _fake_kernel(tmp_path: Path):
    source = tmp_path / "kernels.py"
    source.write_text("def kernel():\n    return 1\n")
    namespace: dict = {}
    exec(compile(source.read_text(), str(source), "exec"), namespace)
    return types.SimpleNamespace(py_func=namespace["kernel"], _cache=_FakeCache())


def test_refresh_drops_a_cache_compiled_against_other_sources(tmp_path, monkeypatch):
    kernel = _fake_kernel(tmp_path)
    monkeypatch.setattr(cache, "_kernels", [kernel])
    monkeypatch.setattr(cache, "_checked", set())
    stamp = cache.stamp_path(kernel)
    stamp.parent.mkdir()
    stamp.write_text("compiled against an older movegen")

    cache.refresh()
    assert kernel._cache.flushed == 1
    current = stamp.read_text()
    assert current != "compiled against an older movegen"

    # A new process with the same sources keeps the cache.
    monkeypatch.setattr(cache, "_checked", set())
    cache.refresh()
    assert kernel._cache.flushed == 1 and stamp.read_text() == current


def test_refresh_drops_the_cache_when_a_dependency_changes(tmp_path, monkeypatch):
    kernel = _fake_kernel(tmp_path)
    monkeypatch.setattr(cache, "_kernels", [kernel])
    monkeypatch.setattr(cache, "_checked", set())
    cache.refresh()
    flushed = kernel._cache.flushed

    monkeypatch.setattr(cache, "sources_digest", lambda: b"a changed movegen.py")
    monkeypatch.setattr(cache, "_checked", set())
    cache.refresh()
    assert kernel._cache.flushed == flushed + 1
