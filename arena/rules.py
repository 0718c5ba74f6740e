"""Rule sets as declared data: presets shipped as YAML, looked up by name, or loaded from a file.

A :class:`RuleSet` is an immutable, validated bundle of settings (seats, deal, card powers,
how plays chain, drawing, finishing, blocked games, the decision cap). The engine never
branches on a preset's *name*: every rule is a mechanism that a setting switches on and
parameterises, so a new rule system is a new YAML file. For speed, :class:`RuleSet` also
precomputes per-card lookup tables (``wild[card]``, ``pickup[card]``, ...).

A user's file may start from a preset with ``base: NAME`` and override settings; dictionaries
merge key by key, while a card's power entry is replaced whole. Unknown keys and impossible
values raise :class:`~arena.errors.RulesError` naming the key.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from arena.cards import RANKS, RED_SUITS, Card, rank_index
from arena.errors import InvalidCardError, RulesError

DEFAULT_PRESET = "switch"
_POWER_KEYS = {
    "wild": bool, "calls_suit": bool, "opens_suit": bool, "pickup": int, "stack": str,
    "cancels": str, "cancel_amount": int, "skip": bool, "reverse": bool, "swap": bool,
    "answers": list,
}


@dataclass(frozen=True)
class Power:
    """What one card does when played (all off for a plain card).

    ``pickup``/``stack``: adds ``pickup`` cards to the pending penalty of kind ``stack``.
    ``cancels``/``cancel_amount``: answers a pending penalty of kind ``cancels``, taking
    ``cancel_amount`` cards off it (0 = all of it). ``answers``: the penalty kinds this card
    may be played on (default: its own ``stack`` and ``cancels`` kinds).
    """

    wild: bool = False
    calls_suit: bool = False
    opens_suit: bool = False
    pickup: int = 0
    stack: str | None = None
    cancels: str | None = None
    cancel_amount: int = 0
    skip: bool = False
    reverse: bool = False
    swap: bool = False
    answers: tuple[str, ...] = ()

    @property
    def is_plain(self) -> bool:
        """True when the card does nothing special."""
        return self == PLAIN

    def describe(self) -> str:
        """A short human description, e.g. ``pick up 2 (two)``."""
        parts = []
        if self.wild:
            parts.append("wild")
        if self.calls_suit:
            parts.append("names a suit")
        if self.opens_suit:
            parts.append("opens its suit")
        if self.pickup:
            parts.append(f"pick up {self.pickup} ({self.stack})")
        if self.cancels:
            amount = "all" if self.cancel_amount == 0 else str(self.cancel_amount)
            parts.append(f"cancels {amount} of a {self.cancels} penalty")
        for flag in ("skip", "reverse", "swap"):
            if getattr(self, flag):
                parts.append(flag)
        if self.answers and set(self.answers) != _default_answers(self):
            parts.append("answers " + "/".join(self.answers))
        return ", ".join(parts) or "plain"


PLAIN = Power()


def _default_answers(power: Power) -> set[str]:
    return {k for k in (power.stack, power.cancels) if k}


@dataclass(frozen=True)
class RuleSet:
    """One exact game: a preset or a user's rule set. Build it with :func:`load_rules`."""

    name: str
    summary: str
    seats_min: int
    seats_max: int
    seats_default: int
    hand_size: int
    hand_size_by_seats: dict[int, int]
    jokers: int
    starter: str
    powers: tuple[tuple[str, Power], ...]
    max_cards: int | None
    sets: bool
    inert_after_opener: bool
    never_together: tuple[frozenset[int], ...]
    skips: str
    draw_when: str
    draws_per_turn: int
    after_draw: str
    recycles: int | None
    ace_draws: bool
    blocked: str
    decision_cap: int
    settings: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)
    power_of: tuple[Power, ...] = field(repr=False, compare=False, default=())
    # Lookup tables derived from power_of, for the engine's hot loops (one entry per card code).
    wild: tuple[bool, ...] = field(repr=False, compare=False, default=())
    opens: tuple[bool, ...] = field(repr=False, compare=False, default=())
    has_effect: tuple[bool, ...] = field(repr=False, compare=False, default=())
    answers: dict[str, frozenset[int]] = field(repr=False, compare=False, default_factory=dict)
    any_opener: bool = field(repr=False, compare=False, default=False)
    play_cache: dict = field(repr=False, compare=False, default_factory=dict)  # see arena.moves

    def hand_size_for(self, seats: int) -> int:
        """Cards dealt to each seat at this table size."""
        return self.hand_size_by_seats.get(seats, self.hand_size)

    def check_seats(self, seats: int) -> None:
        """Raise :class:`RulesError` when ``seats`` is outside the preset's range."""
        if not self.seats_min <= seats <= self.seats_max:
            raise RulesError(
                f"rules '{self.name}': seats must be {self.seats_min}..{self.seats_max}, got {seats}"
            )

    def deck_size(self) -> int:
        """Cards in the deck (52 plus jokers)."""
        return 52 + self.jokers


