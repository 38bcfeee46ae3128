"""The nets a run trains: the contact net, an optional race net, and how a batch of positions is split between them.

:class:`Nets` holds the PyTorch modules of a run's :class:`gammon.net.Evaluator`.
Every position a player faced goes to the part of the evaluator its class
names (:func:`gammon.engine.network.position_class`): a pure bear-off is
valued exactly from the database (and not trained), a race by the race net,
anything else by the contact net. Each net learns only from the positions
it plays.
"""

from __future__ import annotations

from copy import copy
from dataclasses import dataclass

import numpy as np

from gammon.engine.encoding import N_INPUTS, encode_batch
from gammon.engine.network import CONTACT, RACE, evaluate_classes
from gammon.net import Architecture, Evaluator, Model, build_module, weights_from_state
from gammon.outcomes import rule_out_rows
from gammon.train import sparse
from gammon.train.config import Config, ConfigError
from gammon.train.sparse import logits as sparse_logits


@dataclass
class Batch:
    """A batch's positions split by class: the current values of all of them (N, 5), and per net the
    rows it plays and its forward pass (a :class:`~gammon.train.sparse.Forward`, or on another device
    the logits with autograd's graph)."""

    values: np.ndarray
    parts: list  # (rows, forward pass) per trained net


class Nets:
    """The modules of a run (``contact``, ``race`` or None), the architectures they have, and their weight
    averages when the config keeps them (``ema_decay``; ``averages``, one per module, else None)."""

    def __init__(self, cfg: Config, device: str = "cpu") -> None:
        import torch

        self.cfg = cfg
        self.arch = Architecture(inputs=cfg.inputs, hidden=cfg.hidden, activation=cfg.activation)
        self.contact = build_module(self.arch, seed=cfg.seed).to(device)
        self.race_arch = None
        self.race = None
        if cfg.race_hidden:
            self.race_arch = Architecture(inputs=cfg.race_inputs, hidden=cfg.race_hidden, activation=cfg.activation)
            self.race = build_module(self.race_arch, seed=cfg.seed + 1).to(device)
        self.device = device
        #: the learner's passes without autograd (:mod:`gammon.train.sparse`); on other devices, PyTorch's
        self.fused = torch.device(device).type == "cpu"
        self.averages = None
        if cfg.ema_decay:
            from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

            self.averages = [AveragedModel(module, multi_avg_fn=get_ema_multi_avg_fn(cfg.ema_decay))
                             for module in self._modules()]

    def _modules(self) -> list:
        return [self.contact] + ([self.race] if self.race is not None else [])

    def parameters(self) -> list:
        return [p for module in self._modules() for p in module.parameters()]

    def update_averages(self) -> None:
        """Move the weight averages (if kept) towards the trained weights, after an update."""
        for average, module in zip(self.averages or (), self._modules()):
            average.update_parameters(module)

    def kept(self) -> Nets:
        """The nets that model files and evaluations hold: the weight averages when the run keeps them
        (once there has been an update to average), else these."""
        if self.averages is None or int(self.averages[0].n_averaged) == 0:
            return self
        kept = copy(self)
        kept.contact = self.averages[0].module
        kept.race = self.averages[1].module if self.race is not None else None
        kept.averages = None
        return kept

    def state(self) -> dict:
        """What a checkpoint keeps of the nets."""
        state = {"model": self.contact.state_dict(), "arch": self.arch.as_dict()}
        if self.race is not None:
            state.update(race_model=self.race.state_dict(), race_arch=self.race_arch.as_dict())
        if self.averages is not None:
            state["averages"] = [average.state_dict() for average in self.averages]
        return state

    def load_state(self, state: dict, where: str) -> None:
        """Restore from :meth:`state` (a checkpoint); :class:`ConfigError` when the config asks for other nets."""
        race_arch = state.get("race_arch")
        if Architecture(**state["arch"]) != self.arch or (race_arch is None) != (self.race is None) or (
                race_arch is not None and Architecture(**race_arch) != self.race_arch):
            raise ConfigError(f"cannot resume {where!r}: its nets ({state['arch']}, race {race_arch}) differ from the config's")
        self.contact.load_state_dict(state["model"])
        if self.race is not None:
            self.race.load_state_dict(state["race_model"])
        if self.averages is not None and "averages" in state:  # else they start at the next update
            for average, saved in zip(self.averages, state["averages"]):
                average.load_state_dict(saved)

    def warm_start(self, model: Model) -> None:
        """Start from a model file's weights (see ``init_model`` in :class:`~gammon.train.config.Config`)."""
        where = f"init_model {model.path!r}"
        start = model.arch
        if start.activation != self.arch.activation or start.inputs > self.arch.inputs or start.hidden > self.arch.hidden:
            raise ConfigError(f"{where} has architecture {start.as_dict()}, the config asks for {self.arch.as_dict()}")
        self.contact.load_state_dict(_grown(model.state_dict, self.contact.state_dict()))
        if self.race is None:
            return
        if model.race is not None and model.race.arch.hidden <= self.race_arch.hidden and model.race.arch.inputs <= self.race_arch.inputs:
            self.race.load_state_dict(_grown(model.race_state_dict, self.race.state_dict()))
        elif start.hidden <= self.race_arch.hidden:  # the race net starts as the contact net, on the race net's inputs
            contact = {k: (v[:, :N_INPUTS] if k == "0.weight" else v) for k, v in model.state_dict.items()}
            self.race.load_state_dict(_grown(contact, self.race.state_dict()))
        else:
            raise ConfigError(f"{where} has no race net of at most {self.race_arch.hidden} hidden units to start the race net from")

    def evaluator(self) -> Evaluator:
        """The current :class:`~gammon.net.Evaluator` (for self-play and evaluation)."""
        race = weights_from_state(self.race.state_dict(), self.race_arch) if self.race is not None else None
        return Evaluator(weights_from_state(self.contact.state_dict(), self.arch), race, self.cfg.bearoff)

    def save_args(self) -> dict:
        """The keyword arguments of :func:`gammon.net.save_model` besides the contact net."""
        race = (self.race.state_dict(), self.race_arch) if self.race is not None else None
        return {"race": race, "bearoff": self.cfg.bearoff}

    def forward(self, boards: np.ndarray, ev: tuple) -> Batch:
        """Values of ``boards`` ((N, 26), side on roll) by class, with the logits of each net's rows."""
        import torch

        classes = np.empty(boards.shape[0], np.int8)
        values = np.empty((boards.shape[0], 5), np.float32)
        evaluate_classes(boards, ev, classes, values)  # the database's values for pure bear-offs
        parts = []
        # ``ev`` is these nets' evaluator: it classes a position RACE only when there is a race net
        contact_rows, race_rows = np.flatnonzero(classes == CONTACT), np.flatnonzero(classes == RACE)
        for rows, module, inputs in ((contact_rows, self.contact, self.arch.inputs), (race_rows, self.race, self.cfg.race_inputs)):
            if rows.size == 0:
                continue
            whole = rows.size == boards.shape[0]  # one net plays them all: no copies
            mine = boards if whole else boards[rows]
            if self.fused:
                pass_ = sparse.forward(module, mine)
                probs = _sigmoid(pass_.logits)
            else:
                pass_ = sparse_logits(module, torch.from_numpy(encode_batch(mine, inputs)).to(self.device))
                probs = torch.sigmoid(pass_).detach().cpu().numpy()
            rule_out_rows(mine, probs)  # as the evaluator values them in play
            if whole:
                values = probs
            else:
                values[rows] = probs
            parts.append((rows, pass_))
        return Batch(values, parts)

    def backward(self, batch: Batch, targets: np.ndarray, loss: str = "bce") -> float:
        """Set the nets' gradients of the loss between each net's outputs and its rows' ``targets`` (the mean
        cross-entropy, or squared error, of each net's rows, weighted by their share of the rows); returns the loss."""
        import torch
        import torch.nn.functional as F

        trained = sum(rows.size for rows, _ in batch.parts)
        total = 0.0
        for rows, pass_ in batch.parts:
            mine = targets if rows.size == len(targets) else targets[rows]
            share = rows.size / trained
            if self.fused:
                value, grad = _loss_and_gradient(pass_.logits, mine, loss)
                sparse.backward(pass_, grad * np.float32(share))
                total += value * share
            else:
                mine = torch.from_numpy(mine).to(self.device)
                part = (F.binary_cross_entropy_with_logits(pass_, mine) if loss == "bce"
                        else F.mse_loss(torch.sigmoid(pass_), mine))
                total = total + part * share
        if not self.fused and batch.parts:
            total.backward()
            total = total.item()
        return float(total)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return (1.0 / (1.0 + np.exp(-x))).astype(np.float32, copy=False)


