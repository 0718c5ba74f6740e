"""Helpers for the engine tests: rigged positions written in card notation, random play."""

from __future__ import annotations

import random
from collections.abc import Iterator

from arena.engine.actions import ActionType, Play
from arena.engine.cards import Card, parse_suit
from arena.engine.game import Game, Pending
from arena.engine.rules import RuleSet, build_rules, load_rules, merge_settings

SWITCH = load_rules("switch")
CRAZY_EIGHTS = load_rules("crazy-eights")


def cards(text: str) -> list[Card]:
    """``"7H 2H 2C"`` -> the cards, in order (an empty text is no cards)."""
    return [Card.parse(t) for t in text.split()]


def names(seq) -> str:
    """The cards as one notation text, in order."""
    return " ".join(str(Card(c)) for c in seq)


def position(
    rules: RuleSet, hands: list[str], top: str, *, stock: str = "", discard: str = "",
    to_move: int = 0, direction: int = 1, suit: str | None = None,
    pending: tuple[str, int] | None = None, recycles_left=..., seed: int = 0,
) -> Game:
    """A rigged position: hands, top, ``stock`` with the next card to draw first."""
    return Game.setup(
        rules, [cards(h) for h in hands], Card.parse(top), seed=seed,
        discard=cards(discard), stock=cards(stock), to_move=to_move, direction=direction,
        active_suit=parse_suit(suit) if suit else None,
        pending=Pending(*pending) if pending else None, recycles_left=recycles_left,
    )


def hand(game: Game, seat: int) -> list[str]:
    """A seat's hand as sorted card names (order in hand does not matter to the rules)."""
    return sorted(str(Card(c)) for c in game.hands[seat])


def texts(actions: list[ActionType]) -> list[str]:
    """The notation of each action."""
    return [str(a) for a in actions]


def variant(base: RuleSet, **overrides) -> RuleSet:
    """A custom rule set: ``base`` with top-level settings replaced (``decision_cap=10``)."""
    return build_rules(merge_settings(base.settings, overrides), f"{base.name}-variant")


def random_positions(rules: RuleSet, seeds: range, max_decisions: int = 400,
                     seats: int | None = None) -> Iterator[Game]:
    """Play random legal actions from fresh deals; yield the game before every decision."""
    for seed in seeds:
        rng = random.Random(seed * 7919 + 1)
        game = Game.new(rules, seats or rng.randint(rules.seats_min, min(rules.seats_max, 5)), seed)
        while not game.is_over and game.decisions < max_decisions:
            yield game
            game.apply(rng.choice(game.legal_actions()))


def play_text(play: Play) -> str:
    """The notation of a play (for readable assertion messages)."""
    return str(play)


def legal(game: Game, text: str) -> bool:
    """Does ``check`` accept the action (as a legal action, not as a B4 blunder)?"""
    from arena.errors import IllegalActionError

    try:
        game.check(text)
    except IllegalActionError:
        return False
    return game.blunder_reason(text) is None
