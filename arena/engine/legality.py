"""Which plays are legal: the one entry the :class:`~arena.engine.game.Game` calls.

A play is legal when the seat holds its cards (each once, within ``max_cards``), it includes
(or, where the rule set says so, starts with) a card just drawn, its cards make a legal shape,
no two of them come from groups that never go together (S5), it names a suit exactly when it
ends on a suit-calling card (S9, C3, L6), it does not empty the hand on a banned card (L7) and
it announces "last card" only where that is allowed (G1). The shape is the one rule that
differs between rule sets: sets and suit openers (:mod:`arena.engine.moves`), or chains of runs,
pickup stacks, covers and jokers (:mod:`arena.engine.chains`, where ``RuleSet.chained``). Both
are built from the card-level rules of :mod:`arena.engine.steps`.

The same modules answer the listing questions: :func:`legal_plays` (bounded and deterministic;
see each module's docstring for which long plays it lists), and :func:`next_cards` and
:func:`joker_roles`, which let a bot build every legal play, listed or not, card by card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from arena.engine import chains, moves
from arena.engine.actions import Play
from arena.engine.cards import NAMES
from arena.engine.rules import DRAWN_CARD_OPTIONAL, RuleSet
from arena.engine.steps import finish_error, first_card_ok, mixes

if TYPE_CHECKING:
    from arena.engine.game import Game

ANNOUNCED_CACHE_SIZE = 200_000  # Play objects are immutable values: one per play serves every game


# ---------------------------------------------------------------------------------------------
# Checking one play


def holds_cards(game: Game, play: Play) -> bool:
    """True when the seat to move holds every card of ``play``, each once (a readable blunder)."""
    hand = game.hands[game.to_move]
    return len(set(play.cards)) == len(play.cards) and all(c in hand for c in play.cards)


def play_error(game: Game, play: Play) -> str | None:
    """Why ``play`` is illegal now, or None when it is legal."""
    rules = game.rules
    cards = play.cards
    hand = game.hands[game.to_move]
    missing = [NAMES[c] for c in cards if c not in hand]
    if missing:
        return f"{missing[0]} is not in the hand of seat {game.to_move}"
    if len(set(cards)) != len(cards):
        return "a card is laid twice"
    if rules.max_cards is not None and len(cards) > rules.max_cards:
        return f"at most {rules.max_cards} card(s) per play"
    reason = _drawn_card_error(game, cards)
    if reason:
        return reason
    reason = chains.shape_error(game, play) if rules.chained else moves.shape_error(game, cards)
    if reason:
        return reason
    acting = play.acting
    if mixes(rules, acting):
        return "red and black jacks never go in one play"
    return call_error(rules, acting[-1], play) or finish_error(game, acting) or announce_error(game, play)


def _drawn_card_error(game: Game, cards: Sequence[int]) -> str | None:
    """C4, F4, W3, B6, I5, L9: a play after a draw includes the drawn card (``drawing.after_draw``
    must-play), is the drawn card alone (may-play-alone), or starts with it (may-play)."""
    drawn = game.drawn_card
    if drawn < 0:
        return None
    after = game.rules.after_draw
    if after == "may-play-alone":
        if len(cards) != 1 or cards[0] != drawn:
            return f"after drawing, only the drawn card {NAMES[drawn]} may be played, alone"
    elif after == "may-play":
        if cards[0] != drawn:
            return f"after drawing, a play must start with the drawn card {NAMES[drawn]}"
    elif drawn not in cards:
        return f"the play must include the drawn card {NAMES[drawn]}"
    return None


def call_error(rules: RuleSet, last: int, play: Play) -> str | None:
    """S9, C3, L6: a play ending on a suit caller (``last``, an acting card) names a suit; no other does."""
    calls = rules.power_of[last].calls_suit
    if calls and play.call is None:
        return f"a play ending on {NAMES[last]} must name a suit ({NAMES[last]}=H)"
    if not calls and play.call is not None:
        return f"a suit may be named only by a play ending on a suit-calling card, not {NAMES[last]}"
    return None


def announce_error(game: Game, play: Play) -> str | None:
    """G1: ``!`` only where the rule set has announcements, on a play that leaves one card."""
    if not play.announce:
        return None
    if game.rules.last_card == "off":
        return "this rule set has no last-card announcements"
    left = len(game.hands[game.to_move]) - len(play.cards)
    if left != 1:
        return f"a last-card announcement needs a play that leaves exactly one card (this one leaves {left})"
    return None


# ---------------------------------------------------------------------------------------------
# Listing plays, and building them card by card


def legal_plays(game: Game) -> list[Play]:
    """Every legal play, in the bounded canonical form of :mod:`arena.engine.moves` or
    :mod:`arena.engine.chains`, each play that leaves one card also with the announcement."""
    rules = game.rules
    plays = chains.legal_plays(game) if rules.chained else moves.legal_plays(game)
    if rules.last_card != "off":
        plays = _with_announcements(plays, len(game.hands[game.to_move]))
    return plays


def next_cards(game: Game, prefix: Sequence[int], roles: Sequence[int] | None = None) -> list[int]:
    """The cards of the hand that may be laid after the partial play ``prefix`` (empty: the legal
    first cards), sorted by code; ``roles`` gives what the prefix's jokers stand for (L8)."""
    drawn, after = game.drawn_card, game.rules.after_draw
    if drawn >= 0 and after in DRAWN_CARD_OPTIONAL:
        if prefix and after == "may-play-alone":
            return []  # B6, I5: the drawn card goes down alone
        if not prefix:  # the drawn card leads the play, if it can
            return [drawn] if first_card_ok(game, drawn) else []
    hand = sorted(set(game.hands[game.to_move]) - set(prefix))
    if not prefix:
        return [c for c in hand if first_card_ok(game, c)]
    max_cards = game.rules.max_cards
    if max_cards is not None and len(prefix) >= max_cards:
        return []
    if game.rules.chained:
        return chains.followers(game, hand, prefix, roles)
    return moves.followers(game, hand, prefix)


def joker_roles(game: Game, prefix: Sequence[int], roles: Sequence[int] | None = None) -> list[int]:
    """The cards a joker may stand for when laid after ``prefix`` (L8; empty: as the first card)."""
    if game.drawn_card >= 0 and game.rules.after_draw == "may-play-alone":
        if prefix:
            return []  # B6, I5: the drawn card goes down alone
        power_of = game.rules.power_of  # alone, it cannot be a card that must be covered (B2)
        return [r for r in chains.joker_roles(game, prefix, roles) if not power_of[r].must_cover]
    return chains.joker_roles(game, prefix, roles)


def _with_announcements(plays: list[Play], held: int) -> list[Play]:
    """Each play that leaves exactly one card, also with the announcement (W5, L10)."""
    out = []
    for play in plays:
        out.append(play)
        if len(play.cards) == held - 1:
            out.append(_announced(play))
    return out


def _announced(play: Play) -> Play:
    found = _ANNOUNCED.get(play)
    if found is None:
        found = Play(play.cards, play.call, play.roles, True)
        if len(_ANNOUNCED) < ANNOUNCED_CACHE_SIZE:
            _ANNOUNCED[play] = found
    return found


_ANNOUNCED: dict[Play, Play] = {}
