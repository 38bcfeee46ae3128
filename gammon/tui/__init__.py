"""The terminal game: a human player at the keyboard, the match table, and the session around a match.

* :mod:`~gammon.tui.human` -- :class:`~gammon.tui.human.HumanBot`, a person typing moves and commands
* :mod:`~gammon.tui.entry` -- a play entered one checker at a time, undo, and why an entry is illegal
* :mod:`~gammon.tui.guide` -- the move guide: each checker's destinations, dice, hits and blocks
* :mod:`~gammon.tui.table` -- the board of a live match seen by one player, with score, cube and dice
* :mod:`~gammon.tui.words` -- what happened, in the reader's words and point numbering
* :mod:`~gammon.tui.colour` -- ANSI colours on a terminal (none with ``NO_COLOR`` or ``--no-color``)
* :mod:`~gammon.tui.saves` -- autosave after every action, and resuming by replay
* :mod:`~gammon.tui.explain` -- ``gammon demo --explain``: the terms of the game as they happen
* :mod:`~gammon.tui.session` -- narration, the final report, saving, dice and the default opponent

The ``gammon`` command (:mod:`gammon.cli`) parses arguments and hands over to these.
"""
