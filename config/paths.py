"""Addresses made of ids, worked out once per process and filled in for each object.

`reverse` finds the pattern and checks the address it builds against the pattern's regular
expression on every call, some 9 µs: eight times in a recorded hand's reply (the form's address,
Undo, Fix, the audit trail, replay and abandon links), once a hand on a game page's score sheet
(each hand's Fix link), and once a row or more in a list of 200 fixtures or 100 teams. An address
such as a team's, a fixture's, a game's or its hand N's is the same text whatever the numbers:
each is reversed once with marker numbers, kept as the pieces between them, and each object's
numbers are put in between. The script prefix (a site served under a path) is the request's,
as `reverse` gives it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.urls import get_script_prefix, reverse

#: The marker numbers: past any id the database can give, so no address holds them otherwise.
_MARKS = (str(10**19 + 7), str(10**19 + 11))

_pieces: dict[tuple[str, int], tuple[str, ...]] = {}


def _pieces_of(name: str, count: int) -> tuple[str, ...]:
    """The address of ``name`` with ``count`` numbers, without the script prefix, cut where the
    numbers go."""
    key = (name, count)
    pieces = _pieces.get(key)
    if pieces is None:
        marks = _MARKS[:count]
        rest = reverse(name, args=marks).removeprefix(get_script_prefix())
        split = []
        for mark in marks:
            before, rest = rest.split(mark)
            split.append(before)
        pieces = _pieces[key] = (*split, rest)
    return pieces


def path_for(name: str, *numbers: int) -> str:
    """`reverse(name, args=numbers)` for an address whose arguments are whole numbers (ids, a
    hand's number), in the order the pattern takes them."""
    pieces = _pieces_of(name, len(numbers))
    path = [get_script_prefix(), pieces[0]]
    for number, piece in zip(numbers, pieces[1:], strict=True):
        path += (str(int(number)), piece)
    return "".join(path)


def paths_for(name: str) -> Callable[[int], str]:
    """``path_for(name, pk)`` for each row of a list: the script prefix and the pieces are read
    once for the list (reading the prefix is most of a ``path_for``)."""
    start, end = _pieces_of(name, 1)
    start = get_script_prefix() + start
    return lambda pk: f"{start}{int(pk)}{end}"
