"""``gammon tournament``: four matches against stronger and stronger bots; lose one and you are out.

Like ``gammon play``, a tournament is saved after every action (in
:func:`gammon.tui.saves.saves_dir`, as ``tournament-<time>-<pid>.json``): the
current round's match and a :class:`~gammon.tui.saves.TournamentState` (the
bots, the lengths, the earlier rounds' results). ``--resume [FILE]`` replays
the current round to where it stopped, with the same dice and bots, and goes
on to the later rounds.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from gammon.bots import Bot, load
from gammon.cli import CommandError
from gammon.dice import DiceSource
from gammon.match import Observer
from gammon.records import Action, MatchRecord, Rules
from gammon.resign import with_resignations
from gammon.settings import load_settings
from gammon.tui.colour import painter, wants_colour
from gammon.tui.human import HumanBot
from gammon.tui.replay import replayed_match
from gammon.tui.saves import (Autosave, RecordingDice, Saved, Setup, TournamentState, kept_note, latest_unfinished,
                              new_save_path, read_save)
from gammon.tui.session import Narrator, bot_seed, dice_for, run_match, stdin_pause, strongest_bot

NAME = "tournament"
HELP = "four rounds against stronger and stronger bots (5-, 7-, 11- and 15-point matches); a loss ends it"

#: The match length of each round.
LENGTHS = (5, 7, 11, 15)
#: The opponents of the first three rounds; the final is against the strongest shipped bot.
OPPONENTS = ("level2", "level3", "level4")
ROUND_NAMES = ("Round 1", "Round 2", "Semi-final", "Final")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--opponents", nargs=4, metavar=("R1", "R2", "R3", "FINAL"),
                        help="the four bots (default: level2 level3 level4 and the strongest shipped bot)")
    parser.add_argument("--lengths", nargs=4, type=int, metavar=("L1", "L2", "L3", "L4"),
                        help="the four match lengths (default 5 7 11 15)")
    parser.add_argument("--seed", type=int, metavar="N", help="seed the dice and the bots")
    parser.add_argument("--name", help="your name (default: you)")
    parser.add_argument("--save-dir", metavar="DIR", help="save each match as DIR/round-N.mat")
    parser.add_argument("--resume", nargs="?", const="", default=None, metavar="FILE",
                        help="continue an unfinished tournament: FILE, or the latest autosave (every tournament is "
                             "saved after each move in $GAMMON_SAVES, default ~/.local/share/gammon/saves)")


def round_title(index: int, rounds: int) -> str:
    """``Round 1``, ``Round 2``, ``Semi-final``, ``Final`` (in a four-round tournament, else ``Round N``)."""
    return ROUND_NAMES[index] if rounds == len(ROUND_NAMES) else f"Round {index + 1}"


def round_in_text(index: int, rounds: int) -> str:
    """:func:`round_title` inside a sentence: ``Round 2`` but ``the semi-final``, ``the final``.

    >>> round_in_text(1, 4), round_in_text(2, 4)
    ('Round 2', 'the semi-final')
    """
    title = round_title(index, rounds)
    return title if title.startswith("Round") else f"the {title.lower()}"


def play_tournament(
    human: Bot,
    opponents: Sequence[Bot],
    dice: DiceSource,
    out: TextIO,
    *,
    lengths: Sequence[int] = LENGTHS,
    observers: Sequence[Observer] = (),
    save_dir: str | None = None,
    specs: Sequence[str] | None = None,
    seed: int | None = None,
) -> list[MatchRecord]:
    """Play a new tournament, saved after every action, until ``human`` loses a round; return the rounds' records.

    The human won the tournament when every round was played and the last
    record's winner is 0. ``specs`` are what :func:`gammon.bots.load` builds
    the opponents from again on a resume (default: their names); ``seed`` is
    the seed of ``dice``, if any (a resume rebuilds seeded dice from it, and
    replays the recorded rolls of any others).
    """
    if len(opponents) != len(lengths):
        raise CommandError(f"{len(opponents)} opponents for {len(lengths)} rounds")
    path = new_save_path("tournament")
    state = TournamentState(list(specs or [bot.name for bot in opponents]), list(lengths),
                            folder=save_dir or str(path.with_suffix("")))
    setup = Setup(opponent=state.opponents[0], name=human.name, match_length=lengths[0], seed=seed, hint=False)
    print(f" The tournament is saved after every move in {path}.", file=out, flush=True)
    return _play_rounds(human, opponents, Autosave(path, setup, RecordingDice(dice), state), out, observers)


def resume_tournament(saved: Saved, human: Bot, opponents: Sequence[Bot], out: TextIO, *,
                      observers: Sequence[Observer] = ()) -> list[MatchRecord]:
    """Go on with the tournament ``saved``: its round replayed to where it stopped, then the later rounds.

    Returns the records of the rounds played from here (the resumed one first).
    """
    assert saved.tournament is not None
    autosave = Autosave(saved.path, saved.setup, saved.recording_dice(), saved.tournament)
    rolls = saved.rolls_used if saved.setup.seed is not None else None
    return _play_rounds(human, opponents, autosave, out, observers, replay=saved.actions, rolls=rolls)


def _play_rounds(human: Bot, opponents: Sequence[Bot], autosave: Autosave, out: TextIO,
                 observers: Sequence[Observer], *, replay: Sequence[Action] = (),
                 rolls: int | None = None) -> list[MatchRecord]:
    """The rounds from ``autosave.tournament``'s current one (``replay`` its actions so far) until it is over."""
    state = autosave.tournament
    assert state is not None
    note = kept_note(autosave.path, tournament=True)
    if isinstance(human, HumanBot):
        human.kept_note = note
    folder = Path(state.folder)
    folder.mkdir(parents=True, exist_ok=True)
    rounds = len(state.lengths)
    records: list[MatchRecord] = []
    while not state.over:
        index, length = state.round, state.lengths[state.round]
        title = round_title(index, rounds)
        print(f"\n === {title}: a {length}-point match against {opponents[index].name} ===", file=out, flush=True)
        autosave.setup.opponent, autosave.setup.match_length = state.opponents[index], length
        if not replay:
            state.rolls_before = len(autosave.dice.rolls)
        match = replayed_match([human, opponents[index]], autosave.dice, Rules(match_length=length), autosave,
                               actions=replay, rolls=rolls, observers=observers)
        if not replay:
            autosave.write()
        replay, rolls = (), None
        record = run_match(match, out, str(folder / f"round-{index + 1}.mat"), kept=note, offer_analysis=True)
        records.append(record)
        if not record.finished:
            print(" Tournament stopped.", file=out, flush=True)
            break
        state.results.append(list(record.score))
        if state.lost:
            print(f" {record.names[1]} knocks {record.names[0]} out in {round_in_text(index, rounds)}.", file=out, flush=True)
        elif not state.won:
            print(f" {record.names[0]} goes through to {round_in_text(index + 1, rounds)}.", file=out, flush=True)
    else:
        autosave.write()  # over: nothing left to resume
        if state.won:
            print(f" Tournament won by {human.name}!", file=out, flush=True)
    if autosave.error:
        print(f" {autosave.error}", file=out, flush=True)
    return records


