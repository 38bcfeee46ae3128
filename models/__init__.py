"""The shipped networks and their cards, installed as the package data of ``gammon.models``.

Find them through :mod:`gammon.resources`, not by path.
"""
