"""Opening a stored tournament by name, and rebuilding a stored game for replay.

A stored game is replayed from what the store holds: the rule settings snapshot taken when the
tournament started, the deal seed and the table size rebuild the deal (``Game.new``); the stored
action texts, forced ones included, are then applied one by one (the fallback's moves for a
faulty seat are among them), so the replay is exactly the game that was played. A match of
several hands (RULINGS F2) is replayed hand by hand, each from its stored seed and lead.

:func:`replay_moves` applies moves one by one and says what each did to the table
(:class:`Effect`): a penalty added, taken or cancelled, a seat skipped, the direction reversed,
hands swapped, a suit or the last card called. The effects are read from the engine's state
before and after the move, never from a second copy of the rules, so they cannot disagree with
what the engine did.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from arena.engine.actions import Pass, Play
from arena.engine.cards import SUITS
from arena.engine.effects import PenaltyStep, last_card_charge, live_cards
from arena.engine.game import Event, Game
from arena.engine.rules import RuleSet, build_rules
from arena.settings import did_you_mean
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
        known = sorted(p.stem for p in folder.glob("*.sqlite")
                       if p.is_file() and not _ARCHIVE.search(p.stem))
        hint = f" (stored: {', '.join(known)})" if known else " (no tournament stored there yet)"
        raise StoreError(f"no tournament {name!r}{did_you_mean(name, known)} under {folder}{hint}")
    return Store.open(path, readonly=True)


def stored_game(store: Store, game_id: int) -> StoredGame:
    """Rebuild stored game ``game_id`` at its deal; raises :class:`StoreError` if not stored."""
    record = store.game(game_id)
    info = store.tournament()
    if record is None or info is None:
        raise StoreError(f"{store.path}: game {game_id} is not stored ({store.game_count()} games are)")
    rules = build_rules(info.rules_snapshot, f"{store.path}: rules snapshot")
    return StoredGame(record_hands(record, rules), record)


def record_hands(record: GameRecord, rules: RuleSet) -> list[StoredHand]:
    """The hands of ``record`` dealt afresh under ``rules``, each with the moves to apply: one
    hand from the deal seed, or a match's hands each from its stored seed and lead."""
    seats = len(record.table)
    if not record.hands:
        return [StoredHand(Game.new(rules, seats, record.deal_seed), record.moves)]
    return [StoredHand(Game.new(rules, seats, hand["seed"], lead=hand["lead"]), tuple(hand["moves"]))
            for hand in record.hands]


def load_stored_game(home: str | Path, name: str, game_id: int) -> StoredGame:
    """Stored game ``game_id`` of tournament ``name`` under ``home``, rebuilt at its deal."""
    with open_results(home, name) as store:
        return stored_game(store, game_id)


class EffectKind(Enum):
    """What a move did to the table besides moving its cards."""

    BLUNDER = "blunder"                # an illegal play that cost cards instead (B4)
    PENALTY_TAKEN = "penalty taken"    # the pending penalty was drawn
    CANCEL = "cancel"                  # the pending penalty was cancelled
    PICKUP = "pickup"                  # a penalty was added for the next seat
    LAST_CARD = "last card"            # the play announced its last card
    LAST_CARD_MISSED = "no last card"  # a play without the last-card call the rules ask for cost cards
    CALL = "call"                      # the play called a suit
    REVERSE = "reverse"                # reverse cards turned the direction of play (``total`` of them)
    SWAP = "swap"                      # the player's hand went to another seat and back
    SKIP = "skip"                      # a seat lost its turn
    AGAIN = "again"                    # the same seat moves again (two seats)
    SKIP_PENDING = "skip pending"      # a skip waits for the next seat to answer or accept
    SKIP_TAKEN = "skip taken"          # a pending skip was accepted with a pass
    RECYCLE = "recycle"                # the pile was shuffled into the stock


@dataclass(frozen=True)
class Effect:
    """One effect of a move: its kind, the seat it fell on (skip, swap...), the cards it
    involved (a penalty's size) and a word (the penalty's kind, the suit called)."""

    kind: EffectKind
    seat: int | None = None
    amount: int = 0
    total: int = 0
    word: str = ""


@dataclass(frozen=True)
class Step:
    """One applied move: its 1-based ``index``, the ``seat`` that made it, the ``action``
    text, the cards it ``drew`` and its ``effects``."""

    index: int
    seat: int
    action: str
    drew: int
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class _Before:
    """The parts of the table a move's effects are read against."""

    seat: int
    direction: int
    pending_kind: str | None
    pending_amount: int
    pending_skip: bool
    hands: tuple[frozenset[int], ...]
    discard: int
    announced: bool   # the seat to move holds a standing last-card announcement (L10)

    @classmethod
    def of(cls, game: Game) -> _Before:
        return cls(game.to_move, game.direction, game.pending_kind, game.pending_amount,
                   game.pending_skip, tuple(frozenset(h) for h in game.hands), len(game.discard),
                   game.announced[game.to_move])