def opponents_for(specs: Sequence[str] | None, seed: int | None) -> tuple[list[str], list[Bot]]:
    """The bots of ``specs`` (default: level2, level3, level4 and the strongest that loads) and their specs.

    Each bot is seeded from ``seed`` by its round, and accepts and offers
    resignations by its own chances.
    """
    names = list(specs or OPPONENTS)
    bots = [load(spec, seed=bot_seed(seed, i)) for i, spec in enumerate(names)]
    if not specs:
        spec, final = strongest_bot(seed=bot_seed(seed, len(names)))
        names.append(spec)
        bots.append(final)
    return names, [with_resignations(bot) for bot in bots]


def read_resumable(resume: str) -> Saved:
    """The unfinished tournament ``--resume`` names (the latest when ``resume`` is empty); one-line errors else."""
    saved = read_save(Path(resume).expanduser() if resume else latest_unfinished(tournament=True))
    if saved.tournament is None:
        raise CommandError(f"{saved.path} is a match, not a tournament: 'gammon play --resume {saved.path}' continues it")
    if saved.finished:
        raise CommandError(f"the tournament in {saved.path} is over: there is nothing to resume")
    return saved


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    saved = state = None
    if args.resume is not None:
        clash = [flag for flag, given in (("--opponents", args.opponents), ("--lengths", args.lengths),
                                          ("--seed", args.seed is not None), ("--name", args.name),
                                          ("--save-dir", args.save_dir)) if given]
        if clash:
            raise CommandError(f"--resume continues the tournament as it was set up: not with {', '.join(clash)}")
        saved = read_resumable(args.resume)
        state = saved.tournament
        assert state is not None
        seed, name, lengths = saved.setup.seed, saved.setup.name, state.lengths
    else:
        seed, name, lengths = args.seed, args.name or "you", args.lengths or list(LENGTHS)
        if any(length < 1 for length in lengths):
            raise CommandError(f"invalid match lengths {lengths}: each round is at least a 1-point match")
        if args.save_dir and not Path(args.save_dir).is_dir():
            raise CommandError(f"--save-dir {args.save_dir!r} is not a directory")
    specs, bots = opponents_for(state.opponents if state else args.opponents, seed)
    settings = load_settings()
    human = HumanBot(name, helper=None, seat=0, confirm=not settings.auto_confirm,
                     confirm_numbers=settings.confirm_numbers, guide=settings.guide, confirm_quit=True,
                     paint=painter(0) if wants_colour(sys.stdout, setting=settings.color) else None)
    observers = [Narrator(out, pause=stdin_pause, viewer=0)]
    if saved and state:
        won = [f"{round_title(i, len(lengths))} {a}-{b}" for i, (a, b) in enumerate(state.results)]
        print(f" Resuming the tournament from {saved.path}: {round_title(state.round, len(lengths))}, "
              f"{len(saved.actions)} actions so far" + (f" (won: {', '.join(won)})." if won else "."), file=out)
        resume_tournament(saved, human, bots, out, observers=observers)
        return 0
    print(" The tournament: " + ", ".join(f"{b.name} ({n} points)" for b, n in zip(bots, lengths))
          + ". Lose a match and you are out.", file=out)
    play_tournament(human, bots, dice_for(seed), out, lengths=lengths, observers=observers, save_dir=args.save_dir,
                    specs=specs, seed=seed)
    return 0
