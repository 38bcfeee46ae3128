"""The TD-Gammon networks: their architecture, their weights, the evaluator they make up, and model files.

One hidden layer, five sigmoid outputs, all for the player on roll: the
outcome probabilities of :data:`gammon.outcomes.OUTPUTS`. An
:class:`Evaluator` is what plays: a contact net, optionally a race net for
positions without contact, and optionally the exact one-sided bear-off
database of :mod:`gammon.bearoff` for pure bear-offs (the class of a
position picks which: :func:`gammon.engine.network.position_class`).

* Training uses a PyTorch module (:func:`build_module`) that returns the five
  logits.
* Play uses :class:`Weights`, plain float32 arrays, which the compiled
  forward pass of :mod:`gammon.engine.network` scores candidate plays with.
* Model files (``.pt``) are a dict of plain values and tensors written with
  :func:`save_model` and read with ``torch.load(weights_only=True)`` in
  :func:`load_model`; a wrong or corrupt file raises :class:`ModelFileError`.
  Format version 2 carries every net of the evaluator (the contact net under
  ``architecture``/``state_dict`` as in version 1, the race net under
  ``race_architecture``/``race_state_dict``) and a ``bearoff`` flag;
  version 1 files (one net for every position) still load.

Torch is imported only by the functions that need it, so self-play workers
and evaluation never load it.

>>> w = Weights.zeros(Architecture(hidden=8))
>>> w.w1.shape, Weights.flat_size(w.arch) == w.flat().size
((211, 8), True)
"""

from __future__ import annotations

import datetime as _dt
import math
import os
import pickle
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from gammon.engine.encoding import ENCODINGS, N_INPUTS, N_RACE_INPUTS
from gammon.errors import GammonError

#: Activation codes of the Numba kernels.
ACTIVATIONS = {"relu": 0, "sigmoid": 1}
#: ``format`` field of model files.
MODEL_FORMAT = "gammon-td-model"
MODEL_FORMAT_VERSION = 2
#: Format versions this gammon reads.
READABLE_VERSIONS = (1, 2)
#: The encodings a race net may read, by width: the contact net's first one, or the race encoding.
RACE_NET_INPUTS = (N_INPUTS, N_RACE_INPUTS)


class ModelFileError(GammonError):
    """A model file that is missing, corrupt, or made for another encoding or architecture."""


@dataclass(frozen=True)
class Architecture:
    """Shape of the network; stored in every model file and checkpoint."""

    inputs: int = N_INPUTS
    hidden: int = 128
    activation: str = "relu"
    outputs: int = 5
    encoding: str = ""
    encoding_version: int = 0

    def __post_init__(self) -> None:
        if self.inputs not in ENCODINGS:
            raise ValueError(f"no encoding has {self.inputs} inputs: expected one of {sorted(ENCODINGS)}")
        if not self.encoding:  # named by its width
            name, version = ENCODINGS[self.inputs]
            object.__setattr__(self, "encoding", name)
            object.__setattr__(self, "encoding_version", version)
        if ENCODINGS[self.inputs] != (self.encoding, self.encoding_version):
            name, version = ENCODINGS[self.inputs]
            raise ValueError(f"encoding {self.encoding} v{self.encoding_version} with {self.inputs} inputs: "
                             f"this gammon's {self.inputs}-input encoding is {name} v{version}")
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {self.activation!r}: expected one of {', '.join(ACTIVATIONS)}")
        if self.hidden < 1 or self.outputs != 5:
            raise ValueError(f"invalid architecture: hidden={self.hidden}, outputs={self.outputs}")

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Weights:
    """The network as contiguous float32 arrays for the Numba kernels.

    ``w1`` is (inputs, hidden) so that one input's weights are contiguous;
    ``w2`` is (5, hidden).
    """

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    act: int = 0
    arch: Architecture = field(default_factory=Architecture)

    @classmethod
    def zeros(cls, arch: Architecture) -> Weights:
        return cls(
            np.zeros((arch.inputs, arch.hidden), np.float32),
            np.zeros(arch.hidden, np.float32),
            np.zeros((5, arch.hidden), np.float32),
            np.zeros(5, np.float32),
            ACTIVATIONS[arch.activation],
            arch,
        )

    @classmethod
    def from_flat(cls, flat: np.ndarray, arch: Architecture) -> Weights:
        """Rebuild from :meth:`flat` (how weights travel to self-play workers)."""
        f, h = arch.inputs, arch.hidden
        sizes = [f * h, h, 5 * h, 5]
        parts = np.split(np.asarray(flat, np.float32), np.cumsum(sizes)[:-1])
        return cls(
            np.ascontiguousarray(parts[0].reshape(f, h)),
            parts[1].copy(),
            np.ascontiguousarray(parts[2].reshape(5, h)),
            parts[3].copy(),
            ACTIVATIONS[arch.activation],
            arch,
        )

    def flat(self) -> np.ndarray:
        return np.concatenate([self.w1.ravel(), self.b1, self.w2.ravel(), self.b2]).astype(np.float32)

    def folded(self) -> Weights:
        """The same network with the inputs that are sums of others (:func:`~gammon.engine.encoding.linear_inputs`)
        folded into them: their weight rows moved onto the units and bars they are sums of (and their constants
        into ``b1``), their own rows zero. It computes the same function (to float32 rounding) and is what the
        kernels play with: an incremental evaluation adds no rows for the folded inputs.
        """
        from gammon.engine.network import fold_weights

        w1, b1 = fold_weights(self.w1, self.b1)
        return replace(self, w1=w1, b1=b1)

    @staticmethod
    def flat_size(arch: Architecture) -> int:
        return arch.inputs * arch.hidden + arch.hidden + 5 * arch.hidden + 5


