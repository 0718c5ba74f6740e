"""The referee: plays one game between bots, turning every bot failure into an outcome.

The referee owns the :class:`~arena.engine.game.Game`; each bot is a :class:`BotClient` (in practice a
:class:`~arena.sandbox.SandboxedBot`, a separate process) that receives only its seat's wire
observation. Forced actions (RULINGS G2: exactly one legal action, a draw or a pass) are applied
without asking the bot where being forced tells nothing hidden; where the same draw or pass
could also have been a choice, the seat is asked anyway, so that neither the time a game takes
nor anything else shows that its hand had no playable card (docs/sandbox.md). A bot that faults (``TIMEOUT``, ``CRASH``, ``MEMORY``, ``INVALID``,
``ILLEGAL``, ``INIT_FAIL``) is placed last in that game and its seat is played on by a seeded
fallback policy (uniform among legal actions), so the other seats' game finishes normally.
A seat can also be played by its fallback from the first move (``absent``: a bot disqualified
from a tournament), its bot never started. :meth:`Referee.probe` starts one bot as a game
would and asks it for one move: the check of a bot before a tournament's first game.
A rule set played as a match of several hands (RULINGS F2) is one game for the tournament:
the referee plays its hands in turn, each a start/end pair of messages for the bots.
A caller that drives its own loop (``arena play``, where a person holds a seat) uses the
referee's steps: :meth:`Referee.start_hand`, :func:`forced_action`, :meth:`Referee.choose` and
:meth:`Referee.end_hand`.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from arena.engine.actions import ActionType, Play
from arena.errors import IllegalActionError, InvalidActionError
from arena.engine.game import Game
from arena.engine.match import Match
from arena.engine.observation import wire_observation
from arena.engine.outcome import OutcomeReason, winner_of
from arena.engine.rules import RuleSet
from arena.play.faults import BotFault, Fault, FaultCode


class BotClient(Protocol):
    """What the referee needs of a bot (``SandboxedBot`` implements it)."""

    def start_game(self, info: dict[str, Any]) -> None:
        """Send the start message; raise BotFault on failure."""

    def act(self, message: dict[str, Any]) -> str:
        """Send an observation; return the action text or raise BotFault."""

    def end_game(self, result: dict[str, Any]) -> None:
        """Send the end message; raise BotFault on failure."""

    def close_game(self) -> None:
        """The game (every hand of a match) is over: end the bot's process for it."""

    def log_tail(self, lines: int = 20) -> str:
        """The bot's last log lines."""


@dataclass
class GameResult:
    """What one played game produced: the outcome, the moves, the faults, the last hand's Game.

    It knows seats, not the schedule: :func:`arena.tournament.worker.to_record` adds the game's
    identity and table to make the stored :class:`~arena.tournament.records.GameRecord`.
    """

    places: tuple[tuple[int, ...], ...]
    winner: int | None
    reason: OutcomeReason
    decisions: int
    duration_s: float
    moves: tuple[str, ...]
    faults: tuple[Fault, ...] = ()
    game: Game | None = field(default=None, repr=False)  # the last hand played
    hands: tuple[dict[str, Any], ...] = ()  # every hand of a match (HandRecord.to_json()); () for one hand
    think: tuple[tuple[int, float], ...] = ()  # per seat: (moves asked, seconds waited for them)


