"""G8 hidden information: nothing reachable from what a bot receives names a hidden card.

What a bot receives is the referee's message (:func:`wire_observation`, sent as JSON) and the
:class:`Observation` its host builds from it, which :meth:`Game.observation` also returns.
Every attribute of both (fields, properties, containers, recursively) is walked, and so is
the seat's view of the game that the observation's legality questions build (``is_legal``,
``next_cards``...) and their answers: every card found, as a card object or as a card name
inside a text, must be public for that seat: its own hand, the top card, or a card named by the
public history. The history itself is compared with a public log kept by the test (who did
what, how many drawn).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import re

from clients import RandomClient
from engine_helpers import SWITCH, hand, position

import pytest

from arena.engine.actions import DRAW, PASS, Play
from arena.engine.cards import NAMES, Card
from arena.engine.game import Game
from arena.engine.observation import Observation, wire_observation, observe
from arena.engine.rules import RuleSet, load_rules, preset_names
from arena.engine.seat_view import UNSEEN

CARD_NAMES = frozenset(NAMES)
HISTORY_KEYS = {"history", "events"}  # compared with the test's own public log instead
RULES_KEYS = {"rules"}  # the rule settings: the same public text for every seat, compared instead
# The card a joker on top stands for (L8) and a joker's role in a play (X1:JS) name a card, not
# where it is: what the top acts as is public, and a role may be any card.
ROLE_KEYS = {"top_as", "top_acting", "top_card"}
SKIPPED = HISTORY_KEYS | RULES_KEYS | ROLE_KEYS


def leaves(obj, path="obs", seen=None):
    """Yield ``(path, value)`` for every card and text reachable from ``obj``."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, Card):
        yield path, obj
    elif isinstance(obj, str):
        yield path, obj
    elif isinstance(obj, (bool, int, float, type(None))):
        return
    elif isinstance(obj, Play):
        yield from leaves(obj.cards, f"{path}.cards", seen)  # not its roles (ROLE_KEYS)
    elif isinstance(obj, RuleSet):
        # Public data built from the settings (its tables name cards, such as the jacks that
        # never go together); only its memo caches can hold cards met in play.
        for f in dataclasses.fields(obj):
            if f.name.endswith("_cache"):
                yield from leaves(getattr(obj, f.name), f"{path}.{f.name}", seen)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from leaves(key, f"{path}[key]", seen)
            if key not in SKIPPED:
                yield from leaves(value, f"{path}[{key!r}]", seen)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for i, item in enumerate(obj):
            yield from leaves(item, f"{path}[{i}]", seen)
    else:
        for name, value in attributes(obj):
            if name not in SKIPPED:
                yield from leaves(value, f"{path}.{name}", seen)


def attributes(obj):
    """Fields, instance attributes and properties of an object (not methods)."""
    names = set()
    if dataclasses.is_dataclass(obj):
        names |= {f.name for f in dataclasses.fields(obj)}
    names |= set(getattr(obj, "__dict__", {}))
    for klass in type(obj).__mro__:
        names |= {n for n, v in vars(klass).items() if isinstance(v, property)}
        names |= set(getattr(klass, "__slots__", ()))
    for name in sorted(names):
        if not name.startswith("__"):
            yield name, getattr(obj, name)


def card_names_in(value) -> set[str]:
    """Canonical card names inside a card object or a text (`7H 2H=D`; `X1:JS` names X1 only)."""
    if isinstance(value, Card):
        return {str(value)}
    value = re.sub(r"\b(X\d):\w\w", r"\1", value)  # a joker's role names a card, not a place
    return {t for t in re.split(r"[\s=:!,\[\]'\"]+", value) if t in CARD_NAMES}


def containers(game: Game) -> list[object]:
    """The referee's mutable containers, which an observation must never share."""
    return [*game.hands, game.hands, game.stock, game.discard, game.history]


def received(game: Game, seat: int) -> tuple[dict, Observation]:
    """What a sandboxed bot gets for ``seat``: the referee's message as it arrives (JSON), and
    the observation its host builds from it with the rules of the game-start message."""
    wire = json.loads(json.dumps(wire_observation(game, seat, 0)))
    info = json.loads(json.dumps({"name": game.rules.name, "settings": game.rules.settings}))
    return wire, Observation.from_wire(wire, (), info)


def ask_legality(obs: Observation) -> list:
    """Ask every legality question the seat may (building its view of the game); the answers."""
    answers: list = [obs.next_cards(), obs.illegal_reason(DRAW), obs.illegal_reason(PASS)]
    for card in obs.hand:
        answers += [obs.next_cards([card]), obs.illegal_reason(Play((card,)))]
    for action in obs.legal_actions():
        answers.append(obs.is_legal(action))
    return answers


