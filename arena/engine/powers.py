"""Card powers: what one card does when played, and the selectors that name cards in a rule set.

A rule set's ``powers`` mapping gives each selector (``A``, ``"2"``, ``black J``, ``red J``,
``KH``, ``joker``) a :class:`Power`. Later entries win for the cards they name, so ``"2"``
followed by ``2H`` gives the 2 of hearts its own power. The engine reads powers only through the
per-card tables built by :func:`power_tables`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from arena.engine.cards import JOKER_CODES, RED_SUITS, Card, rank_index
from arena.engine.frozen import rebuilt_from_fields
from arena.errors import InvalidCardError, RulesError

POWER_KEYS = {
    "wild": bool, "calls_suit": bool, "opens_suit": bool, "pickup": int, "stack": str,
    "cancels": (str, dict), "cancel_amount": int, "cancel_needs": str, "skip": bool, "reverse": bool,
    "swap": bool, "answers": list, "suit_only": bool, "must_cover": bool,
}


@dataclass(frozen=True)
class Power:
    """What one card does when played (all off for a plain card).

    ``pickup``/``stack``: adds ``pickup`` cards to the pending penalty, which becomes of kind
    ``stack`` (a penalty of another kind that this card answers carries its total over: B3, I2).
    ``cancels``/``cancel_amount``: answers a pending penalty of kind ``cancels``, taking
    ``cancel_amount`` cards off it (0 = all of it); with ``cancel_needs`` only while the pending
    stack holds a card of that kind (L3). ``cancels`` may also map several kinds to their
    amounts (B3's red jack: ``{two: 0, jack: 5}``); ``cancel_amounts`` holds every
    ``(kind, amount)`` pair, ``cancels``/``cancel_amount`` the first. ``answers``: the penalty kinds this card may be played
    on (default: its own ``stack`` and ``cancels`` kinds). ``suit_only``: the card matches on its own suit only, never on rank (I2's
    aces). ``must_cover``: a play may not end on this card (L7, B2's queen).
    """

    wild: bool = False
    calls_suit: bool = False
    opens_suit: bool = False
    pickup: int = 0
    stack: str | None = None
    cancels: str | None = None
    cancel_amount: int = 0
    cancel_needs: str | None = None
    cancel_amounts: tuple[tuple[str, int], ...] = ()
    skip: bool = False
    reverse: bool = False
    swap: bool = False
    answers: tuple[str, ...] = ()
    suit_only: bool = False
    must_cover: bool = False

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and copied by its fields (see :mod:`arena.engine.frozen`)."""
        return rebuilt_from_fields(self)

    def cancel_for(self, kind: str | None) -> int | None:
        """How many cards this card takes off a pending ``kind`` penalty (0: all), or None."""
        for cancelled, amount in self.cancel_amounts:
            if cancelled == kind:
                return amount
        return None

    @property
    def is_plain(self) -> bool:
        """True when the card does nothing special."""
        return self == PLAIN

    def describe(self) -> str:
        """A short human description, e.g. ``pick up 2 (two)``."""
        parts = []
        for flag, text in (("wild", "wild"), ("suit_only", "matches its own suit only"),
                           ("calls_suit", "names a suit"), ("opens_suit", "opens its suit")):
            if getattr(self, flag):
                parts.append(text)
        if self.pickup:
            parts.append(f"pick up {self.pickup} ({self.stack})")
        for kind, cut in self.cancel_amounts:
            amount = "all" if cut == 0 else str(cut)
            needs = f" holding a {self.cancel_needs}" if self.cancel_needs else ""
            parts.append(f"cancels {amount} of a {kind} penalty{needs}")
        for flag in ("skip", "reverse", "swap"):
            if getattr(self, flag):
                parts.append(flag)
        if self.must_cover:
            parts.append("must be covered")
        if set(self.answers) != default_answers(self):
            parts.append("answers " + ("/".join(self.answers) or "nothing"))
        return ", ".join(parts) or "plain"


PLAIN = Power()


def default_answers(power: Power) -> set[str]:
    """The kinds a card answers unless the rule set says otherwise: its stack and cancel kinds."""
    return {k for k in (power.stack, *(kind for kind, _ in power.cancel_amounts)) if k}


def selector_codes(text: object, fail: Callable[[str], RulesError]) -> list[int]:
    """The card codes a selector names: ``A``, ``10``, ``black J``, ``red J``, ``KH``, ``joker``."""
    words = str(text).split()
    colour = None
    if len(words) == 2 and words[0] in ("black", "red"):
        colour, words = words[0], words[1:]
    if len(words) != 1:
        raise fail(f"cannot read card selector {text!r}")
    word = words[0]
    if word.lower() == "joker" and not colour:
        return list(JOKER_CODES)
    try:
        rank = rank_index(word)
        codes: list[Card] = [Card.of(rank, suit) for suit in range(4)]
    except InvalidCardError:
        if colour:
            raise fail(f"cannot read card selector {text!r}") from None
        try:
            codes = [Card.parse(word)]
        except InvalidCardError:
            raise fail(f"no such card or rank {text!r}") from None
    if colour:
        red = colour == "red"
        codes = [c for c in codes if (c.suit in RED_SUITS) == red]
    return [int(c) for c in codes]


def parse_power(values: dict[str, Any], fail: Callable[[str, str], RulesError]) -> Power:
    """A :class:`Power` from its settings (already type-checked); ``fail(key, message)``."""
    explicit_answers = "answers" in values
    values = dict(values)
    cancels = values.get("cancels")
    if isinstance(cancels, dict):
        if "cancel_amount" in values:
            raise fail("cancel_amount", "give each kind's amount in the 'cancels' mapping instead")
        pairs = []
        for kind, amount in cancels.items():
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
                raise fail(f"cancels.{kind}", f"expected an integer >= 0 (0 = the whole penalty), got {amount!r}")
            pairs.append((str(kind), amount))
        if not pairs:
            raise fail("cancels", "expected at least one penalty kind")
        values["cancels"], values["cancel_amount"] = pairs[0]
        values["cancel_amounts"] = tuple(pairs)
    elif cancels:
        values["cancel_amounts"] = ((cancels, values.get("cancel_amount", 0)),)
    power = Power(**values)
    if power.pickup < 0:
        raise fail("pickup", "expected an integer >= 0")
    if bool(power.pickup) != bool(power.stack):
        raise fail("stack" if power.pickup else "pickup", "'pickup' and 'stack' go together")
    if power.cancel_amount < 0:
        raise fail("cancel_amount", "expected an integer >= 0 (0 = the whole penalty)")
    if (power.cancel_amount or power.cancel_needs) and not power.cancels:
        raise fail("cancel_amount" if power.cancel_amount else "cancel_needs", "needs 'cancels'")
    if power.calls_suit and (power.pickup or power.skip or power.swap):
        raise fail("calls_suit", "a suit-calling card cannot also carry a penalty, skip or swap")
    if power.wild and power.suit_only:
        raise fail("suit_only", "a wild card cannot be bound to its own suit")
    if not explicit_answers:
        power = Power(**{**values, "answers": tuple(sorted(default_answers(power)))})
    return power


def power_table(entries: list[tuple[str, Power, list[int]]]) -> tuple[Power, ...]:
    """One :class:`Power` per card code (54: jokers included); later entries win."""
    table = [PLAIN] * 54
    for _, power, codes in entries:
        for code in codes:
            table[code] = power
    return tuple(table)
