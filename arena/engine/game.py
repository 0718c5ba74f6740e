"""The referee's game state: legality, application of actions, outcome (RULINGS.md G1-G9).

:class:`Game` holds the full state of one hand and is owned by the referee; bots only ever see
an :class:`~arena.engine.observation.Observation` built by :func:`~arena.engine.observation.observe`. Cards are the
integer codes of :mod:`arena.engine.cards`; every card power comes from the rule set's precomputed
tables, so the same code plays every preset.

Two questions have one answer each:

* *Is this action legal?* :meth:`Game.check` (it raises :class:`IllegalActionError` with the
  reason); :meth:`Game.apply` accepts exactly what ``check`` accepts.
* *Which actions are there?* :meth:`Game.legal_actions`, a deterministic, bounded list; see
  :mod:`arena.engine.moves` for what it holds when a 7 opens a suit.

Both come from :mod:`arena.engine.legality`, as do :meth:`Game.next_cards` and
:meth:`Game.joker_roles`, which let a bot build any legal play card by card.
"""

from __future__ import annotations

import operator
import random
from dataclasses import dataclass
from types import EllipsisType
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Sequence

from arena.engine.actions import DRAW, PASS, Action, ActionType, Draw, Pass, Play
from arena.engine.cards import NAMES, RANK_OF, SUIT_OF, SUITS, Card
from arena.errors import GameOverError, IllegalActionError, PositionError
from arena.engine.rules import DRAWN_CARD_OPTIONAL, RuleSet
from arena.engine import legality
from arena.engine.effects import (PenaltyStep, apply_penalties, apply_table_effects, last_card_charge,
                                  live_cards)
from arena.engine.steps import first_card_ok
from arena.engine.outcome import Outcome, OutcomeReason

if TYPE_CHECKING:
    from arena.engine.observation import HistoryEvent

STARTER_ATTEMPTS: Final = 1000
NO_CAP: Final = 1 << 62  # the play count a game without a play cap never reaches
# Events are built once per decision: tuple.__new__ skips the Python-level __new__ of a NamedTuple.
_event: Final = tuple.__new__


@dataclass(frozen=True, slots=True)
class Pending:
    """A penalty waiting for the seat to move: its kind (a ``stack`` name) and size."""

    kind: str
    amount: int
    holds: tuple[str, ...] = ()  # L3: the kinds in the stack, when the rule set asks (default: kind)

    def to_json(self) -> dict[str, Any]:
        """``{"kind": ..., "amount": N}`` as NOTATION.md prints it (plus ``holds`` when set)."""
        data: dict[str, Any] = {"kind": self.kind, "amount": self.amount}
        if self.holds:
            data["holds"] = list(self.holds)
        return data


