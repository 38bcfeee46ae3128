"""The database file: where it lives, its format, a checked load, an atomic save.

The file is a ``.npz`` (numpy's zip of arrays, written compressed, read
with ``allow_pickle=False``) holding:

* ``header``: a JSON string, ``{"format": "gammon-bearoff-one-sided",
  "version": 1, "checkers": 15, "points": 6, "rolls": 32, "scale": 65535,
  "positions": 54264, "sha256": ...}``;
* ``off`` and ``first``: ``uint16 (positions, 32)``, the chance of needing
  exactly t rolls (t = 0 .. 31) to bear off all checkers / a first checker,
  as fixed point ``round(p * 65535)`` (GNU Backgammon's precision);
* ``mean_off`` and ``mean_first``: ``float32 (positions,)``, the exact
  means, computed before rounding.

``sha256`` is the digest of the four arrays' bytes in that order. A file
that cannot be read, is truncated, fails its checksum or is of another
format or version is rebuilt with a one-line note on stderr.

>>> cache_dir({"GAMMON_CACHE_DIR": "/tmp/g"}).as_posix(), cache_dir({"XDG_CACHE_HOME": "/x"}).as_posix()
('/tmp/g', '/x/gammon')
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gammon.bearoff.kernels import CHECKERS, POINTS, ROLLS, build_tables, positions
from gammon.engine.cache import refresh

FORMAT = "gammon-bearoff-one-sided"
VERSION = 1
#: Fixed point of the stored probabilities: ``p * SCALE`` rounded to uint16.
SCALE = 65535
FILE_NAME = "bearoff-one-sided.npz"
_ARRAYS = ("off", "first", "mean_off", "mean_first")


class CorruptDatabaseError(Exception):
    """A database file that cannot be used as it is (the message says why)."""


@dataclass(frozen=True, eq=False)
class Tables:
    """The one-sided tables of every position of up to ``checkers`` checkers (see the module docstring)."""

    off: np.ndarray
    first: np.ndarray
    mean_off: np.ndarray
    mean_first: np.ndarray
    checkers: int = CHECKERS

    def digest(self) -> str:
        """SHA-256 (hex) of the four arrays' bytes, in file order."""
        h = hashlib.sha256()
        for name in _ARRAYS:
            h.update(np.ascontiguousarray(getattr(self, name)).tobytes())
        return h.hexdigest()

    def header(self) -> dict:
        """The header this file format writes for these tables."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "checkers": self.checkers,
            "points": POINTS,
            "rolls": ROLLS,
            "scale": SCALE,
            "positions": int(self.off.shape[0]),
            "sha256": self.digest(),
        }


def cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The user cache folder: ``$GAMMON_CACHE_DIR``, else ``$XDG_CACHE_HOME/gammon``, else ``~/.cache/gammon``."""
    env = os.environ if environ is None else environ
    if env.get("GAMMON_CACHE_DIR"):
        return Path(env["GAMMON_CACHE_DIR"])
    if env.get("XDG_CACHE_HOME"):
        return Path(env["XDG_CACHE_HOME"]) / "gammon"
    return Path.home() / ".cache" / "gammon"


def default_path() -> Path:
    """Where the database is cached: :func:`cache_dir` / ``bearoff-one-sided.npz``."""
    return cache_dir() / FILE_NAME


def build(checkers: int = CHECKERS) -> Tables:
    """Compute the tables of every position of up to ``checkers`` checkers (about 7 s for 15 on one core, plus compiling)."""
    if not 0 <= checkers <= CHECKERS:
        raise ValueError(f"invalid checker count {checkers!r}: expected 0 to {CHECKERS}")
    refresh()
    off, first, mean_off, mean_first = build_tables(positions(checkers))
    return Tables(_fixed(off), _fixed(first), mean_off.astype(np.float32), mean_first.astype(np.float32), checkers)


def _fixed(p: np.ndarray) -> np.ndarray:
    return np.rint(p * SCALE).astype(np.uint16)


def save(tables: Tables, path: Path) -> None:
    """Write ``tables`` to ``path`` atomically (a temporary file in the same folder, then a rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            arrays = {name: getattr(tables, name) for name in _ARRAYS}
            np.savez_compressed(f, header=np.array(json.dumps(tables.header(), sort_keys=True)), **arrays)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes it private; the cache is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(path: Path, checkers: int = CHECKERS) -> Tables:
    """Read and check the tables at ``path``; :class:`CorruptDatabaseError` says what is wrong with them."""
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(str(data["header"]))
            arrays = {name: data[name] for name in _ARRAYS}
    except FileNotFoundError:
        raise
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
        raise CorruptDatabaseError(f"unreadable ({type(exc).__name__})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise CorruptDatabaseError("not a gammon bear-off database")
    if header.get("version") != VERSION:
        raise CorruptDatabaseError(f"version {header.get('version')!r}, not {VERSION}")
    tables = Tables(**arrays, checkers=header.get("checkers", -1))
    n = positions(checkers)
    expected = {"checkers": checkers, "points": POINTS, "rolls": ROLLS, "scale": SCALE, "positions": n}
    if any(header.get(k) != v for k, v in expected.items()):
        raise CorruptDatabaseError(f"made for another layout ({ {k: header.get(k) for k in expected} })")
    shapes = {"off": (n, ROLLS), "first": (n, ROLLS), "mean_off": (n,), "mean_first": (n,)}
    dtypes = {"off": np.uint16, "first": np.uint16, "mean_off": np.float32, "mean_first": np.float32}
    for name, shape in shapes.items():
        a = arrays[name]
        if a.shape != shape or a.dtype != dtypes[name]:
            raise CorruptDatabaseError(f"array {name} is {a.dtype}{a.shape}, not {np.dtype(dtypes[name])}{shape}")
    if tables.digest() != header.get("sha256"):
        raise CorruptDatabaseError("checksum mismatch")
    return tables


def load_or_build(path: Path | None = None, checkers: int = CHECKERS, force: bool = False) -> Tables:
    """The tables at ``path`` (default :func:`default_path`), built and saved there first if missing, corrupt or ``force``."""
    path = default_path() if path is None else Path(path)
    if not force:
        try:
            return load(path, checkers)
        except FileNotFoundError:
            print(f"gammon: building the bear-off database {path} (once, about half a minute)", file=sys.stderr)
        except CorruptDatabaseError as exc:
            print(f"gammon: bear-off database {path} is {exc}; rebuilding it", file=sys.stderr)
    tables = build(checkers)
    save(tables, path)
    return tables