def replay_moves(game: Game, moves: Iterable[str]) -> Iterator[Step]:
    """Apply ``moves`` to ``game`` in order, yielding each as a :class:`Step` once applied.

    A move the engine refuses raises its :class:`~arena.errors.InvalidActionError`,
    :class:`~arena.errors.IllegalActionError` or, after the end, :class:`~arena.errors.GameOverError`
    (the steps before it were yielded).
    """
    for index, text in enumerate(moves, 1):
        before = _Before.of(game)
        trace: list[PenaltyStep] = []
        game.penalty_trace = trace   # the engine's own steps of the penalties, as they happen
        try:
            game.apply(text)
        finally:
            game.penalty_trace = None
        event = game.history[-1]
        yield Step(index, before.seat, str(event.action), event.drew,
                   _effects(before, game, event, trace))


def _effects(before: _Before, game: Game, event: Event, trace: list[PenaltyStep]) -> tuple[Effect, ...]:
    """What the move did, in the order it happened (G3: penalties, then table effects)."""
    action = event.action
    effects: list[Effect] = []
    if event.blunder:
        effects.append(Effect(EffectKind.BLUNDER))
    play = action if type(action) is Play and not event.blunder else None
    if play is None:
        if before.pending_kind is not None and game.pending_kind is None:
            effects.append(Effect(EffectKind.PENALTY_TAKEN, amount=before.pending_amount,
                                  word=before.pending_kind))
        if type(action) is Pass and before.pending_skip:
            effects.append(Effect(EffectKind.SKIP_TAKEN))
    else:
        effects += _play_effects(before, game, play, trace)
    laid = len(play.cards) if play is not None else 0
    if len(game.discard) < before.discard + laid:
        effects.append(Effect(EffectKind.RECYCLE))
    return tuple(effects)


def _play_effects(before: _Before, game: Game, play: Play, trace: list[PenaltyStep]) -> list[Effect]:
    seat = before.seat
    # G3b, F9: a play that empties its hand wins, and its penalties apply to no one
    effects = _penalty_effects(trace) if game.hands[seat] else []
    if play.announce:
        effects.append(Effect(EffectKind.LAST_CARD))
    effects += _missed_call(before, game, play)
    if play.call is not None and game.active_suit >= 0:
        effects.append(Effect(EffectKind.CALL, word=SUITS[game.active_suit]))
    # each reverse card laid turns the table (two in one play turn it back, G3c), if play goes on
    power_of = game.rules.power_of
    turns = (sum(power_of[card].reverse for card in live_cards(game.rules, play.roles or play.cards))
             if game.hands[seat] else 0)
    if turns:
        effects.append(Effect(EffectKind.REVERSE, amount=game.direction, total=turns))
    mine = frozenset(game.hands[seat])
    # Cards are unique and no other hand is empty mid-game, so holding exactly another seat's
    # earlier hand means the hands were swapped.
    effects += [Effect(EffectKind.SWAP, seat=other) for other, hand in enumerate(before.hands)
                if other != seat and hand and hand == mine]
    if game.outcome is None:
        effects += _turn_effects(seat, game)
    return effects


def _penalty_effects(trace: list[PenaltyStep]) -> list[Effect]:
    """The play's penalty steps in laid order, from the engine's ``trace``: each pickup (its
    cards, the total), and each run of cancels as one (the penalty it met, the cards it took
    off; S8: its player draws the rest at once)."""
    effects = []
    met: PenaltyStep | None = None   # the first cancel of a run
    for step in trace:
        if step.step == "pickup":
            effects.append(Effect(EffectKind.PICKUP, amount=step.amount, total=step.total, word=step.kind))
        elif step.step == "cancel":
            met = met or step
        else:  # settle: the run of cancels ends
            assert met is not None   # apply_penalties settles only after a cancel
            effects.append(Effect(EffectKind.CANCEL, amount=met.amount, total=met.amount - step.amount,
                                  word=met.kind))
            met = None
    return effects


def _missed_call(before: _Before, game: Game, play: Play) -> list[Effect]:
    """The draw a play without its last-card call cost, by the engine's rule (W5's penalty
    for leaving one card unannounced; L10's card for going out without a standing call,
    ``word`` "out"); ``amount``: what the rule charges, the stock may hold fewer."""
    held = len(before.hands[before.seat])
    charge = last_card_charge(game.rules, len(play.cards), held, play.announce, before.announced)
    if not charge:
        return []
    return [Effect(EffectKind.LAST_CARD_MISSED, amount=charge,
                   word="out" if held == len(play.cards) else "")]


def _turn_effects(seat: int, game: Game) -> list[Effect]:
    """Who moves next, against the seat that would without any power: skips, or going again."""
    if game.pending_skip:
        return [Effect(EffectKind.SKIP_PENDING, seat=game.to_move)]
    if game.to_move == seat:
        return [Effect(EffectKind.AGAIN)]
    skipped = []
    nxt = (seat + game.direction) % game.seats
    while nxt != game.to_move:
        skipped.append(Effect(EffectKind.SKIP, seat=nxt))
        nxt = (nxt + game.direction) % game.seats
    return skipped
