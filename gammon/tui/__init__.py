"""The terminal game: a human player at the keyboard, the match table, and the session around a match.

* :mod:`~gammon.tui.human` -- :class:`~gammon.tui.human.HumanBot`, a person typing moves and commands
* :mod:`~gammon.tui.table` -- the board of a live match seen by one player, with score, cube and dice
* :mod:`~gammon.tui.session` -- narration, the final report, saving, dice and the default opponent

The ``gammon`` command (:mod:`gammon.cli`) parses arguments and hands over to these.
"""
