"""How far each model's 0-ply values are from rollouts of the shipped net's own play, GNU Backgammon 0-ply alongside.

    nice python benchmarks/own_rollouts.py [--models td2 td-ensemble FILE.pt ...] [--positions 2000] [--trials 648]

It measures, it never trains. The positions come from self-play of the
reference net (``--reference``, ``td2``): every position a player faced in
``--games`` games and, at every other one, the positions left by the two best
plays of a drawn roll (:func:`gammon.train.distill.round_positions`, as the
search trainer takes them), pure bear-offs left out, ``--positions`` of them
drawn at random. Each is rolled out ``--trials`` times by the reference net
at 0-ply for both sides, cubeless, to the end
(:func:`gammon.train.distill.rollout_targets`: the first roll stratified),
in two independent halves.

For each model and class (contact, race) it prints the root mean square of
its 0-ply cubeless equity minus the rollout's, the mean of that difference
(bias), and the *systematic* part: the square root of the mean square less
the rollouts' own noise, estimated from the two halves (half their mean
squared difference is the variance of one half's mean; the full rollout's is
half that again). A net that had learned the value of its own play would
have a systematic distance near zero; TD(lambda) settles elsewhere.
GNU Backgammon's 0-ply net (``gnubg_nn``, when installed) is measured on the
same rollouts as a yardstick: a second opinion, not a target.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gammon.outcomes import equity


def distance(values: np.ndarray, half_a: np.ndarray, half_b: np.ndarray) -> dict[str, float]:
    """Equities ``values`` against a rollout given as two halves of equal size (equities, one per position):
    the RMS of values minus the whole rollout, the rollout's own noise (its standard error, from the halves),
    the systematic part (RMS with the noise taken out, 0 when the noise explains it all) and the mean bias.

    >>> truth = np.zeros(4)
    >>> d = distance(truth + 0.1, truth + np.array([0.1, -0.1, 0.1, -0.1]), truth - np.array([0.1, -0.1, 0.1, -0.1]))
    >>> {k: round(v, 3) for k, v in d.items()}
    {'rms': 0.1, 'noise': 0.1, 'systematic': 0.0, 'bias': 0.1}
    """
    rollout = (half_a + half_b) / 2
    rms = float(np.sqrt(np.mean((values - rollout) ** 2)))
    noise = float(np.sqrt(np.mean((half_a - half_b) ** 2) / 4))
    return {"rms": rms, "noise": noise, "systematic": float(np.sqrt(max(rms**2 - noise**2, 0.0))),
            "bias": float(np.mean(values - rollout))}


def gnubg_probabilities(boards: np.ndarray) -> np.ndarray | None:
    """GNU Backgammon 0-ply's five probabilities of each board for its side on roll, or None without gnubg_nn."""
    try:
        import gnubg_nn
    except ImportError:
        return None
    from gammon.bots.external import gnubg_boards

    return np.array([gnubg_nn.probabilities(b.tolist(), 0) for b in gnubg_boards(boards)])


def main() -> None:
    from gammon.bots import load
    from gammon.engine.network import CONTACT, RACE, evaluate_batch
    from gammon.train.distill import rollout_targets, round_positions
    from gammon.train.selfplay import SelfPlayer

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", default=["td", "td2", "td-ensemble"], help="bot specs or model files")
    parser.add_argument("--reference", default="td2", help="the net whose self-play and rollouts give the positions and values")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--trials", type=int, default=648, help="per position, split into two halves (a multiple of 72)")
    parser.add_argument("--seed", type=int, default=20261207)
    args = parser.parse_args()
    if args.trials < 72 or args.trials % 72:
        parser.error(f"--trials {args.trials}: give a multiple of 72 (two halves, each a multiple of 36)")

    evaluator = load(args.reference).evaluator
    ev = evaluator.kernel_args()
    rng = np.random.default_rng(args.seed)
    started = time.perf_counter()
    boards, classes, _ = round_positions(SelfPlayer(evaluator).play_many(rng, args.games), ev, 2, rng)
    pick = np.sort(rng.choice(boards.shape[0], min(args.positions, boards.shape[0]), replace=False))
    boards, classes = boards[pick], classes[pick]
    half_a = equity(rollout_targets(boards, ev, args.trials // 2, np.random.default_rng([args.seed, 1])))
    half_b = equity(rollout_targets(boards, ev, args.trials // 2, np.random.default_rng([args.seed, 2])))
    seconds = time.perf_counter() - started
    print(f"{boards.shape[0]} positions from {args.games} games of {args.reference}'s self-play, each rolled out "
          f"{args.trials} times by {args.reference} at 0-ply ({seconds:.0f} s); cubeless equity, seed {args.seed}")
    rows = []
    for spec in args.models:
        probs = np.empty((boards.shape[0], 5), np.float32)
        evaluate_batch(boards, load(spec).evaluator.kernel_args(), probs)
        rows.append((spec, equity(probs)))
    gnubg = gnubg_probabilities(boards)
    if gnubg is not None:
        rows.append(("GNU Backgammon 0-ply (yardstick)", equity(gnubg)))
    for cls, name in ((CONTACT, "contact"), (RACE, "race")):
        m = classes == cls
        if not m.any():
            continue
        noise = distance(half_a[m], half_a[m], half_b[m])["noise"]
        print(f"\n{name}: {m.sum()} positions, rollout noise (standard error) {noise:.4f}")
        print(f"| model | RMS to the rollouts | systematic | bias |\n|---|---:|---:|---:|")
        for spec, values in rows:
            d = distance(values[m], half_a[m], half_b[m])
            print(f"| {spec} | {d['rms']:.4f} | {d['systematic']:.4f} | {d['bias']:+.4f} |")


if __name__ == "__main__":
    main()
