"""The `heuristic` bot: a competent player of every preset, by scoring each candidate play.

Its code is the library's :class:`arena.heuristic.HeuristicPlayer` (read it there: volume,
firepower, keepers, aim and suit), so that a search bot, which runs in a sandbox of its own
and can import only the ``arena`` package, can ask for the same judgement.
"""

from arena.heuristic import HeuristicPlayer


class Bot(HeuristicPlayer):
    """Scores every candidate play by volume, firepower, kept cards, aim and suit."""
