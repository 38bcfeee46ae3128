"""The arena on Ray: duplicate pairs spread over actors, the same records as the local backend.

The work units are the chunks of pairs that local worker processes get
(:func:`gammon.arena._chunks`). Every game is reseeded from the run seed,
the pair and the seat, so a unit's records do not depend on which actor
plays it, nor on how many there are: the results equal the local
backend's for the same seed. Each actor holds at most two units; when one
dies its units are submitted again to its replacement, and records are
taken once per unit, by its number.

A bot given as a model file is sent with the job (the file's bytes), so the
cluster's nodes need gammon installed but not the file; external peers
(``pubeval``, ``gnubg``) must be installed on every node.
"""

from __future__ import annotations

import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gammon import arena
from gammon.backend import ActorPool, Backend, check_actor_count, cluster_cpus, lost_actor_errors, ray_session

#: Units an actor holds at once: one playing, one waiting, so it never idles on the driver.
PER_ACTOR = 2


def _pack(spec: Any) -> Any:
    """A spec that names a model file travels as ``("file", name, bytes)``."""
    if isinstance(spec, str) and Path(spec).is_file():
        return ("file", Path(spec).name, Path(spec).read_bytes())
    return spec


def _unpack(spec: Any, folder: Path) -> Any:
    if isinstance(spec, tuple) and len(spec) == 3 and spec[0] == "file":
        path = folder / spec[1]
        path.write_bytes(spec[2])
        return str(path)
    return spec


class ArenaActor:
    """A Ray actor (one CPU) that plays chunks of pairs of the job it was last handed."""

    def __init__(self) -> None:
        self.job = None
        self.folder = Path(tempfile.mkdtemp(prefix="gammon-arena-"))

    def run(self, key: str, job: list, pairs: range) -> list[arena.GameRecord]:
        """Both games of each pair in ``pairs``; ``job`` is ``[ObjectRef]`` of (a, b, options, seed, format)."""
        if key != self.job:
            import ray

            spec_a, spec_b, options, seed, fmt = ray.get(job[0])
            arena._init_worker(_unpack(spec_a, self.folder), _unpack(spec_b, self.folder), options, seed, fmt)
            self.job = key
        return arena._run_pairs(pairs)


def play_pairs(
    backend: Backend,
    spec_a: arena.BotSpec,
    spec_b: arena.BotSpec,
    pairs: int,
    seed: int,
    actors: int | None,
    fmt: arena.Format,
    options: dict[str, Any],
    progress: Callable[[int], None],
) -> tuple[list[arena.GameRecord], int]:
    """Every pair of a run on Ray actors; returns the records and the number of actors used.

    ``actors`` None: one per CPU of the cluster (at most one per chunk).
    """
    with ray_session(backend) as ray:
        if actors is None:
            actors = max(1, cluster_cpus(ray))
        chunks = arena._chunks(pairs, actors)
        actors = check_actor_count(ray, min(actors, len(chunks)))
        lost = lost_actor_errors(ray)
        job = [ray.put((_pack(spec_a), _pack(spec_b), options, seed, fmt))]
        key = uuid.uuid4().hex
        pool = ActorPool(ray, ArenaActor, actors)
        todo = list(range(len(chunks)))[::-1]  # a stack: the next unit is at the end
        running: dict[Any, tuple[int, int, int]] = {}  # ref -> (unit, slot, generation)
        held = [0] * actors
        done: dict[int, list[arena.GameRecord]] = {}
        try:
            while len(done) < len(chunks):
                for slot in range(actors):
                    while todo and held[slot] < PER_ACTOR:
                        unit = todo.pop()
                        ref = pool.handles[slot].run.remote(key, job, chunks[unit])
                        running[ref] = (unit, slot, pool.generation[slot])
                        held[slot] += 1
                ready, _ = ray.wait(list(running), num_returns=1)
                for ref in ready:
                    unit, slot, generation = running.pop(ref)
                    if generation == pool.generation[slot]:
                        held[slot] -= 1
                    try:
                        records = ray.get(ref)
                    except lost as exc:
                        if generation == pool.generation[slot]:
                            pool.replace(slot, generation, exc)
                            held[slot] = 0
                        todo.append(unit)
                        continue
                    if unit not in done:
                        done[unit] = records
                        progress(len(records))
        finally:
            pool.close()
    return [r for unit in sorted(done) for r in done[unit]], actors
