"""A bot asks its observation what is legal, and hears the referee's answer.

``obs.is_legal``, ``obs.illegal_reason``, ``obs.next_cards`` and ``obs.joker_roles`` run the
referee's own legality code on the seat's view of the game (arena/engine/seat_view.py), built
from nothing but what the observation holds (RULINGS G8). Here every decision of seeded random
games of every preset is asked through the wire, as a sandboxed bot asks it, and each answer
is compared with the referee's :class:`Game`.
"""

from __future__ import annotations

import dataclasses
import json
import random

from engine_helpers import SWITCH, cards, position, variant

import pytest

from arena.engine import seat_view
from arena.engine.actions import DRAW, PASS, ActionType, Play
from arena.engine.cards import CARDS, Card
from arena.engine.game import Game, Pending
from arena.engine.observation import Observation, wire_observation, observe
from arena.engine.rules import load_rules, preset_names
from arena.engine.steps import role_candidates
from arena.errors import IllegalActionError, RulesError

DECISIONS_PER_GAME = 250  # two-four-jacks' random games run long; the first decisions suffice


def referee_reason(game: Game, action: ActionType) -> str | None:
    """What the referee says of ``action``: why ``check`` refuses it, or why it is a blunder (B4)."""
    try:
        game.check(action)
    except IllegalActionError as error:
        return error.reason
    return game.blunder_reason(action)


class Seat:
    """One seat's side of the wire, as the bot host keeps it: the history so far and the rules."""

    def __init__(self, rules) -> None:
        self.info = json.loads(json.dumps({"name": rules.name, "settings": rules.settings}))
        self.history: tuple = ()
        self.seen = 0

    def observe(self, game: Game, seat: int) -> Observation:
        """The message the referee sends now, as JSON text, read as the bot host reads it."""
        message = json.loads(json.dumps(wire_observation(game, seat, self.seen)))
        self.seen = len(game.history)
        obs = Observation.from_wire(message, self.history, self.info)
        self.history = obs.history
        return obs


def made_up_actions(rng: random.Random, hand: list[int]) -> list[ActionType | str]:
    """What a careless bot might send: draws, passes, texts, and plays of its own cards in any
    order, with or without a suit call or an announcement."""
    actions: list[ActionType | str] = [DRAW, PASS, "draw", "pass", "7X", "draw 7H", ""]
    for _ in range(8):
        laid = rng.sample(hand, rng.randint(1, min(3, len(hand))))
        actions.append(Play(tuple(CARDS[c] for c in laid), rng.choice([None, None, 1, 3]),
                            announce=rng.random() < 0.1))
    return actions


@pytest.mark.parametrize("preset", preset_names())
def test_the_observation_answers_every_question_as_the_referee_does(preset):
    rules = load_rules(preset)
    decisions = refused = prefixes = 0
    for seed in range(8):
        rng = random.Random(seed)
        seats = rules.seats_min + seed % (min(rules.seats_max, 5) - rules.seats_min + 1)
        game = Game.new(rules, seats, seed)
        table = [Seat(rules) for _ in range(seats)]
        while not game.is_over and game.decisions < DECISIONS_PER_GAME:
            seat = game.to_move
            obs = table[seat].observe(game, seat)
            legal = game.legal_actions()
            decisions += 1
            for action in legal:
                assert obs.is_legal(action) and obs.is_legal(str(action)), f"{preset}: {action}"
            plays = [a for a in legal if isinstance(a, Play)]
            for play in rng.sample(plays, min(3, len(plays))):
                for k in range(len(play.cards) + 1):
                    prefix, roles = list(play.cards[:k]), list(play.roles[:k]) or None
                    assert obs.next_cards(prefix, roles) == game.next_cards(prefix, roles)
                    if rules.jokers:
                        assert obs.joker_roles(prefix, roles) == game.joker_roles(prefix, roles)
                    prefixes += 1
            for action in made_up_actions(rng, game.hands[seat]):
                if isinstance(action, str) and action not in ("draw", "pass"):
                    continue  # unreadable text: see the test below
                reason = referee_reason(game, action)
                assert obs.illegal_reason(action) == reason, f"{preset}: {action}"
                refused += reason is not None
            game.apply(rng.choice(legal))
    assert decisions > 150 and refused > 1000 and prefixes > 300


