"""A game as frames to step through: the table before the first move and after every move.

``arena watch`` shows a stored game (or a position file's moves) one move at a time, forwards
and backwards, with every hand visible. :func:`frames` replays the moves once with
:func:`~arena.tournament.replay.replay_moves`, so each frame's :class:`~arena.tournament.replay.Step`
(the move and its effects) is the replay's own, and keeps a copy of the table as the move left
it, so stepping back costs nothing. A match of several hands is one run of frames, hand after
hand, each frame saying which hand it is of.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from arena.engine.game import Game, Pending
from arena.errors import ArenaError, GameOverError, IllegalActionError, InvalidActionError
from arena.settings import show
from arena.engine.outcome import Outcome
from arena.tournament.replay import Step, replay_moves


@dataclass(frozen=True)
class Table:
    """What a watcher sees of a game at one moment (the referee's view: every hand)."""

    rules: str
    seed: int
    hands: tuple[tuple[int, ...], ...]
    top: int            # the card on the pile
    top_card: int       # what it acts as (a joker: the card it names)
    active_suit: int    # -1: any suit
    pending: Pending | None
    pending_skip: bool
    direction: int
    stock: int
    to_move: int
    decisions: int
    outcome: Outcome | None

    @classmethod
    def of(cls, game: Game) -> Table:
        """The table of ``game`` now."""
        return cls(game.rules.name, game.seed, tuple(tuple(hand) for hand in game.hands), game.top,
                   game.top_card, game.active_suit, game.pending,
                   game.pending_skip, game.direction, len(game.stock), game.to_move,
                   game.decisions, game.outcome)


@dataclass(frozen=True)
class Frame:
    """The table after ``step`` (``None``: before the hand's first move), in hand ``hand``
    (0-based) of ``hands``; ``move`` counts the moves of the whole game up to it."""

    table: Table
    step: Step | None
    hand: int
    hands: int
    move: int


class UnplayableMoveError(ArenaError):
    """A move of the game cannot be played from the table its earlier moves left."""


def frames(hands: Iterable[tuple[Game, Iterable[str]]]) -> list[Frame]:
    """Every frame of the ``hands`` (a fresh deal and its moves each, in order): a hand's
    starting table, then one frame per move. A move the engine refuses raises
    :class:`UnplayableMoveError`, naming it by its number and its text."""
    dealt = list(hands)
    result: list[Frame] = []
    move = 0
    for number, (game, moves) in enumerate(dealt):
        result.append(Frame(Table.of(game), None, number, len(dealt), move))
        texts = list(moves)
        first = move   # the game's move count where this hand starts
        try:
            for step in replay_moves(game, texts):
                move += 1
                result.append(Frame(Table.of(game), step, number, len(dealt), move))
        except (InvalidActionError, IllegalActionError, GameOverError) as error:
            raise UnplayableMoveError(f"move {move + 1} ({show(texts[move - first])}) cannot be "
                                      f"played: {error}") from None
    return result
