"""The deterministic game schedule of a tournament.

Order: rounds, then tables within a round, then seatings within a deal: round 0 deals once at
every table, then round 1, and so on, so every bot's games are spread over the whole run.

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
cancels out. A deal's seed belongs to the deal itself, not to its place in the schedule: SHA-256
of the tournament's seed, the round and the table's bots (:func:`table_deal_seed`, 63 bits, fits
SQLite). So a tournament that grows (more bots, more rounds: :mod:`arena.tournament.growth`)
deals every kept game the same cards as before, and the same as the grown tournament played
from scratch. Anyone who knows ``seed`` can recompute every deal: :func:`fresh_seed` draws a
secret one (a tournament file without ``seed``, ``arena submit``, ``arena duel``).

A tournament's deals count the table's bots with their versions (:data:`DEALS_BY_VERSION`): a
bot's new version, whose games are played again, is dealt new cards. Dealt the old ones, it
could be told every hand of them by its earlier version (which sits in every seat of a deal in
turn, and can write what it sees into a fault's message for its author), and would play them
with the cards face up. A duel's deals count the names alone (:data:`DEALS_BY_NAME`): it keeps
nothing to grow, and one seed deals two versions of a bot the same cards, to compare them game
for game. So do the stores begun before versions counted, whatever their seed, so that a
resumed or grown run still plays the games it would have.

A game's ``game_id`` is its index in schedule order, so results are comparable across runs and
the whole schedule never needs to exist in memory: :class:`Schedule` computes any game from its id.

Stores written before tournaments could grow keep the layout they were played in
(:data:`TABLES_FIRST`): tables, then rounds, then seatings, each deal seeded from its index
(:func:`deal_seed`); such a tournament resumes as it started.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.errors import ConfigError
from arena.tournament.config import MAX_ROUNDS, MAX_SEED, SWISS, TournamentConfig


ROUNDS_FIRST = "rounds-first"   # the layout of every new tournament (see the module docstring)
TABLES_FIRST = "tables-first"   # the layout of the stores written before tournaments could grow
LAYOUTS = (ROUNDS_FIRST, TABLES_FIRST)
DEALS_BY_VERSION = "by-version"  # a table's deal seeds from its bots' names and versions
DEALS_BY_NAME = "by-name"        # from their names alone: a duel's, and the older stores
DEAL_SCHEMES = (DEALS_BY_VERSION, DEALS_BY_NAME)
MAX_TABLES = 1_000_000  # a schedule keeps its tables in a list: ~100 MB at four seats


@dataclass(frozen=True, slots=True)
class ScheduledGame:
    """One game to play: ``table`` holds the bot name in each seat."""

    game_id: int
    deal_id: int
    table: tuple[str, ...]
    deal_seed: int
    seating: int


def deal_seed(seed: int, deal_id: int) -> int:
    """The 63-bit seed of deal number ``deal_id`` drawn from ``seed`` (the deals of a
    :data:`TABLES_FIRST` schedule; ``arena submit`` numbers its deals the same way)."""
    return _seed_of(f"{seed}:{deal_id}")


def table_deal_seed(seed: int, round_index: int, table: Sequence[str],
                    versions: Mapping[str, str] | None = None) -> int:
    """The 63-bit seed of the deal of round ``round_index`` at ``table`` (its bots, as listed by
    :func:`tables`) in a tournament seeded with ``seed``: where the deal sits in the schedule
    does not matter, so a grown tournament deals it alike. With ``versions`` (bot -> version),
    each bot's version counts too (:data:`DEALS_BY_VERSION`), so a new version is dealt anew;
    without, the names alone (:data:`DEALS_BY_NAME`)."""
    members: list[Any] = list(table) if versions is None else [[b, versions[b]] for b in table]
    return _seed_of(f"{seed}:{round_index}:" + json.dumps(members, separators=(",", ":")))


def _seed_of(text: str) -> int:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def fresh_seed() -> int:
    """A secret seed, 0..MAX_SEED, from the operating system's randomness (:mod:`secrets`).

    63 bits: too many to search from the cards a bot sees, and the range a tournament file and
    SQLite accept, so a drawn seed can be stored and given back with ``--seed`` or ``seed:``.
    """
    return secrets.randbelow(MAX_SEED + 1)


def tables(config: TournamentConfig) -> list[tuple[str, ...]]:
    """The tables of the tournament in schedule order, each a tuple of bot names (seat 0 first);
    more than :data:`MAX_TABLES` raise :class:`ConfigError` before any is made."""
    field = sorted(entry.name for entry in config.bots)
    count = (len(config.candidates) * math.comb(len(field), config.seats - 1)
             if config.format == "gauntlet" else math.comb(len(field), config.seats))
    if count > MAX_TABLES:
        raise ConfigError(f"{config.name}: {len(field)} bots at {config.seats} seats make "
                          f"{count:,} tables, more than the {MAX_TABLES:,} a schedule holds: "
                          "use format: swiss, whose rounds seat each bot once")
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


def rounds_for(games: int, per_round: int) -> int:
    """The rounds that hold ``games`` games at ``per_round`` a round (a duel's, a calibration
    run's); more than a tournament file may ask for raise :class:`ConfigError`."""
    rounds = -(-games // per_round)
    if rounds > MAX_ROUNDS:
        raise ConfigError(f"{games:,} games would take {rounds:,} rounds of deals; at most "
                          f"{MAX_ROUNDS * per_round:,} games ({MAX_ROUNDS:,} rounds)")
    return rounds


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
        arrangements: Sequence[tuple[int, ...]], seed: int, layout: str = ROUNDS_FIRST,
        versions: Mapping[str, str] | None = None,
    ) -> None:
        if layout not in LAYOUTS:
            raise ConfigError(f"unknown schedule layout {layout!r} "
                              f"(expected one of {', '.join(LAYOUTS)})")
        self._tables = list(table_list)
        self._rounds = rounds
        self._arrangements = list(arrangements)
        self._seed = seed
        self.layout = layout
        self._versions = versions
        self._last_deal: tuple[int, int] = (-1, 0)    # (deal_id, its seed): replays come in a row

    @classmethod
    def from_config(cls, config: TournamentConfig, layout: str = ROUNDS_FIRST,
                    versions: Mapping[str, str] | None = None) -> Schedule:
        """The schedule that ``config`` describes; its seed must be settled (not ``None``).
        ``versions`` (bot -> version) deal :data:`DEALS_BY_VERSION`, ``None`` by name.

        A swiss tournament has none: its rounds are made one at a time, from the ratings
        (:class:`arena.tournament.adaptive.Course`).
        """
        if config.format == SWISS:
            raise ConfigError(f"tournament {config.name!r} is a swiss tournament: its rounds are "
                              "made one at a time from the ratings, not scheduled in advance")
        if config.seed is None:
            raise ConfigError(f"tournament {config.name!r} has no seed yet: draw one "
                              "(arena.tournament.setup.settle_seed) before scheduling it")
        return cls(tables(config), config.rounds, deal_seatings(config), config.seed, layout,
                   versions)

    @property
    def tables(self) -> list[tuple[str, ...]]:
        """The tables in schedule order (see the module docstring; seats come from the seating)."""
        return list(self._tables)

    @property
    def rounds(self) -> int:
        """Fresh deals per table."""
        return self._rounds

    @property
    def arrangements(self) -> list[tuple[int, ...]]:
        """The seatings of every deal (:func:`deal_seatings`)."""
        return list(self._arrangements)

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
        round_index, table_index, seating = self.locate(game_id)
        deal_id = game_id // len(self._arrangements)
        members = self._tables[table_index]
        table = tuple(members[i] for i in self._arrangements[seating])
        if self._last_deal[0] != deal_id:
            seed = (table_deal_seed(self._seed, round_index, members, self._versions)
                    if self.layout == ROUNDS_FIRST else deal_seed(self._seed, deal_id))
            self._last_deal = (deal_id, seed)
        return ScheduledGame(game_id, deal_id, table, self._last_deal[1], seating)

    def __iter__(self) -> Iterator[ScheduledGame]:
        return (self[game_id] for game_id in range(len(self)))

    def locate(self, game_id: int) -> tuple[int, int, int]:
        """``(round, table index, seating)`` of game ``game_id``; raises ``IndexError`` outside."""
        if not 0 <= game_id < len(self):
            raise IndexError(f"game id {game_id} is outside the schedule (0..{len(self) - 1})")
        deal_id, seating = divmod(game_id, len(self._arrangements))
        if self.layout == ROUNDS_FIRST:
            round_index, table_index = divmod(deal_id, len(self._tables))
        else:
            table_index, round_index = divmod(deal_id, self._rounds)
        return round_index, table_index, seating

    def game_id(self, round_index: int, table_index: int, seating: int) -> int:
        """The id of the game of round ``round_index`` at table ``table_index`` in ``seating``."""
        if self.layout == ROUNDS_FIRST:
            deal_id = round_index * len(self._tables) + table_index
        else:
            deal_id = table_index * self._rounds + round_index
        return deal_id * len(self._arrangements) + seating

    def pending(self, done: Iterable[int]) -> Iterator[ScheduledGame]:
        """The games whose ids are not in ``done``, in schedule order (for resuming)."""
        finished = set(done)
        return (self[g] for g in range(len(self)) if g not in finished)

    def games_of(self, bot: str) -> Iterator[ScheduledGame]:
        """The games in which ``bot`` plays, in schedule order."""
        mine = [index for index, members in enumerate(self._tables) if bot in members]
        deals = (
            (r, t) for r in range(self._rounds) for t in mine
        ) if self.layout == ROUNDS_FIRST else ((r, t) for t in mine for r in range(self._rounds))
        for round_index, table_index in deals:
            start = self.game_id(round_index, table_index, 0)
            yield from (self[g] for g in range(start, start + len(self._arrangements)))


def schedule_size(bots: int, seats: int, rounds: int, kind: str = "rotations") -> int:
    """Games in a round-robin of ``bots`` bots (a quick estimate without building a config)."""
    replays = math.factorial(seats) if kind == "permutations" else seats
    return math.comb(bots, seats) * rounds * replays