def test_a_flush_the_list_leaves_out_is_built_card_by_card_and_legal():
    """S4, S6: with 7H 5H 6H 9H 2H AH KD on 3H the listed flushes pour everything in or stop
    short; 7H 5H 6H 9H (the ace and the 2 kept) is built from next_cards and is legal."""
    game = position(SWITCH, ["7H 5H 6H 9H 2H AH KD", "4D 5S", "5D 6D"], "3H")
    obs = observe(game, 0)
    assert obs.next_cards() == cards("AH 2H 5H 6H 7H 9H")
    assert obs.next_cards(cards("7H")) == cards("AH 2H 5H 6H 9H")
    assert obs.next_cards(cards("7H 5H 6H 9H")) == cards("AH 2H")
    assert "7H 5H 6H 9H" not in obs.legal and obs.is_legal("7H 5H 6H 9H")
    assert obs.illegal_reason("7H KD") == "KD cannot follow 7H: a later card must match the previous " \
                                          "card's rank or a suit opened earlier in the play"


def test_any_action_gets_an_answer_never_an_exception():
    """Unreadable text, a value that is no action, and asking out of turn all get a reason."""
    game = position(SWITCH, ["7H 5H", "4D 5S"], "3H")
    obs = observe(game, 0)
    assert obs.illegal_reason("7X") == "cannot read action '7X': unknown card '7X'"
    assert obs.illegal_reason("") == "cannot read action '': it is empty"
    assert obs.illegal_reason(42) == "an action must be text or an action object, got int"
    assert obs.illegal_reason("4D") == "4D is not in the hand of seat 0"
    assert obs.illegal_reason("7H 5H=D") == ("a suit may be named only by a play ending on a "
                                             "suit-calling card, not 5H")
    waiting = observe(game, 1)
    assert waiting.illegal_reason("4D") == "seat 0 is to move, not seat 1"
    assert not waiting.is_legal("4D") and waiting.next_cards() == [] and waiting.joker_roles() == []


def test_L3_a_red_jack_cancels_a_stack_of_twos_only_when_it_holds_a_black_jack():
    """L3: JS then 2S make a stack that JH cancels; 2S then 2H make one it does not. The message
    says which kinds a mixed stack holds, and the observation's answer is the referee's."""
    london = load_rules("london")
    for first, second, answer, holds in (("JS", "2S", True, ("jack", "two")), ("2S", "2H", False, ())):
        game = Game.setup(london, [cards(f"{first} 5C"), cards(f"{second} 6C"), cards("JH 7C")],
                          Card.parse("4S"), stock=cards("9C 9D 9H"))
        game.apply(first)
        game.apply(second)
        obs = Seat(london).observe(game, 2)
        assert (obs.pending.kind, obs.pending.amount, obs.pending.holds) == ("two", 7 if answer else 4, holds)
        assert obs.is_legal("JH") is answer
        assert obs.illegal_reason("JH") == referee_reason(game, Play((Card.parse("JH"),)))


def test_L3_a_mixed_stack_set_up_without_history_still_lets_the_red_jack_cancel():
    """L3: a position can start on a mixed stack (`holds: [jack, two]`) with no plays behind it:
    the observation knows the make-up from the message, not from a history it does not have."""
    london = load_rules("london")
    game = Game.setup(london, [cards("3S KD"), cards("JH 4D 5C"), cards("6H 7D")], Card.parse("2D"),
                      stock=cards("9C 9D 9H"), to_move=1, pending=Pending("two", 7, ("jack", "two")))
    obs = Seat(london).observe(game, 1)
    assert obs.pending.holds == ("jack", "two")
    assert referee_reason(game, Play((Card.parse("JH"),))) is None
    assert obs.is_legal("JH") and "JH" in obs.legal


