"""What a play does to the table once its cards are down (RULINGS G3, S7, S8, B3, I2, L3, L5).

Penalties first (they decide whether the player draws a remainder at once, G3a), then, when the
hand is not empty, the table effects in laid order (G3c). Both read the live acting cards (a
joker acts as the card it names; :func:`live_cards` drops the inert ones, S6) and the rule
set's power tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Sequence

from arena.engine.rules import RuleSet

if TYPE_CHECKING:
    from arena.engine.game import Game


def live_cards(rules: RuleSet, cards: Sequence[int]) -> Sequence[int]:
    """The cards of a play whose powers apply: all, or those before the first opener (S6)."""
    if not rules.inert_after_opener:
        return cards
    power_of = rules.power_of
    for i, card in enumerate(cards):
        if power_of[card].opens_suit:
            return cards[:i]
    return cards


def apply_penalties(game: Game, live: Sequence[int],
                    trace: list[PenaltyStep] | None = None) -> tuple[bool, int]:
    """Add pickups and take off cancels in laid order; returns (a cancelling card answered,
    the cards its player draws at once).

    A pickup on a penalty of another kind carries the total over and the penalty takes the new
    card's kind (B3: a black jack on a 2-penalty; I2: the 2 of hearts on the king of hearts).
    What cancelling cards leave of a penalty is drawn by their player (S8, B3); a pickup laid
    after them in the same play (L2's runs and covers, B2's flushes) settles that remainder
    first and starts a new penalty for the next seat. ``trace``, if given, gets each step as
    it happens: a replay shows them (London's `JS JH` on a two raises it to a jack penalty of
    7, then cancels all 7).
    """
    cancelled = cancelling = False
    owed = 0
    rules = game.rules
    power_of = rules.power_of
    plain_pickups = rules.pickup_on_empty_stock == "plain" and not game.can_draw()
    for card in live:
        power = power_of[card]
        if power.pickup and plain_pickups:
            continue  # O6: a pickup laid when no card can be drawn is a plain card
        if power.pickup:
            if cancelling:
                owed += _settle(game, trace)
                cancelling = False
            stack = power.stack
            assert stack is not None  # parse_power: a pickup always names its stack
            game.pending_kind = stack
            game.pending_amount += power.pickup
            game.pending_mix |= rules.kind_bits[stack]
            if trace is not None:
                trace.append(PenaltyStep("pickup", stack, power.pickup, game.pending_amount))
        elif power.cancels and game.pending_kind is not None:
            cut = power.cancel_for(game.pending_kind)
            if cut is not None and _may_cancel(game, power.cancel_needs):
                cancelled = cancelling = True
                left = max(0, game.pending_amount - (cut or game.pending_amount))
                if trace is not None:
                    trace.append(PenaltyStep("cancel", game.pending_kind, game.pending_amount, left))
                game.pending_amount = left
    if cancelling:
        owed += _settle(game, trace)
    return cancelled, owed


def _settle(game: Game, trace: list[PenaltyStep] | None) -> int:
    """The end of a run of cancels: what they left of the penalty, its player draws (returned)."""
    left = game.pending_amount
    if trace is not None:
        trace.append(PenaltyStep("settle", game.pending_kind or "", left, 0))
    game.clear_pending()
    return left


class PenaltyStep(NamedTuple):
    """One step of :func:`apply_penalties`: a ``pickup`` of ``amount`` cards making the
    penalty of ``kind`` ``total``; a ``cancel`` taking the penalty of ``kind`` from ``amount``
    down to ``total``; a ``settle``: its player draws what the cancels left, ``amount``."""

    step: str
    kind: str
    amount: int
    total: int


def _may_cancel(game: Game, needs: str | None) -> bool:
    """L3: a cancel with ``cancel_needs`` acts only on a stack holding a card of that kind."""
    return needs is None or bool(game.pending_mix & game.rules.kind_bits[needs])


def apply_table_effects(game: Game, seat: int, live: Sequence[int]) -> int:
    """Skips, reverses and swaps in laid order (G3c); returns the number of seats skipped.

    With ``skips: pending`` a skip card leaves a skip pending for the next seat instead (B3's 8,
    I2's 7). With two seats and ``two_seat_reverse: again`` a reverse also lets the player go
    again (F5, L5, I2); with two seats any number of skips means "go again" once (S15, L5).
    """
    rules = game.rules
    skips = 0
    power_of = rules.power_of
    again = game.seats == 2 and rules.two_seat_reverse == "again"
    for card in live:
        power = power_of[card]
        if power.skip:
            skips += 1
        if power.reverse:
            game.direction = -game.direction
            skips += again
        if power.swap:
            partner = (seat + game.direction) % game.seats
            game.hands[seat], game.hands[partner] = game.hands[partner], game.hands[seat]
    if rules.skips == "pending":
        if any(power_of[c].skip for c in live):
            game.pending_skip = True
        skips = sum(power_of[c].reverse for c in live) if again else 0
    elif rules.skips == "once":
        skips = min(skips, 1)
    if game.seats == 2:
        skips = min(skips, 1)
    return skips


def last_card_charge(rules: RuleSet, cards_laid: int, held: int, announce: bool, standing: bool) -> int:
    """The cards the last-card rule makes a play's player draw at once (G3a): W5's penalty for
    leaving one card without the call, L10's card for going out without a standing call (one
    made when the seat came down to its last card). ``held``: the hand before the play;
    ``standing``: the seat's call stood before this play."""
    left = held - cards_laid  # judged before any draw the play forces (G1)
    if rules.last_card == "must":
        return rules.last_card_penalty if left == 1 and not announce else 0
    if rules.last_card == "may":
        return 1 if left == 0 and not (standing and held == 1) else 0
    return 0
