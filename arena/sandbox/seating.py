"""The sandboxed bots that fill the seats of a run's tables, one per seat a bot takes.

A :class:`~arena.sandbox.SandboxedBot` plays one seat of one game at a time, so a bot that holds
several seats of a table (a duel's ``A B A B``, a validation's self-play) needs as many of them.
Each is a template process, started on first use, that forks a fresh process for every game:
which of a bot's copies plays a seat changes nothing, and no game sees another's process.
Tournament workers and ``arena submit`` seat their bots here, every bot pinned to the run's CPU.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from arena.sandbox.bot import SandboxedBot
from arena.sandbox.spec import BotSpec, Limits

if TYPE_CHECKING:  # the referee's view of a bot; the sandbox does not need the referee to run
    from arena.play.referee import BotClient

log = logging.getLogger("arena.sandbox.seating")


class Seating:
    """The bots of ``specs`` (by name) as :class:`SandboxedBot` copies, created on first use."""

    def __init__(self, specs: Mapping[str, BotSpec], limits: Limits, *, cpu: int | None,
                 trusted: bool) -> None:
        self.specs, self.limits, self.trusted = dict(specs), limits, trusted
        self._cpus = {cpu} if cpu is not None else None
        self._bots: dict[tuple[str, int], SandboxedBot] = {}

    def seat(self, table: Sequence[str]) -> list[BotClient]:
        """The bots for ``table`` (a bot name per seat): a name's ``k``-th seat gets its copy ``k``."""
        copies: Counter[str] = Counter()
        seated: list[BotClient] = []
        for name in table:
            seated.append(self._bot(name, copies[name]))
            copies[name] += 1
        return seated

    def _bot(self, name: str, copy: int) -> SandboxedBot:
        key = (name, copy)
        if key not in self._bots:
            self._bots[key] = SandboxedBot(self.specs[name], self.limits, cpus=self._cpus,
                                           trusted=self.trusted)
        return self._bots[key]

    def close(self) -> None:
        """Kill every bot process started (idempotent); one that fails to close does not keep
        the others alive."""
        bots, self._bots = list(self._bots.values()), {}
        for bot in bots:
            try:
                bot.close()
            except Exception:  # keep closing the others
                log.exception("could not close bot %s", bot.spec.name)