# ---------------------------------------------------------------------------------------------
# Loading


def preset_names() -> list[str]:
    """The names of the presets shipped with the package, sorted."""
    folder = resources.files("arena") / "presets"
    return sorted(p.name[: -len(".yaml")] for p in folder.iterdir() if p.name.endswith(".yaml"))


def load_rules(name_or_path: str | Path = DEFAULT_PRESET) -> RuleSet:
    """A preset by name (``"switch"``) or a rule-set YAML file by path."""
    raw, source = _read_raw(str(name_or_path))
    return build_rules(raw, source)


def _read_raw(name_or_path: str) -> tuple[dict[str, Any], str]:
    if name_or_path in preset_names():
        text = (resources.files("arena") / "presets" / f"{name_or_path}.yaml").read_text()
        return _parse_yaml(text, f"preset {name_or_path}"), f"preset {name_or_path}"
    path = Path(name_or_path)
    if path.suffix not in (".yaml", ".yml") and not path.exists():
        raise RulesError(f"unknown rules '{name_or_path}': presets are {', '.join(preset_names())}")
    try:
        text = path.read_text()
    except OSError as error:
        raise RulesError(f"{path}: cannot read rule set ({error.strerror or error})") from None
    raw = _parse_yaml(text, str(path))
    if "base" in raw:
        base_name = raw.pop("base")
        if not isinstance(base_name, str) or base_name not in preset_names():
            raise RulesError(f"{path}: key 'base': unknown preset {base_name!r}")
        base, _ = _read_raw(base_name)
        raw = merge_settings(base, raw)
    return raw, str(path)


def _parse_yaml(text: str, source: str) -> dict[str, Any]:
    import yaml  # imported here so that bots in the sandbox can use this module without PyYAML

    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise RulesError(f"{source}: malformed YAML{where}") from None
    if not isinstance(raw, dict):
        raise RulesError(f"{source}: a rule set must be a mapping of settings")
    return raw


