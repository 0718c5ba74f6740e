"""Actions and their text notation: ``Play``, ``Draw``, ``Pass`` (NOTATION.md, "Actions").

``Action.parse(text)`` reads any action and ``str(action)`` prints it back in canonical form,
so ``str(Action.parse(s))`` normalises ``s``. A text that cannot be read raises
:class:`~arena.errors.InvalidActionError`; whether an action is *legal* is the engine's call.
This module is stdlib-only on purpose: the sandboxed bot host imports it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, Union

from arena.engine.cards import CARDS, NAMES, SUITS, Card, parse_suit
from arena.engine.frozen import rebuilt_from_fields
from arena.errors import InvalidActionError, InvalidCardError


@dataclass(frozen=True, slots=True)
class Play:
    """Lay ``cards`` in order (the last is the new top card).

    ``call`` is the declared suit index (``AS=D``), ``roles`` the card each laid card acts as
    (equal to ``cards`` except for jokers: ``X1:JS``; empty when no joker is laid), and
    ``announce`` the last-card announcement (a final ``!``).
    """

    cards: tuple[Card, ...]
    call: int | None = None
    roles: tuple[Card, ...] = ()
    announce: bool = False

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and copied by its fields (see :mod:`arena.engine.frozen`)."""
        return rebuilt_from_fields(self)

    @property
    def acting(self) -> tuple[Card, ...]:
        """The card each laid card acts as (a joker acts as the card it names)."""
        return self.roles or self.cards

    def __str__(self) -> str:
        tokens = []
        for i, card in enumerate(self.cards):
            token = NAMES[card]
            if self.roles and card >= 52:
                token += ":" + NAMES[self.roles[i]]
            tokens.append(token)
        if self.call is not None:
            tokens[-1] += "=" + SUITS[self.call]
        if self.announce:
            tokens.append("!")
        return " ".join(tokens)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw from the stock: one card, or the pending penalty."""

    def __str__(self) -> str:
        return "draw"

    def __repr__(self) -> str:
        return "Action.parse('draw')"


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without playing or drawing, where the rules allow it."""

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Action.parse('pass')"


DRAW: Final = Draw()
PASS: Final = Pass()
ActionType = Union[Play, Draw, Pass]


class Action:
    """Namespace for parsing actions: ``Action.parse("7H 2H")``."""

    @staticmethod
    def parse(text: object) -> ActionType:
        """Read an action in notation; raise :class:`InvalidActionError` naming the input."""
        if not isinstance(text, str):
            raise InvalidActionError(f"an action must be text, got {type(text).__name__}")
        if len(text) > _CACHED_LENGTH:  # a bot's long text must not fill the referee's cache
            try:
                return _parse(text)
            except InvalidCardError as error:   # its card may be the whole text: cut it too
                reason = str(error)
                reason = reason if len(reason) <= 100 else reason[:97] + "..."
                raise InvalidActionError(f"cannot read action {text[:80]!r}...: {reason}") from None
        return _parse_cached(text)


_CACHED_LENGTH = 120  # longer than any action a hand can make in one of the presets


@lru_cache(maxsize=1 << 16)
def _parse_cached(text: str) -> ActionType:
    """Actions are immutable values, so each distinct text is parsed once (both the referee and
    bots read the same few hundred texts millions of times). Errors are not cached."""
    try:
        return _parse(text)
    except InvalidCardError as error:
        raise InvalidActionError(f"cannot read action {text!r}: {error}") from None


def _parse(text: str) -> ActionType:
    tokens = text.split()
    if not tokens:
        raise InvalidActionError("cannot read action '': it is empty")
    word = tokens[0].lower()
    if word in ("draw", "pass"):
        if len(tokens) > 1:
            raise InvalidActionError(f"cannot read action {text!r}: '{word}' stands alone")
        return DRAW if word == "draw" else PASS
    announce = tokens[-1] == "!"
    if announce:
        tokens = tokens[:-1]
        if not tokens:
            raise InvalidActionError(f"cannot read action {text!r}: '!' needs cards")
    return _parse_play(text, tokens, announce)


def _parse_play(text: str, tokens: list[str], announce: bool) -> Play:
    cards: list[Card] = []
    roles: list[Card] = []
    call = None
    last = len(tokens) - 1
    if any(t.startswith("=") or (t.endswith("=") and i < last) for i, t in enumerate(tokens)):
        glued = re.sub(r"\s*=\s*", "=", " ".join(text.split()))
        # the glued form is itself checked only when it differs, so it never reaches this again
        example = f" ({glued!r})" if glued != text and _reads(glued) else ""
        raise InvalidActionError(f"cannot read action {text!r}: a suit call is written without "
                                 f"spaces around '='{example}")
    for i, token in enumerate(tokens):
        if "=" in token:
            if i != last:
                raise InvalidActionError(f"cannot read action {text!r}: a suit call ends the play")
            token, suit = token.split("=", 1)
            call = parse_suit(suit)
        card, role = _parse_token(text, token)
        cards.append(card)
        roles.append(role)
    has_joker = any(c >= 52 for c in cards)
    return Play(tuple(cards), call, tuple(roles) if has_joker else (), announce)


def _reads(text: str) -> bool:
    """Whether ``text`` is a readable action (a suggestion is offered only then)."""
    try:
        _parse(text)
    except (InvalidActionError, InvalidCardError):
        return False
    return True


def _parse_token(text: str, token: str) -> tuple[Card, Card]:
    name, _, role_name = token.partition(":")
    card = Card.parse(name)
    if card >= 52:
        if not role_name:
            raise InvalidActionError(f"cannot read action {text!r}: joker {card} must name a card (X1:JS)")
        role = Card.parse(role_name)
        if role >= 52:
            raise InvalidActionError(f"cannot read action {text!r}: a joker cannot stand for a joker")
        return card, role
    if role_name:
        raise InvalidActionError(f"cannot read action {text!r}: only a joker names a card (':')")
    return card, card


def action_text(action: object) -> str:
    """The canonical text of an action given as an action object or as notation text."""
    if isinstance(action, (Play, Draw, Pass)):
        return str(action)
    if isinstance(action, str):
        return str(Action.parse(action))
    raise InvalidActionError(f"an action must be text or an action object, got {type(action).__name__}")


def play(*names: str, call: str | None = None, announce: bool = False) -> Play:
    """Build a play from card names: ``play("AS", call="D")``; a convenience for code and tests."""
    cards = tuple(Card.parse(n) for n in names)
    return Play(cards, parse_suit(call) if call else None, (), announce)


__all__ = ["Action", "ActionType", "DRAW", "Draw", "PASS", "Pass", "Play", "action_text", "play", "CARDS"]
