"""What one seat may see (RULINGS G8), as an immutable value, and its one builder.

An :class:`Observation` holds copies, never references into the referee's state: the seat's own
hand, the top card, the active suit, the pending penalty, the direction, every hand's size, the
stock size, the recycles left, the public history and the rule set's name and settings. It
never holds another hand, the stock's order or a card another seat drew.

:func:`wire_observation` is the one builder: it makes the JSON object the referee sends a bot
(cards as notation text, and only the events since the seat's previous message), and every
:class:`Observation` is :meth:`Observation.from_wire` of such a message, whether the sandbox's
bot host reads it or :func:`observe` builds one in-process. So a bot receives the same thing in
both, and the hidden-information tests walk exactly that.

An observation also answers the seat's legality questions with the referee's own code:
:meth:`Observation.is_legal`, :meth:`~Observation.illegal_reason`, :meth:`~Observation.next_cards`
and :meth:`~Observation.joker_roles` (see :mod:`arena.engine.seat_view`; the view they read is
built on the first question, so an observation that is never asked costs nothing more). This
module and everything it imports is stdlib-only: the bot host imports it.
"""

from __future__ import annotations

import copy
import marshal
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Sequence

from arena.engine import seat_view
from arena.engine.actions import Action, ActionType, Draw, Pass, Play
from arena.engine.cards import CARDS, NAMES, SUITS, Card
from arena.engine.game import Game
from arena.engine.rules import RuleSet
from arena.errors import IllegalActionError, InvalidActionError


@dataclass(frozen=True, slots=True)
class PendingView:
    """A pending penalty as a seat sees it: its kind, its size, and (``holds``) the kinds of
    penalty card in the stack where the rules read its make-up (L3: a red jack cancels only a
    stack holding a black jack); ``holds`` is empty when the stack is of one kind."""

    kind: str
    amount: int
    holds: tuple[str, ...] = ()


class HistoryEvent(NamedTuple):
    """A public event: ``seat`` did ``action`` (notation text) and drew ``drew`` cards."""

    seat: int
    action: str
    drew: int = 0


@dataclass(frozen=True)
class Observation:
    """One seat's view of the game when it is asked to act."""

    seat: int
    seats: int
    to_move: int
    hand: tuple[Card, ...]
    top: Card
    active_suit: str | None
    pending: PendingView | None
    direction: int
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_size: int
    recycles_left: int | None
    draws_this_turn: int
    drawn_card: Card | None
    history: tuple[HistoryEvent, ...]
    rules_name: str
    rules: dict[str, Any] = field(repr=False)
    legal: tuple[str, ...] = field(repr=False, default=())
    top_as: Card | None = None  # L8: the card a joker on top stands for (None: the top is no joker)
    pending_skip: bool = False  # B3, I2: a skip waits for the seat to move (answer it or pass)
    # The seat's view of the game, built by the first legality question (see _seat_game).
    _view: Game | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def top_acting(self) -> Card:
        """The card the top acts as: a joker's named card, else the top itself."""
        return self.top_as if self.top_as is not None else self.top

    def legal_actions(self) -> list[ActionType]:
        """The legal actions (bounded, as :mod:`arena.engine.moves` defines) as action objects."""
        return [Action.parse(text) for text in self.legal]

    def rule_set(self) -> RuleSet:
        """The game's rule set, built from ``rules`` (once per distinct settings in this
        process, then shared: treat it as read-only): ``power_of[card]`` says what a card does
        (``wild``, ``calls_suit``, ``opens_suit``, ``pickup``, ``skip``, ...), and its other
        fields hold the settings (``sets``, ``inert_after_opener``, ``ace_draws``, ...)."""
        return seat_view.rule_set_for(self.rules_name, self.rules)

    def is_legal(self, action: object) -> bool:
        """True when the referee would accept ``action`` (notation text or an action object)
        from this seat now without a penalty: :meth:`illegal_reason` is None."""
        return self.illegal_reason(action) is None

    def illegal_reason(self, action: object) -> str | None:
        """Why ``action`` (notation text or an action object) is illegal for this seat now, in
        the referee's words; None when it is legal. Never raises for a bad action: unreadable
        text, a value that is no action, or a seat that is not to move get a reason too. Under
        ``illegal_play: blunder`` (B4) an illegal play of held cards is not refused but costs
        cards: it gets its reason as well."""
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except InvalidActionError as error:
                return str(error)
        if not isinstance(action, (Play, Draw, Pass)):
            return f"an action must be text or an action object, got {type(action).__name__}"
        if self.to_move != self.seat:
            return f"seat {self.to_move} is to move, not seat {self.seat}"
        game = self._seat_game()
        try:
            game.check(action)
        except IllegalActionError as error:
            return error.reason
        return game.blunder_reason(action)

    def next_cards(self, prefix: Sequence[int] = (), roles: Sequence[int] | None = None) -> list[Card]:
        """The cards of the hand that may be laid after the partial play ``prefix`` (cards, in
        laid order; empty: the legal first cards), sorted by code. ``roles`` gives the card each
        laid card acts as when the prefix holds a joker (L8). Add cards one at a time from this
        list and any legal play can be built, also those :meth:`legal_actions` leaves out; check
        the finished play with :meth:`is_legal` (a play may not end everywhere it may go on)."""
        if self.to_move != self.seat:
            return []
        return self._seat_game().next_cards(prefix, roles)

    def joker_roles(self, prefix: Sequence[int] = (), roles: Sequence[int] | None = None) -> list[Card]:
        """The cards a joker may stand for when laid after ``prefix`` (L8; empty: as the first
        card), sorted by code; ``roles`` as for :meth:`next_cards`."""
        if self.to_move != self.seat:
            return []
        return self._seat_game().joker_roles(prefix, roles)

    def _seat_game(self) -> Game:
        """The seat's view of the game (:func:`arena.engine.seat_view.seat_game`), built once."""
        view = self._view
        if view is None:
            view = seat_view.seat_game(self)
            object.__setattr__(self, "_view", view)  # frozen: a cache, not a change of value
        return view

    @classmethod
    def from_wire(cls, obs: dict[str, Any], history: Sequence[HistoryEvent] = (),
                  rules: dict[str, Any] | None = None) -> Observation:
        """Read a message of :func:`wire_observation`, as the bot host does: ``history`` holds
        the earlier events, ``rules`` the start message's ``{"name": ..., "settings": ...}``
        (the legality questions need the settings)."""
        events = tuple(history) + tuple([HistoryEvent(s, a, d) for s, a, d in obs["events"]])
        pending = obs.get("pending")
        drawn = obs.get("drawn_card")
        rules = rules or {}
        return cls(
            seat=obs["seat"], seats=obs["seats"], to_move=obs["to_move"],
            hand=tuple([_card(c) for c in obs["hand"]]), top=_card(obs["top"]),
            active_suit=obs["active_suit"],
            pending=(PendingView(pending["kind"], pending["amount"], tuple(pending.get("holds", ())))
                     if pending else None),
            direction=obs["direction"], hand_sizes=tuple(obs["hand_sizes"]),
            stock_size=obs["stock_size"], discard_size=obs["discard_size"],
            recycles_left=obs["recycles_left"], draws_this_turn=obs["draws_this_turn"],
            drawn_card=_card(drawn) if drawn else None, history=events,
            rules_name=rules.get("name", ""), rules=rules.get("settings", {}),
            legal=tuple(obs["legal"]),
            top_as=_card(obs["top_as"]) if obs.get("top_as") else None,
            pending_skip=bool(obs.get("pending_skip", False)),
        )


