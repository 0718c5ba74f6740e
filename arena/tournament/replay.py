"""Opening a stored tournament by name, and rebuilding a stored game for replay.

A stored game is replayed from what the store holds: the rule settings snapshot taken when the
tournament started, the deal seed and the table size rebuild the deal (``Game.new``); the stored
action texts, forced ones included, are then applied one by one (the fallback's moves for a
faulty seat are among them), so the replay is exactly the game that was played. A match of
several hands (RULINGS F2) is replayed hand by hand, each from its stored seed and lead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from arena.engine.game import Game
from arena.engine.rules import build_rules
from arena.tournament.errors import StoreError
from arena.tournament.records import GameRecord
from arena.tournament.store import Store, results_path


_ARCHIVE = re.compile(r"\.\d{8}T\d{6}Z(-\d+)?$")  # <name>.<UTC time>.sqlite from a restart


@dataclass
class StoredHand:
    """One hand ready to replay: the fresh deal (``game``) and the ``moves`` to apply."""

    game: Game
    moves: tuple[str, ...]


@dataclass
class StoredGame:
    """A stored game ready to replay: its hands in order (one, unless the game is a match)."""

    hands: list[StoredHand]
    record: GameRecord


def open_results(home: str | Path, name: str) -> Store:
    """The read-only store of tournament ``name`` under ``<home>/results``; one-line error if none."""
    folder = Path(home) / "results"
    path = results_path(name, folder)
    if not path.is_file():
        known = sorted(p.stem for p in folder.glob("*.sqlite") if not _ARCHIVE.search(p.stem))
        hint = f" (stored: {', '.join(known)})" if known else " (no tournament stored there yet)"
        raise StoreError(f"no tournament {name!r} under {folder}{hint}")
    return Store.open(path, readonly=True)


def stored_game(store: Store, game_id: int) -> StoredGame:
    """Rebuild stored game ``game_id`` at its deal; raises :class:`StoreError` if not stored."""
    record = store.game(game_id)
    info = store.tournament()
    if record is None or info is None:
        raise StoreError(f"{store.path}: game {game_id} is not stored ({store.game_count()} games are)")
    rules = build_rules(info.rules_snapshot, f"{store.path}: rules snapshot")
    seats = len(record.table)
    if not record.hands:
        return StoredGame([StoredHand(Game.new(rules, seats, record.deal_seed), record.moves)], record)
    hands = [StoredHand(Game.new(rules, seats, hand["seed"], lead=hand["lead"]), tuple(hand["moves"]))
             for hand in record.hands]
    return StoredGame(hands, record)


def load_stored_game(home: str | Path, name: str, game_id: int) -> StoredGame:
    """Stored game ``game_id`` of tournament ``name`` under ``home``, rebuilt at its deal."""
    with open_results(home, name) as store:
        return stored_game(store, game_id)
