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
from arena.settings import load_yaml

POSITION_KEYS = ("rules", "seed", "seats", "hands", "top", "discard", "stock", "to_move",
                 "direction", "active_suit", "pending", "recycles_left", "moves", "pending_skip", "top_as")


@dataclass
class Position:
    """A game set up from a position file and the moves the file asks to replay."""

    game: Game
    moves: list[str]


class _Fields:
    """Reads position keys from the raw mapping, naming the file and key in every error."""

    def __init__(self, raw: dict[str, Any], source: str) -> None:
        self.raw = raw
        self.source = source

    def fail(self, key: str, message: str) -> PositionError:
        return PositionError(f"{self.source}: key '{key}': {message}")

    def integer(self, key: str, default: Any) -> Any:
        value = self.raw.get(key, default)
        if value is not default and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.fail(key, f"expected an integer, got {value!r}")
        return value

    def card(self, key: str, value: Any) -> Card:
        try:
            return Card.parse(str(value))
        except InvalidCardError:
            raise self.fail(key, f"unknown card {value!r}") from None

    def cards(self, key: str, default: Any = ()) -> list[Card]:
        value = self.raw.get(key, default)
        if not isinstance(value, (list, tuple)):
            raise self.fail(key, f"expected a list of cards, got {value!r}")
        return [self.card(key, v) for v in value]