_NO_NET = (np.zeros((0, 1), np.float32), np.zeros(1, np.float32), np.zeros((5, 1), np.float32), np.zeros(5, np.float32))
_NO_TABLES = np.zeros((0, 32), np.uint16)


@dataclass
class Evaluator:
    """What plays: the contact net, an optional race net (same activation), and whether pure bear-offs
    are valued exactly from the bear-off database.

    >>> ev = Evaluator(Weights.zeros(Architecture(hidden=4))).kernel_args()
    >>> len(ev), ev[4].shape[0], ev[9].shape[0]      # no race net, no tables
    (11, 0, 0)
    """

    contact: Weights
    race: Weights | None = None
    bearoff: bool = False
    _kernel_nets: tuple | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.race is not None:
            if self.race.act != self.contact.act:
                raise ValueError("the race and contact nets must share an activation")
            if self.race.arch.inputs not in RACE_NET_INPUTS:
                raise ValueError(f"the race net reads the {N_INPUTS}- or {N_RACE_INPUTS}-input encoding, not {self.race.arch.inputs}")
        if self.contact.arch.inputs == N_RACE_INPUTS:
            raise ValueError(f"the contact net cannot read the race encoding ({N_RACE_INPUTS} inputs)")

    @property
    def nets(self) -> str:
        """A short description: ``contact 219x256 + race 211x128 + bear-off database``."""
        parts = [f"contact {self.contact.arch.inputs}x{self.contact.arch.hidden}"]
        if self.race is not None:
            parts.append(f"race {self.race.arch.inputs}x{self.race.arch.hidden}")
        if self.bearoff:
            parts.append("bear-off database")
        return " + ".join(parts)

    @classmethod
    def of(cls, evaluator: Evaluator | Weights) -> Evaluator:
        """``evaluator`` itself, or one net's weights as an evaluator that plays every position with them."""
        return evaluator if isinstance(evaluator, Evaluator) else cls(evaluator)

    def layout(self) -> dict[str, Any]:
        """What :meth:`from_flat` needs besides the numbers: the nets' architectures and the bear-off flag."""
        return {"contact": self.contact.arch.as_dict(), "race": None if self.race is None else self.race.arch.as_dict(),
                "bearoff": self.bearoff}

    def flat(self) -> np.ndarray:
        """Every weight in one float32 vector (how an evaluator travels to self-play workers)."""
        parts = [self.contact.flat()] + ([self.race.flat()] if self.race is not None else [])
        return np.concatenate(parts)

    @classmethod
    def from_flat(cls, flat: np.ndarray, layout: dict[str, Any]) -> Evaluator:
        """Rebuild from :meth:`flat` and :meth:`layout`."""
        contact_arch = Architecture(**layout["contact"])
        n = Weights.flat_size(contact_arch)
        race = None
        if layout["race"] is not None:
            race = Weights.from_flat(flat[n:], Architecture(**layout["race"]))
        return cls(Weights.from_flat(flat[:n], contact_arch), race, bool(layout["bearoff"]))

    def kernel_args(self) -> tuple:
        """The tuple the compiled kernels take (:mod:`gammon.engine.network`), the nets :meth:`~Weights.folded`
        (once per evaluator); loads the database if used."""
        if self._kernel_nets is None:
            self._kernel_nets = (self.contact.folded(), None if self.race is None else self.race.folded())
        c, r = self._kernel_nets
        race = (r.w1, r.b1, r.w2, r.b2) if r is not None else _NO_NET
        if self.bearoff:
            from gammon.bearoff import database

            tables = database().tables
            off, first = tables.off, tables.first
        else:
            off, first = _NO_TABLES, _NO_TABLES
        return (c.w1, c.b1, c.w2, c.b2, *race, c.act, off, first)


# -- torch side ------------------------------------------------------------------


