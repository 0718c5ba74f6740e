"""Run each bot in fresh, isolated OS processes (one per game) and talk to it over JSON lines.

The protocol is in docs/protocol.md, the confinement layers in docs/sandbox.md.
The library raises :class:`BotFault` (a :class:`arena.errors.ArenaError`) and never prints.
"""

from arena.sandbox.bot import SandboxedBot
from arena.sandbox.confine import IsolationUnavailable, check_isolation
from arena.play.faults import BotFault, FaultCode
from arena.sandbox.spec import BotSpec, Limits

__all__ = ["BotFault", "BotSpec", "FaultCode", "IsolationUnavailable", "Limits", "SandboxedBot",
           "check_isolation"]
