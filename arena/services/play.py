"""A person at the table: the session of ``arena play``, one seat played from the terminal and
the others by bots run the way tournaments run them.

The session is the referee of the game: it holds the match (every hand, the stock's order),
seats the bots in the sandbox (:class:`~arena.sandbox.seating.Seating`; ``trusted`` as in the
other commands), talks to them with the tournament referee's own steps
(:meth:`~arena.play.referee.Referee.start_hand`, :meth:`~arena.play.referee.Referee.choose`,
:meth:`~arena.play.referee.Referee.end_hand`, the forced moves of
:func:`~arena.play.referee.forced_action`), and plays a faulty bot's seat on with the seeded
fallback, as a tournament does. Everything is seeded: the same seed and the same moves of the
person replay the same game.

What the person is shown comes from two public sources only: :meth:`Session.view`, which is
:func:`~arena.engine.observation.observe` of the person's seat (what a bot there would get), and
the moves as they happen (:class:`Played`), each the replay's
:class:`~arena.tournament.replay.Step` computed by :func:`~arena.tournament.replay.replay_moves`,
the one effect detector: the action's text, how many cards it drew and what it did to the table.

The hint asks the search bot (``bots/mcts.py``, built in) in-process: its ``Bot(**options)`` is
built once per hand and asked ``advise(obs) -> (action, win chance)`` with the person's own
observation only. :func:`search_advisor` is the one place that finds it.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Union

from arena.engine.actions import Play, action_text
from arena.engine.match import Match, MatchOutcome
from arena.engine.observation import Observation, observe
from arena.engine.outcome import Outcome
from arena.engine.rules import RuleSet
from arena.errors import ArenaError, ConfigError
from arena.settings import show
from arena.play.faults import Fault
from arena.play.referee import BotClient, Referee, faulty_last, forced_action, seat_seed
from arena.sandbox import BotSpec, Limits, check_isolation
from arena.sandbox.seating import Seating
from arena.sandbox.workspace import builtin_dir
from arena.tournament.replay import EffectKind, Step, replay_moves

PERSON = "you"              # the person's seat's name at the table
SEARCH_BOT_FILE = "mcts.py"  # the built-in search bot that gives the hints
NOT_INSTALLED = "no hint: the search bot is not installed"


class MoveRefused(ArenaError):
    """The person's move cannot be played: unreadable, illegal, or no such number."""


class NoHint(ArenaError):
    """No hint can be given (the search bot is missing, or it is not the person's move)."""


class Advisor(Protocol):
    """What a hint needs of the search bot."""

    def advise(self, obs: Observation) -> tuple[str, float]:
        """The action it would play (notation) and its estimated win chance for the seat to move."""


AdvisorFactory = Callable[[], Advisor]


@dataclass(frozen=True)
class Hint:
    """The search bot's advice: the ``action`` (notation), its estimated ``win_chance`` (0..1),
    and its ``number`` in the list of legal moves (``None``: a play the list leaves out)."""

    action: str
    win_chance: float
    number: int | None


@dataclass(frozen=True)
class Played:
    """A move made at the table, in hand ``hand`` (0-based): the replay's step (its ``index``
    counts the hand's moves); for the person's own move, the cards it ``drew`` (the other
    seats' draws stay hidden)."""

    hand: int
    step: Step
    drew: tuple[int, ...] = ()


@dataclass(frozen=True)
class HandOver:
    """Hand ``hand`` (0-based) ended with ``outcome``; ``wins`` counts the hands each seat has
    won so far, of the ``target`` a match is played to (1: a single hand)."""

    hand: int
    outcome: Outcome
    wins: tuple[int, ...]
    target: int


@dataclass(frozen=True)
class BotFaulted:
    """A bot faulted at ``seat``: its fault ``code`` and ``detail``; the fallback plays on."""

    hand: int
    seat: int
    code: str
    detail: str


@dataclass(frozen=True)
class CardsLeft:
    """A seat's cards at the end of the last hand, and their score (``points``: the rule set
    counts points, else the score is the number of cards)."""

    cards: tuple[int, ...]
    score: int
    points: bool