def build_module(arch: Architecture, seed: int | None = None):
    """The PyTorch module for ``arch``: inputs -> hidden -> 5 logits.

    ``seed`` initialises the weights from a generator of its own; the global
    torch generator is neither seeded nor drawn from (``None``: a fresh seed).
    """
    import torch

    act = torch.nn.ReLU() if arch.activation == "relu" else torch.nn.Sigmoid()
    linear = torch.nn.utils.skip_init  # no draw from the global generator
    module = torch.nn.Sequential(linear(torch.nn.Linear, arch.inputs, arch.hidden), act, linear(torch.nn.Linear, arch.hidden, 5))
    gen = torch.Generator().manual_seed(seed if seed is not None else int(torch.seed() % 2**63))
    with torch.no_grad():
        for layer in (module[0], module[2]):  # PyTorch's default scale: U(-1/sqrt(fan_in), 1/sqrt(fan_in))
            bound = 1.0 / math.sqrt(layer.in_features)
            layer.weight.uniform_(-bound, bound, generator=gen)
            layer.bias.uniform_(-bound, bound, generator=gen)
    return module


def weights_from_state(state: dict, arch: Architecture) -> Weights:
    """Numba-ready :class:`Weights` from a module's ``state_dict``: a copy, which the module's later updates leave
    as it is (a ``state_dict``'s tensors share the parameters' memory)."""
    def arr(key: str) -> np.ndarray:
        return state[key].detach().to("cpu").float().numpy()

    return Weights(
        np.ascontiguousarray(arr("0.weight").T),
        arr("0.bias").copy(),
        arr("2.weight").copy(),
        arr("2.bias").copy(),
        ACTIVATIONS[arch.activation],
        arch,
    )


@dataclass
class Model:
    """A loaded model file: its weights for play and its metadata."""

    path: str
    arch: Architecture
    weights: Weights
    games_trained: int
    config: dict
    metadata: dict
    state_dict: dict = field(default_factory=dict, repr=False)
    race: Weights | None = None
    race_state_dict: dict | None = field(default=None, repr=False)
    bearoff: bool = False

    def evaluator(self) -> Evaluator:
        """The :class:`Evaluator` this file describes."""
        return Evaluator(self.weights, self.race, self.bearoff)


def save_model(path: str | os.PathLike, state: dict, arch: Architecture, *, games_trained: int, config: dict | None = None,
               race: tuple[dict, Architecture] | None = None, bearoff: bool = False, **metadata: Any) -> None:
    """Write a model file atomically (temporary file in the same folder, then rename).

    ``state``/``arch`` are the contact net's; ``race`` the race net's
    ``(state, arch)``; ``bearoff`` says the evaluator uses the database.
    """
    record = {
        "format": MODEL_FORMAT,
        "format_version": MODEL_FORMAT_VERSION,
        "architecture": arch.as_dict(),
        "games_trained": int(games_trained),
        "config": dict(config or {}),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "metadata": dict(metadata),
        "state_dict": {k: v.detach().to("cpu").clone() for k, v in state.items()},
        "bearoff": bool(bearoff),
    }
    if race is not None:
        race_state, race_arch = race
        record["race_architecture"] = race_arch.as_dict()
        record["race_state_dict"] = {k: v.detach().to("cpu").clone() for k, v in race_state.items()}
    atomic_torch_save(record, path)


def atomic_torch_save(obj: Any, path: str | os.PathLike) -> None:
    """``torch.save`` to a temporary file beside ``path``, flushed, then renamed over it."""
    import torch

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            torch.save(obj, fh)
            fh.flush()
            os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp's 0600 would make shipped models private
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def load_model(path: str | os.PathLike) -> Model:
    """Read a model file safely (``weights_only=True``) and check it against this encoding.

    Raises :class:`ModelFileError` naming the file for anything unreadable.
    """
    import torch

    path = str(path)
    if not os.path.isfile(path):
        raise ModelFileError(f"model file not found: {path!r}")
    with open(path, "rb") as fh:
        magic = fh.read(4)
    if magic != b"PK\x03\x04":
        raise ModelFileError(f"model file {path!r} is not a readable gammon model (not a PyTorch zip file)")
    try:
        record = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError:
        raise ModelFileError(
            f"model file {path!r} is not a readable gammon model (it holds objects other than tensors and plain values; refused for safety)"
        ) from None
    except Exception as exc:  # corrupt or truncated zip ...
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelFileError(f"model file {path!r} is corrupt or truncated ({reason[:120]})") from None
    if not isinstance(record, dict) or record.get("format") != MODEL_FORMAT:
        raise ModelFileError(f"model file {path!r} is not a gammon model (no {MODEL_FORMAT!r} format tag)")
    if record.get("format_version") not in READABLE_VERSIONS:
        raise ModelFileError(f"model file {path!r} has format version {record.get('format_version')!r}; "
                             f"this gammon reads versions {', '.join(map(str, READABLE_VERSIONS))}")
    arch, state, weights = _net_from(record, path, "architecture", "state_dict", "")
    if arch.inputs == N_RACE_INPUTS:
        raise ModelFileError(f"model file {path!r} has a contact net on the race encoding ({N_RACE_INPUTS} inputs)")
    race = race_state = None
    if "race_architecture" in record:
        race_arch, race_state, race = _net_from(record, path, "race_architecture", "race_state_dict", "race net ")
        if race_arch.inputs not in RACE_NET_INPUTS or race_arch.activation != arch.activation:
            raise ModelFileError(f"model file {path!r} has a race net this gammon cannot play "
                                 f"({race_arch.inputs} inputs, {race_arch.activation})")
    return Model(
        path=path,
        arch=arch,
        weights=weights,
        games_trained=int(record.get("games_trained", 0)),
        config=dict(record.get("config", {})),
        metadata={k: v for k, v in record.items() if k not in ("state_dict", "race_state_dict")},
        state_dict=state,
        race=race,
        race_state_dict=race_state,
        bearoff=bool(record.get("bearoff", False)),
    )


