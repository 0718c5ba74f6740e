"""The Python bot host: runs one bot class inside its sandbox and speaks docs/protocol.md.

Run as ``python3.11 -I -S arena_host.py RUNTIME_DIR BOT_FILE CLASS_NAME LOG_BYTES`` by the
referee, never imported by it. Standard library only: the bot's interpreter has nothing else.

Replies are one line each: the action text, ``ok``, or a failure report that starts with
``!`` (no action can start with ``!``): ``!error <JSON text>`` when the bot raised or returned
something that is not an action, ``!memory <JSON text>`` when it ran out of memory.
"""

from __future__ import annotations

import io
import json
import os
import sys

MEMORY_EXIT = 86       # exit status after a MemoryError outside a request
TRACEBACK_LINES = 12   # traceback lines sent back with an error report


class CappedLog(io.TextIOBase):
    """``sys.stdout``/``sys.stderr`` of the bot: its log file, kept to about ``cap`` bytes.

    Output is buffered and flushed before every reply, so a flood of prints costs few
    system calls; when the file passes twice the cap it is cut back to its last ``cap`` bytes
    (the referee opened it with O_APPEND, so cutting it is safe).
    """

    def __init__(self, fd: int, cap: int) -> None:
        self.fd, self.cap = fd, max(cap, 1024)
        self.pending: list[str] = []
        self.pending_size = 0
        self.size = os.fstat(fd).st_size
        self.tail = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.pending.append(text)
        self.pending_size += len(text)
        if self.pending_size > 16384:
            self.flush()
        return len(text)

    def flush(self) -> None:
        if not self.pending:
            return
        data = "".join(self.pending).encode("utf-8", "replace")
        self.pending, self.pending_size = [], 0
        self.tail += data
        if len(self.tail) > 2 * self.cap:
            del self.tail[: -self.cap]
        self.size += len(data)
        try:
            if self.size > 2 * self.cap:
                os.ftruncate(self.fd, 0)
                data, self.size = bytes(self.tail), len(self.tail)
            os.write(self.fd, data)
        except OSError:
            pass  # a full or over-limit log must not break the bot


def _observation_factory():
    """``Observation.from_wire`` of the engine (imported late: it costs milliseconds at start)."""
    from arena.observation import Observation

    return Observation.from_wire


def _action_text_function():
    """``arena.actions.action_text`` of the engine."""
    from arena.actions import action_text

    return action_text


class Host:
    """The request loop around one bot instance."""

    def __init__(self, out_fd: int, log: CappedLog, bot: object) -> None:
        self.out_fd, self.log, self.bot = out_fd, log, bot
        self.history: tuple = ()   # earlier public events, as the observation holds them
        self.rules: dict = {}
        self.make_obs = None
        self.action_text = None

    def reply(self, text: str) -> None:
        """Flush the bot's log, then write one protocol line."""
        self.log.flush()
        data = (text + "\n").encode("utf-8", "replace")
        while data:
            data = data[os.write(self.out_fd, data):]

    def report(self, marker: str, exc: BaseException) -> None:
        """``!error``/``!memory`` with the last traceback lines, also written to the log."""
        import traceback  # only on failure: it costs milliseconds at start

        lines = traceback.format_exception(exc)
        self.log.write("".join(lines))
        tail = "".join(lines).rstrip("\n").splitlines()[-TRACEBACK_LINES:]
        self.reply(f"!{marker} " + json.dumps("\n".join(tail)))

    def handle(self, msg: dict) -> None:
        """Answer one request."""
        kind = msg.get("type")
        if kind == "act":
            self.reply(self.act(msg.get("obs") or {}))
        elif kind == "start":
            self.history, self.rules = (), msg.get("rules") or {}
            self.call_hook("on_game_start", msg)
            self.reply("ok")
        elif kind == "end":
            self.call_hook("on_game_end", msg.get("result"))
            self.reply("ok")
        else:
            raise ValueError(f"unknown request type {kind!r}")

    def call_hook(self, name: str, arg: object) -> None:
        """Call an optional hook of the bot."""
        hook = getattr(self.bot, name, None)
        if hook is not None:
            hook(arg)

    def act(self, obs: dict) -> str:
        """The bot's action text for one observation; raises when it is not an action."""
        observation = self.make_obs(obs, self.history, self.rules)
        # The observation holds the full history (earlier events + this message's events);
        # keeping it avoids rebuilding the earlier events on every request.
        self.history = getattr(observation, "history", self.history)
        action = self.bot.act(observation)
        if action is None:
            raise TypeError("act() returned None instead of an action")
        text = action if isinstance(action, str) else self.action_text(action)
        if not isinstance(text, str) or "\n" in text or "\r" in text:
            raise TypeError(f"act() returned {action!r}, not a one-line action text")
        return text.strip()

    def serve(self, stdin: io.BufferedReader) -> None:
        """Answer requests until the referee closes the pipe."""
        for line in stdin:
            try:
                self.handle(json.loads(line))
            except MemoryError as exc:
                self.report("memory", exc)
                os._exit(MEMORY_EXIT)
            except Exception as exc:
                self.report("error", exc)


def _install_host_filter(runtime_dir: str) -> None:
    """Stack the no-execve seccomp filter, now that the interpreter no longer needs it."""
    path = os.path.join(runtime_dir, "host.bpf")
    if not os.path.exists(path):
        return
    import ctypes

    with open(path, "rb") as f:
        program = f.read()

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = SockFprog(len(program) // 8, ctypes.addressof(buffer))
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    if prctl(38, 1, 0, 0, 0) != 0 or prctl(22, 2, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "could not install the host seccomp filter")


def _load_bot(path: str, class_name: str) -> object:
    """Run the bot file as a module of a private name and instantiate its class.

    Not under its file's name: a bot file called ``random.py`` that imports ``random`` must get
    the standard library, not itself. A plain compile/exec (not importlib.util, which costs
    milliseconds to import).
    """
    name = "__arena_bot__"
    module = type(sys)(name)
    module.__file__ = path
    sys.modules[name] = module
    with open(path, "rb") as f:
        code = compile(f.read(), path, "exec")
    exec(code, module.__dict__)
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type):
        raise ImportError(f"{os.path.basename(path)} defines no class {class_name!r}")
    return cls()


def main(argv: list[str]) -> None:
    """Redirect output, confine, load the bot, serve."""
    runtime_dir, bot_file, class_name, log_cap = argv[1:5]
    # The real stdout is kept on a private fd; fd 1 and print() go to the log from now on,
    # so nothing the bot prints can corrupt the protocol.
    out_fd = os.dup(1)
    os.dup2(2, 1)
    log = CappedLog(2, int(log_cap))
    sys.stdout = sys.stderr = log
    # The runtime (the arena package) comes first; the bot's own folder last, so that a file
    # beside the bot can be imported but can never shadow the standard library.
    sys.path.insert(0, runtime_dir)
    sys.path.append(os.path.dirname(bot_file))
    host = Host(out_fd, log, None)
    try:
        host.make_obs = _observation_factory()
        host.action_text = _action_text_function()
        _install_host_filter(runtime_dir)
        host.bot = _load_bot(bot_file, class_name)
    except MemoryError as exc:
        host.report("memory", exc)
        os._exit(MEMORY_EXIT)
    except BaseException as exc:  # SystemExit at import is a failure to load too
        host.report("error", exc)
        os._exit(1)
    host.serve(sys.stdin.buffer)
    log.flush()


if __name__ == "__main__":
    main(sys.argv)