_BY_NAME = dict(zip(NAMES, CARDS))


def _card(name: str) -> Card:
    """A card from the wire: canonical names take a dictionary hit, anything else is parsed."""
    card = _BY_NAME.get(name)
    return card if card is not None else Card.parse(name)


def observe(game: Game, seat: int) -> Observation:
    """``seat``'s observation of ``game`` (its legal actions when it is to move): the one wire
    message, read as a bot host reads it, with the history the game has already converted."""
    # A copy of the settings: nothing of the referee's is shared.
    rules = {"name": game.rules.name, "settings": _copied(game.rules.settings)}
    return Observation.from_wire(wire_observation(game, seat, len(game.history)), public_history(game), rules)


def _copied(settings: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of settings read from YAML, written out and read back by :mod:`marshal` (in
    C: ``copy.deepcopy``, the generic copier, took most of the time of an observation); a value
    marshal cannot write goes through ``copy.deepcopy`` after all."""
    try:
        copied: dict[str, Any] = marshal.loads(marshal.dumps(settings))
    except ValueError:
        copied = copy.deepcopy(settings)
    return copied


def public_history(game: Game) -> tuple[HistoryEvent, ...]:
    """The game's history as public events."""
    return tuple(_public_events(game))


def _public_events(game: Game) -> list[HistoryEvent]:
    """The game's history as public events, each converted once per game (a cache on the game,
    extended as it grows), so observing stays linear in the game's length."""
    cache: list[HistoryEvent] = game.public_events
    history = game.history
    if len(cache) < len(history):
        cache.extend(HistoryEvent(e.seat, str(e.action), e.drew) for e in history[len(cache):])
    return cache


def wire_observation(game: Game, seat: int, since: int) -> dict[str, Any]:
    """The JSON object the referee sends ``seat`` (docs/protocol.md): its view of ``game``, its
    legal actions when it is to move, and the public events from ``history[since]`` on (the bot
    host adds them to the earlier ones). The referee's hot path: it copies no more history."""
    pending = game.pending
    drawn = game.drawn_card
    to_move = seat == game.to_move
    return {
        "seat": seat,
        "seats": game.seats,
        "to_move": game.to_move,
        "hand": [NAMES[c] for c in game.hands[seat]],
        "top": NAMES[game.discard[-1]],
        "active_suit": SUITS[game.active_suit] if game.active_suit >= 0 else None,
        "pending": pending.to_json() if pending is not None else None,  # as the replay JSON
        "direction": game.direction,
        "hand_sizes": [len(h) for h in game.hands],
        "stock_size": len(game.stock),
        "discard_size": len(game.discard),
        "recycles_left": game.recycles_left,
        "draws_this_turn": game.draws_this_turn if to_move else 0,
        "drawn_card": NAMES[drawn] if to_move and drawn >= 0 else None,
        "legal": [str(a) for a in game.legal_actions()] if to_move else [],
        "events": [[e.seat, e.action, e.drew] for e in _public_events(game)[since:]],
        **({"top_as": NAMES[game.top_card]} if game.discard[-1] >= 52 else {}),
        **({"pending_skip": True} if game.pending_skip else {}),
    }
