"""Determinizations: full games consistent with what one seat has seen (a search's samples).

A search over hidden cards (information-set Monte Carlo tree search, ``bots/mcts.py``) plays
forward from *guesses* of the hidden state. :class:`Determinizer` reads an
:class:`~arena.engine.observation.Observation` once and :meth:`Determinizer.deal` then builds a
:class:`~arena.engine.game.Game` per guess: the seat's own hand and the public table are as
observed (from :func:`arena.engine.seat_view.seat_game`), and the cards the seat cannot see are
dealt at random to the other hands, the stock and any pile cards it cannot name, so that:

* every hand has its observed size, and so have the stock and the pile;
* a card the seat has seen where it is stays there: its own hand, the top card, and the pile's
  cards below the top, which are the last cards laid (the history's plays, in order: a recycle
  keeps the top and the plays after it), as far as the history names them;
* **inferred voids** hold: where drawing is allowed only when no play is legal (``drawing.when:
  stuck``), a seat that drew held no card that could start a play then (under a pending penalty:
  no card that answers it), so those of its cards it still holds from then are dealt from the
  other cards. Only where that is certain: sets-and-openers rule sets without finishing bans (a
  fitting card always makes a legal play there), after the first play (the starter is not
  named in the history), and never where a seat may draw by choice. A seat's later draws are
  free, a played card that the void allows may have been one of the constrained ones (the
  count goes down), and a swap (a black queen) moves the constraint with the hand.

The game's scalar state follows the history too: the plays made (a rule set's play cap), the
decisions (the decision cap), the passes in a row (a blocked table) and the standing last-card
announcements. What the observation cannot tell is left out: a hand swapped away from the seat
(its cards are known to the seat only if it remembered them) is dealt like any other.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from arena.engine.actions import Action, Play
from arena.engine.cards import SUIT_OF
from arena.engine.effects import apply_penalties, live_cards
from arena.engine.game import Game, shuffle
from arena.engine.observation import Observation
from arena.engine.seat_view import UNSEEN, seat_game
from arena.engine.steps import first_card_ok
from arena.errors import InvalidActionError


@dataclass
class Void:
    """A seat's inferred void: ``held`` of its cards are none of ``cards`` (the cards that could
    have started a play when it drew); ``origin``, the seat the hand was dealt to (a swap moves
    hands), is the replay's bookkeeping."""

    cards: frozenset[int]
    held: int
    origin: int = 0