def check_observation(game: Game, seat: int, log: list[tuple[int, str, int]]) -> None:
    """G8 for one seat: hidden cards unreachable, sizes and public history right."""
    wire, obs = received(game, seat)
    assert observe(game, seat) == obs  # in-process, a bot gets the very same observation
    answers = ask_legality(obs)
    hidden = {NAMES[c] for s, h in enumerate(game.hands) if s != seat for c in h}
    hidden |= {NAMES[c] for c in game.stock}
    hidden -= {NAMES[game.top_card]}  # what a joker on top stands for is public (L8)
    shared = {id(c) for c in containers(game)}
    for root, label in ((obs, "obs"), (wire, "wire"), (obs.legal_actions(), "legal"), (answers, "answers")):
        for path, value in leaves(root, label):
            leak = card_names_in(value) & hidden
            assert not leak, f"seat {seat} sees hidden {sorted(leak)} at {path}"
        assert not any(id(x) in shared for x in walk_objects(root)), "shares referee state"
    assert obs.rules == game.rules.settings and obs.rule_set() is not game.rules
    assert obs.hand_sizes == tuple(len(h) for h in game.hands)
    assert sorted(obs.hand) == sorted(game.hands[seat])
    assert obs.stock_size == len(game.stock)
    assert [(e.seat, e.action, e.drew) for e in obs.history] == log
    assert [list(e) for e in wire["events"]] == [list(e) for e in log]


def walk_objects(obj, seen=None):
    """Every container and object reachable from ``obj`` (identity walk)."""
    seen = set() if seen is None else seen
    if id(obj) in seen or isinstance(obj, (str, int, float, bool, type(None))):
        return
    seen.add(id(obj))
    yield obj
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from walk_objects(value, seen)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for item in obj:
            yield from walk_objects(item, seen)
    else:
        for _, value in attributes(obj):
            yield from walk_objects(value, seen)


def public_step(game: Game, action) -> tuple[int, str, int]:
    """Apply ``action``; return the public record: seat, action text, cards drawn."""
    seat, held = game.to_move, sum(len(h) for h in game.hands)
    laid = len(action.cards) if hasattr(action, "cards") else 0
    game.apply(action)
    return seat, str(action), sum(len(h) for h in game.hands) - held + laid


@pytest.mark.parametrize("preset", preset_names())
def test_G8_no_hidden_card_is_reachable_from_any_observation(preset):
    """G8: in many random positions, for every seat, nothing of another hand or the stock leaks,
    not even through the legality questions the observation answers."""
    rules = load_rules(preset)
    positions = 0
    for seed in range(20):
        rng = random.Random(seed)
        game = Game.new(rules, rng.randint(2, 5), seed)
        log: list[tuple[int, str, int]] = []
        while not game.is_over and game.decisions < 120:
            if game.decisions % 3 == 0:
                for seat in range(game.seats):
                    check_observation(game, seat, log)
                positions += 1
            log.append(public_step(game, rng.choice(game.legal_actions())))
    assert positions > 150


def test_G8_the_seat_view_holds_the_seats_own_cards_and_placeholders_only():
    """G8: the game an observation's legality questions read holds this seat's hand and the top
    card, and for every unseen card (other hands, the stock, the pile below the top) only a
    placeholder, so it knows their number and nothing else."""
    game = position(SWITCH, ["7H 5H 2C", "3D 4D", "5D 6D KS"], "9H", stock="KH KD QC",
                    discard="4S 8C")
    _, obs = received(game, 0)
    assert obs.next_cards() == [Card.parse("5H"), Card.parse("7H")]
    view = obs._view
    assert view.hands[0] == game.hands[0]
    assert view.hands[1:] == [[UNSEEN] * 2, [UNSEEN] * 3]
    assert view.stock == [UNSEEN] * 3 and view.discard == [UNSEEN, UNSEEN, Card.parse("9H")]
    assert view.seed == 0 and view.rules is not game.rules


def test_G8_a_recycled_card_drawn_by_another_seat_stays_hidden():
    """G8: with a short stock the pile recycles often; drawn recycled cards still leak nothing."""
    recycled = 0
    for seed in range(20):
        rng = random.Random(seed)
        game = Game.new(SWITCH, 3, seed)
        # rig: all but three stock cards go under the top card, so the stock soon recycles
        game.discard[:0], game.stock[:] = game.stock[:-3], game.stock[-3:]
        log: list[tuple[int, str, int]] = []
        while not game.is_over and game.decisions < 150:
            if game.recycles_left < 20:
                recycled += 1
                for seat in range(game.seats):
                    check_observation(game, seat, log)
            log.append(public_step(game, rng.choice(game.legal_actions())))
    assert recycled > 50


