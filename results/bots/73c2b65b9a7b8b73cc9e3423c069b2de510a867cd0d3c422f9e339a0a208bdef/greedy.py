"""The `greedy` bot: shed as many cards as possible every turn.

A one-idea bot and the second baseline after `random`: among the legal plays it takes the one
that lays the most cards. It never thinks about penalties, skips or what the next player holds.

Ties are broken deterministically, so the same deal always plays the same way: a play that
announces "last card" (``!``, offered only where the rules have the call) beats the same play
without it, since a missing call costs cards; when a play ends on a suit-calling card (an ace in
Switch, an 8 in Crazy Eights) it calls the suit it holds most of afterwards; otherwise the first
play in the order ``legal_actions()`` lists them wins.
"""

from arena.engine.actions import Play


class Bot:
    """Lays the longest legal play; draws or passes only when it must."""

    def act(self, obs):
        """The legal play with the most cards (``obs.legal_actions()`` is never empty)."""
        legal = obs.legal_actions()
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]  # draw or pass: the only choice left
        # max() keeps the first of equal keys: that is the deterministic tie-break.
        return max(plays, key=lambda play: (len(play.cards), play.announce, self._call_score(obs, play)))

    @staticmethod
    def _call_score(obs, play):
        """How many of the cards left in hand share the called suit (0 when nothing is called)."""
        if play.call is None:
            return 0
        left = set(obs.hand) - set(play.cards)
        return sum(1 for card in left if card.suit == play.call)
