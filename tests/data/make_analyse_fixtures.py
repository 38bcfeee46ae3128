"""Write the .mat fixtures of tests/test_analyse.py (run from the repository root; needs GNU Backgammon).

* ``level1_td_5pt.mat``: level1 against td, a 5-point match written by ``gammon.matfile``;
  ``level1_td_5pt.gnubg.txt``: GNU Backgammon's ``show statistics match`` for it at 0-ply (the oracle);
* ``gnubg_5pt.mat``: a 5-point match GNU Backgammon played against itself (0-ply) and exported;
* ``gnubg_reexport.mat``: ``level1_td_5pt.mat`` imported into GNU Backgammon and exported again.
"""

import subprocess
from pathlib import Path

from gammon.bots import load
from gammon.dice import SeededDice
from gammon.match import play_match
from gammon.matfile import save_mat

HERE = Path(__file__).parent
GNUBG = "/usr/games/gnubg"
ZERO_PLY = "set analysis chequerplay evaluation plies 0\nset analysis cubedecision evaluation plies 0\n"


def gnubg(commands: str) -> str:
    return subprocess.run([GNUBG, "-t", "-q"], input=commands, capture_output=True, text=True, timeout=300, cwd=HERE).stdout


def main() -> None:
    record = play_match(load("level1", seed=21), load("td1"), 5, SeededDice(21), names=("level1", "td"))  # td1: "td" when the fixture was made
    ours = save_mat(record, HERE / "level1_td_5pt.mat")
    out = gnubg(f"{ZERO_PLY}import mat {ours}\nanalyse match\nshow statistics match\n")
    (HERE / "level1_td_5pt.gnubg.txt").write_text(out[out.index("Player "):])
    gnubg(f"import mat {ours}\nexport match mat {HERE / 'gnubg_reexport.mat'}\n")
    players = "".join(f"set player {p} gnubg\nset player {p} chequerplay evaluation plies 0\n"
                      f"set player {p} cubedecision evaluation plies 0\n" for p in (0, 1))
    gnubg(f"set seed 14\n{players}new match 5\nexport match mat {HERE / 'gnubg_5pt.mat'}\n")


if __name__ == "__main__":
    main()