def _loss_and_gradient(logits: np.ndarray, targets: np.ndarray, loss: str) -> tuple[float, np.ndarray]:
    """The mean binary cross-entropy (``"bce"``, on the logits) or squared error (``"mse"``, on the
    probabilities) over every output, and its gradient with respect to ``logits``: PyTorch's losses."""
    p = _sigmoid(logits)
    if loss == "bce":
        value = np.maximum(logits, 0) - logits * targets + np.log1p(np.exp(-np.abs(logits)))
        return float(value.mean(dtype=np.float64)), (p - targets) / np.float32(logits.size)
    diff = p - targets
    return float(np.mean(diff * diff, dtype=np.float64)), 2 * diff * p * (1 - p) / np.float32(logits.size)


def _grown(state: dict, fresh: dict) -> dict:
    """``state`` (a trained net) grown to the shape of ``fresh`` (a new net's initial state), playing as before.

    New inputs get zero weights. New hidden units keep ``fresh``'s incoming
    weights and biases and get zero outgoing weights (Net2Net's
    function-preserving widening), so they change nothing until they learn.
    """
    w1, b1, w2 = fresh["0.weight"].clone(), fresh["0.bias"].clone(), fresh["2.weight"].clone()
    h, n = state["0.weight"].shape
    w1[:h, :] = 0.0
    w1[:h, :n] = state["0.weight"]
    b1[:h] = state["0.bias"]
    w2[:, :] = 0.0
    w2[:, :h] = state["2.weight"]
    return {"0.weight": w1, "0.bias": b1, "2.weight": w2, "2.bias": state["2.bias"].clone()}