News = Union[Played, HandOver, BotFaulted]


class _PersonSeat:
    """The person's seat as the referee's steps see it: a client that takes the start and end
    messages silently (the person sees the table instead) and is never asked to act."""

    def start_game(self, info: dict[str, Any]) -> None:
        """Nothing to send: the person reads the table."""

    def act(self, message: dict[str, Any]) -> str:
        """Never called: the session asks the person itself."""
        raise AssertionError("the person's seat is not asked through the referee")

    def end_game(self, result: dict[str, Any]) -> None:
        """Nothing to send: the result is shown."""

    def close_game(self) -> None:
        """No process to end."""

    def log_tail(self, lines: int = 20) -> str:
        """No log."""
        return ""


class Session:
    """One game (a match of hands, F2) with the person at ``seat`` and ``bots[i]`` in the i-th
    of the other seats, dealt from ``seed``; ``names`` are the seats' names (the person's is
    :data:`PERSON`). ``advisor`` builds the search bot for hints (``None``: not installed).

    The loop: :meth:`advance` (the bots move until the person must), show :meth:`view`, then
    :meth:`move` with the person's choice, until :attr:`is_over`. :meth:`close` ends the bots'
    games (a context manager does it too).
    """

    def __init__(self, rules: RuleSet, seat: int, bots: Sequence[BotClient], seed: int,
                 names: Sequence[str], advisor: AdvisorFactory | None = None) -> None:
        seats = len(bots) + 1
        check_table(rules, seats, seat)
        self.rules, self.seat, self.seed = rules, seat, seed
        self.names = tuple(names)
        self.clients: list[BotClient] = [*bots[:seat], _PersonSeat(), *bots[seat:]]
        self.referee = Referee(rules)
        self.match = Match.new(rules, seats, seed)
        self.faults: dict[int, Fault] = {}
        self._told: set[int] = set()   # the faulty seats whose fault the news has carried
        self._seen = [0] * seats
        self._fallback = [random.Random(seat_seed(seed, s, "fallback")) for s in range(seats)]
        self._advisor_factory = advisor
        self._advisor: tuple[int, Advisor] | None = None  # the hand it was built for, and it
        self._closed = False
        self.referee.start_hand(self.clients, self.match, self.faults)

    # -- the person's side ------------------------------------------------------------------

    def view(self) -> Observation:
        """The person's observation of the current hand: all the table shows the person."""
        return observe(self.match.current, self.seat)

    @property
    def hand(self) -> int:
        """The current hand's index (0-based)."""
        return len(self.match.hands) if not self.match.is_over else len(self.match.hands) - 1

    @property
    def target(self) -> int:
        """The hands a seat must win to win the match (1: the game is a single hand)."""
        return self.match.target

    @property
    def wins(self) -> tuple[int, ...]:
        """The hands each seat has won so far (public: every hand's end is told)."""
        return tuple(self.match.wins)

    @property
    def is_over(self) -> bool:
        """True once the match (every hand of it) has ended."""
        return self.match.is_over

    def cards_left(self) -> list[CardsLeft]:
        """Once the game is over, every seat's cards in its last hand and what they score (a
        blocked game and the places after the winner go by it: cards, or points, F7), shown
        to the person as the cards are at a real table's end."""
        if not self.is_over:
            raise ValueError("the game is not over")
        game = self.match.current
        return [CardsLeft(tuple(game.hands[seat]), game.score(seat), bool(game.rules.points))
                for seat in range(game.seats)]

    @property
    def outcome(self) -> MatchOutcome | None:
        """How the match ended, as a tournament records it: a single hand's own reason
        (``emptied``, ``blocked``...), faulty bots placed last; None while it is on."""
        outcome = self.match.outcome
        if outcome is None:
            return None
        if not self.faults:
            return outcome
        places, winner = faulty_last(outcome.places, outcome.winner, set(self.faults),
                                     outcome.reason)
        return dataclasses.replace(outcome, status="drawn" if winner is None else "won",
                                   places=places, winner=winner)

    def move(self, choice: str) -> Played:
        """Play the person's ``choice``: a number of the legal moves' list (1-based) or an
        action in notation; :class:`MoveRefused` names why it cannot be played (nothing changes).

        A play that the rules would take as a blunder (B4) is refused too: a person is never
        charged for a slip of the keyboard."""
        obs = self.view()
        if self.is_over or obs.to_move != self.seat:
            raise MoveRefused("it is not your move")
        text = choice.strip()
        number = typed_number(text)
        if number is not None:
            if not 1 <= number <= len(obs.legal):
                raise MoveRefused(f"no move {number}: the moves are numbered 1..{len(obs.legal)}")
            text = obs.legal[number - 1]
        reason = obs.illegal_reason(text)
        if reason is not None:
            raise MoveRefused(f"{show(text)} cannot be played: {reason}")
        return self._apply(action_text(text))

    def hint(self) -> Hint:
        """The search bot's advice for the person's move, from the person's observation alone."""
        if self._advisor_factory is None:
            raise NoHint(NOT_INSTALLED)
        obs = self.view()
        if self.is_over or obs.to_move != self.seat:
            raise NoHint("no hint: it is not your move")
        try:
            action, chance = self._advisor_now().advise(obs)
            action = action_text(action)
        except Exception as error:  # the search bot's failure must not end the person's game
            raise NoHint(f"no hint: the search bot failed ({type(error).__name__}: {error})") from None
        number = obs.legal.index(action) + 1 if action in obs.legal else None
        return Hint(action, float(chance), number)

    def _advisor_now(self) -> Advisor:
        """The search bot for the current hand, built at its first hint (once per hand)."""
        assert self._advisor_factory is not None
        if self._advisor is None or self._advisor[0] != self.hand:
            advisor = self._advisor_factory()
            start = getattr(advisor, "on_game_start", None)
            if callable(start):  # what a bot in the person's seat would be told at the start
                start(self.referee.start_info(self.seat, len(self.clients), self.match))
            self._advisor = (self.hand, advisor)
        return self._advisor[1]

    # -- the table's side -------------------------------------------------------------------

    def advance(self) -> list[News]:
        """Play on until the person must choose or the match is over: the bots' moves, the
        forced draws and passes (the person's too, G2), hand ends and the next hands' deals.
        Returns what happened, in order."""
        news: list[News] = self._fault_news()   # a bot that failed to start the hand
        while not self.match.is_over:
            game = self.match.current
            if game.outcome is not None:
                news.append(self._end_hand())
                news += self._fault_news()          # at the hand's end, or the next one's start
                continue
            seat = game.to_move
            lone = forced_action(game)
            if lone is not None:
                news.append(self._apply(str(lone)))
            elif seat == self.seat:
                break
            else:
                news += self._bot_move(seat)
        return news

    def _bot_move(self, seat: int) -> list[News]:
        game = self.match.current
        news: list[News] = []
        choice = None
        if seat not in self.faults:
            choice = self.referee.choose(game, self.clients[seat], seat, self._seen)
            if isinstance(choice, Fault):
                self.faults[seat] = choice
                news += self._fault_news()
                choice = None
        if choice is None:
            choice = self._fallback[seat].choice(game.legal_actions())
        news.append(self._apply(str(choice)))
        return news

    def _fault_news(self) -> list[News]:
        """A :class:`BotFaulted` for each fault not told yet, wherever it happened (starting a
        hand, a move, the end of a hand): the person sees every bot the fallback plays for."""
        news: list[News] = []
        for seat in sorted(set(self.faults) - self._told):
            fault = self.faults[seat]
            news.append(BotFaulted(self.hand, seat, fault.code.name, fault.summary()))
            self._told.add(seat)
        return news

    def _apply(self, text: str) -> Played:
        """Apply one checked move to the current hand with the replay's effect detector."""
        game = self.match.current
        mine = game.to_move == self.seat
        held = set(game.hands[game.to_move])
        (step,) = replay_moves(game, [text])
        swapped = any(effect.kind is EffectKind.SWAP for effect in step.effects)
        drew: tuple[int, ...] = ()
        if mine and step.drew and not swapped:
            # against the hand less the cards laid: a laid card can come back, through a
            # recycled pile, among the cards the play made its player draw
            action = game.history[-1].action
            kept = held - set(action.cards) if isinstance(action, Play) and not game.history[-1].blunder else held
            drew = tuple(c for c in game.hands[self.seat] if c not in kept)
        return Played(self.hand, dataclasses.replace(step, index=len(game.history)), drew)

    def _end_hand(self) -> HandOver:
        game, hand = self.match.current, self.hand
        assert game.outcome is not None
        self.referee.end_hand(self.clients, self.match, game, self.faults)
        over = HandOver(hand, game.outcome, (), self.match.target)
        if self.match.next_hand() is None:
            self._close_games()
        else:
            self._seen = [0] * len(self.clients)
            self.referee.start_hand(self.clients, self.match, self.faults)
        return dataclasses.replace(over, wins=tuple(self.match.wins))

    def _close_games(self) -> None:
        if not self._closed:
            self._closed = True
            for client in self.clients:
                client.close_game()

    def close(self) -> None:
        """End the bots' games (idempotent): after the result, or when the person quits."""
        self._close_games()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def typed_number(text: str) -> int | None:
    """The number a person typed, if ``text`` is one: ASCII digits, at most nine of them ('²'
    is a digit to Python but no number to ``int``, and a line of digits is no move's number)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def check_table(rules: RuleSet, seats: int, seat: int) -> None:
    """Refuse a table size ``rules`` does not play, or a person's ``seat`` not at the table."""
    rules.check_seats(seats)
    if not 0 <= seat < seats:
        raise ConfigError(f"--seat {seat}: expected a seat 0..{seats - 1}")