def merge_models(models: Sequence[Model]) -> tuple[dict, Architecture, tuple[dict, Architecture] | None]:
    """One model that plays the ensemble of ``models``: ``(state, arch, race)`` for :func:`save_model`.

    Each merged net holds the members' hidden units side by side and the
    mean of their output layers, so its logits are the mean of the members'
    logits (a geometric ensemble): one wider net that every bot, search and
    analysis plays as it plays any model. The members must share their
    inputs, activation, race net (present or not, and its inputs) and bear-off flag; a
    mismatch is a :class:`ModelFileError` naming the file.
    """
    import torch

    if len(models) < 2:
        raise ModelFileError(f"merging needs at least two model files, not {len(models)}")
    first = models[0]
    for model in models[1:]:
        differs = [what for what, a, b in (
            ("inputs", model.arch.inputs, first.arch.inputs), ("activation", model.arch.activation, first.arch.activation),
            ("race net", model.race is None, first.race is None), ("bear-off database", model.bearoff, first.bearoff),
            ("race net's inputs", model.race.arch.inputs if model.race else 0, first.race.arch.inputs if first.race else 0)) if a != b]
        if differs:
            raise ModelFileError(f"model file {model.path!r} cannot be merged with {first.path!r}: its {', '.join(differs)} differ")

    def side_by_side(states: list[dict], arch: Architecture) -> tuple[dict, Architecture]:
        state = {"0.weight": torch.cat([s["0.weight"] for s in states]), "0.bias": torch.cat([s["0.bias"] for s in states]),
                 "2.weight": torch.cat([s["2.weight"] for s in states], 1) / len(states),
                 "2.bias": torch.stack([s["2.bias"] for s in states]).mean(0)}
        return state, replace(arch, hidden=sum(s["0.bias"].shape[0] for s in states))

    state, arch = side_by_side([m.state_dict for m in models], first.arch)
    race = side_by_side([m.race_state_dict for m in models], first.race.arch) if first.race is not None else None
    return state, arch, race


def _net_from(record: dict, path: str, arch_key: str, state_key: str, what: str) -> tuple[Architecture, dict, Weights]:
    """One net of a model file: its architecture, state dict and checked weights."""
    described = record.get(arch_key)
    try:
        arch = Architecture(**described)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(described, dict) and "inputs" in described and described.get("inputs") not in ENCODINGS:
            known = ", ".join(f"{name} v{version} ({n} inputs)" for n, (name, version) in ENCODINGS.items())
            raise ModelFileError(
                f"model file {path!r} uses encoding {described.get('encoding')} v{described.get('encoding_version')} "
                f"({described.get('inputs')} inputs); this gammon reads {known}") from None
        raise ModelFileError(f"model file {path!r} has an invalid {what}architecture: {exc}") from None
    state = record.get(state_key)
    expected = {"0.weight": (arch.hidden, arch.inputs), "0.bias": (arch.hidden,), "2.weight": (5, arch.hidden), "2.bias": (5,)}
    if not isinstance(state, dict) or any(
        k not in state or tuple(state[k].shape) != shape for k, shape in expected.items()
    ):
        raise ModelFileError(f"model file {path!r} has {what}weights that do not match its architecture")
    weights = weights_from_state(state, arch)
    if not all(np.isfinite(a).all() for a in (weights.w1, weights.b1, weights.w2, weights.b2)):
        raise ModelFileError(f"model file {path!r} holds non-finite {what}weights")
    return arch, state, weights
