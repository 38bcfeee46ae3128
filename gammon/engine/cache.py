"""The engine's one cache guard: Numba's on-disk cache, kept honest across files.

Numba caches a compiled function beside its own source file and recompiles
it when that file changes, but not when a function it calls from another
file changes: a cached kernel that inlines ``movegen.generate`` would keep
the old rules after an upgrade. Such kernels (and the kernels that call
them) are marked with :func:`cross_file`, and :func:`refresh`, called by
every Python entry point of such a kernel before its first use, drops their
cache when any of the sources in :data:`SOURCES` differs from the ones they
were compiled against. After the first call in a process it costs a
comparison.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

#: The package's files (relative to ``gammon/``) that define Numba functions other files call into.
SOURCES = (
    "outcomes.py",
    "engine/analysis.py",
    "engine/borrowed.py",
    "engine/encoding.py",
    "engine/movegen.py",
    "engine/network.py",
    "engine/search.py",
    "engine/terms.py",
    "bearoff/kernels.py",
)

_kernels: list = []
_checked: set[int] = set()


def cross_file(dispatcher):
    """Mark a cached Numba function that calls into another file's Numba functions."""
    _kernels.append(dispatcher)
    return dispatcher


def sources_digest() -> bytes:
    """SHA-256 over :data:`SOURCES`, as installed."""
    root = Path(__file__).parents[1]
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update((root / name).read_bytes())
    return digest.digest()


def stamp_path(kernel) -> Path:
    """The file recording which sources ``kernel``'s cache was compiled against."""
    source = Path(kernel.py_func.__code__.co_filename)
    return source.parent / "__pycache__" / f"{source.stem}.{kernel.py_func.__name__}.deps"


def refresh() -> None:
    """Drop the cache of every marked kernel compiled against other sources than the installed ones."""
    if len(_checked) == len(_kernels):
        return
    digest = sources_digest()
    for kernel in _kernels:
        if id(kernel) in _checked:
            continue
        _checked.add(id(kernel))
        own = Path(kernel.py_func.__code__.co_filename).read_bytes()
        key = hashlib.sha256(digest + own).hexdigest()
        stamp = stamp_path(kernel)
        try:
            if stamp.is_file() and stamp.read_text() == key:
                continue
            cache = getattr(kernel, "_cache", None)
            if cache is not None and hasattr(cache, "flush"):
                cache.flush()
            stamp.parent.mkdir(exist_ok=True)
            stamp.write_text(key)
        except OSError:  # a read-only install: nothing cached to go stale
            pass
