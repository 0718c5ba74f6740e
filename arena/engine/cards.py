"""Cards and suits: integer codes behind a small text notation (NOTATION.md).

A card is a :class:`Card`, an ``int`` subclass whose value is its code: ``suit * 13 + rank``
for the 52 standard cards (rank 0 is the ace, 12 the king; suits in the order C D H S) and
52, 53 for the jokers ``X1`` and ``X2``. Being an int keeps the engine's hot loops on plain
integer arithmetic and table lookups, while ``str(card)`` and :meth:`Card.parse` give the
notation. Every card value exists once (``CARDS[code]``), so cards compare and hash as ints.
"""

from __future__ import annotations

from typing import Final

from arena.errors import InvalidCardError

SUITS = "CDHS"
RANKS = "A23456789TJQK"
SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
JOKER_CODES = (52, 53)
STANDARD_DECK_SIZE = 52


class Card(int):
    """One playing card; its int value is its code (see the module docstring)."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """Rank index 0-12 (A, 2, ..., K); -1 for a joker."""
        return RANK_OF[self]

    @property
    def suit(self) -> int:
        """Suit index 0-3 (C, D, H, S); -1 for a joker."""
        return SUIT_OF[self]

    @property
    def is_joker(self) -> bool:
        """True for ``X1`` and ``X2``."""
        return self >= STANDARD_DECK_SIZE

    @staticmethod
    def parse(text: str) -> Card:
        """Read one card: ``QS``, ``10h``, ``T♥``, ``X1``. Raises :class:`InvalidCardError`."""
        code = _PARSE.get(text.strip().upper())
        if code is None:
            raise InvalidCardError(f"unknown card {text!r}")
        return CARDS[code]

    @staticmethod
    def of(rank: int, suit: int) -> Card:
        """The standard card of a rank index and a suit index."""
        return CARDS[suit * 13 + rank]

    def __str__(self) -> str:
        return NAMES[self]

    def __repr__(self) -> str:
        return f"Card.parse({NAMES[self]!r})"


def _name(code: int) -> str:
    if code >= STANDARD_DECK_SIZE:
        return f"X{code - STANDARD_DECK_SIZE + 1}"
    return RANKS[code % 13] + SUITS[code // 13]


NAMES: Final[tuple[str, ...]] = tuple(_name(code) for code in range(54))
CARDS: tuple[Card, ...] = tuple(Card(code) for code in range(54))
RANK_OF: Final[tuple[int, ...]] = tuple(code % 13 if code < 52 else -1 for code in range(54))
SUIT_OF: Final[tuple[int, ...]] = tuple(code // 13 if code < 52 else -1 for code in range(54))
RED_SUITS = frozenset((1, 2))


def _parse_table() -> dict[str, int]:
    table = {name: code for code, name in enumerate(NAMES)}
    for code in range(STANDARD_DECK_SIZE):
        rank, suit = RANKS[code % 13], SUITS[code // 13]
        spellings = [rank] + (["10"] if rank == "T" else [])
        symbols = [s for s, letter in SUIT_SYMBOLS.items() if letter == suit]
        for r in spellings:
            for s in [suit, *symbols]:
                table[r + s] = code
    return table


_PARSE = _parse_table()


def parse_suit(text: str) -> int:
    """Read a suit letter or symbol (``H``, ``h``, ``♥``) as a suit index."""
    letter = SUIT_SYMBOLS.get(text, text.strip().upper())
    if len(letter) != 1 or letter not in SUITS:
        raise InvalidCardError(f"unknown suit {text!r}")
    return SUITS.index(letter)


def rank_index(text: str) -> int:
    """Read a rank letter (``A``, ``2``, ..., ``T`` or ``10``, ``J``, ``Q``, ``K``)."""
    key = text.strip().upper()
    key = "T" if key == "10" else key
    if len(key) != 1 or key not in RANKS:
        raise InvalidCardError(f"unknown rank {text!r}")
    return RANKS.index(key)
