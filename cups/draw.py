"""Knock-out draws and group splits: pure Python (no Django), like ``leagues.schedule``.

The cups service layer turns entrants into :class:`Slot` values (best seed first), calls
:func:`seeded_draw`, :func:`random_draw` or :func:`snake_groups`, and stores what it gets back.

Guarantees (``tests/cups/test_draw.py`` checks them for 2 to 300 entrants):

* the bracket has the next power of two places at or above the field; every entrant is placed
  exactly once;
* byes fill the places the field leaves empty, in round one only, and go to the highest seeds
  (seed 1 first); no tie is a bye against a bye;
* seeds follow the usual ladder (1 and 2 can meet only in the final, 1 to 4 only in the
  semi-finals, and so on);
* a random draw is the seeded placement of a shuffle made from its seed: the same seed and the
  same entrants give the same draw, and the seed is kept with the draw so anyone can repeat it;
* with protection on, two entrants of the same club (pub) do not meet in round one whenever the
  lower halves of the round-one ties can be shuffled to avoid it; the entrants who receive byes
  and the higher seed of every tie keep their places, and a tie that could not be kept apart is
  named in ``notes``;
* groups are balanced by seed in snake order (A B C C B A ...), sizes differ by at most one;
* qualifiers from groups enter the bracket crossed: group winners are the top seeds and each
  group's runner-up meets the winner of its partner group (A1 v B2, B1 v A2, C1 v D2 ...), never
  its own group's winner in round one.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

__all__ = [
    "Draw",
    "DrawError",
    "Pairing",
    "Slot",
    "bracket_size",
    "crossed_qualifiers",
    "random_draw",
    "round_name",
    "rounds_for",
    "seed_ladder",
    "seeded_draw",
    "snake_groups",
]

MAX_ENTRANTS = 4096


class DrawError(ValueError):
    """The draw cannot be made; the message says why in plain words."""


@dataclass(frozen=True)
class Slot:
    """An entrant: its key, its club (pub or group: entrants sharing one are kept apart in round
    one when protection is on; None for none) and a display name for notes."""

    key: Hashable
    club: Hashable | None = None
    name: str = ""

    @property
    def label(self) -> str:
        return self.name or str(self.key)


@dataclass(frozen=True)
class Pairing:
    """A round-one tie at ``position`` (0-based, top of the bracket first).  ``away`` is None for
    a bye: ``home`` goes straight into round two.  ``home_seed``/``away_seed`` are 1-based."""

    position: int
    home: Hashable
    away: Hashable | None
    home_seed: int
    away_seed: int | None

    @property
    def is_bye(self) -> bool:
        return self.away is None


@dataclass(frozen=True)
class Draw:
    """A knock-out draw: the bracket size, its round-one ties in bracket order, the random seed it
    was made from (None for a draw by ranking) and notes in plain words."""

    size: int
    ties: tuple[Pairing, ...]
    seed: int | None = None
    notes: tuple[str, ...] = ()

    @property
    def rounds(self) -> int:
        return rounds_for(self.size)

    @property
    def byes(self) -> tuple[Hashable, ...]:
        return tuple(t.home for t in self.ties if t.is_bye)


def bracket_size(entrants: int) -> int:
    """The smallest power of two that holds ``entrants`` (at least 2)."""
    if entrants < 2:
        raise DrawError(f"A knock-out needs at least 2 entrants; it has {entrants}.")
    size = 2
    while size < entrants:
        size *= 2
    return size


def rounds_for(size: int) -> int:
    return size.bit_length() - 1


def round_name(number: int, rounds: int) -> str:
    """ "Final", "Semi-finals", "Quarter-finals", else "Round N" (1-based ``number``)."""
    left = rounds - number
    if left == 0:
        return "Final"
    if left == 1:
        return "Semi-finals"
    if left == 2:
        return "Quarter-finals"
    return f"Round {number}"


def seed_ladder(size: int) -> tuple[int, ...]:
    """The seeds (1-based) in bracket order: for 8, ``(1, 8, 4, 5, 2, 7, 3, 6)``.

    Each adjacent pair is a round-one tie and the seeds of every tie add up to ``size + 1``, so
    the highest seeds meet the lowest (or a bye)."""
    if size < 2 or size & (size - 1):
        raise DrawError(f"A bracket holds a power of two places, not {size}.")
    ladder = [1, 2]
    while len(ladder) < size:
        total = len(ladder) * 2 + 1
        ladder = [s for seed in ladder for s in (seed, total - seed)]
    return tuple(ladder)


def _validate(slots: Sequence[Slot]) -> list[Slot]:
    slots = list(slots)
    if len(slots) > MAX_ENTRANTS:
        raise DrawError(f"A draw takes at most {MAX_ENTRANTS} entrants; it has {len(slots)}.")
    bracket_size(len(slots))
    seen: set[Hashable] = set()
    for slot in slots:
        if slot.key in seen:
            raise DrawError(f"{slot.label} is entered twice; each entrant is drawn once.")
        seen.add(slot.key)
    return slots


def _protect(
    ties: list[tuple[int, int | None]], slots: Sequence[Slot]
) -> tuple[list[tuple[int, int | None]], list[str]]:
    """Re-pair the lower halves of the round-one ties (indexes into ``slots``) so that no tie
    joins two entrants of one club, moving as few as the matching allows (Kuhn's augmenting
    paths, starting from the ties as drawn, nearest seed first)."""
    playing = [i for i, (_, away) in enumerate(ties) if away is not None]
    uppers = [ties[i][0] for i in playing]
    lowers = [ties[i][1] for i in playing]
    assert all(lower is not None for lower in lowers)

    def clash(upper: int, lower: int) -> bool:
        club = slots[upper].club
        return club is not None and club == slots[lower].club

    n = len(playing)
    match_of_lower: list[int | None] = [None] * n  # lower index -> upper index
    match_of_upper: list[int | None] = [None] * n
    for i in range(n):
        if not clash(uppers[i], lowers[i]):  # type: ignore[arg-type]
            match_of_upper[i] = i
            match_of_lower[i] = i
    if all(m is not None for m in match_of_upper):
        return ties, []

    def nearest_first(i: int) -> list[int]:
        return sorted(range(n), key=lambda j: (abs(j - i), j))

    order = [nearest_first(i) for i in range(n)]

    def augment(u: int, seen: list[bool]) -> bool:
        for j in order[u]:
            if seen[j] or clash(uppers[u], lowers[j]):  # type: ignore[arg-type]
                continue
            seen[j] = True
            owner = match_of_lower[j]
            if owner is None or augment(owner, seen):
                match_of_lower[j] = u
                match_of_upper[u] = j
                return True
        return False

    for u in range(n):
        if match_of_upper[u] is None:
            augment(u, [False] * n)
    notes: list[str] = []
    free = [j for j in range(n) if match_of_lower[j] is None]
    new = list(ties)
    for u in range(n):
        j = match_of_upper[u]
        if j is None:
            j = free.pop(0)
            upper, lower = uppers[u], lowers[j]
            assert lower is not None
            notes.append(
                f"{slots[upper].label} and {slots[lower].label} share a club but could not be "
                "kept apart in round one."
            )
        new[playing[u]] = (uppers[u], lowers[j])
    return new, notes


def _place(slots: list[Slot], *, byes: bool, protect: bool, seed: int | None, moved: str) -> Draw:
    size = bracket_size(len(slots))
    if not byes and size != len(slots):
        raise DrawError(
            f"{len(slots)} entrants do not fill a bracket without byes: a knock-out needs 2, 4, "
            f"8, 16 … entrants. Allow byes (the top {size - len(slots)} seeds go through to "
            f"round two) or make the field {size // 2} or {size}."
        )
    ladder = seed_ladder(size)
    pairs: list[tuple[int, int | None]] = []
    for k in range(0, size, 2):
        a, b = ladder[k] - 1, ladder[k + 1] - 1
        upper, lower = min(a, b), max(a, b)
        pairs.append((upper, lower if lower < len(slots) else None))
    notes: list[str] = []
    if protect:
        before = list(pairs)
        pairs, notes = _protect(pairs, slots)
        changed = sum(1 for x, y in zip(before, pairs, strict=True) if x != y)
        if changed:
            notes.insert(0, f"{changed} round-one ties {moved} to keep clubs apart.")
    ties = tuple(
        Pairing(
            position=p,
            home=slots[upper].key,
            away=None if lower is None else slots[lower].key,
            home_seed=upper + 1,
            away_seed=None if lower is None else lower + 1,
        )
        for p, (upper, lower) in enumerate(pairs)
    )
    return Draw(size=size, ties=ties, seed=seed, notes=tuple(notes))


def seeded_draw(slots: Sequence[Slot], *, byes: bool = True, protect: bool = False) -> Draw:
    """A draw by ranking: ``slots`` best seed first (e.g. last season's table)."""
    return _place(
        _validate(slots),
        byes=byes,
        protect=protect,
        seed=None,
        moved="took the next-ranked opponent",
    )


def random_draw(
    slots: Sequence[Slot], *, seed: int, byes: bool = True, protect: bool = False
) -> Draw:
    """A random draw: ``slots`` shuffled by ``random.Random(seed)`` and placed as seeds, so the
    order they came out in decides the byes (first out, first bye, as names from a hat)."""
    checked = _validate(slots)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise DrawError("The draw's seed is a whole number of 0 or more.")
    shuffled = list(checked)
    random.Random(seed).shuffle(shuffled)
    return _place(shuffled, byes=byes, protect=protect, seed=seed, moved="were redrawn")


def _count(number: int, thing: str) -> str:
    """ "1 group", "2 groups"."""
    return f"{number} {thing}{'' if number == 1 else 's'}"


def snake_groups(slots: Sequence[Slot], *, groups: int) -> tuple[tuple[Hashable, ...], ...]:
    """Split ``slots`` (best seed first) into ``groups`` balanced groups in snake order."""
    checked = _validate(slots)
    if groups < 1:
        raise DrawError("A group stage needs at least one group.")
    if len(checked) < 2 * groups:
        raise DrawError(
            f"{len(checked)} entrants cannot fill {_count(groups, 'group')} of at least 2; "
            f"use at most {_count(len(checked) // 2, 'group')}."
        )
    out: list[list[Hashable]] = [[] for _ in range(groups)]
    for i, slot in enumerate(checked):
        lap, step = divmod(i, groups)
        out[step if lap % 2 == 0 else groups - 1 - step].append(slot.key)
    return tuple(tuple(g) for g in out)


def crossed_qualifiers(
    standings: Sequence[Sequence[Hashable]], *, qualifiers: int
) -> tuple[Slot, ...]:
    """The bracket's seed list from group standings (each group's keys, top first).

    Group winners are seeds 1..g in group order; each later place follows with the groups taken
    in partner order (B, A, D, C …), so with the usual ladder A1 meets B2 and B1 meets A2.  Each
    slot's club is its group, so protection keeps a group's own entrants apart in round one
    (that is how an odd number of groups is crossed)."""
    if qualifiers < 1:
        raise DrawError("At least one entrant of each group goes through.")
    g = len(standings)
    if g < 1:
        raise DrawError("There are no groups to take qualifiers from.")
    for index, table in enumerate(standings):
        if len(table) < qualifiers:
            raise DrawError(
                f"Group {chr(ord('A') + index)} has {len(table)} entrants; "
                f"{qualifiers} cannot go through from it."
            )
    if g * qualifiers < 2:
        raise DrawError("A knock-out needs at least 2 qualifiers; take more from each group.")
    slots: list[Slot] = []
    for place in range(qualifiers):
        if place == 0:
            order = list(range(g))
        else:
            order = [(g - 1 - j) ^ 1 for j in range(g)]
            if g % 2 or place % 2 == 0:
                order = list(range(g)) if place % 2 == 0 else list(reversed(range(g)))
        for group in order:
            slots.append(
                Slot(
                    key=standings[group][place],
                    club=("group", group),
                    name=f"{chr(ord('A') + group)}{place + 1}",
                )
            )
    return tuple(slots)