def load_position(path: str | Path) -> Position:
    """Read a position file; the game is dealt from ``seed`` when ``hands`` is absent."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as error:
        raise PositionError(f"{path}: cannot read position file ({error.strerror or error})") from None
    raw = load_yaml(text, str(path), PositionError)
    return position_from_mapping(raw, str(path), base_dir=path.parent)


def position_from_mapping(raw: Any, source: str, base_dir: Path = Path(".")) -> Position:
    """Build a :class:`Position` from an already parsed mapping."""
    if not isinstance(raw, dict):
        raise PositionError(f"{source}: a position must be a mapping of keys")
    fields = _Fields(raw, source)
    unknown = sorted(str(k) for k in raw if k not in POSITION_KEYS)
    if unknown:
        raise fields.fail(unknown[0], "unknown key")
    rules = _rules(fields, base_dir)
    seed = fields.integer("seed", 0)
    game = _dealt(fields, rules, seed) if "hands" not in raw else _rigged(fields, rules, seed)
    moves = raw.get("moves", [])
    if not isinstance(moves, list):
        raise fields.fail("moves", f"expected a list of actions, got {moves!r}")
    return Position(game, [str(m) for m in moves])


def _rules(fields: _Fields, base_dir: Path) -> RuleSet:
    name = fields.raw.get("rules")
    if not isinstance(name, str):
        raise fields.fail("rules", "required: a preset name or a rule-set file")
    candidate = base_dir / name
    try:
        return load_rules(str(candidate) if name.endswith((".yaml", ".yml")) and candidate.exists() else name)
    except ArenaError as error:
        raise fields.fail("rules", str(error)) from None


def _dealt(fields: _Fields, rules: RuleSet, seed: int) -> Game:
    for key in ("top", "top_as", "discard", "stock"):
        if key in fields.raw:
            raise fields.fail(key, "only allowed with 'hands' (a dealt game sets its own cards)")
    seats = fields.integer("seats", rules.seats_default)
    _check_seats(fields, rules, seats, "seats")
    game = Game.new(rules, seats, seed)
    _apply_table_keys(fields, game)
    return game


def _rigged(fields: _Fields, rules: RuleSet, seed: int) -> Game:
    hands_raw = fields.raw["hands"]
    if not isinstance(hands_raw, list) or not all(isinstance(h, list) for h in hands_raw):
        raise fields.fail("hands", "expected a list of hands, each a list of cards")
    hands = [[fields.card(f"hands[{i}]", c) for c in hand] for i, hand in enumerate(hands_raw)]
    seats = fields.integer("seats", len(hands))
    if seats != len(hands):
        raise fields.fail("seats", f"{seats} seats but {len(hands)} hands")
    _check_seats(fields, rules, seats, "hands")
    if "top" not in fields.raw:
        raise fields.fail("top", "required when 'hands' is given")
    top = fields.card("top", fields.raw["top"])
    top_as = fields.card("top_as", fields.raw["top_as"]) if "top_as" in fields.raw else None
    if (top >= 52) != (top_as is not None) or (top_as is not None and top_as >= 52):
        raise fields.fail("top_as", "a joker on top (L8) needs the standard card it stands for, "
                                    "and only a joker on top takes one")
    discard, stock = fields.cards("discard"), fields.cards("stock")
    _check_unique(fields, hands, top, discard, stock, rules)
    game = Game.setup(rules, hands, top, seed=seed, discard=discard, stock=stock, top_as=top_as)
    _apply_table_keys(fields, game)
    return game


def _check_seats(fields: _Fields, rules: RuleSet, seats: int, key: str) -> None:
    if not rules.seats_min <= seats <= rules.seats_max:
        raise fields.fail(key, f"rules '{rules.name}' play with {rules.seats_min}..{rules.seats_max} "
                               f"seats, got {seats}")


def _check_unique(fields: _Fields, hands: list[list[Card]], top: Card, discard: list[Card],
                  stock: list[Card], rules: RuleSet) -> None:
    seen: dict[int, str] = {}
    placed = [(f"hands[{i}]", c) for i, h in enumerate(hands) for c in h]
    placed += [("top", top)] + [("discard", c) for c in discard] + [("stock", c) for c in stock]
    for key, card in placed:
        if card in seen:
            raise fields.fail(key, f"card {card} is already listed under '{seen[card]}'")
        if card >= rules.deck_size():
            raise fields.fail(key, f"card {card} is not in the deck of rules '{rules.name}'")
        seen[card] = key


def _apply_table_keys(fields: _Fields, game: Game) -> None:
    """to_move, direction, active_suit, pending, recycles_left: the same for dealt and rigged games."""
    raw = fields.raw
    to_move = fields.integer("to_move", 0)
    if not 0 <= to_move < game.seats:
        raise fields.fail("to_move", f"expected a seat 0..{game.seats - 1}, got {to_move}")
    game.to_move = to_move
    direction = fields.integer("direction", 1)
    if direction not in (1, -1):
        raise fields.fail("direction", f"expected 1 or -1, got {direction}")
    game.direction = direction
    if "active_suit" in raw:
        try:
            game.active_suit = parse_suit(str(raw["active_suit"]))
        except InvalidCardError:
            raise fields.fail("active_suit", f"unknown suit {raw['active_suit']!r}") from None
    if "pending" in raw and raw["pending"] is not None:
        _apply_pending(fields, game, raw["pending"])
    if "recycles_left" in raw:
        game.recycles_left = _recycles(fields, raw["recycles_left"])
    if "pending_skip" in raw:
        _apply_pending_skip(fields, game, raw["pending_skip"])


def _apply_pending_skip(fields: _Fields, game: Game, value: Any) -> None:
    """B3, I2: a skip waiting for the seat to move (only where the rule set keeps skips pending)."""
    if not isinstance(value, bool):
        raise fields.fail("pending_skip", f"expected true or false, got {value!r}")
    if value and game.rules.skips != "pending":
        raise fields.fail("pending_skip", f"rules '{game.rules.name}' do not keep skips pending")
    game.pending_skip = value


def _apply_pending(fields: _Fields, game: Game, value: Any) -> None:
    """``{kind, amount}``, plus ``holds`` (the kinds in a mixed stack, L3) where it matters."""
    kinds = sorted({p.stack for p in game.rules.power_of if p.stack})
    if not isinstance(value, dict) or not {"kind", "amount"} <= set(value) <= {"kind", "amount", "holds"}:
        raise fields.fail("pending", f"expected {{kind: ..., amount: N}} (and holds: [...]), got {value!r}")
    if value["kind"] not in kinds:
        raise fields.fail("pending", f"kind must be one of {kinds}, got {value['kind']!r}")
    amount = value["amount"]
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise fields.fail("pending", f"amount must be an integer >= 0, got {amount!r}")
    holds = value.get("holds", [value["kind"]])
    if not isinstance(holds, list) or not holds or any(k not in kinds for k in holds):
        raise fields.fail("pending", f"holds must be a list of kinds from {kinds}, got {holds!r}")
    game.set_pending(Pending(value["kind"], amount, tuple(holds)))


def _recycles(fields: _Fields, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise fields.fail("recycles_left", f"expected an integer >= 0 or null, got {value!r}")
    return value