def seat_seed(deal_seed: int, seat: int, purpose: str) -> int:
    """A seed for one seat's own randomness (bot or fallback), derived from the deal's seed."""
    digest = hashlib.sha256(f"{deal_seed}:{seat}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class Referee:
    """Plays games of one rule set; ``play`` runs one game (a match of hands, F2) to its end."""

    def __init__(self, rules: RuleSet, clock: Callable[[], float] = time.perf_counter) -> None:
        self.rules = rules
        self._rules_info = {"name": rules.name, "settings": rules.settings}
        self._clock = clock  # times each seat's thinking (a test gives its own)

    def play(self, bots: Sequence[BotClient], deal_seed: int,
             absent: Mapping[int, Fault] | None = None) -> GameResult:
        """Play one game, ``bots[i]`` in seat ``i``, dealt from ``deal_seed``.

        A rule set played as a match (``match: {wins: N}``) plays hands until a seat has won N;
        any other rule set is a match of one hand. Each hand is a game for the bots: a start
        and an end message around it. A seat that faults is played by the fallback for the
        rest of the match and placed last. A seat of ``absent`` is played by its fallback from
        the first move, its bot never started nor asked, and placed last with the fault given
        for it (the one a seat that faulted at its first move would get, but for the fault).
        """
        start = time.perf_counter()
        match = Match.new(self.rules, len(bots), deal_seed)
        faults: dict[int, Fault] = dict(absent or {})
        fallback = [random.Random(seat_seed(deal_seed, s, "fallback")) for s in range(len(bots))]
        thinking = [_Thinking() for _ in bots]
        try:
            while True:
                game = match.current
                self.start_hand(bots, match, faults)
                self._play_hand(game, bots, faults, fallback, thinking)
                self.end_hand(bots, match, game, faults)
                if match.next_hand() is None:
                    break
        finally:
            for bot in bots:  # every game is played by bot processes that saw no other
                bot.close_game()
        return self._result(match, faults, time.perf_counter() - start, thinking)

    def probe(self, bot: BotClient, seats: int, deal_seed: int, *, move: bool = True) -> Fault | None:
        """Start ``bot`` as a game would, at the seat that moves first of a game of ``seats``
        dealt from ``deal_seed``, and (with ``move``) ask it for that first move; its fault,
        judged as in a game, or ``None`` when it loaded and answered a legal move.

        The bot's process for the probe is then ended (no end message: the game is not over),
        so the next game it plays starts in a fresh one, as every game does.
        """
        match = Match.new(self.rules, seats, deal_seed)
        game = match.current
        seat = game.to_move
        faults: dict[int, Fault] = {}
        try:
            self._start_seat(bot, seat, seats, match, faults)
            if move and seat not in faults:
                fallback = random.Random(seat_seed(deal_seed, seat, "fallback"))
                self._ask(game, bot, seat, [0] * seats, faults, fallback, _Thinking())
        finally:
            bot.close_game()
        return faults.get(seat)

    def start_hand(self, bots: Sequence[BotClient], match: Match, faults: dict[int, Fault]) -> None:
        """Send every seat not in ``faults`` its start message for ``match``'s current hand;
        a seat that fails it is added to ``faults``."""
        for seat, bot in enumerate(bots):
            if seat not in faults:
                self._start_seat(bot, seat, len(bots), match, faults)

    def _start_seat(self, bot: BotClient, seat: int, seats: int, match: Match,
                    faults: dict[int, Fault]) -> None:
        """Send one seat's start message; a failure is the seat's fault."""
        try:
            bot.start_game(self.start_info(seat, seats, match))
        except BotFault as fault:
            faults[seat] = fault.at(seat)

    def start_info(self, seat: int, seats: int, match: Match) -> dict[str, Any]:
        """The start message's content for ``seat`` in ``match``'s current hand (docs/protocol.md)."""
        return {"seat": seat, "seats": seats, "seed": seat_seed(match.current.seed, seat, "bot"),
                "rules": self._rules_info, "hand": len(match.hands), "wins": list(match.wins)}

    def _play_hand(self, game: Game, bots: Sequence[BotClient], faults: dict[int, Fault],
                   fallback: list[random.Random], thinking: list[_Thinking]) -> None:
        seen = [0] * len(bots)
        while game.outcome is None:
            seat = game.to_move
            legal = game.legal_actions()
            lone = forced_action(game)
            if lone is not None:
                game.apply_legal(lone)  # G2: a forced draw or pass needs no bot
            elif seat in faults:
                game.apply_legal(fallback[seat].choice(legal))
            else:
                self._ask(game, bots[seat], seat, seen, faults, fallback[seat], thinking[seat])

    def _ask(self, game: Game, bot: BotClient, seat: int, seen: list[int],
             faults: dict[int, Fault], fallback: random.Random, thinking: _Thinking) -> None:
        """One decision by a bot, timed into ``thinking``; a failure records the fault and the
        fallback moves instead."""
        asked = self._clock()
        choice = self.choose(game, bot, seat, seen)
        thinking.moves += 1
        thinking.seconds += self._clock() - asked
        if isinstance(choice, Fault):
            faults[seat] = choice
            choice = fallback.choice(game.legal_actions())
        game.apply_legal(choice)

    def choose(self, game: Game, bot: BotClient, seat: int, seen: list[int]) -> ActionType | Fault:
        """Ask ``bot`` for ``seat``'s move (sending the events since ``seen[seat]``, which moves
        on): the action, checked and not yet applied, or the fault its reply is."""
        message = {"obs": wire_observation(game, seat, seen[seat])}
        seen[seat] = len(game.history)
        try:
            text = bot.act(message)
        except BotFault as fault:
            return fault.at(seat)
        # anything else bot.act raises is the referee's own failure, not the seat's: it goes up
        try:
            return game.check(text)
        except InvalidActionError as error:
            return Fault(seat, "", FaultCode.INVALID,
                         f"unreadable action {text[:80]!r}: {str(error)[:200]}", bot.log_tail())
        except IllegalActionError as error:
            return Fault(seat, "", FaultCode.ILLEGAL, f"{repr(error.action)[:120]}: {error.reason}",
                         bot.log_tail())
        except Exception as error:  # whatever a reply does to the parser, it is the seat's fault
            return Fault(seat, "", FaultCode.INVALID,
                         f"unreadable action {text[:80]!r}: {type(error).__name__}", bot.log_tail())

    def end_hand(self, bots: Sequence[BotClient], match: Match, game: Game,
                 faults: dict[int, Fault]) -> None:
        """Tell every clean bot how the hand ended; a fault here is recorded too."""
        outcome = game.outcome
        assert outcome is not None
        summary = {"places": [list(p) for p in outcome.places], "winner": outcome.winner,
                   "reason": outcome.reason, "moves": len(game.history), "hand": len(match.hands)}
        for seat, bot in enumerate(bots):
            if seat in faults:
                continue
            try:
                bot.end_game(summary)
            except BotFault as fault:
                faults[seat] = fault.at(seat)

    def _result(self, match: Match, faults: dict[int, Fault], duration: float,
                thinking: list[_Thinking]) -> GameResult:
        outcome = match.outcome
        assert outcome is not None
        places, winner = faulty_last(outcome.places, outcome.winner, set(faults), outcome.reason)
        hands = match.hands
        single = self.rules.match_wins is None
        moves = tuple(m for hand in hands for m in hand.moves)
        return GameResult(places, winner, outcome.reason, len(moves), duration, moves,
                          tuple(faults[s] for s in sorted(faults)), match.current,
                          () if single else tuple(h.to_json() for h in hands),
                          tuple((t.moves, t.seconds) for t in thinking))


@dataclass
class _Thinking:
    """One seat's thinking in a game: the moves its bot was asked for, and the wall-clock
    seconds from sending each observation to having its reply checked."""

    moves: int = 0
    seconds: float = 0.0


def forced_action(game: Game) -> ActionType | None:
    """The draw or pass the referee applies without asking (RULINGS G2: the one legal action,
    where being forced tells nothing hidden), or None when the seat to move is asked."""
    legal = game.legal_actions()
    if len(legal) == 1 and not isinstance(legal[0], Play) and game.lone_action_is_public():
        return legal[0]
    return None


def faulty_last(places: tuple[tuple[int, ...], ...], winner: int | None, faulty: set[int],
                reason: str) -> tuple[tuple[tuple[int, ...], ...], int | None]:
    """A result as it is stored and rated: the ``faulty`` seats placed last together, as if
    each had lost, and the winner those places give (:func:`winner_of`): a faulty winner's
    game goes to the clean seat alone behind it, none if several tie there."""
    if not faulty:
        return places, winner
    demoted = demote(places, faulty)
    return demoted, winner_of(demoted, reason)


def demote(places: tuple[tuple[int, ...], ...], faulty: set[int]) -> tuple[tuple[int, ...], ...]:
    """The places with the faulty seats removed and put together in a last place."""
    clean = tuple(t for t in (tuple(s for s in p if s not in faulty) for p in places) if t)
    return clean + (tuple(sorted(faulty)),)
