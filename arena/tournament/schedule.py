"""The deterministic game schedule of a tournament.

Order: tables, then deals within a table (``rounds`` fresh deals), then seatings within a deal.

* Round-robin: every ``seats``-sized combination of the sorted bot names
  (``itertools.combinations``). With fewer bots than seats (a duel's; a tournament file is
  refused that) there is one table, which the bots fill in turn in the order given:
  ``A B A B`` for two bots at four seats, ``A B C A`` for three.
* Gauntlet: each candidate (sorted) with every ``(seats - 1)``-combination of the sorted field;
  the candidate is listed first.
* Seatings: ``rotations`` replays each deal ``seats`` times, rotation ``k`` putting bot
  ``(i + k) mod seats`` of the table in seat ``i``; ``permutations`` replays it in every
  permutation (``itertools.permutations`` order, identity first). A seating that repeats the
  line-up of an earlier one (a bot holding several seats: rotations 0 and 2 of ``A B A B``) is
  left out, as its game would only replay that one.

Every replay of one deal shares its ``deal_id`` and ``deal_seed`` (duplicate deals), so seat luck
cancels out. ``deal_seed`` comes from SHA-256 of ``f"{seed}:{deal_id}"`` (63 bits, fits SQLite).
Anyone who knows ``seed`` can therefore recompute every deal: :func:`fresh_seed` draws a secret
one (a tournament file without ``seed``, ``arena submit``, ``arena duel``).
A game's ``game_id`` is its index in schedule order, so results are comparable across runs and
the whole schedule never needs to exist in memory: :class:`Schedule` computes any game from its id.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import secrets
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from arena.errors import ConfigError
from arena.tournament.config import MAX_SEED, TournamentConfig


@dataclass(frozen=True, slots=True)
class ScheduledGame:
    """One game to play: ``table`` holds the bot name in each seat."""

    game_id: int
    deal_id: int
    table: tuple[str, ...]
    deal_seed: int
    seating: int


def deal_seed(seed: int, deal_id: int) -> int:
    """The 63-bit seed of deal ``deal_id`` in a tournament seeded with ``seed``."""
    digest = hashlib.sha256(f"{seed}:{deal_id}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def fresh_seed() -> int:
    """A secret seed, 0..MAX_SEED, from the operating system's randomness (:mod:`secrets`).

    63 bits: too many to search from the cards a bot sees, and the range a tournament file and
    SQLite accept, so a drawn seed can be stored and given back with ``--seed`` or ``seed:``.
    """
    return secrets.randbelow(MAX_SEED + 1)


def tables(config: TournamentConfig) -> list[tuple[str, ...]]:
    """The tables of the tournament in schedule order, each a tuple of bot names (seat 0 first)."""
    field = sorted(entry.name for entry in config.bots)
    if config.format == "gauntlet":
        candidates = sorted(entry.name for entry in config.candidates)
        return [
            (cand, *rest)
            for cand in candidates
            for rest in itertools.combinations(field, config.seats - 1)
        ]
    if len(field) < config.seats:
        given = [entry.name for entry in config.bots]  # the order given decides who sits twice
        return [tuple(given[i % len(given)] for i in range(config.seats))]
    return list(itertools.combinations(field, config.seats))


def seatings(seats: int, kind: str) -> list[tuple[int, ...]]:
    """Seat arrangements as index tuples: seat ``i`` gets table member ``arrangement[i]``."""
    if kind == "permutations":
        return list(itertools.permutations(range(seats)))
    return [tuple((i + k) % seats for i in range(seats)) for k in range(seats)]


def deal_seatings(config: TournamentConfig) -> list[tuple[int, ...]]:
    """The seatings each deal of ``config`` is played in: :func:`seatings`, less any that
    repeats an earlier one's line-up.

    Only the table of fewer bots than seats has repeats (rotations 0 and 2 of ``A B A B`` seat
    the same bots alike); at a table of distinct bots every seating is a different game.
    """
    arrangements = seatings(config.seats, config.seatings)
    if config.format == "gauntlet" or len(config.bots) >= config.seats:
        return arrangements
    table = tables(config)[0]
    seen: set[tuple[str, ...]] = set()
    kept = []
    for arrangement in arrangements:
        line_up = tuple(table[i] for i in arrangement)
        if line_up not in seen:
            seen.add(line_up)
            kept.append(arrangement)
    return kept


class Schedule:
    """The games of a tournament in order; indexable by ``game_id`` without building them all."""

    def __init__(
        self, table_list: Sequence[tuple[str, ...]], rounds: int,
        arrangements: Sequence[tuple[int, ...]], seed: int,
    ) -> None:
        self._tables = list(table_list)
        self._rounds = rounds
        self._arrangements = list(arrangements)
        self._seed = seed

    @classmethod
    def from_config(cls, config: TournamentConfig) -> Schedule:
        """The schedule that ``config`` describes; its seed must be settled (not ``None``)."""
        if config.seed is None:
            raise ConfigError(f"tournament {config.name!r} has no seed yet: draw one "
                              "(arena.tournament.setup.settle_seed) before scheduling it")
        return cls(tables(config), config.rounds, deal_seatings(config), config.seed)

    @property
    def tables(self) -> list[tuple[str, ...]]:
        """The tables in schedule order (see the module docstring; seats come from the seating)."""
        return list(self._tables)

    @property
    def deal_count(self) -> int:
        """Number of distinct deals (tables x rounds)."""
        return len(self._tables) * self._rounds

    @property
    def seatings_per_deal(self) -> int:
        """How many times each deal is replayed."""
        return len(self._arrangements)

    def __len__(self) -> int:
        return self.deal_count * self.seatings_per_deal

    def __getitem__(self, game_id: int) -> ScheduledGame:
        if not 0 <= game_id < len(self):
            raise IndexError(f"game id {game_id} is outside the schedule (0..{len(self) - 1})")
        deal_id, seating = divmod(game_id, self.seatings_per_deal)
        members = self._tables[deal_id // self._rounds]
        table = tuple(members[i] for i in self._arrangements[seating])
        return ScheduledGame(game_id, deal_id, table, deal_seed(self._seed, deal_id), seating)

    def __iter__(self) -> Iterator[ScheduledGame]:
        return (self[game_id] for game_id in range(len(self)))

    def pending(self, done: Iterable[int]) -> Iterator[ScheduledGame]:
        """The games whose ids are not in ``done``, in schedule order (for resuming)."""
        finished = set(done)
        return (self[g] for g in range(len(self)) if g not in finished)

    def games_of(self, bot: str) -> Iterator[ScheduledGame]:
        """The games in which ``bot`` plays, in schedule order."""
        per_table = self._rounds * self.seatings_per_deal
        for index, members in enumerate(self._tables):
            if bot in members:
                start = index * per_table
                yield from (self[g] for g in range(start, start + per_table))


def schedule_size(bots: int, seats: int, rounds: int, kind: str = "rotations") -> int:
    """Games in a round-robin of ``bots`` bots (a quick estimate without building a config)."""
    replays = math.factorial(seats) if kind == "permutations" else seats
    return math.comb(bots, seats) * rounds * replays
