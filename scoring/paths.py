"""A game's own addresses, worked out once per process and filled in for each game.

`reverse` finds the pattern and checks the address it builds against the pattern's regular
expression on every call, some 9 µs: eight times in a recorded hand's reply (the form's address,
Undo, Fix, the audit trail, replay and abandon links) and once a hand on a game page's score
sheet (each hand's Fix link). A game's address, or its hand N's, is the same text whatever the
numbers: each is reversed once with marker numbers, and each game's numbers are put in where
the markers were. The script prefix (a site served under a path) is the request's, as
`reverse` gives it.
"""

from __future__ import annotations

from django.urls import get_script_prefix, reverse

#: The marker numbers: past any id the database can give, so no address holds them otherwise.
_MARKS = (str(10**19 + 7), str(10**19 + 11))

_paths: dict[tuple[str, int], str] = {}


def game_path(name: str, *numbers: int) -> str:
    """`reverse(name, args=numbers)` for an address of a game (its id, and a hand's number)."""
    key = (name, len(numbers))
    path = _paths.get(key)
    if path is None:
        path = reverse(name, args=_MARKS[: len(numbers)]).removeprefix(get_script_prefix())
        _paths[key] = path
    for mark, number in zip(_MARKS, numbers, strict=False):
        path = path.replace(mark, str(int(number)))
    return get_script_prefix() + path
