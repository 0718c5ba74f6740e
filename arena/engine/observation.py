"""What one seat may see (RULINGS G8), as an immutable value, and its wire form.

An :class:`Observation` holds copies, never references into the referee's state: the seat's own
hand, the top card, the active suit, the pending penalty, the direction, every hand's size, the
stock size, the recycles left, the public history and the rule set's name and settings. It
never holds another hand, the stock's order or a card another seat drew.

The wire form (``to_wire``/``from_wire``) is the JSON object sent to sandboxed bots: cards as
notation text, and only the events since the seat's previous observation (the bot host
accumulates them into the full history). This module is stdlib-only: the bot host imports it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Sequence

from arena.engine.actions import Action, ActionType
from arena.engine.cards import CARDS, NAMES, SUITS, Card

if TYPE_CHECKING:
    from arena.engine.game import Game


@dataclass(frozen=True, slots=True)
class PendingView:
    """A pending penalty as a seat sees it."""

    kind: str
    amount: int


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

    @property
    def top_acting(self) -> Card:
        """The card the top acts as: a joker's named card, else the top itself."""
        return self.top_as if self.top_as is not None else self.top

    def legal_actions(self) -> list[ActionType]:
        """The legal actions (bounded, as :mod:`arena.engine.moves` defines) as action objects."""
        return [Action.parse(text) for text in self.legal]

    def to_wire(self, since: int = 0) -> dict[str, Any]:
        """The JSON object a sandboxed bot receives; ``events`` holds ``history[since:]``."""
        return {
            "seat": self.seat,
            "seats": self.seats,
            "to_move": self.to_move,
            "hand": [NAMES[c] for c in self.hand],
            "top": NAMES[self.top],
            "active_suit": self.active_suit,
            "pending": {"kind": self.pending.kind, "amount": self.pending.amount} if self.pending else None,
            "direction": self.direction,
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "discard_size": self.discard_size,
            "recycles_left": self.recycles_left,
            "draws_this_turn": self.draws_this_turn,
            "drawn_card": NAMES[self.drawn_card] if self.drawn_card is not None else None,
            "legal": list(self.legal),
            "events": [[e.seat, e.action, e.drew] for e in self.history[since:]],
            **({"top_as": NAMES[self.top_as]} if self.top_as is not None else {}),
            **({"pending_skip": True} if self.pending_skip else {}),
        }

    @classmethod
    def from_wire(cls, obs: dict[str, Any], history: Sequence[HistoryEvent] = (),
                  rules: dict[str, Any] | None = None) -> Observation:
        """Rebuild an observation from its wire form; ``history`` holds the earlier events."""
        events = tuple(history) + tuple([HistoryEvent(s, a, d) for s, a, d in obs["events"]])
        pending = obs.get("pending")
        drawn = obs.get("drawn_card")
        rules = rules or {}
        return cls(
            seat=obs["seat"], seats=obs["seats"], to_move=obs["to_move"],
            hand=tuple([_card(c) for c in obs["hand"]]), top=_card(obs["top"]),
            active_suit=obs["active_suit"],
            pending=PendingView(pending["kind"], pending["amount"]) if pending else None,
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
    """Build ``seat``'s observation of ``game`` (its legal actions when it is to move)."""
    legal = tuple(str(a) for a in game.legal_actions()) if seat == game.to_move else ()
    pending = game.pending
    return Observation(
        seat=seat,
        seats=game.seats,
        to_move=game.to_move,
        hand=tuple(CARDS[c] for c in game.hands[seat]),
        top=CARDS[game.discard[-1]],
        active_suit=SUITS[game.active_suit] if game.active_suit >= 0 else None,
        pending=PendingView(pending.kind, pending.amount) if pending else None,
        direction=game.direction,
        hand_sizes=tuple(len(h) for h in game.hands),
        stock_size=len(game.stock),
        discard_size=len(game.discard),
        recycles_left=game.recycles_left,
        draws_this_turn=game.draws_this_turn if seat == game.to_move else 0,
        drawn_card=CARDS[game.drawn_card] if seat == game.to_move and game.drawn_card >= 0 else None,
        history=public_history(game),
        rules_name=game.rules.name,
        rules=copy.deepcopy(game.rules.settings),  # a copy: nothing of the referee's is shared
        legal=legal,
        top_as=CARDS[game.top_card] if game.discard[-1] >= 52 else None,
        pending_skip=game.pending_skip,
    )


def public_history(game: Game) -> tuple[HistoryEvent, ...]:
    """The game's history as public events; each event is converted once per game (a cache on
    the game, extended as it grows), so observing stays linear in the game's length."""
    cache = game.public_events
    history = game.history
    if len(cache) < len(history):
        cache.extend(HistoryEvent(e.seat, str(e.action), e.drew) for e in history[len(cache):])
    return tuple(cache)


def wire_observation(game: Game, seat: int, since: int) -> dict[str, Any]:
    """``observe(game, seat).to_wire(since)`` built directly: the sandbox's hot path, which must
    not copy the whole history for every decision."""
    pending_kind = game.pending_kind
    drawn = game.drawn_card
    to_move = seat == game.to_move
    return {
        "seat": seat,
        "seats": game.seats,
        "to_move": game.to_move,
        "hand": [NAMES[c] for c in game.hands[seat]],
        "top": NAMES[game.discard[-1]],
        "active_suit": SUITS[game.active_suit] if game.active_suit >= 0 else None,
        "pending": {"kind": pending_kind, "amount": game.pending_amount} if pending_kind else None,
        "direction": game.direction,
        "hand_sizes": [len(h) for h in game.hands],
        "stock_size": len(game.stock),
        "discard_size": len(game.discard),
        "recycles_left": game.recycles_left,
        "draws_this_turn": game.draws_this_turn if to_move else 0,
        "drawn_card": NAMES[drawn] if to_move and drawn >= 0 else None,
        "legal": [str(a) for a in game.legal_actions()] if to_move else [],
        "events": [[e.seat, str(e.action), e.drew] for e in game.history[since:]],
        **({"top_as": NAMES[game.top_card]} if game.discard[-1] >= 52 else {}),
        **({"pending_skip": True} if game.pending_skip else {}),
    }