def opponents(bots: Sequence[BotSpec], seats: int) -> list[BotSpec]:
    """The bots of the ``seats - 1`` other seats: ``bots`` in turn, the first named taking the
    extra seats (``--vs greedy,random`` at four seats: greedy, random, greedy)."""
    if not bots:
        raise ConfigError("--vs: name at least one bot")
    if len(bots) > seats - 1:
        raise ConfigError(f"--vs: {len(bots)} bots do not fit the {seats - 1} other seats of {seats}")
    return [bots[i % len(bots)] for i in range(seats - 1)]


class Table:
    """A :class:`Session` with its bots seated in the sandbox (the bots' processes are this
    object's: use it as a context manager, or :meth:`close` it)."""

    def __init__(self, rules: RuleSet, seat: int, bots: Sequence[BotSpec], seed: int, *,
                 seats: int | None = None, limits: Limits | None = None, trusted: bool = False,
                 advisor: AdvisorFactory | None = None) -> None:
        count = rules.seats_default if seats is None else seats
        check_table(rules, count, seat)  # before any bot process is started
        if not trusted:
            check_isolation()
        chosen = opponents(bots, count)
        names = [spec.name for spec in chosen]
        # One CPU for every bot, as each tournament worker pins its own.
        self.seating = Seating({spec.name: spec for spec in chosen}, limits or Limits(),
                               cpu=min(os.sched_getaffinity(0)), trusted=trusted)
        try:
            self.session = Session(rules, seat, self.seating.seat(names), seed,
                                   [*names[:seat], PERSON, *names[seat:]], advisor)
        except BaseException:
            self.seating.close()
            raise

    def close(self) -> None:
        """End the game and kill the bots' processes (idempotent)."""
        try:
            self.session.close()
        finally:
            self.seating.close()

    def __enter__(self) -> Session:
        return self.session

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def search_advisor() -> AdvisorFactory | None:
    """The search bot as a hint's advisor: ``bots/mcts.py``'s ``Bot`` with its default options,
    loaded in-process (a built-in of ours, not a submitted bot) when first built; ``None`` when
    it is not installed."""
    path = builtin_dir() / SEARCH_BOT_FILE
    if not path.is_file():
        return None
    return lambda: _bot_class(path)()


def _bot_class(path: Path) -> Callable[..., Advisor]:
    """The ``Bot`` class of the Python file at ``path``."""
    spec = importlib.util.spec_from_file_location(f"arena_hint_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    bot: Callable[..., Advisor] = module.Bot
    return bot