def test_L8_a_joker_names_its_role_and_the_observation_lists_the_roles():
    """L8: a joker laid alone must name a card; the roles it may take after 5H are the referee's."""
    london = load_rules("london")
    game = Game.setup(london, [cards("X1 5H 9C"), cards("2S 6C")], Card.parse("5D"), stock=cards("9D 9H"))
    obs = observe(game, 0)
    assert obs.illegal_reason(Play((Card.parse("X1"),))) == "a joker must name the card it stands for (X1:JS)"
    assert obs.illegal_reason("X1") == "cannot read action 'X1': joker X1 must name a card (X1:JS)"
    assert obs.is_legal("X1:3C") and obs.is_legal("5H X1:6H")
    roles = obs.joker_roles(cards("5H"))
    assert roles == game.joker_roles(cards("5H")) and Card.parse("6H") in roles
    assert obs.next_cards(cards("X1"), cards("9D")) == cards("9C")


def test_B4_a_blunder_is_accepted_by_the_referee_yet_has_a_reason():
    """B4: an illegal play of held cards is not refused but costs two cards: it is not legal."""
    blackjack = load_rules("blackjack")
    game = Game.setup(blackjack, [cards("5C 9D"), cards("6C 7C")], Card.parse("4H"), stock=cards("KC KD KH"))
    assert game.check("5C")  # the referee takes it, as a blunder
    obs = observe(game, 0)
    assert not obs.is_legal("5C")
    assert obs.illegal_reason("5C") == game.blunder_reason("5C") == (
        "5C matches neither the active suit H nor the rank of 4H")


def test_the_rule_set_is_built_once_per_settings_and_never_is_the_referees():
    game = position(SWITCH, ["7H 5H", "4D 5S"], "3H")
    first, second = observe(game, 0), observe(game, 1)
    assert first.rules is not second.rules  # two copies of the settings ...
    assert first.rule_set() is second.rule_set()  # ... one rule set
    assert first.rule_set() is not game.rules and first.rule_set() == game.rules
    other = observe(position(load_rules("crazy-eights"), ["8H 5H", "4D 5S"], "3H"), 0)
    assert other.rule_set() is not first.rule_set() and other.rule_set().name == "crazy-eights"


def test_an_observation_without_rule_settings_cannot_answer():
    message = wire_observation(position(SWITCH, ["7H 5H", "4D 5S"], "3H"), 0, 0)
    with pytest.raises(RulesError, match="no rule settings"):
        Observation.from_wire(message).is_legal("7H")


def test_the_seat_view_is_built_on_the_first_question_only(monkeypatch):
    """The referee's hot path builds no view: only a bot that asks pays for it, once."""
    built = []
    original = seat_view.seat_game
    monkeypatch.setattr(seat_view, "seat_game", lambda obs: built.append(obs) or original(obs))
    obs = observe(position(SWITCH, ["7H 5H", "4D 5S"], "3H"), 0)
    assert obs.legal_actions() and not built
    assert obs.is_legal("7H") and obs.next_cards() and obs.illegal_reason("draw")
    assert built == [obs]


def test_an_engine_cache_dies_with_its_rule_set_even_when_its_id_is_reused():
    """A cache keyed by ``id(rules)`` hands a new rule set the entries of a freed one whose id it
    reuses: here a queen covered by a matching card (L2) would leave a rule set where any card
    covers (B2) short of covers. The caches belong to the rule set, so that cannot happen."""
    match = load_rules("london")
    any_card = variant(match, play={"cover": "any"})
    queen = Card.parse("QH")
    covers = role_candidates(any_card, queen, 0)
    assert covers == list(range(52))
    reused = 0
    for _ in range(20):
        freed = dataclasses.replace(match, role_cache={})
        assert len(role_candidates(freed, queen, 0)) < 52
        freed_id = id(freed)
        del freed  # freed at once (reference counting), its memory ready for the next object
        later = dataclasses.replace(any_card, role_cache={})  # CPython reuses the freed memory
        reused += id(later) == freed_id
        assert role_candidates(later, queen, 0) == covers
    assert reused  # the case above did happen: the test proves what it says
