"""One step of a play: which card may start it, which may follow which, and where it may end.

These are the card-level rules every other piece of legality is made of (RULINGS S3-S5, C2,
B2, L2, L3, L7, L8). The play listing and checking of :mod:`arena.engine.moves` (sets and
Switch's cumulative 7-flush) and :mod:`arena.engine.chains` (runs, pickup stacks, covers, the
latest 7, jokers) both call them, and :mod:`arena.engine.legality` puts them together for the
:class:`~arena.engine.game.Game`; this module imports none of those.

Cards are integer codes; the *acting* card of a laid card is the card it acts as (a joker
acts as the card it names, L8). ``opened`` is always a bit set of suits (``1 << suit``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Sequence

from arena.engine.cards import NAMES, RANK_OF, SUIT_OF, SUITS
from arena.engine.rules import RuleSet

if TYPE_CHECKING:
    from arena.engine.game import Game

STANDARD: Final = range(52)  # the cards a joker may stand for (never a joker, L8)
ROLE_CACHE_SIZE = 100_000
_NO_CARDS: frozenset[int] = frozenset()


# ---------------------------------------------------------------------------------------------
# The first card


def first_card_ok(game: Game, card: int) -> bool:
    """May ``card`` (an acting card: a joker is checked as the card it names) start a play now
    (S3, C2, and B3/I2: under a pending skip only a skip card)?"""
    if card >= 52:  # L8: some card it may name must fit (L2: any, where jokers are wild)
        if game.rules.jokers_wild and game.pending_kind is None and not game.pending_skip:
            return True
        return any(first_card_ok(game, role) for role in STANDARD)
    power = game.rules.power_of[card]
    if game.pending_skip:
        return power.skip
    if game.pending_kind is not None:
        if game.pending_kind not in power.answers:
            return False
        needs = power.cancel_needs  # L3: a red jack cancels only a stack holding a black jack
        return not needs or power.pickup > 0 or bool(game.pending_mix & game.rules.kind_bits[needs])
    if power.wild or game.active_suit < 0:
        return True
    if power.suit_only:
        return SUIT_OF[card] == game.active_suit
    return SUIT_OF[card] == game.active_suit or RANK_OF[card] == RANK_OF[game.top_card]


def role_first_ok(game: Game, role: int) -> bool:
    """May a joker standing for ``role`` start a play now? It fits as ``role`` does (L8); where
    jokers are wild (L2) it fits anything, but under a pending penalty or skip its role must
    answer it (L3)."""
    if game.rules.jokers_wild and game.pending_kind is None and not game.pending_skip:
        return True
    return first_card_ok(game, role)


def first_card_error(game: Game, card: int) -> str | None:
    """Why ``card`` (an acting card) may not start a play now, or None when it may."""
    if first_card_ok(game, card):
        return None
    if game.pending_skip:
        return f"a skip is pending: only a skip card answers it ({NAMES[card]} does not), or pass"
    if game.pending_kind is not None:
        return (f"a {game.pending_kind} penalty of {game.pending_amount} is pending: "
                f"{NAMES[card]} does not answer it")
    suit = SUITS[game.active_suit]
    if game.rules.power_of[card].suit_only:
        return f"{NAMES[card]} may be played only on its own suit (the active suit is {suit})"
    return f"{NAMES[card]} matches neither the active suit {suit} nor the rank of {NAMES[game.top_card]}"


# ---------------------------------------------------------------------------------------------
# Later cards: sets and the cumulative suit opener (Switch's 7, S4)


def can_follow(rules: RuleSet, previous: int, card: int, opened: int) -> bool:
    """May ``card`` be laid right after ``previous``, with ``opened`` the suits opened so far?"""
    if RANK_OF[card] == RANK_OF[previous] and rules.set_ranks >> RANK_OF[card] & 1:
        return True
    return bool(opened >> SUIT_OF[card] & 1)


def opened_after(rules: RuleSet, cards: Sequence[int]) -> int:
    """The bit set of suits opened by the suit-opening cards among ``cards``."""
    opened = 0
    power_of = rules.power_of
    for card in cards:
        if power_of[card].opens_suit:
            opened |= 1 << SUIT_OF[card]
    return opened


# ---------------------------------------------------------------------------------------------
# Later cards of chained rule sets: covers, sets, the opened suit, runs, pickup stacks (B2, L2)


def follow(rules: RuleSet, prev: int, opened: int, run: int, role: int, joker: bool) -> int | None:
    """The run direction after laying ``role`` (acting card) on ``prev``, or None if it cannot.

    ``run`` is the current run's direction (0: none); ``joker`` says the card laid is a joker
    (wild when it covers a queen, where jokers are wild). See :mod:`arena.engine.chains` for the
    shapes.
    """
    rank, suit = RANK_OF[role], SUIT_OF[role]
    prank, psuit = RANK_OF[prev], SUIT_OF[prev]
    step = rank - prank if suit == psuit and (rank - prank) in (1, -1) else 0
    if rules.power_of[prev].must_cover:
        if (rules.cover == "any" or (joker and rules.jokers_wild) or rules.wild[role]
                or suit == psuit or rank == prank):
            return step
        return None
    if step and rules.runs and run in (0, step):
        return step
    if rank == prank and rules.set_ranks >> rank & 1:
        return 0
    if opened >> suit & 1:
        return step
    if rules.pickup_chain and rules.pickup_card[prev] and rules.pickup_card[role]:
        return 0
    return None


def opened_with(rules: RuleSet, opened: int, role: int) -> int:
    """The open suits once ``role`` is laid (``opener_scope``: every opener, or the latest)."""
    suit = SUIT_OF[role]
    if rules.opener_scope == "play":
        return opened | (1 << suit) if rules.opens[role] else opened
    if rules.opens[role]:
        return 1 << suit
    return opened if opened >> suit & 1 else 0


def role_candidates(rules: RuleSet, prev: int, opened: int) -> list[int]:
    """The cards that might follow ``prev`` as real cards (a superset, in code order): its rank,
    its suit, the open suits, the pickup cards, and everything after a card that needs a cover.

    Kept in the rule set's own cache: the answer depends on the rule set, and an entry must
    die with it (a cache keyed by its ``id`` could hand a later rule set another's list).
    """
    cache = rules.role_cache
    key = (prev, opened)
    found: list[int] | None = cache.get(key)
    if found is None:
        if rules.power_of[prev].must_cover and rules.cover == "any":
            found = list(STANDARD)
        else:
            found = [r for r in STANDARD if RANK_OF[r] == RANK_OF[prev] or SUIT_OF[r] == SUIT_OF[prev]
                     or opened >> SUIT_OF[r] & 1 or rules.pickup_card[r] or rules.wild[r]]
        if len(cache) < ROLE_CACHE_SIZE:
            cache[key] = found
    return found


# ---------------------------------------------------------------------------------------------
# Cards that never go together (S5), and the last card (L7)


def mixes(rules: RuleSet, cards: Sequence[int]) -> bool:
    """True when the play holds cards of two groups that never go together (S5)."""
    touched = 0
    for group in rules.never_together:  # isdisjoint: the test in C, not a generator per group
        if not group.isdisjoint(cards):
            touched += 1
    return touched > 1


def clashing(rules: RuleSet, cards: Sequence[int]) -> frozenset[int]:
    """The cards that may not join ``cards``: those of a group other than one already in (S5)."""
    touched = [g for g in rules.never_together if not g.isdisjoint(cards)]
    if not touched:
        return _NO_CARDS
    return frozenset().union(*(g for g in rules.never_together if g not in touched))


def finish_error(game: Game, cards: Sequence[int]) -> str | None:
    """L7: no emptying the hand on certain (acting) cards (a king with two seats)."""
    rules = game.rules
    banned = rules.no_finish_two_seats if game.seats == 2 else rules.no_finish
    if banned and cards[-1] in banned and len(cards) == len(game.hands[game.to_move]):
        return f"no one may go out on {NAMES[cards[-1]]}" + (" with two seats" if game.seats == 2 else "")
    return None
