"""Helpers for the bot tests: load a bot class in-process, rigged observations in card notation."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from arena.engine.cards import Card, parse_suit
from arena.engine.game import Game, Pending
from arena.engine.observation import Observation, observe
from arena.engine.rules import load_rules

REPO = Path(__file__).resolve().parents[2]
BOTS_DIR = REPO / "bots"
BOT_FILES = sorted(BOTS_DIR.glob("*.py"))


def load_bot(name: str):
    """A fresh instance of ``bots/NAME.py:Bot``, loaded under a private module name."""
    spec = importlib.util.spec_from_file_location(f"_test_bot_{name}", BOTS_DIR / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Bot()


def cards(text: str) -> list[Card]:
    """``"7H 2H"`` -> the cards."""
    return [Card.parse(t) for t in text.split()]


def rigged(hands: list[str], top: str, *, rules: str = "switch", stock: str | None = None,
           to_move: int = 0, direction: int = 1, suit: str | None = None,
           pending: tuple[str, int] | None = None) -> Observation:
    """The observation of the seat to move in a rigged position (legal actions included).

    The stock defaults to four plain cards that no hand holds, so that a draw is possible.
    """
    if stock is None:
        used = {str(c) for h in hands for c in cards(h)} | {top}
        stock = " ".join([n for n in ("3C", "4C", "6C", "KC", "3H", "4H", "6H", "KH") if n not in used][:4])
    game = Game.setup(load_rules(rules), [cards(h) for h in hands], Card.parse(top), stock=cards(stock),
                      to_move=to_move, direction=direction,
                      active_suit=parse_suit(suit) if suit else None,
                      pending=Pending(*pending) if pending else None)
    return observe(game, to_move)


def decide(name: str, obs: Observation, rules: str = "switch") -> str:
    """What bot ``name`` plays on ``obs`` (after its game-start hook), as notation text."""
    bot = load_bot(name)
    if hasattr(bot, "on_game_start"):
        ruleset = load_rules(rules)
        bot.on_game_start({"seed": 1, "seat": obs.seat, "seats": obs.seats,
                           "rules": {"name": ruleset.name, "settings": ruleset.settings}})
    return str(bot.act(obs))
