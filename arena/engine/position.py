"""Position files (NOTATION.md "Positions"): set up a game in any state, plus the moves to replay.

:func:`load_position` reads the YAML file and returns a :class:`Position`: the game reached by
the setup (before any move) and the move texts. Every problem raises
:class:`~arena.errors.PositionError` naming the file, the key and the value.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.engine.cards import Card, parse_suit
from arena.errors import ArenaError, InvalidCardError, PositionError
from arena.engine.game import Game, Pending
from arena.engine.rules import RuleSet, load_rules
from arena.settings import Keys, load_yaml, read_text, refuse_other_kind, show

POSITION_KEYS = ("rules", "seed", "seats", "hands", "top", "discard", "stock", "to_move",
                 "direction", "active_suit", "pending", "recycles_left", "moves", "pending_skip", "top_as")


@dataclass
class Position:
    """A game set up from a position file and the moves the file asks to replay."""

    game: Game
    moves: list[str]


_Keys = Keys[PositionError]


def load_position(path: str | Path) -> Position:
    """Read a position file; the game is dealt from ``seed`` when ``hands`` is absent."""
    path = Path(path)
    raw = load_yaml(read_text(path, "position file", PositionError), str(path), PositionError)
    return position_from_mapping(raw, str(path), base_dir=path.parent)


def position_from_mapping(raw: Any, source: str, base_dir: Path = Path(".")) -> Position:
    """Build a :class:`Position` from an already parsed mapping."""
    if not isinstance(raw, dict):
        raise PositionError(f"{source}: a position must be a mapping of keys, got {show(raw)}")
    refuse_other_kind(raw, source, "position", PositionError)
    keys = Keys(raw, source, PositionError, allowed=POSITION_KEYS)
    rules = _rules(keys, base_dir)
    seed: int = keys.take("seed", int, 0)
    game = _rigged(keys, rules, seed) if keys.has("hands") else _dealt(keys, rules, seed)
    moves = keys.take("moves", list, [], expect="a list of actions")
    return Position(game, [str(m) for m in moves])


def _rules(keys: _Keys, base_dir: Path) -> RuleSet:
    name: str = keys.take("rules", str, expect="a preset name or a rule-set file")
    candidate = base_dir / name
    try:
        return load_rules(str(candidate) if name.endswith((".yaml", ".yml")) and candidate.exists() else name)
    except ArenaError as error:
        raise keys.fail("rules", str(error)) from None


def _card(keys: _Keys, key: str, value: Any) -> Card:
    try:
        return Card.parse(str(value))
    except InvalidCardError:
        raise keys.fail(key, f"unknown card {value!r}") from None


def _cards(keys: _Keys, key: str) -> list[Card]:
    return [_card(keys, key, v) for v in keys.take(key, list, [], expect="a list of cards")]


def _dealt(keys: _Keys, rules: RuleSet, seed: int) -> Game:
    for key in ("top", "top_as", "discard", "stock"):
        if keys.has(key):
            raise keys.fail(key, "only allowed with 'hands' (a dealt game sets its own cards)")
    seats: int = keys.take("seats", int, rules.seats_default)
    _check_seats(keys, rules, seats, "seats")
    game = Game.new(rules, seats, seed)
    _apply_table_keys(keys, game)
    return game


def _rigged(keys: _Keys, rules: RuleSet, seed: int) -> Game:
    hands_raw = keys.take("hands", list, check=lambda v: all(isinstance(h, list) for h in v),
                          expect="a list of hands, each a list of cards")
    hands = [[_card(keys, f"hands[{i}]", c) for c in hand] for i, hand in enumerate(hands_raw)]
    seats: int = keys.take("seats", int, len(hands))
    if seats != len(hands):
        raise keys.fail("seats", f"{seats} seats but {len(hands)} hands")
    _check_seats(keys, rules, seats, "hands")
    if not keys.has("top"):
        raise keys.fail("top", "required when 'hands' is given")
    top = _card(keys, "top", keys.take("top", object))
    if top >= rules.deck_size():  # before top_as: a joker the deck lacks needs no stand-in
        raise keys.fail("top", f"card {top} is not in the deck of rules '{rules.name}'")
    top_as = _card(keys, "top_as", keys.take("top_as", object)) if keys.has("top_as") else None
    if (top >= 52) != (top_as is not None) or (top_as is not None and top_as >= 52):
        raise keys.fail("top_as", "a joker on top (L8) needs the standard card it stands for, "
                                  "and only a joker on top takes one")
    discard, stock = _cards(keys, "discard"), _cards(keys, "stock")
    _check_unique(keys, hands, top, discard, stock, rules)
    game = Game.setup(rules, hands, top, seed=seed, discard=discard, stock=stock, top_as=top_as)
    _apply_table_keys(keys, game)
    return game


def _check_seats(keys: _Keys, rules: RuleSet, seats: int, key: str) -> None:
    if not rules.seats_min <= seats <= rules.seats_max:
        raise keys.fail(key, f"rules '{rules.name}' play with {rules.seats_min}..{rules.seats_max} "
                             f"seats, got {seats}")


def _check_unique(keys: _Keys, hands: list[list[Card]], top: Card, discard: list[Card],
                  stock: list[Card], rules: RuleSet) -> None:
    seen: dict[int, str] = {}
    placed = [(f"hands[{i}]", c) for i, h in enumerate(hands) for c in h]
    placed += [("top", top)] + [("discard", c) for c in discard] + [("stock", c) for c in stock]
    for key, card in placed:
        if card in seen:
            raise keys.fail(key, f"card {card} is already listed under '{seen[card]}'")
        if card >= rules.deck_size():
            raise keys.fail(key, f"card {card} is not in the deck of rules '{rules.name}'")
        seen[card] = key


def _apply_table_keys(keys: _Keys, game: Game) -> None:
    """to_move, direction, active_suit, pending, recycles_left: the same for dealt and rigged games."""
    game.to_move = keys.take("to_move", int, 0, lambda v: 0 <= v < game.seats,
                             f"a seat 0..{game.seats - 1}")
    game.direction = keys.take("direction", int, 1, lambda v: v in (1, -1), "1 or -1")
    if keys.has("active_suit"):
        suit = keys.take("active_suit", object)
        try:  # null: no suit named yet, any card goes (C1's starter 8), as the replay JSON writes it
            game.active_suit = -1 if suit is None else parse_suit(str(suit))
        except InvalidCardError:
            raise keys.fail("active_suit", f"unknown suit {suit!r}") from None
    if keys.take("pending", dict, None, expect="a mapping {kind: ..., amount: N}") is not None:
        _apply_pending(keys.sub("pending", allowed=("kind", "amount", "holds")), game)
    if keys.has("recycles_left"):
        game.recycles_left = keys.take("recycles_left", int, None, lambda v: v >= 0,
                                       "an integer >= 0 or null")
    if keys.has("pending_skip"):
        _apply_pending_skip(keys, game)


def _apply_pending_skip(keys: _Keys, game: Game) -> None:
    """B3, I2: a skip waiting for the seat to move (only where the rule set keeps skips pending)."""
    value: bool = keys.take("pending_skip", bool)
    if value and game.rules.skips != "pending":
        raise keys.fail("pending_skip", f"rules '{game.rules.name}' do not keep skips pending")
    game.pending_skip = value


def _apply_pending(pending: _Keys, game: Game) -> None:
    """``{kind, amount}``, plus ``holds`` (the kinds in a mixed stack, L3) where it matters."""
    kinds = tuple(sorted({p.stack for p in game.rules.power_of if p.stack}))
    if not kinds:
        raise pending.fail("kind", f"no card of rules '{game.rules.name}' starts a penalty")
    kind = pending.choice("kind", kinds)
    amount: int = pending.take("amount", int, check=lambda v: v >= 0, expect="an integer >= 0")
    holds = pending.take("holds", list, [kind], lambda v: bool(v) and all(k in kinds for k in v),
                         "a list of kinds from " + ", ".join(kinds))
    game.set_pending(Pending(kind, amount, tuple(holds)))