def merge_settings(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``override`` laid over it; card power entries are replaced whole."""
    merged = copy.deepcopy(base)
    for key, value in override.items():
        if key != "powers" and isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge_settings(merged[key], value)
        elif key == "powers" and isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **copy.deepcopy(value)}
        else:
            merged[key] = copy.deepcopy(value)
    return merged


class _Reader:
    """Pops typed settings out of a mapping, naming the dotted key in every error."""

    def __init__(self, data: dict[str, Any], source: str, prefix: str = "") -> None:
        if not isinstance(data, dict):
            raise RulesError(f"{source}: key '{prefix.rstrip('.')}': expected a mapping")
        self.data = dict(data)
        self.source = source
        self.prefix = prefix

    def fail(self, key: str, message: str) -> RulesError:
        return RulesError(f"{self.source}: key '{self.prefix}{key}': {message}")

    def take(self, key: str, kind: type, default: Any = ..., check: Callable[[Any], bool] | None = None,
             expect: str = "") -> Any:
        if key not in self.data:
            if default is ...:
                raise self.fail(key, "missing")
            return default
        value = self.data.pop(key)
        if value is None and default is None:
            return None
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.fail(key, f"expected {expect or 'an integer'}, got {value!r}")
        if kind is not int and not isinstance(value, kind):
            raise self.fail(key, f"expected {expect or kind.__name__}, got {value!r}")
        if check is not None and not check(value):
            raise self.fail(key, f"expected {expect}, got {value!r}")
        return value

    def choice(self, key: str, options: tuple[str, ...], default: Any = ...) -> str:
        return self.take(key, str, default, lambda v: v in options, "one of " + ", ".join(options))

    def sub(self, key: str) -> _Reader:
        return _Reader(self.data.pop(key, {}) or {}, self.source, f"{self.prefix}{key}.")

    def done(self) -> None:
        if self.data:
            key = sorted(map(str, self.data))[0]
            raise self.fail(key, "unknown key")


def build_rules(raw: dict[str, Any], source: str) -> RuleSet:
    """Validate a raw settings mapping into a :class:`RuleSet`."""
    settings = copy.deepcopy(raw)
    top = _Reader(raw, source)
    name = top.take("name", str, Path(source).stem)
    summary = top.take("summary", str, "")
    seats = top.sub("seats")
    seats_min = seats.take("min", int, 2, lambda v: v >= 2, "an integer >= 2")
    seats_max = seats.take("max", int, 6, lambda v: v >= seats_min, f"an integer >= {seats_min}")
    seats_default = seats.take("default", int, min(4, seats_max),
                               lambda v: seats_min <= v <= seats_max, f"{seats_min}..{seats_max}")
    seats.done()
    deal = top.sub("deal")
    hand_size, by_seats = _hand_size(deal)
    jokers = deal.take("jokers", int, 0, lambda v: 0 <= v <= 2, "0, 1 or 2")
    starter = deal.choice("starter", ("any", "redeal", "push-back"), "any")
    deal.done()
    powers = _powers(top.sub("powers"))
    play = top.sub("play")
    max_cards = play.take("max_cards", int, None, lambda v: v >= 1, "an integer >= 1 or null")
    sets = play.take("sets", bool, True)
    inert = play.take("inert_after_opener", bool, False)
    never = tuple(frozenset(_selector(play, "never_together", s)) for s in
                  play.take("never_together", list, []))
    skips = play.choice("skips", ("once", "each"), "each")
    play.done()
    drawing = top.sub("drawing")
    draw_when = drawing.choice("when", ("stuck",), "stuck")
    per_turn = drawing.take("per_turn", int, 1, lambda v: v >= 1, "an integer >= 1")
    after_draw = drawing.choice("after_draw", ("end", "must-play"), "end")
    recycles = drawing.take("recycles", int, None, lambda v: v >= 0, "an integer >= 0 or null (unlimited)")
    drawing.done()
    finish = top.sub("finish")
    ace_draws = finish.take("ace_draws", bool, False)
    finish.done()
    blocked = top.choice("blocked", ("fewest-cards",), "fewest-cards")
    cap = top.take("decision_cap", int, 5000, lambda v: v >= 10, "an integer >= 10")
    top.done()
    rules = RuleSet(
        name=name, summary=summary, seats_min=seats_min, seats_max=seats_max,
        seats_default=seats_default, hand_size=hand_size, hand_size_by_seats=by_seats,
        jokers=jokers, starter=starter, powers=tuple((s, p) for s, p, _ in powers), max_cards=max_cards, sets=sets,
        inert_after_opener=inert, never_together=never, skips=skips, draw_when=draw_when,
        draws_per_turn=per_turn, after_draw=after_draw, recycles=recycles, ace_draws=ace_draws,
        blocked=blocked, decision_cap=cap, settings=settings, **_tables(_power_table(powers, jokers)),
    )
    _check_playable(rules, source)
    return rules


def _hand_size(deal: _Reader) -> tuple[int, dict[int, int]]:
    value = deal.data.get("hand_size", 7)
    if isinstance(value, dict):
        deal.data.pop("hand_size")
        sizes = _Reader(value, deal.source, deal.prefix + "hand_size.")
        default = sizes.take("default", int, 7, lambda v: v >= 1, "an integer >= 1")
        by_seats = {}
        for key in list(sizes.data):
            if not str(key).isdigit():
                raise sizes.fail(str(key), "expected a seat count or 'default'")
            by_seats[int(key)] = sizes.take(key, int, check=lambda v: v >= 1, expect="an integer >= 1")
        return default, by_seats
    return deal.take("hand_size", int, 7, lambda v: v >= 1, "an integer >= 1"), {}


def _selector(reader: _Reader, key: str, text: object) -> list[int]:
    """The card codes a power selector names: ``A``, ``10``, ``black J``, ``red J``, ``KH``."""
    words = str(text).split()
    colour = None
    if len(words) == 2 and words[0] in ("black", "red"):
        colour, words = words[0], words[1:]
    if len(words) != 1:
        raise reader.fail(key, f"cannot read card selector {text!r}")
    word = words[0]
    try:
        rank = rank_index(word)
        codes = [Card.of(rank, suit) for suit in range(4)]
    except InvalidCardError:
        if colour:
            raise reader.fail(key, f"cannot read card selector {text!r}") from None
        try:
            codes = [Card.parse(word)]
        except InvalidCardError:
            raise reader.fail(key, f"no such card or rank {text!r}") from None
    if colour:
        red = colour == "red"
        codes = [c for c in codes if (c.suit in RED_SUITS) == red]
    return codes


def _powers(reader: _Reader) -> list[tuple[str, Power, list[int]]]:
    entries = []
    for selector in list(reader.data):
        body = _Reader(reader.data.pop(selector) or {}, reader.source, f"{reader.prefix}{selector}.")
        values: dict[str, Any] = {}
        for key, kind in _POWER_KEYS.items():
            value = body.take(key, kind, None)
            if value is not None:
                values[key] = tuple(value) if kind is list else value
        body.done()
        power = Power(**values)
        _check_power(body, power)
        if not power.answers:
            power = Power(**{**values, "answers": tuple(sorted(_default_answers(power)))})
        entries.append((str(selector), power, _selector(reader, str(selector), selector)))
    return entries


def _check_power(body: _Reader, power: Power) -> None:
    if power.pickup < 0:
        raise body.fail("pickup", "expected an integer >= 0")
    if bool(power.pickup) != bool(power.stack):
        raise body.fail("stack" if power.pickup else "pickup", "'pickup' and 'stack' go together")
    if power.cancel_amount < 0:
        raise body.fail("cancel_amount", "expected an integer >= 0 (0 = the whole penalty)")
    if power.cancel_amount and not power.cancels:
        raise body.fail("cancel_amount", "needs 'cancels'")
    if power.calls_suit and (power.pickup or power.skip or power.swap):
        raise body.fail("calls_suit", "a suit-calling card cannot also carry a penalty, skip or swap")


def _power_table(entries: list[tuple[str, Power, list[int]]], jokers: int) -> tuple[Power, ...]:
    table = [PLAIN] * 54
    for _, power, codes in entries:
        for code in codes:
            table[code] = power
    return tuple(table)


def _tables(power_of: tuple[Power, ...]) -> dict[str, Any]:
    kinds = {k for p in power_of for k in p.answers}
    return {
        "power_of": power_of,
        "wild": tuple(p.wild for p in power_of),
        "opens": tuple(p.opens_suit for p in power_of),
        "has_effect": tuple(bool(p.pickup or p.cancels or p.skip or p.reverse or p.swap) for p in power_of),
        "answers": {k: frozenset(c for c, p in enumerate(power_of) if k in p.answers) for k in kinds},
        "any_opener": any(p.opens_suit for p in power_of),
    }


def _check_playable(rules: RuleSet, source: str) -> None:
    """Refuse combinations the engine cannot play exactly, naming the key."""
    for seats in range(rules.seats_min, rules.seats_max + 1):
        dealt = rules.hand_size_for(seats) * seats
        if dealt + 1 > rules.deck_size():
            raise RulesError(
                f"{source}: key 'deal.hand_size': {rules.hand_size_for(seats)} cards for {seats} seats "
                f"needs {dealt + 1} cards with the starter, the deck holds {rules.deck_size()}"
            )
    if rules.jokers:
        raise RulesError(f"{source}: key 'deal.jokers': jokers are not supported by this engine yet")
    kinds = {p.stack for p in rules.power_of if p.stack}
    for selector, power in rules.powers:
        for kind in power.answers:
            if kind not in kinds:
                raise RulesError(f"{source}: key 'powers.{selector}.answers': no card starts a '{kind}' penalty")
        if power.cancels and power.cancels not in kinds:
            raise RulesError(f"{source}: key 'powers.{selector}.cancels': no card starts a '{power.cancels}' penalty")
    if rules.starter != "any" and all(not p.is_plain for p in rules.power_of[:52]):
        raise RulesError(f"{source}: key 'deal.starter': every card has a power, no starter can be plain")


def rank_name(rank: int) -> str:
    """The notation letter of a rank index."""
    return RANKS[rank]
