"""The referee: plays one game between bots, turning every bot failure into an outcome.

The referee owns the :class:`~arena.game.Game`; each bot is a :class:`BotClient` (in practice a
:class:`~arena.sandbox.SandboxedBot`, a separate process) that receives only its seat's wire
observation. Forced actions (RULINGS G2: exactly one legal action, a draw or a pass) are applied
without asking the bot. A bot that faults (``TIMEOUT``, ``CRASH``, ``MEMORY``, ``INVALID``,
``ILLEGAL``, ``INIT_FAIL``) is placed last in that game and its seat is played on by a seeded
fallback policy (uniform among legal actions), so the other seats' game finishes normally.
"""

from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass, field
from typing import Protocol

from arena.actions import Play
from arena.errors import IllegalActionError, InvalidActionError
from arena.game import Game
from arena.observation import wire_observation
from arena.rules import RuleSet
from arena.sandbox.faults import BotFault, FaultCode


class BotClient(Protocol):
    """What the referee needs of a bot (``SandboxedBot`` implements it)."""

    def start_game(self, info: dict) -> None:
        """Send the start message; raise BotFault on failure."""

    def act(self, message: dict) -> str:
        """Send an observation; return the action text or raise BotFault."""

    def end_game(self, result: dict) -> None:
        """Send the end message; raise BotFault on failure."""

    def log_tail(self, lines: int = 20) -> str:
        """The bot's last log lines."""


@dataclass(frozen=True)
class SeatFault:
    """A bot failure in one game: seat, code name (``TIMEOUT``...), detail, the bot's last log lines."""

    seat: int
    code: str
    detail: str
    log_tail: str = ""


@dataclass
class GameResult:
    """What one played game produced, ready for storage."""

    places: tuple[tuple[int, ...], ...]
    winner: int | None
    reason: str
    decisions: int
    duration_s: float
    moves: tuple[str, ...]
    faults: tuple[SeatFault, ...] = ()
    game: Game | None = field(default=None, repr=False)


def seat_seed(deal_seed: int, seat: int, purpose: str) -> int:
    """A seed for one seat's own randomness (bot or fallback), derived from the deal's seed."""
    digest = hashlib.sha256(f"{deal_seed}:{seat}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class Referee:
    """Plays games of one rule set; ``play`` runs one game to its end."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self._rules_info = {"name": rules.name, "settings": rules.settings}

    def play(self, bots: list[BotClient], deal_seed: int) -> GameResult:
        """Play one game, ``bots[i]`` in seat ``i``, the deal from ``deal_seed``."""
        start = time.perf_counter()
        game = Game.new(self.rules, len(bots), deal_seed)
        faults: dict[int, SeatFault] = {}
        for seat, bot in enumerate(bots):
            self._start(bot, seat, len(bots), deal_seed, faults)
        fallback = [random.Random(seat_seed(deal_seed, s, "fallback")) for s in range(len(bots))]
        seen = [0] * len(bots)
        while game.outcome is None:
            seat = game.to_move
            legal = game.legal_actions()
            if len(legal) == 1 and not isinstance(legal[0], Play):
                game.apply_legal(legal[0])  # G2: a forced draw or pass needs no bot
            elif seat in faults:
                game.apply_legal(fallback[seat].choice(legal))
            else:
                self._ask(game, bots[seat], seat, seen, faults, fallback[seat])
        result = self._result(game, faults, time.perf_counter() - start)
        self._finish(bots, result, faults)
        return result

    def _start(self, bot: BotClient, seat: int, seats: int, deal_seed: int,
               faults: dict[int, SeatFault]) -> None:
        info = {"seat": seat, "seats": seats, "seed": seat_seed(deal_seed, seat, "bot"),
                "rules": self._rules_info}
        try:
            bot.start_game(info)
        except BotFault as fault:
            faults[seat] = _from_bot_fault(seat, fault)

    def _ask(self, game: Game, bot: BotClient, seat: int, seen: list[int],
             faults: dict[int, SeatFault], fallback: random.Random) -> None:
        """One decision by a bot; a failure records the fault and the fallback moves instead."""
        message = {"obs": wire_observation(game, seat, seen[seat])}
        seen[seat] = len(game.history)
        try:
            text = bot.act(message)
            game.apply(text)
            return
        except BotFault as fault:
            faults[seat] = _from_bot_fault(seat, fault)
        except InvalidActionError as error:
            faults[seat] = SeatFault(seat, FaultCode.INVALID.name, f"unreadable action {text!r}: {error}",
                                     bot.log_tail())
        except IllegalActionError as error:
            faults[seat] = SeatFault(seat, FaultCode.ILLEGAL.name, f"{error.action!r}: {error.reason}",
                                     bot.log_tail())
        game.apply_legal(fallback.choice(game.legal_actions()))

    def _result(self, game: Game, faults: dict[int, SeatFault], duration: float) -> GameResult:
        outcome = game.outcome
        assert outcome is not None
        places, winner = outcome.places, outcome.winner
        if faults:
            places = demote(places, set(faults))
            winner = winner if winner is not None and winner not in faults else None
        moves = tuple(str(e.action) for e in game.history)
        return GameResult(places, winner, outcome.reason, game.decisions, duration, moves,
                          tuple(faults[s] for s in sorted(faults)), game)

    def _finish(self, bots: list[BotClient], result: GameResult, faults: dict[int, SeatFault]) -> None:
        """Tell every clean bot how the game ended; a fault here is recorded too."""
        summary = {"places": [list(p) for p in result.places], "winner": result.winner,
                   "reason": result.reason, "moves": len(result.moves)}
        for seat, bot in enumerate(bots):
            if seat in faults:
                continue
            try:
                bot.end_game(summary)
            except BotFault as fault:
                faults[seat] = _from_bot_fault(seat, fault)
        if len(faults) != len(result.faults):
            result.places = demote(result.places, set(faults))
            result.winner = result.winner if result.winner not in faults else None
            result.faults = tuple(faults[s] for s in sorted(faults))


def demote(places: tuple[tuple[int, ...], ...], faulty: set[int]) -> tuple[tuple[int, ...], ...]:
    """The places with the faulty seats removed and put together in a last place."""
    clean = tuple(t for t in (tuple(s for s in p if s not in faulty) for p in places) if t)
    return clean + (tuple(sorted(faulty)),)


def _from_bot_fault(seat: int, fault: BotFault) -> SeatFault:
    return SeatFault(seat, fault.code.name, fault.detail, fault.log_tail)

