"""Run each bot in its own confined OS process and talk to it over line-oriented JSON.

The protocol is in docs/protocol.md, the confinement layers in docs/sandbox.md.
The library raises :class:`BotFault` (a :class:`arena.errors.ArenaError`) and never prints.
"""

from arena.sandbox.bot import SandboxedBot
from arena.sandbox.faults import BotFault, FaultCode
from arena.sandbox.spec import BotSpec, Limits

__all__ = ["BotFault", "BotSpec", "FaultCode", "Limits", "SandboxedBot"]