class Determinizer:
    """What an observation fixes, read once; :meth:`deal` makes one determinization."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.template = seat_game(obs)
        rules = self.template.rules
        events = _parsed(obs)
        self.below_top = _pile_below_top(obs, events)
        self.voids = _voids(obs, events, self.template) if _voids_certain(obs, self.template) else {}
        _follow_counts(self.template, obs, events)
        seen = set(obs.hand) | {obs.top} | {c for c in self.below_top if c != UNSEEN}
        self.unseen = [c for c in range(rules.deck_size()) if c not in seen]

    def deal(self, rng: random.Random) -> Game:
        """A full game consistent with the observation (the module docstring), dealt from
        ``rng``; the game shuffles its recycles with ``rng`` too, so it is a function of it."""
        obs = self.obs
        pool = self.unseen[:]
        shuffle(rng, pool)  # rng.shuffle, draw for draw, without its per-card method calls
        game = self.template.copy(rng)
        hands = game.hands
        taken: set[int] = set()
        # The most constrained hands first: each takes its held cards from outside its void.
        for seat, void in sorted(self.voids.items(), key=lambda item: -item[1].held):
            hand = hands[seat] = []
            for card in pool:
                if len(hand) == void.held:
                    break
                if card not in void.cards and card not in taken:
                    hand.append(card)
                    taken.add(card)
        rest = [c for c in pool if c not in taken] if taken else pool
        at = 0
        for seat in range(obs.seats):
            if seat == obs.seat:
                continue
            hand = hands[seat] if seat in self.voids else []
            need = obs.hand_sizes[seat] - len(hand)
            hand.extend(rest[at:at + need])
            at += need
            hands[seat] = hand
        below = []
        for card in self.below_top:
            if card == UNSEEN:
                card = rest[at]
                at += 1
            below.append(card)
        game.discard = [*below, obs.top]
        game.stock = rest[at:]
        return game


def determinize(obs: Observation, rng: random.Random) -> Game:
    """One determinization of ``obs`` dealt from ``rng`` (:meth:`Determinizer.deal`; build a
    :class:`Determinizer` once to deal many)."""
    return Determinizer(obs).deal(rng)


# -- reading the history ----------------------------------------------------------------------


def _parsed(obs: Observation) -> list[tuple[int, Play | None, str, int]]:
    """Each event as (seat, the play or None, the action text, cards drawn)."""
    events = []
    for event in obs.history:
        try:
            action = Action.parse(event.action)
        except InvalidActionError:
            action = None
        events.append((event.seat, action if isinstance(action, Play) else None, event.action,
                       event.drew))
    return events


def _pile_below_top(obs: Observation, events: list[tuple[int, Play | None, str, int]]) -> list[int]:
    """The pile under the top card, bottom first: the last cards laid where the history names
    them, :data:`UNSEEN` where it does not (the starter, or a history that does not end on the
    observed top, as after a blunder that laid nothing)."""
    below = obs.discard_size - 1
    laid = [int(c) for _, play, _, _ in events if play is not None for c in play.cards]
    hand = set(obs.hand)
    if not laid or laid[-1] != obs.top or len(set(laid[-below - 1:])) != len(laid[-below - 1:]) \
            or hand & set(laid[-below - 1:]):
        return [UNSEEN] * below
    known = laid[-below - 1:-1] if below else []
    return [UNSEEN] * (below - len(known)) + known


def _voids_certain(obs: Observation, game: Game) -> bool:
    """Whether a draw proves a void under these rules (the module docstring)."""
    rules = game.rules
    return (rules.draw_when == "stuck" and not rules.chained and not rules.no_finish
            and not rules.no_finish_two_seats and rules.illegal_play != "blunder")


def _voids(obs: Observation, events: list[tuple[int, Play | None, str, int]], view: Game) -> dict[int, Void]:
    """The other seats' inferred voids, by a replay of the public history (see the module
    docstring); none when the replay does not end on the observed table."""
    rules = view.rules
    seats = obs.seats
    power_of = rules.power_of
    # A scratch table: the top, the suit and the pending penalty as the history leaves them.
    table = Game(rules, seats, 0)
    table.stock = [UNSEEN]  # a card to draw, so pickups count as pickups (O6)
    reverses = sum(power_of[c].reverse for _, play, _, _ in events if play is not None
                   for c in live_cards(rules, play.acting))
    direction = obs.direction * (-1 if reverses % 2 else 1)
    # Hand sizes relative to the deal (a rigged position deals any sizes): a seat holds the
    # hand dealt to seat origin[seat], plus offset[seat] cards; a void's held count is relative
    # to the same dealt size until the end, which names every dealt size.
    origin = list(range(seats))
    offset = [0] * seats
    voids: dict[int, Void] = {}
    known_top = False
    for seat, play, text, drew in events:
        if play is not None:
            acting = play.acting
            offset[seat] += drew - len(play.cards)
            void = voids.get(seat)
            if void is not None:
                void.held -= sum(c not in void.cards for c in play.cards)
            live = live_cards(rules, acting)
            apply_penalties(table, live)
            table.top_card = acting[-1]
            table.active_suit = play.call if play.call is not None else SUIT_OF[acting[-1]]
            known_top = True
            for card in live:
                if power_of[card].reverse:
                    direction = -direction
                if power_of[card].swap:
                    partner = (seat + direction) % seats
                    origin[seat], origin[partner] = origin[partner], origin[seat]
                    offset[seat], offset[partner] = offset[partner], offset[seat]
                    moved, back = voids.pop(seat, None), voids.pop(partner, None)
                    if moved is not None:
                        voids[partner] = moved
                    if back is not None:
                        voids[seat] = back
        elif text == "draw":
            if known_top and seat != obs.seat:
                fits = frozenset(c for c in range(rules.deck_size()) if first_card_ok(table, c))
                voids[seat] = Void(fits, offset[seat], origin[seat])
            table.clear_pending()
            offset[seat] += drew
        else:
            offset[seat] += drew
    voids.pop(obs.seat, None)
    dealt = [0] * seats
    for seat in range(seats):
        dealt[origin[seat]] = obs.hand_sizes[seat] - offset[seat]
    if min(dealt) < 0:
        return {}  # a history this replay cannot follow: claim nothing
    for seat, void in voids.items():
        void.held = min(void.held + dealt[void.origin], obs.hand_sizes[seat])
    return {seat: void for seat, void in voids.items() if void.held > 0}


def _follow_counts(game: Game, obs: Observation, events: list[tuple[int, Play | None, str, int]]) -> None:
    """The counts that end a game, and the standing announcements, as the history left them."""
    game.decisions = len(events)
    game.plays = sum(play is not None for _, play, _, _ in events)
    passes = 0
    for _, _, text, _ in reversed(events):
        if text != "pass":
            break
        passes += 1
    game.passes_in_row = passes
    for seat, play, _, _ in events:
        if play is not None:
            game.announced[seat] = play.announce
