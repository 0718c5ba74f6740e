"""Checking a store against this arena's engine: every stored game replayed from its deal.

A stored game is its deal seed and its moves (:mod:`arena.tournament.replay`); the rankings
count its stored result. When the engine that played it had a bug since fixed, the moves no
longer replay (a move is refused, or the game ends before its moves do) or they replay to
another result, and that game's result in the rankings is not this engine's. :func:`verify`
finds such games; :meth:`~arena.tournament.store.Store.drop_games` takes them out so that the
next ``arena run`` plays them again from the same deals.

A stored result is the replay's with every faulty seat placed last (the referee's rule,
with :func:`~arena.play.referee.faulty_last`); a match's is compared hand by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from arena.engine.game import Game
from arena.engine.outcome import Outcome
from arena.engine.rules import RuleSet, build_rules
from arena.errors import ArenaError
from arena.play.referee import faulty_last
from arena.tournament.errors import StoreError
from arena.tournament.records import GameRecord, places_text
from arena.tournament.lock import run_lock
from arena.tournament.replay import open_results, record_hands
from arena.tournament.store import Store, results_path


@dataclass(frozen=True)
class Divergence:
    """A stored game that this engine does not replay to its stored result, and how."""

    game_id: int
    detail: str


@dataclass(frozen=True)
class Verification:
    """The stored games replayed (``games``) and those that diverge, in schedule order."""

    games: int
    diverging: tuple[Divergence, ...]


def verify_results(results_dir: Path, name: str, drop: bool = False) -> Verification:
    """Verify tournament ``name``'s store under ``results_dir``; with ``drop``, take the games
    that diverge out of it, holding the tournament's lock (a tournament being run is refused
    with :class:`~arena.tournament.lock.TournamentBusyError`, and nothing is dropped)."""
    if not drop:
        with open_results(results_dir.parent, name) as store:
            return verify(store)
    with run_lock(name, results_dir):
        open_results(results_dir.parent, name).close()  # the one-line error when there is none
        with Store.open(results_path(name, results_dir), create=False) as store:
            checked = verify(store)
            store.drop_games(found.game_id for found in checked.diverging)
    return checked


def verify(store: Store) -> Verification:
    """Replay every game of ``store`` under its rules snapshot; the ones that diverge."""
    info = store.tournament()
    if info is None:
        raise StoreError(f"{store.path}: no tournament is stored there")
    rules = build_rules(info.rules_snapshot, f"{store.path}: rules snapshot")
    games = 0
    diverging = []
    for game_id, record in store.games_as_read():
        games += 1
        detail = (divergence(record, rules) if isinstance(record, GameRecord)
                  else f"its stored row cannot be read ({record.__cause__ or record})")
        if detail is not None:
            diverging.append(Divergence(game_id, detail))
    return Verification(games, tuple(diverging))


def divergence(record: GameRecord, rules: RuleSet) -> str | None:
    """How ``record`` fails to replay under ``rules`` (one line), or ``None`` when it replays to
    its stored result."""
    hands = record_hands(record, rules)
    for number, hand in enumerate(hands, 1):
        where = f"hand {number}, " if len(hands) > 1 else ""
        refused = _replay(hand.game, hand.moves)
        if refused is not None:
            return where + refused
        assert hand.game.outcome is not None  # _replay says so otherwise
        if record.hands:
            stored = record.hands[number - 1]
            expected = (tuple(tuple(p) for p in stored["places"]), stored["winner"], stored["reason"])
            got = (hand.game.outcome.places, hand.game.outcome.winner, hand.game.outcome.reason)
            if got != expected:
                return where + _differs(hand.game.outcome, expected[2], expected[0], record.table)
        else:
            outcome = hand.game.outcome
            faulty = {fault.seat for fault in record.faults}
            places, winner = faulty_last(outcome.places, outcome.winner, faulty, outcome.reason)
            if (places, winner, outcome.reason) != (record.places, record.winner, record.reason):
                return _differs(outcome, record.reason, record.places, record.table)
    return None


def _replay(game: Game, moves: tuple[str, ...]) -> str | None:
    """Apply ``moves``; what went wrong (a refused move, moves left over, a game not ended)."""
    for index, move in enumerate(moves, 1):
        try:
            game.apply(move)
        except ArenaError as error:
            return f"move {index} ({move!r}) is refused: {error}"
    if game.outcome is None:
        return f"the game has not ended after its {len(moves)} stored moves"
    return None


def _differs(outcome: Outcome, reason: str, places: tuple[tuple[int, ...], ...],
             table: tuple[str, ...]) -> str:
    return (f"replays to {outcome.reason} ({places_text(table, outcome.places)}), "
            f"stored {reason} ({places_text(table, places)})")