def test_G8_after_a_swap_each_seat_holds_and_sees_its_new_hand():
    """G8/S2: after QS, seat 0 sees 3D 4D and not its old 5C; seat 1 sees 5C."""
    game = position(SWITCH, ["QS 5C", "3D 4D", "5D 6D"], "9S", stock="KH KD")
    log = [public_step(game, game.check("QS"))]
    assert sorted(map(str, observe(game, 0).hand)) == ["3D", "4D"] == hand(game, 0)
    assert [str(c) for c in observe(game, 1).hand] == ["5C"]
    for seat in range(3):
        check_observation(game, seat, log)


def test_G8_another_seats_drawn_card_is_counted_not_named():
    """G8: seat 0 draws KD; seat 1's history says seat 0 drew one card, and nothing names KD."""
    game = position(SWITCH, ["3C", "4C"], "9H", stock="KD 2S")
    log = [public_step(game, game.check("draw"))]
    assert log == [(0, "draw", 1)]
    check_observation(game, 1, log)
    wire, obs = received(game, 1)
    assert "KD" not in repr(wire) and "KD" not in repr(obs)


def test_G8_the_observation_is_a_copy_not_a_view():
    """G8: later moves do not change an observation already handed out, nor its answers."""
    game = position(SWITCH, ["3H 4C", "5H 6C"], "9H", stock="KD")
    obs = observe(game, 0)
    before, answers = copy.deepcopy(obs), ask_legality(obs)
    game.apply("3H")
    game.apply("5H")
    assert obs == before and ask_legality(obs) == answers
    assert obs.next_cards() == [Card.parse("3H")] != game.next_cards([])  # 4C alone by now


# What a bot actually receives: the referee's wire messages, checked as they are sent.

G8_WIRE_KEYS = {"seat", "seats", "to_move", "hand", "top", "active_suit", "pending", "direction",
                "hand_sizes", "stock_size", "discard_size", "recycles_left", "draws_this_turn",
                "drawn_card", "legal", "events", "top_as", "pending_skip"}


class _StartCheckingBot(RandomClient):
    """A random seat whose start message must hold no more than a seat may know."""

    def start_game(self, info: dict) -> None:
        assert set(info) <= {"seat", "seats", "seed", "rules", "hand", "wins"}


@pytest.mark.parametrize("preset", ["switch", "crazy-eights", "london", "blackjack", "irish"])
def test_G8_the_referee_sends_a_seat_only_what_it_may_see(preset, monkeypatch):
    """G8 on the wire: every message the referee sends a bot (as JSON) names no card of another
    hand or of the stock, holds only G8's keys, and tells the true sizes and the seat's hand."""
    from arena.play import referee as referee_module

    original = referee_module.wire_observation
    sent = []

    def checked(game, seat, since):
        message = original(game, seat, since)
        wire = json.loads(json.dumps(message))
        hidden = {NAMES[c] for s, h in enumerate(game.hands) if s != seat for c in h}
        hidden |= {NAMES[c] for c in game.stock}
        hidden -= {NAMES[game.top_card]}  # what a joker on top stands for is public (L8)
        assert set(wire) <= G8_WIRE_KEYS, set(wire) - G8_WIRE_KEYS
        # (top_as is the card a joker on top stands for, L8: a named role, public to all.)
        for path, value in leaves({k: v for k, v in wire.items() if k not in ("events", "top_as")}, "wire"):
            if isinstance(value, str):  # a joker's role (X1:4C, L8) names a card, not a place
                value = re.sub(r"\b(X\d):\w\w", r"\1", value)
            leak = card_names_in(value) & hidden
            assert not leak, f"seat {seat} is sent hidden {sorted(leak)} at {path}"
        assert sorted(wire["hand"]) == sorted(NAMES[c] for c in game.hands[seat])
        assert wire["hand_sizes"] == [len(h) for h in game.hands]
        assert wire["stock_size"] == len(game.stock)
        # The events are the public history since the seat's last message (who did what, how
        # many drawn), exactly as every seat sees it.
        assert wire["events"] == [[e.seat, str(e.action), e.drew] for e in game.history[since:]]
        # What the bot host builds from it, legality questions asked: nothing hidden either.
        history = histories.get(seat, ()) if since else ()
        obs = Observation.from_wire(wire, history, info)
        histories[seat] = obs.history
        for path, value in leaves([obs, ask_legality(obs)], "obs"):
            leak = card_names_in(value) & hidden
            assert not leak, f"seat {seat} sees hidden {sorted(leak)} at {path}"
        sent.append(seat)
        return message

    rules = load_rules(preset)
    info = json.loads(json.dumps({"name": rules.name, "settings": rules.settings}))
    histories: dict[int, tuple] = {}
    monkeypatch.setattr(referee_module, "wire_observation", checked)
    ref = referee_module.Referee(rules)
    for seed in range(12):
        seats = 2 + seed % 3
        ref.play([_StartCheckingBot(seed * 10 + s) for s in range(seats)], seed)
    assert len(sent) > 200