class Event(NamedTuple):
    """One public event of the history: who did what, and how many cards they drew.

    ``action`` is the action object (its text is ``str(action)``); a tuple, because the engine
    records one per decision. ``blunder`` marks an illegal play that cost cards instead (B4).
    """

    seat: int
    action: ActionType
    drew: int = 0
    blunder: bool = False

    def to_json(self) -> dict[str, Any]:
        """The wire form: ``{"seat": 1, "action": "draw", "drew": 2}``."""
        return {"seat": self.seat, "action": str(self.action), "drew": self.drew}


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` does (CPython's Fisher-Yates,
    each index drawn by rejection from ``getrandbits``), with the same draws from ``rng``: written
    out, without a method call per card, because the deal is a fifth of a short game's time.
    tests/engine/test_engine_fast_paths.py holds it to ``random.Random.shuffle``."""
    getrandbits = rng.getrandbits
    for i, n, bits in _shuffle_steps(len(cards)):
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _shuffle_steps(length: int) -> tuple[tuple[int, int, int], ...]:
    """The shuffle's steps for a list of ``length``: each index ``i`` from the last down, the
    count ``n = i + 1`` it draws below and that count's bit length (kept per length: a deck or a
    recycled pile has one of a few dozen lengths)."""
    found = _SHUFFLE_STEPS.get(length)
    if found is None:
        found = _SHUFFLE_STEPS[length] = tuple((i, i + 1, (i + 1).bit_length())
                                               for i in range(length - 1, 0, -1))
    return found


# Every field of a Game, named once: its slots, and what Game.copy copies (a Game compiled by
# mypyc keeps its fields in a C struct and has no __slots__ attribute to read them from).
FIELDS: tuple[str, ...] = (
    "rules", "seats", "seed", "rng", "hands", "stock", "discard", "active_suit", "pending_kind",
    "pending_amount", "pending_mix", "pending_skip", "top_card", "announced", "direction",
    "to_move", "recycles_left", "passes_in_row", "decisions", "draws_this_turn", "drawn_card",
    "outcome", "history", "_legal", "public_events", "plays", "_block_at", "_play_cap",
    "penalty_trace",
)


class Game:
    """One hand of a rule set, with the full hidden state. Build with :meth:`new` or :meth:`setup`."""

    # Slots: a fixed set of fields is faster to create and to read in the engine's hot loops.
    __slots__ = FIELDS

    def __init__(self, rules: RuleSet, seats: int, seed: int, rng: random.Random | None = None) -> None:
        """A game before the deal; ``rng`` is its generator (default: one seeded with ``seed``)."""
        rules.check_seats(seats)
        self.rules = rules
        self.seats = seats
        self.seed = seed
        self.rng = random.Random(seed) if rng is None else rng
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.stock: list[int] = []  # the next card to draw is the LAST element (pop() is O(1))
        self.discard: list[int] = []  # the top card is the last element
        self.active_suit = -1  # -1: any suit may be played (a crazy-eights starter 8)
        self.pending_kind: str | None = None
        self.pending_amount = 0
        self.pending_mix = 0  # bit set of the penalty kinds in the pending stack (L3)
        self.pending_skip = False  # B3, I2: a skip waits for the seat to move (answer or pass)
        self.top_card = -1  # the card the top of the pile acts as (a joker: the card it names)
        self.announced = [False] * seats  # L10: a standing last-card announcement per seat
        self.direction = 1
        self.to_move = 0
        self.recycles_left = rules.recycles
        self.passes_in_row = 0
        self.decisions = 0
        self.draws_this_turn = 0
        self.drawn_card = -1  # C4, F4: a playable drawn card that the next play must include
        self.plays = 0  # the card plays so far, for a rule set's play_cap
        # The counts that end a game (G5, O5; O7), fixed per game so the hot loop compares ints.
        self._block_at = seats + rules.extra_block_passes
        self._play_cap = rules.play_cap if rules.play_cap is not None else NO_CAP
        self.outcome: Outcome | None = None
        self.history: list[Event] = []
        self._legal: list[ActionType] | None = None
        # The history as public events, converted once per event (arena.engine.observation fills it).
        self.public_events: list[HistoryEvent] = []
        # A replay's record of each play's penalty steps (arena.tournament.replay); None in play.
        self.penalty_trace: list[PenaltyStep] | None = None

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def new(cls, rules: RuleSet, seats: int | None = None, seed: int = 0, lead: int = 0) -> Game:
        """Shuffle and deal from ``seed`` (RULINGS S1, C1: starter policy of the rule set);
        ``lead`` is the seat that moves first (G9: seat 0; a match moves it on, F2)."""
        game = cls(rules, rules.seats_default if seats is None else seats, seed)
        game._deal()
        game.to_move = game.rng.randrange(game.seats) if rules.first_player == "random" else lead
        if rules.starter_acts:
            game._starter_acts()
        return game

    def _starter_acts(self) -> None:
        """The starter acts as if the seat before the lead had played it (its penalty, skip or
        reverse), so the lead may face a penalty, be skipped, or see the play turn away."""
        starter = self.top_card
        if not self.rules.has_effect[starter]:
            return
        dealer = (self.to_move - 1) % self.seats
        live = live_cards(self.rules, [starter])
        apply_penalties(self, live)
        skips = apply_table_effects(self, dealer, live)
        self.to_move = (dealer + self.direction * (1 + skips)) % self.seats

    @classmethod
    def setup(
        cls, rules: RuleSet, hands: Sequence[Sequence[int]], top: int, *, seed: int = 0,
        discard: Sequence[int] = (), stock: Sequence[int] = (), to_move: int = 0,
        direction: int = 1, active_suit: int | None = None, pending: Pending | None = None,
        recycles_left: int | None | EllipsisType = ..., top_as: int | None = None,
    ) -> Game:
        """A rigged position (NOTATION.md "Positions"); ``stock`` lists the next card first;
        ``top_as`` is the card a joker on top stands for (L8)."""
        game = cls(rules, len(hands), seed)
        game.hands = [list(h) for h in hands]
        game.discard = [*discard, top]
        if (top >= 52) != (top_as is not None) or (top_as is not None and top_as >= 52):
            raise PositionError("key 'top_as': a joker on top needs the card it stands for "
                                "(and only a joker does)")
        top = top_as if top_as is not None else top
        game.top_card = top
        game.stock = list(reversed(stock))
        game.to_move = to_move
        game.direction = direction
        game.active_suit = SUIT_OF[top] if active_suit is None else active_suit
        if pending is not None:
            game.set_pending(pending)
        if recycles_left is not ...:
            game.recycles_left = recycles_left
        game._check_setup()
        return game

    def _check_setup(self) -> None:
        cards = [c for h in self.hands for c in h] + self.discard + self.stock
        if len(set(cards)) != len(cards):
            twice = sorted({NAMES[c] for c in cards if cards.count(c) > 1})
            raise PositionError(f"card {twice[0]} is listed twice")
        if any(c >= self.rules.deck_size() for c in cards):
            raise PositionError(f"rules '{self.rules.name}' play without jokers")
        if not 0 <= self.to_move < self.seats:
            raise PositionError(f"key 'to_move': expected a seat 0..{self.seats - 1}, got {self.to_move}")
        if self.direction not in (1, -1):
            raise PositionError(f"key 'direction': expected 1 or -1, got {self.direction}")
        kinds = {p.stack for p in self.rules.power_of if p.stack}
        if self.pending_kind is not None and self.pending_kind not in kinds:
            raise PositionError(f"key 'pending': kind must be one of {sorted(kinds)}, got {self.pending_kind!r}")

    def set_pending(self, pending: Pending | None) -> None:
        """Put a penalty on the table (positions and tests); an amount of 0 is no penalty."""
        if pending is None or pending.amount <= 0:
            self.clear_pending()
            return
        self.pending_kind, self.pending_amount = pending.kind, pending.amount
        bits = self.rules.kind_bits
        self.pending_mix = 0
        for kind in pending.holds or (pending.kind,):
            self.pending_mix |= bits.get(kind, 0)

    def _deal(self) -> None:
        """Shuffle, deal, turn a starter; a refused starter means a new deal or goes back (S1, F1, L1)."""
        rules = self.rules
        size = rules.hand_size_for(self.seats)
        refused = rules.starter_refuses
        for _ in range(STARTER_ATTEMPTS):
            cards = list(range(rules.deck_size()))
            shuffle(self.rng, cards)
            self.hands = [cards[i * size:(i + 1) * size] for i in range(self.seats)]
            rest = cards[self.seats * size:]
            starter = rest.pop()
            if starter in refused and rules.starter == "redeal":
                continue
            while starter in refused:  # push-back: into the stock at a random place, turn the next
                rest.insert(self.rng.randrange(len(rest) + 1), starter)
                starter = rest.pop()
            self.discard = [starter]
            self.top_card = starter
            self.stock = rest
            calls = rules.power_of[starter].calls_suit and rules.starter_calls
            self.active_suit = -1 if calls else SUIT_OF[starter]
            return
        raise PositionError("no plain starter found")  # pragma: no cover - needs a deck of power cards

    # -- queries ----------------------------------------------------------------------------

    @property
    def top(self) -> int:
        """The top card of the discard pile."""
        return self.discard[-1]

    @property
    def pending(self) -> Pending | None:
        """The penalty waiting for the seat to move, if any."""
        if self.pending_kind is None:
            return None
        return Pending(self.pending_kind, self.pending_amount, self.pending_holds())

    def pending_holds(self) -> tuple[str, ...]:
        """The kinds of a mixed pending stack where a cancel depends on its make-up (L3: a red
        jack cancels only a stack holding a black jack); empty otherwise."""
        mix = self.pending_mix
        if mix & (mix - 1) and any(p.cancel_needs for p in self.rules.power_of):
            return tuple(k for k, bit in self.rules.kind_bits.items() if mix & bit)
        return ()

    @property
    def is_over(self) -> bool:
        """True once the game has an outcome."""
        return self.outcome is not None

    def can_draw(self) -> bool:
        """True when at least one card can be drawn (the stock, or a recycle of the pile)."""
        return bool(self.stock) or self._can_recycle()

    def _can_recycle(self) -> bool:
        return self.recycles_left != 0 and len(self.discard) > 1

    def legal_actions(self) -> list[ActionType]:
        """Every legal action, deterministic and bounded (see :mod:`arena.engine.moves`)."""
        legal = self._legal
        if legal is not None:
            return legal
        rules = self.rules
        plays: list[Any] = []  # Any: the plays are returned as actions (a list is invariant)
        if self.outcome is not None:
            self._legal = plays
            return plays
        if (rules.single_card_fast and self.pending_kind is None and not self.pending_skip
                and self.drawn_card < 0):
            # One card a play and nothing pending: the legal plays are a table lookup per card,
            # in hand order, exactly what legality.legal_plays lists (the hottest path of all,
            # written inline: a comprehension or a helper is a function call of its own).
            active = self.active_suit
            table = rules.lone_plays[active * 13 + RANK_OF[self.top_card] if active >= 0 else 52]
            for card in self.hands[self.to_move]:
                found = table[card]
                if found:
                    plays += found
        else:
            plays += legality.legal_plays(self)
            if self.pending_skip or self.drawn_card >= 0 or self.pending_kind is not None:
                legal = self._legal = self._answer_legal(plays)
                return legal
        if not rules.open_turn:
            legal = self._legal = self._turn_legal(plays)
            return legal
        # A turn that stays open after a draw, or a pass at will on an empty stock: ``draw``
        # while the seat has draws left this turn, a card can be drawn and the rule set lets it
        # draw (by choice, or when stuck); ``pass`` when the seat cannot draw any more after
        # drawing, when nothing can be drawn at all and ``pass_on_empty`` is on, or when it can
        # neither play nor draw. The two are never legal together.
        can_draw = self.stock or (self.recycles_left != 0 and len(self.discard) > 1)
        if can_draw and self.draws_this_turn < rules.draws_per_turn and (
                rules.draw_when == "any" or not plays):
            plays.append(DRAW)
        elif (not plays or (self.draws_this_turn > 0 and rules.after_draw == "continue")
                or (rules.pass_on_empty and not can_draw)):
            plays.append(PASS)
        self._legal = plays
        return plays

    def _compute_legal(self) -> list[ActionType]:
        """:meth:`legal_actions` computed afresh (the checks must not trust an older answer)."""
        self._legal = None
        return self.legal_actions()

    def _answer_legal(self, plays: list[Any]) -> list[ActionType]:
        """A seat that must answer something first: a skip, its drawn card, or a penalty."""
        rules = self.rules
        if self.pending_skip:
            return [*plays, PASS]  # B3, I2: answer the skip or accept it
        if self.drawn_card >= 0:
            if rules.after_draw in DRAWN_CARD_OPTIONAL:
                return [*plays, PASS]  # F4, W3, B6, I5, L9: play the drawn card or end the turn
            return plays or [DRAW]  # pragma: no cover - a drawn playable card always plays
        return [*plays, DRAW] if rules.draw_when == "any" or not plays else plays

    def _turn_legal(self, plays: list[Any]) -> list[ActionType]:
        """A turn that ends at a draw's end (nothing pending): the plays, and draw or pass."""
        rules = self.rules
        if plays:
            if rules.draw_when == "any" and self.can_draw():
                return [*plays, DRAW]  # W2: a seat may draw instead of playing
            return plays
        if self.draws_this_turn > 0:
            return [DRAW]  # C4: an unplayable draw with draws left must draw again
        return [DRAW] if self.can_draw() else [PASS]

    def lone_action_is_public(self) -> bool:
        """Whether a forced draw or pass here tells the table nothing it cannot already see.

        True where the rules allow that draw or pass only to a seat that cannot play, so the
        action itself says so (RULINGS G2 lets the referee apply it without asking). False
        where the same action is also a choice (W2: drawing instead of playing; F4, W3, L9:
        passing on a playable drawn card; B3, I2: accepting a skip one could answer): being
        forced there would reveal a hand without a playable card, so the seat is asked anyway.
        """
        if self.pending_skip or self.rules.open_turn:
            return False  # an open turn's pass and draw are also choices beside plays
        if self.drawn_card >= 0:
            return self.rules.after_draw not in DRAWN_CARD_OPTIONAL
        return self.rules.draw_when != "any"

    def next_cards(self, prefix: Sequence[int], roles: Sequence[int] | None = None) -> list[Card]:
        """The cards of the hand that may be laid after ``prefix`` (empty: the legal first cards);
        ``roles`` gives the card each laid card acts as when the prefix holds a joker (L8).

        With :meth:`check`, this lets a bot build any legal play one card at a time, including
        the long 7-flushes and runs that :meth:`legal_actions` lists only in their shortest and
        longest form (see :mod:`arena.engine.moves` and :mod:`arena.engine.chains`).
        """
        return [Card(c) for c in legality.next_cards(self, list(prefix), list(roles) if roles else None)]

    def joker_roles(self, prefix: Sequence[int] = (), roles: Sequence[int] | None = None) -> list[Card]:
        """The cards a joker may stand for when laid after ``prefix`` (L8; empty: as the first card)."""
        return [Card(c) for c in legality.joker_roles(self, list(prefix), list(roles) if roles else None)]

    def check(self, action: ActionType | str) -> ActionType:
        """The action, parsed; raise :class:`IllegalActionError` (with the reason) if it is illegal.

        Under ``illegal_play: blunder`` (B4) an illegal play of cards the seat holds is accepted
        here: :meth:`blunder_reason` says why it is illegal, and :meth:`apply` makes it cost cards.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        if self.outcome is not None:
            raise GameOverError("the game is over")
        if isinstance(action, Play):
            reason = legality.play_error(self, action)
            if reason and self.rules.illegal_play == "blunder" and legality.holds_cards(self, action):
                return action
        elif isinstance(action, Draw):
            reason = self._draw_error()
        elif isinstance(action, Pass):
            reason = self._pass_error()
        else:
            raise IllegalActionError(str(action), "not an action")
        if reason:
            raise IllegalActionError(str(action), reason)
        return action

    def blunder_reason(self, action: ActionType | str) -> str | None:
        """Why a play is a blunder (B4: illegal, yet of cards in hand), or None when it is not one."""
        if isinstance(action, str):
            action = Action.parse(action)
        if self.rules.illegal_play != "blunder" or not isinstance(action, Play):
            return None
        if not legality.holds_cards(self, action):
            return None
        return legality.play_error(self, action)

    def _draw_error(self) -> str | None:
        if self.rules.open_turn and self.pending_kind is None and not self.pending_skip:
            if DRAW in self._compute_legal():
                return None
            if not self.can_draw():
                return "no card can be drawn (empty stock, no recycle)"
            if self.draws_this_turn >= self.rules.draws_per_turn:
                return "no draws left this turn"
            return "drawing is allowed only when no play is legal"
        if self.pending_skip:
            return "a pending skip is answered with a skip card or accepted with pass"
        stuck_only = self.rules.draw_when == "stuck"
        if self.pending_kind is not None:
            return "a pending penalty can be answered" if stuck_only and legality.legal_plays(self) else None
        if self.drawn_card >= 0:
            if self.rules.after_draw in DRAWN_CARD_OPTIONAL:
                return "one card has been drawn: play it or pass"
            return "the drawn card can be played and must be (C4)"
        if stuck_only and legality.legal_plays(self):
            return "drawing is allowed only when no play is legal"
        if self.draws_this_turn >= self.rules.draws_per_turn:
            return "no draws left this turn"  # pragma: no cover - the turn has ended by then
        if not self.can_draw():
            return "no card can be drawn (empty stock, no recycle): pass instead"
        return None

    def _pass_error(self) -> str | None:
        if PASS not in self._compute_legal():
            return "passing is allowed only when nothing can be played or drawn"
        return None

    # -- application --------------------------------------------------------------------------

    def apply(self, action: ActionType | str) -> None:
        """Check and apply one decision of the seat to move."""
        self.apply_legal(self.check(action))

    def apply_legal(self, action: ActionType) -> None:
        """Apply an action taken from :meth:`legal_actions` (no second check: the hot path).

        The commonest decision, a lone card without a power, is applied inline: in a one-card
        game the Python calls per decision are a good part of the engine's time."""
        seat = self.to_move
        self._legal = None
        rules = self.rules
        if type(action) is Play:  # identity tests: cheaper than isinstance, once per decision
            cards = action.cards
            if rules.illegal_play == "blunder" and self.blunder_reason(action):
                self._blunder(seat, action)
            elif len(cards) == 1 and rules.plain_alone[cards[0]] and not action.roles:
                # No power, and no last-card rule or S10 draw: _play with every step it would
                # skip left out (most plays of most games).
                card = cards[0]
                hand = self.hands[seat]
                hand.remove(card)
                self.discard.append(card)
                self.top_card = card
                self.passes_in_row = 0
                self.plays += 1
                if not self.stock and rules.recycle_at == "empty":
                    self._recycle()  # the pile under the new top is the stock at once
                self.pending_skip = False  # a legal play under a pending skip answers it
                self.history.append(_event(Event, (seat, action, 0, False)))
                call = action.call
                self.active_suit = SUIT_OF[card] if call is None else call
                if hand:
                    self.to_move = (seat + self.direction) % self.seats
                    self.draws_this_turn = 0
                    self.drawn_card = -1
                else:
                    self._win(seat)
            else:
                self._play(seat, action)
        elif type(action) is Draw:
            self._draw_action(seat)
        else:
            self._pass(seat)
        self.decisions += 1
        # G5, G6, O7: one test of the three counts that end a game while none is reached
        if self.outcome is None and (self.passes_in_row >= self._block_at or self.plays >= self._play_cap
                                     or self.decisions >= rules.decision_cap):
            self._end_by_count()

    def _pass(self, seat: int) -> None:
        """G5: a pass that accepts a skip or ends a turn that drew does not count toward a block;
        in an open turn a pass counts exactly when no card can be drawn."""
        self.history.append(_event(Event, (seat, PASS, 0, False)))
        if self.pending_skip:
            self.pending_skip = False
        elif self.rules.open_turn:
            self.passes_in_row = 0 if self.can_draw() else self.passes_in_row + 1
        elif self.drawn_card < 0:
            self.passes_in_row += 1
        self.to_move = (seat + self.direction) % self.seats
        self.draws_this_turn = 0
        self.drawn_card = -1

    def _play(self, seat: int, play: Play) -> None:
        rules = self.rules
        hand = self.hands[seat]
        cards = play.cards
        acting = play.roles or cards
        held = len(hand)  # the last-card rule judges what the play leaves (G1)
        for card in cards:
            hand.remove(card)
        self.discard.extend(cards)
        self.top_card = acting[-1]
        self.passes_in_row = 0
        self.plays += 1
        if not self.stock and rules.recycle_at == "empty":
            self._recycle()  # the pile under the new top is the stock at once
        if self.pending_skip:
            self.pending_skip = False  # a legal play under a pending skip answers it
        has_effect = rules.has_effect
        # Most plays carry no power at all (and no card of crazy-eights does): skip the effects.
        live = (live_cards(rules, acting)
                if rules.any_effect and any([has_effect[c] for c in acting]) else ())
        drew = 0
        if live:
            cancelled, owed = apply_penalties(self, live, self.penalty_trace)
            if cancelled:
                drew = self._draw_cards(seat, owed)  # S8: the red jack's player draws the rest
        if not hand and rules.ace_draws and rules.power_of[acting[-1]].calls_suit:
            drew += self._draw_cards(seat, 1)  # S10: no finishing on an ace while a card can be drawn
        if rules.last_card != "off":
            drew += self._last_card(seat, play, held)
        self.history.append(_event(Event, (seat, play, drew, False)))
        self.active_suit = play.call if play.call is not None else SUIT_OF[acting[-1]]
        if not hand:
            if live:   # G3b, F9: the going-out play's penalty applies to no one
                self.clear_pending()
            self._win(seat)
            return
        skips = apply_table_effects(self, seat, live) if live else 0
        self.to_move = (seat + self.direction * (1 + skips)) % self.seats  # _end_turn, inline
        self.draws_this_turn = 0
        self.drawn_card = -1

    def _last_card(self, seat: int, play: Play, held: int) -> int:
        """G3a draws of the last-card rule: W5's penalty for a missing call, L10's empty hand
        without a standing announcement (one held since the seat last came down to one card)."""
        charge = last_card_charge(self.rules, len(play.cards), held, play.announce, self.announced[seat])
        self.announced[seat] = play.announce
        return self._draw_cards(seat, charge) if charge else 0

    def _blunder(self, seat: int, play: Play) -> None:
        """B4: the cards stay in the hand, the seat draws two, and the turn ends; a pending skip
        or penalty it did not answer falls on it too (it is its turn's unanswered penalty)."""
        drew = self._draw_cards(seat, self.rules.blunder_draw)
        took_penalty = self.pending_kind is not None and not self.pending_skip
        if took_penalty:
            drew += self._draw_cards(seat, self.pending_amount)
            self.clear_pending()
        self.pending_skip = False
        self.history.append(Event(seat, play, drew, True))
        # G5: a blunder that draws nothing and takes no penalty changes nothing, as a pass; were
        # it to break the run, a seat stuck with the most cards could blunder every turn and
        # turn the blocked game it loses into the decision cap's draw. (A seat that blunders
        # while it could play ends the run with a pass of its own making.)
        self.passes_in_row = 0 if drew or took_penalty else self.passes_in_row + 1
        self._end_turn(self._next_seat(seat, 0))

    def _draw_action(self, seat: int) -> None:
        if self.pending_kind is not None:
            owed = self.pending_amount
            drew = self._draw_cards(seat, owed)
            self.clear_pending()
            self.history.append(_event(Event, (seat, DRAW, drew, False)))
            # S12, G5: a penalty draw breaks a run of passes, even an empty one; OpenSpiel's
            # rule (O5) counts one that takes the stock's last card as the last one owed
            emptied = (self.rules.emptying_penalty_draw == "passes" and drew == owed
                       and not self.can_draw())
            self.passes_in_row = 1 if emptied else 0
            self._end_turn(self._next_seat(seat, 0))
            return
        stock = self.stock
        if stock:  # the common case, kept short: one card from a stock that has it
            self.hands[seat].append(stock.pop())
            drew = 1
            if not stock and self.rules.recycle_at == "empty":
                self._recycle()
        else:
            drew = self._draw_cards(seat, 1)
        self.history.append(_event(Event, (seat, DRAW, drew, False)))
        self.passes_in_row = 0
        self.draws_this_turn += 1
        after = self.rules.after_draw
        if after == "continue":
            return  # the same seat plays any legal card, draws again or passes
        if after == "must-play":
            self._after_must_play_draw(seat)
        elif not (after in DRAWN_CARD_OPTIONAL and self._keep_drawn_card(seat)):
            self._end_turn(self._next_seat(seat, 0))

    def _keep_drawn_card(self, seat: int) -> bool:
        """F4, W3, B6, I5, L9: whether the card just drawn can be played; if so it becomes
        ``drawn_card`` and the seat may play it or pass, else the turn ends by itself."""
        card = self.hands[seat][-1]
        if not first_card_ok(self, card):
            return False
        self.drawn_card = card
        # A card that fits may still make no play: a queen with nothing to cover it (L7), or
        # at all where the drawn card goes down alone (B2, B6). Any other card can go down
        # alone (a joker as some card that fits), which cannot empty the hand of a seat that
        # just drew: only a queen or a joker needs the listing.
        rules = self.rules
        if rules.chained and (card >= 52 or rules.power_of[card].must_cover):
            plays = legality.legal_plays(self)
            if not plays:
                self.drawn_card = -1
                return False
            self._legal = self._answer_legal(plays)  # the seat's next question, listed once
        return True

    def _after_must_play_draw(self, seat: int) -> None:
        """C4: play a playable drawn card, or draw again while draws and stock last."""
        card = self.hands[seat][-1]
        if first_card_ok(self, card):
            self.drawn_card = card
        elif self.draws_this_turn < self.rules.draws_per_turn and self.can_draw():
            pass  # same seat, must draw again
        else:
            self._end_turn(self._next_seat(seat, 0))

    def _draw_cards(self, seat: int, count: int) -> int:
        """Draw up to ``count`` cards into the seat's hand, recycling as allowed (G4)."""
        hand = self.hands[seat]
        if count == 1 and self.stock:  # the common case, kept short
            hand.append(self.stock.pop())
            if not self.stock and self.rules.recycle_at == "empty":
                self._recycle()
            return 1
        drew = 0
        while drew < count:
            if not self.stock and not self._recycle():
                break
            hand.append(self.stock.pop())
            drew += 1
        if not self.stock and self.rules.recycle_at == "empty":
            self._recycle()  # reshuffle as soon as the stock runs out
        return drew

    def _recycle(self) -> bool:
        if not self._can_recycle():
            return False
        pile = self.discard[:-1]
        del self.discard[:-1]
        shuffle(self.rng, pile)
        self.stock = pile
        if self.recycles_left is not None:
            self.recycles_left -= 1
        return True

    def clear_pending(self) -> None:
        """No penalty on the table any more (it was drawn, cancelled, or taken by a blunder)."""
        self.pending_kind = None
        self.pending_amount = 0
        self.pending_mix = 0

    def _next_seat(self, seat: int, skips: int) -> int:
        return (seat + self.direction * (1 + skips)) % self.seats

    def _end_turn(self, next_seat: int) -> None:
        self.to_move = next_seat
        self.draws_this_turn = 0
        self.drawn_card = -1

    # -- the end ------------------------------------------------------------------------------

    def _win(self, seat: int) -> None:
        self.outcome = Outcome("won", OutcomeReason.EMPTIED, seat, self._places(seat))

    def _end_by_count(self) -> None:
        """A blocked table (G5, O5), the play cap (O7) or the decision cap (G6) ends the game."""
        self._legal = None  # a drawn card's listing (_keep_drawn_card) no longer holds
        if self.passes_in_row >= self._block_at:
            self._blocked()
        elif self.plays >= self._play_cap:
            self._blocked(OutcomeReason.PLAY_CAP)
        else:
            self.outcome = Outcome("drawn", OutcomeReason.CAP, None, self._places(None))

    def score(self, seat: int) -> int:
        """What a seat's hand counts at a blocked game: its cards, or its points (F7)."""
        return self._hand_score(self.hands[seat])

    def _scores(self) -> list[int]:
        """Every seat's :meth:`score`, computed once for the end of a game."""
        return [self._hand_score(hand) for hand in self.hands]

    def _hand_score(self, hand: list[int]) -> int:
        """:meth:`score` of ``hand`` (a plain loop: a ``sum(map(...))`` costs more than the few
        cards it adds up)."""
        points = self.rules.points
        if not points:
            return len(hand)
        total = 0
        for card in hand:
            total += points[card]
        return total

    def _blocked(self, reason: OutcomeReason = OutcomeReason.BLOCKED) -> None:
        """S14/C6/F7: the lowest score (fewest cards, or fewest points) wins; a tie is a draw.
        A game that reaches its play cap is scored the same way (O7)."""
        scores = self._scores()
        best = min(scores)
        leaders = [s for s in range(self.seats) if scores[s] == best]
        if len(leaders) == 1:
            self.outcome = Outcome("won", reason, leaders[0], self._places(leaders[0], scores))
        else:
            self.outcome = Outcome("drawn", reason, None, self._places(None, scores))

    def _places(self, winner: int | None, scores: list[int] | None = None) -> tuple[tuple[int, ...], ...]:
        """G7: the winner first, the others by lowest score (fewest cards, or points where the
        rule set scores blocked games by points); equal scores share a place, in seat order."""
        if scores is None:
            scores = self._scores()
        places: list[tuple[int, ...]] = [] if winner is None else [(winner,)]
        level = -1
        group: list[int] = []
        for score, seat in sorted([(scores[s], s) for s in range(self.seats) if s != winner]):
            if score != level:
                if group:
                    places.append(tuple(group))
                group, level = [seat], score
            else:
                group.append(seat)
        if group:
            places.append(tuple(group))
        return tuple(places)

    # -- views ----------------------------------------------------------------------------------


    def to_json(self) -> dict[str, Any]:
        """The position in the JSON shape of NOTATION.md (``arena replay --json``)."""
        outcome = self.outcome
        return {
            "rules": self.rules.name,
            "status": outcome.status if outcome else "playing",
            "winner": outcome.winner if outcome else None,
            "reason": outcome.reason if outcome else None,
            "to_move": self.to_move,
            "direction": self.direction,
            "top": NAMES[self.top],  # a joker's identity is the added key top_as (L8)
            "active_suit": SUITS[self.active_suit] if self.active_suit >= 0 else None,
            "pending": self.pending.to_json() if self.pending else None,
            "hands": [[NAMES[c] for c in h] for h in self.hands],
            "stock": [NAMES[c] for c in reversed(self.stock)],
            "discard": [NAMES[c] for c in self.discard[:-1]],
            "recycles_left": self.recycles_left,
            "decisions": self.decisions,
            "places": [list(p) for p in outcome.places] if outcome else None,
            **self._extra_json(),
        }

    def _extra_json(self) -> dict[str, Any]:
        """Keys added (NOTATION.md: extend only by adding) for mechanisms the rule set uses."""
        extra: dict[str, Any] = {}
        if self.top >= 52:
            extra["top_as"] = NAMES[self.top_card]
        if self.rules.skips == "pending":
            extra["pending_skip"] = self.pending_skip
        return extra

    def copy(self, rng: random.Random | None = None) -> Game:
        """An independent copy of the game (the search's copy: no ``copy.deepcopy``).

        Every field is copied generically, so a field added later is copied too: lists one level
        deep (the hands are lists of lists; events and actions are immutable), dictionaries and
        sets shallowly, the random generator by its state; everything else (the rule set, the
        outcome, numbers) is immutable and shared. ``rng`` gives the copy that generator
        instead (a search's own, which then shuffles the copy's recycles: cheaper than copying
        the state, and the copy's future is then the search's to draw).
        """
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        twin = Game(self.rules, self.seats, self.seed, rng)  # then every field is overwritten
        put = setattr
        for name, value in zip(FIELDS, _READ_FIELDS(self)):
            kind = type(value)
            if kind is list:
                value = [v[:] for v in value] if value and type(value[0]) is list else value[:]
            elif kind is random.Random:
                value = rng
            elif kind is dict or kind is set:
                value = value.copy()
            put(twin, name, value)
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        """How ``copy``, ``copy.deepcopy`` and ``pickle`` rebuild a game: from its fields (a
        compiled Game has no bare ``__new__`` for their default way)."""
        return _rebuilt, (_READ_FIELDS(self),)

    def all_cards(self) -> list[int]:
        """Every card in play, wherever it is (for invariant checks)."""
        return [c for h in self.hands for c in h] + self.stock + self.discard


_READ_FIELDS = operator.attrgetter(*FIELDS)  # every field's value in one call


def _rebuilt(values: tuple[Any, ...]) -> Game:
    """The game whose fields hold ``values``, in the order of :data:`FIELDS` (Game.__reduce__)."""
    rules, seats, seed, rng = values[:4]
    game = Game(rules, seats, seed, rng)
    for name, value in zip(FIELDS, values):
        setattr(game, name, value)
    return game
