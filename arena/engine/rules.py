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
from typing import Any, Callable, Final, cast

from arena.engine.actions import Play
from arena.engine.cards import CARDS, NAMES, RANK_OF
from arena.engine.frozen import rebuilt_from_fields
from arena.errors import RulesError
from arena.engine.powers import PLAIN, POWER_KEYS, Power, parse_power, power_table, selector_codes
from arena.settings import Keys, did_you_mean, load_yaml, read_text, refuse_other_kind, show

__all__ = ["PLAIN", "Power", "RuleSet", "build_rules", "load_rules", "merge_settings", "preset_names"]

_Keys = Keys[RulesError]

DEFAULT_PRESET = "switch"
# What a draw leaves the seat (``drawing.after_draw``): the turn ends (S); a playable drawn card
# must be played, in a play that includes it (C4); it may lead a play (L9; where a play is one
# card, F4 and W3, that is the card alone) or go down alone (B6, I5), or the seat passes; or the
# turn goes on (O3).
AFTER_DRAW: Final = ("end", "must-play", "may-play", "may-play-alone", "continue")
DRAWN_CARD_OPTIONAL: Final = ("may-play", "may-play-alone")  # play the drawn card, or pass
DEFAULT_POINTS = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}  # F7's table sets A to 20


@dataclass(frozen=True)
class RuleSet:
    """One exact game: a preset or a user's rule set. Build it with :func:`load_rules`.

    The first fields mirror the settings (see the presets' YAML comments for each key); the
    ones after ``settings`` are tables and flags derived from them for the engine's hot loops,
    so that a mechanism a rule set does not use costs one flag test at most.
    """

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
    starter_refuses: frozenset[int] = frozenset()
    starter_calls: bool = True
    set_ranks: int = 0
    opener_scope: str = "play"
    cover: str = "match"
    runs: bool = False
    pickup_chain: bool = False
    two_seat_reverse: str = "turn"
    last_card: str = "off"
    last_card_penalty: int = 0
    illegal_play: str = "reject"
    blunder_draw: int = 0
    no_finish: frozenset[int] = frozenset()
    no_finish_two_seats: frozenset[int] = frozenset()
    points: tuple[int, ...] = ()
    match_wins: int | None = None
    # The mechanisms of issue 12 (OpenSpiel's crazy_eights and many tables); each default is
    # the behaviour every preset had before them.
    first_player: str = "seat-0"
    starter_acts: bool = False
    pickup_on_empty_stock: str = "penalty"
    pass_on_empty: bool = False
    recycle_at: str = "draw"
    emptying_penalty_draw: str = "breaks"
    play_cap: int | None = None
    blocked_after: str = "seats"
    jokers_wild: bool = True  # L2: a joker goes on anything; else it fits as the card it names (I2, L8)
    settings: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)
    power_of: tuple[Power, ...] = field(repr=False, compare=False, default=())
    # Lookup tables derived from power_of, for the engine's hot loops (one entry per card code).
    wild: tuple[bool, ...] = field(repr=False, compare=False, default=())
    opens: tuple[bool, ...] = field(repr=False, compare=False, default=())
    has_effect: tuple[bool, ...] = field(repr=False, compare=False, default=())
    answers: dict[str, frozenset[int]] = field(repr=False, compare=False, default_factory=dict)
    any_opener: bool = field(repr=False, compare=False, default=False)
    # True when plays chain only by sets and suit openers, as in switch and crazy-eights
    # (no runs, pickup chains, covers, suit-bound cards or jokers): the original fast paths.
    simple: bool = field(repr=False, compare=False, default=True)
    any_suit_only: bool = field(repr=False, compare=False, default=False)
    any_cover: bool = field(repr=False, compare=False, default=False)
    # True when later cards chain by runs, pickup stacks, covers, the latest opener or jokers
    # (B2, L2): plays are checked and listed by arena.engine.chains instead of the set/opener code.
    chained: bool = field(repr=False, compare=False, default=False)
    pickup_card: tuple[bool, ...] = field(repr=False, compare=False, default=())
    kind_bits: dict[str, int] = field(repr=False, compare=False, default_factory=dict)
    # True when legal plays need a last pass (finishing bans, last-card variants): one test.
    post_plays: bool = field(repr=False, compare=False, default=False)
    # True when a hand without pairs can only lay single cards, listed straight from the cache:
    # sets of every rank, no suit openers, no finishing bans or last-card variants (C2).
    lone_card_fast: bool = field(repr=False, compare=False, default=False)
    any_effect: bool = field(repr=False, compare=False, default=True)  # any card with has_effect
    # True when every play is one card (max_cards 1, or no sets) of a simple rule set without
    # suit openers or last-pass checks: legal plays come straight from the per-card cache.
    single_card_fast: bool = field(repr=False, compare=False, default=False)
    # True when a turn stays open after a draw (after_draw 'continue') or a seat may pass at
    # will on an empty stock: the legal actions and passes come from Game.legal_actions.
    open_turn: bool = field(repr=False, compare=False, default=False)
    extra_block_passes: int = field(repr=False, compare=False, default=0)  # 'seats+1': 1
    # playable_on[suit * 13 + rank]: the cards that may start a play on that active suit and top
    # rank with no penalty pending (wild, same suit or same rank: S3, C2), for simple rule sets.
    playable_on: tuple[frozenset[int], ...] = field(repr=False, compare=False, default=())
    # lone_plays[key][card]: the plays of ``card`` laid alone where it may start a play, else (),
    # key ``suit * 13 + rank`` as for playable_on and 52 for any suit (a starter 8), for
    # single_card_fast rule sets: their legal plays are one lookup per card of the hand.
    lone_plays: tuple[tuple[tuple[Play, ...], ...], ...] = field(repr=False, compare=False, default=())
    # plain_alone[card]: laying this card alone has no effect and draws nothing (no power, no
    # last-card rule, no S10 draw), so Game plays it without the general play's steps.
    plain_alone: tuple[bool, ...] = field(repr=False, compare=False, default=())
    # Memo caches of the engine, owned by the rule set so that their entries die with it.
    play_cache: dict[int | tuple[int, ...], list[Any]] = field(
        repr=False, compare=False, default_factory=dict)  # Play objects: see arena.engine.moves
    set_cache: dict[tuple[tuple[int, ...], int], list[list[int]]] = field(
        repr=False, compare=False, default_factory=dict)  # see arena.engine.moves
    role_cache: dict[tuple[int, int], list[int]] = field(
        repr=False, compare=False, default_factory=dict)  # see arena.engine.steps

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and copied by its fields (see :mod:`arena.engine.frozen`)."""
        return rebuilt_from_fields(self)

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

    def penalty_kinds(self) -> set[str]:
        """The kinds of penalty some card of the deck starts."""
        return {p.stack for p in self.power_of[: self.deck_size()] if p.stack}


# ---------------------------------------------------------------------------------------------
# Loading


def preset_names() -> list[str]:
    """The names of the presets shipped with the package, sorted."""
    folder = resources.files("arena.engine") / "presets"
    return sorted(p.name[: -len(".yaml")] for p in folder.iterdir() if p.name.endswith(".yaml"))


def load_rules(name_or_path: str | Path = DEFAULT_PRESET) -> RuleSet:
    """A preset by name (``"switch"``) or a rule-set YAML file by path."""
    raw, source = _read_raw(str(name_or_path))
    return build_rules(raw, source)


def _read_raw(name_or_path: str) -> tuple[dict[str, Any], str]:
    if name_or_path in preset_names():
        text = (resources.files("arena.engine") / "presets" / f"{name_or_path}.yaml").read_text()
        return _parse_yaml(text, f"preset {name_or_path}"), f"preset {name_or_path}"
    path = Path(name_or_path)
    if path.suffix not in (".yaml", ".yml") and not path.exists():
        presets = preset_names()
        raise RulesError(f"unknown rules '{name_or_path}'{did_you_mean(name_or_path, presets)}: "
                         f"presets are {', '.join(presets)}")
    raw = _parse_yaml(read_text(path, "rule set", RulesError), str(path))
    refuse_other_kind(raw, str(path), "rule set", RulesError)
    if "base" in raw:
        base_name = raw.pop("base")
        if not isinstance(base_name, str) or base_name not in preset_names():
            hint = did_you_mean(base_name, preset_names()) if isinstance(base_name, str) else ""
            raise RulesError(f"{path}: key 'base': unknown preset {base_name!r}{hint}")
        base, _ = _read_raw(base_name)
        if "summary" not in raw:  # the base's own would describe rules this file may change
            raw["summary"] = f"{base_name} with this file's changes ({base_name}: {base.get('summary', '')})"
        raw = merge_settings(base, raw)
    return raw, str(path)


def _parse_yaml(text: str, source: str) -> dict[str, Any]:
    raw = load_yaml(text, source, RulesError)
    if not isinstance(raw, dict):
        raise RulesError(f"{source}: a rule set must be a mapping of settings, got {show(raw)}")
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


def build_rules(raw: dict[str, Any], source: str) -> RuleSet:
    """Validate a raw settings mapping into a :class:`RuleSet`."""
    settings = copy.deepcopy(raw)
    top = Keys(raw, source, RulesError)
    values: dict[str, Any] = {"name": top.take("name", str, Path(source).stem),
                              "summary": top.take("summary", str, "")}
    values.update(_seats(top.sub("seats")))
    powers = _powers(top.sub("powers"))
    power_of = power_table(powers)
    values["powers"] = tuple((s, p) for s, p, _ in powers)
    values.update(_deal(top.sub("deal"), power_of))
    values.update(_play(top.sub("play")))
    values.update(_drawing(top.sub("drawing")))
    values.update(_last_card(top.sub("last_card")))
    values.update(_illegal_play(top.sub("illegal_play")))
    values.update(_finish(top.sub("finish")))
    values["blocked"] = top.choice("blocked", ("fewest-cards", "lowest-points"), "fewest-cards")
    values["points"] = _points(top.sub("points"), values["blocked"])
    values["match_wins"] = _match(top.sub("match"))
    values["decision_cap"] = top.take("decision_cap", int, 5000, lambda v: v >= 10, "an integer >= 10")
    values["play_cap"] = top.take("play_cap", int, None, lambda v: v >= 1, "an integer >= 1 or null")
    values["blocked_after"] = top.choice("blocked_after", ("seats", "seats+1"), "seats")
    top.done()
    rules = RuleSet(**values, settings=settings, **_tables(power_of, values))
    _check_playable(rules, source)
    return rules


def _seats(seats: _Keys) -> dict[str, Any]:
    low = seats.take("min", int, 2, lambda v: v >= 2, "an integer >= 2")
    high = seats.take("max", int, 6, lambda v: v >= low, f"an integer >= {low}")
    default = seats.take("default", int, min(4, high), lambda v: low <= v <= high, f"{low}..{high}")
    seats.done()
    return {"seats_min": low, "seats_max": high, "seats_default": default}


def _deal(deal: _Keys, power_of: tuple[Power, ...]) -> dict[str, Any]:
    hand_size, by_seats = _hand_size(deal)
    jokers = deal.take("jokers", int, 0, lambda v: 0 <= v <= 2, "0, 1 or 2")
    starter = deal.choice("starter", ("any", "redeal", "push-back"), "any")
    refused = deal.take("starter_refuses", (str, list), "powers")
    if refused == "powers":  # every card with a power, jokers included (W1, I1, L1, S1)
        refuses = frozenset(c for c in range(52 + jokers) if c >= 52 or not power_of[c].is_plain)
    elif isinstance(refused, list):
        refuses = frozenset(c for sel in refused for c in _selector(deal, "starter_refuses", sel)
                            if c < 52 + jokers)
    else:
        raise deal.fail("starter_refuses", f"expected 'powers' or a list of card selectors, got {refused!r}")
    calls = deal.take("starter_calls", bool, True)
    first = deal.choice("first", ("seat-0", "random"), "seat-0")
    acts = deal.take("starter_acts", bool, False)
    deal.done()
    return {"hand_size": hand_size, "hand_size_by_seats": by_seats, "jokers": jokers,
            "starter": starter, "starter_refuses": refuses if starter != "any" else frozenset(),
            "starter_calls": calls, "first_player": first, "starter_acts": acts}


def _play(play: _Keys) -> dict[str, Any]:
    max_cards = play.take("max_cards", int, None, lambda v: v >= 1, "an integer >= 1 or null")
    sets = play.take("sets", (bool, list), True)
    if isinstance(sets, list):
        set_ranks = 0
        for rank in sets:
            set_ranks |= 1 << RANK_OF[_selector(play, "sets", rank)[0]]
    else:
        set_ranks = (1 << 13) - 1 if sets else 0
    values = {
        "max_cards": max_cards, "sets": bool(set_ranks), "set_ranks": set_ranks,
        "inert_after_opener": play.take("inert_after_opener", bool, False),
        "never_together": tuple(frozenset(_selector(play, "never_together", s))
                                for s in play.take("never_together", list, [])),
        "skips": play.choice("skips", ("once", "each", "pending"), "each"),
        "opener_scope": play.choice("opener_scope", ("play", "latest"), "play"),
        "cover": play.choice("cover", ("match", "any"), "match"),
        "runs": play.take("runs", bool, False),
        "pickup_chain": play.take("pickup_chain", bool, False),
        "two_seat_reverse": play.choice("two_seat_reverse", ("turn", "again"), "turn"),
        "pickup_on_empty_stock": play.choice("pickup_on_empty_stock", ("penalty", "plain"), "penalty"),
        "jokers_wild": play.choice("jokers", ("wild", "named"), "wild") == "wild",
    }
    play.done()
    return values


def _drawing(drawing: _Keys) -> dict[str, Any]:
    values = {
        "draw_when": drawing.choice("when", ("stuck", "any"), "stuck"),
        "draws_per_turn": drawing.take("per_turn", int, 1, lambda v: v >= 1, "an integer >= 1"),
        "after_draw": drawing.choice("after_draw", AFTER_DRAW, "end"),
        "recycles": drawing.take("recycles", int, None, lambda v: v >= 0,
                                 "an integer >= 0 or null (unlimited)"),
        "recycle_at": drawing.choice("recycle_at", ("draw", "empty"), "draw"),
        "pass_on_empty": drawing.take("pass_on_empty", bool, False),
        "emptying_penalty_draw": drawing.choice("emptying_penalty_draw", ("breaks", "passes"), "breaks"),
    }
    drawing.done()
    return values


def _last_card(reader: _Keys) -> dict[str, Any]:
    options = ("off", "must", "may")
    rule = reader.take("rule", (str, bool), "off", lambda v: v is False or v in options,
                       "one of " + ", ".join(options))
    rule = "off" if rule is False else rule  # YAML reads a bare `off` as false
    penalty = reader.take("penalty", int, 2 if rule == "must" else 0, lambda v: v >= 0, "an integer >= 0")
    reader.done()
    if rule == "must" and penalty == 0:
        raise reader.fail("penalty", "a 'must' announcement needs a penalty >= 1")
    return {"last_card": rule, "last_card_penalty": penalty if rule == "must" else 0}


def _illegal_play(reader: _Keys) -> dict[str, Any]:
    kind = reader.choice("kind", ("reject", "blunder"), "reject")
    draw = reader.take("draw", int, 2 if kind == "blunder" else 0, lambda v: v >= 1, "an integer >= 1")
    reader.done()
    return {"illegal_play": kind, "blunder_draw": draw if kind == "blunder" else 0}


def _finish(finish: _Keys) -> dict[str, Any]:
    ace_draws = finish.take("ace_draws", bool, False)
    never = frozenset(c for s in finish.take("never_on", list, []) for c in _selector(finish, "never_on", s))
    two = frozenset(c for s in finish.take("never_on_two_seats", list, [])
                    for c in _selector(finish, "never_on_two_seats", s))
    finish.done()
    return {"ace_draws": ace_draws, "no_finish": never, "no_finish_two_seats": two | never}


def _points(reader: _Keys, blocked: str) -> tuple[int, ...]:
    """Points per card for a point-scored blocked game (F7): others count their number."""
    table = [RANK_OF[c] + 1 if c < 52 else 0 for c in range(54)]
    for rank, value in DEFAULT_POINTS.items():
        for code in _selector(reader, rank, rank):
            table[code] = value
    for key in reader.data:
        value = reader.take(key, int, check=lambda v: v >= 0, expect="an integer >= 0")
        for code in _selector(reader, str(key), key):
            table[code] = value
    reader.done()
    return tuple(table) if blocked == "lowest-points" else ()


def _match(reader: _Keys) -> int | None:
    wins: int | None = reader.take("wins", int, None, lambda v: v >= 1,
                                   "an integer >= 1 (hands to win) or null")
    reader.done()
    return wins


def _hand_size(deal: _Keys) -> tuple[int, dict[int, int]]:
    if isinstance(deal.data.get("hand_size"), dict):
        sizes = deal.sub("hand_size")
        default = sizes.take("default", int, 7, lambda v: v >= 1, "an integer >= 1")
        by_seats = {}
        for key in sizes.data:
            if key == "default":
                continue
            if not str(key).isdigit():
                raise sizes.fail(str(key), "expected a seat count or 'default'")
            by_seats[int(key)] = sizes.take(key, int, check=lambda v: v >= 1, expect="an integer >= 1")
        return default, by_seats
    return deal.take("hand_size", int, 7, lambda v: v >= 1, "an integer >= 1"), {}


def _selector(reader: _Keys, key: str, text: object) -> list[int]:
    """The card codes a selector names (see :func:`arena.engine.powers.selector_codes`)."""
    return selector_codes(text, lambda message: reader.fail(key, message))


def _powers(reader: _Keys) -> list[tuple[str, Power, list[int]]]:
    entries = []
    for selector in reader.data:
        body = reader.sub(selector)
        values: dict[str, Any] = {}
        for key, kind in POWER_KEYS.items():
            value = body.take(key, cast("type | tuple[type, ...]", kind), None)
            if value is not None:
                values[key] = tuple(value) if kind is list else value
        body.done()
        codes = _selector(reader, str(selector), selector)
        if any(c >= 52 for c in codes):
            raise reader.fail(str(selector), "a joker has no power of its own: it acts as the card it names")
        entries.append((str(selector), parse_power(values, body.fail), codes))
    return entries


def _tables(power_of: tuple[Power, ...], values: dict[str, Any]) -> dict[str, Any]:
    kinds = sorted({k for p in power_of for k in p.answers} | {p.stack for p in power_of if p.stack})
    any_suit_only = any(p.suit_only for p in power_of)
    any_cover = any(p.must_cover for p in power_of)
    chained = bool(values["runs"] or values["pickup_chain"] or any_cover or values["jokers"]
                   or values["opener_scope"] != "play")
    simple = not (chained or any_suit_only or any(p.cancel_needs for p in power_of))
    any_opener = any(p.opens_suit for p in power_of)
    post_plays = bool(values["no_finish"] or values["no_finish_two_seats"] or values["last_card"] != "off")
    playable_on = tuple(
        frozenset(c for c in range(len(power_of))
                  if c < 52 and (power_of[c].wild or c // 13 == suit or c % 13 == rank) or c >= 52)
        for suit in range(4) for rank in range(13))
    single_card_fast = (simple and not any_opener and not post_plays
                        and (values["max_cards"] == 1 or not values["set_ranks"]))
    return {
        "power_of": power_of,
        "wild": tuple(p.wild or (c >= 52 and values["jokers_wild"]) for c, p in enumerate(power_of)),
        "chained": chained, "pickup_card": tuple(bool(p.pickup) for p in power_of),
        "opens": tuple(p.opens_suit for p in power_of),
        "has_effect": tuple(bool(p.pickup or p.cancels or p.skip or p.reverse or p.swap) for p in power_of),
        "any_effect": any(p.pickup or p.cancels or p.skip or p.reverse or p.swap for p in power_of),
        "playable_on": playable_on,
        "lone_plays": _lone_plays(power_of, playable_on) if single_card_fast else (),
        "plain_alone": tuple(
            c < 52 and not (p.pickup or p.cancels or p.skip or p.reverse or p.swap)
            and not (values["ace_draws"] and p.calls_suit) and values["last_card"] == "off"
            for c, p in enumerate(power_of)),
        "answers": {k: frozenset(c for c, p in enumerate(power_of) if k in p.answers) for k in kinds},
        "any_opener": any_opener,
        "simple": simple, "any_suit_only": any_suit_only, "any_cover": any_cover,
        "kind_bits": {k: 1 << i for i, k in enumerate(kinds)},
        "post_plays": post_plays,
        "open_turn": values["after_draw"] == "continue" or values["pass_on_empty"],
        "extra_block_passes": 1 if values["blocked_after"] == "seats+1" else 0,
        "single_card_fast": single_card_fast,
        "lone_card_fast": (simple and not any_opener and not post_plays
                           and values["set_ranks"] == (1 << 13) - 1 and values["max_cards"] != 1),
    }


def _lone_plays(power_of: tuple[Power, ...], playable_on: tuple[frozenset[int], ...],
                ) -> tuple[tuple[tuple[Play, ...], ...], ...]:
    """The lone_plays table: one interned tuple of plays per card (one play per suit call for a
    suit caller, in suit order as arena.engine.moves lists them), shared by every key."""
    alone = tuple(tuple(Play((CARDS[c],), suit) for suit in range(4)) if power_of[c].calls_suit
                  else (Play((CARDS[c],)),) for c in range(len(power_of)))
    return (*(tuple(alone[c] if c in fits else () for c in range(len(power_of))) for fits in playable_on),
            alone)


def _check_playable(rules: RuleSet, source: str) -> None:
    """Refuse combinations the engine cannot play exactly, naming the key."""
    def refuse(key: str, message: str) -> RulesError:
        return RulesError(f"{source}: key '{key}': {message}")

    for seats in range(rules.seats_min, rules.seats_max + 1):
        dealt = rules.hand_size_for(seats) * seats
        if dealt + 1 > rules.deck_size():
            raise refuse("deal.hand_size", f"{rules.hand_size_for(seats)} cards for {seats} seats "
                         f"needs {dealt + 1} cards with the starter, the deck holds {rules.deck_size()}")
    kinds = rules.penalty_kinds()
    for selector, power in rules.powers:
        for kind in power.answers:
            if kind not in kinds:
                raise refuse(f"powers.{selector}.answers", f"no card starts a '{kind}' penalty")
        for needed, key in [*((k, "cancels") for k, _ in power.cancel_amounts),
                            (power.cancel_needs, "cancel_needs")]:
            if needed and needed not in kinds:
                raise refuse(f"powers.{selector}.{key}", f"no card starts a '{needed}' penalty")
    if rules.starter != "any" and len(rules.starter_refuses) >= rules.deck_size() - 1:
        raise refuse("deal.starter_refuses", "every card is refused as a starter")
    _check_combinations(rules, refuse)


def _check_combinations(rules: RuleSet, refuse: Callable[[str, str], RulesError]) -> None:
    """Settings that contradict each other or that the engine cannot play exactly together."""
    if rules.skips == "pending" and not any(p.skip for p in rules.power_of):
        raise refuse("play.skips", "'pending' needs a card with the 'skip' power")
    if rules.after_draw == "must-play" and rules.draw_when == "any":
        raise refuse("drawing.after_draw", "'must-play' (C4) needs drawing.when 'stuck'")
    if rules.after_draw in DRAWN_CARD_OPTIONAL and rules.draws_per_turn != 1:
        raise refuse("drawing.per_turn", f"'{rules.after_draw}' draws one card: per_turn must be 1")
    if rules.max_cards == 1 and (rules.runs or rules.pickup_chain or rules.any_cover):
        raise refuse("play.max_cards", "one card per play cannot hold runs, pickup chains or covers")
    if rules.any_cover and rules.inert_after_opener:
        raise refuse("play.inert_after_opener", "cannot be combined with a card that must be covered")
    if rules.last_card != "off" and rules.ace_draws:
        raise refuse("last_card.rule", "cannot be combined with finish.ace_draws")
    if rules.jokers and not set(range(52, 52 + rules.jokers)) <= rules.starter_refuses:
        raise refuse("deal.starter_refuses", "a joker cannot start the pile: refuse jokers as starters")
    if rules.illegal_play == "blunder" and rules.after_draw == "must-play":
        raise refuse("illegal_play.kind", "blunders cannot be combined with drawing.after_draw 'must-play'")
    _check_new_mechanisms(rules, refuse)


def _check_new_mechanisms(rules: RuleSet, refuse: Callable[[str, str], RulesError]) -> None:
    """The settings of the open turn, the acting starter, the caps and the stock's timing."""
    pickups = any(p.pickup for p in rules.power_of)
    if rules.first_player == "random" and rules.match_wins is not None:
        raise refuse("deal.first", "a match moves the lead seat by seat (F2): 'random' needs match.wins null")
    if rules.starter_acts:
        swaps = [NAMES[c] for c in range(rules.deck_size())
                 if rules.power_of[c].swap and c not in rules.starter_refuses]
        if swaps:
            raise refuse("deal.starter_acts", f"a starter cannot swap hands: refuse {swaps[0]} as a starter")
    if rules.pickup_on_empty_stock == "plain" and not pickups:
        raise refuse("play.pickup_on_empty_stock", "no card has the 'pickup' power")
    if rules.emptying_penalty_draw == "passes" and not pickups:
        raise refuse("drawing.emptying_penalty_draw", "no card has the 'pickup' power")
    if rules.recycle_at == "empty" and rules.recycles == 0:
        raise refuse("drawing.recycle_at", "'empty' recycles the pile: recycles must not be 0")
    if rules.after_draw == "continue" and rules.illegal_play == "blunder":
        raise refuse("illegal_play.kind", "blunders cannot be combined with drawing.after_draw 'continue'")

