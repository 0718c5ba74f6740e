"""The bot host: a template process that forks one fresh, confined process per game.

Run as ``python3 -I -S -B arena_host.py`` by the referee (:mod:`arena.sandbox.template`), never
imported by it. Standard library only until the runtime is mounted. Its standard input is the
control socket (``SOCK_SEQPACKET``, JSON messages, descriptors passed with ``SCM_RIGHTS``):

1. The referee sends the setup (``{"confine":, "runtime":, "files":, "class":, "command":,
   "options":, ...}``) with a descriptor for each of the bot's files. The host reads them, then (confined) enters new user,
   mount, network, UTS, cgroup, IPC and PID namespaces, builds a minimal read-only root (the
   interpreter's prefix, ``/usr``, the runtime at ``/arena``, a few devices), forks the *init*
   of its PID namespace, which mounts its ``/proc``, pivots into that root and preloads the
   runtime. Nothing of the bot has run yet, and nothing ever runs in this process.
2. For every game the referee sends ``{"game": true}`` with three descriptors (requests in,
   replies out, log). The init forks a *game process* in a PID namespace of its own (it is
   PID 1 there), which unshares its IPC and mount namespaces, mounts a fresh size- and
   inode-capped tmpfs as its folder ``/bot``, detaches ``/proc`` (a command bot mounts its
   own), drops every capability, caps its threads, installs the seccomp filter, loads the bot
   from the source read in step 1 and answers requests until the referee kills it. (A command
   bot's game process instead executes the command, with the protocol on its standard input
   and output: a fresh program every game.) The init reports the game process's pid (as
   ``SCM_CREDENTIALS``, which the kernel translates into the referee's PID namespace) and,
   later, its exit status.

So every game is played by a process that has never seen another game: no module state, no
file, no IPC object survives it. Killing the init (or the referee's death, through the
parent-death signal chain) kills every process of the bot: a PID namespace dies with its init.

Replies on the game channel are one line each: the action text, ``ok``, or a failure report
that starts with ``!`` (no action can start with ``!``): ``!error <JSON text>`` when the bot
raised or returned something that is not an action, ``!memory <JSON text>`` when it ran out of
memory.
"""

from __future__ import annotations

import ctypes
import io
import json
import os
import resource
import signal
import socket
import struct
import sys
from typing import Any, Callable

MEMORY_EXIT = 86       # exit status after a MemoryError outside a request
SETUP_EXIT = 87        # exit status of a game process whose confinement failed
TRACEBACK_LINES = 12   # traceback lines sent back with an error report
INSIDE_ID = 1000       # the bot's uid and gid inside its user namespace
BOT_DIR = "/bot"       # the game's writable folder (HOME, TMPDIR, cwd)
RUNTIME_DIR = "/arena"  # where the runtime (the engine copy) is mounted
# Processes and threads of a bot's user namespace (its host, init and game process count too).
# RLIMIT_NPROC counts them per user namespace (Linux 5.14 and later), so it caps the bot's
# threads whether it runs under a leased uid or under the ordinary user's own.
NPROC = 64
GAME_PROC_OPTIONS = "subset=pid"  # a command bot's /proc: its own process, no machine-wide file
CONTROL_FD = 60        # the control socket: below RLIMIT_NOFILE, above what a game keeps

CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS = 0x00020000, 0x02000000, 0x04000000
CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x08000000, 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MNT_DETACH = 2
PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
_LINUX_CAPABILITY_VERSION_3 = 0x20080522
_DEVICES = ("null", "zero", "random", "urandom")
_TOP_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")

_libc = ctypes.CDLL(None, use_errno=True)


class NotAnAction(TypeError):
    """What ``act()`` returned is no action: the bot's mistake, found by the host, reported
    in one line without the host's own frames (they would point away from the bot's code)."""


class SetupError(Exception):
    """The confinement could not be set up (a system call failed)."""


def _check(result: int, what: str) -> None:
    """Raise :class:`SetupError` naming ``what`` when a libc call failed."""
    if result != 0:
        err = ctypes.get_errno()
        raise SetupError(f"{what}: {os.strerror(err)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int,
           data: str | None = None) -> None:
    """mount(2), or :class:`SetupError`."""
    _check(_libc.mount(_encoded(source), target.encode(), _encoded(fstype), flags, _encoded(data)),
           f"mount {target}")


def _encoded(text: str | None) -> bytes | None:
    """A C string argument (NULL for None)."""
    return text.encode() if text is not None else None


def _bind_read_only(source: str, target: str) -> None:
    """Bind ``source`` at ``target`` (recursively), then make it read-only, nosuid, nodev."""
    _mount(source, target, None, MS_BIND | MS_REC)
    _mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


def _bind_device(source: str, target: str) -> None:
    """Bind the device ``source`` at ``target``, read-only: the device still reads and writes
    (a read-only mount refuses writes to files, not to devices), but its inode's times cannot
    be set. Writable, its ctime was a machine-wide mark that one bot could set (``os.utime``)
    and any other, now or in a later game, read. The host's flags that a user namespace may
    not clear (nosuid, nodev, noexec) are kept."""
    open(target, "w").close()
    _mount(source, target, None, MS_BIND)
    kept = os.statvfs(target).f_flag & (MS_NOSUID | MS_NODEV | MS_NOEXEC)
    _mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | kept)


# ---------------------------------------------------------------------------------------------
# The bot's output and its request loop


class CappedLog(io.TextIOBase):
    """``sys.stdout``/``sys.stderr`` of the bot: its log, kept to about ``cap`` bytes.

    Output is buffered and flushed before every reply, so a flood of prints costs few
    system calls; when the log passes twice the cap it is cut back to its last ``cap`` bytes.
    """

    def __init__(self, fd: int, cap: int) -> None:
        self.fd, self.cap = fd, max(cap, 1024)
        self.pending: list[str] = []
        self.pending_size = 0
        self.size = 0
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
        data = "".join(self.pending).encode("utf-8", "backslashreplace")
        self.pending, self.pending_size = [], 0
        self.tail += data
        if len(self.tail) > 2 * self.cap:
            del self.tail[: -self.cap]
        self.size += len(data)
        try:
            if self.size > 2 * self.cap:
                os.ftruncate(self.fd, 0)
                os.lseek(self.fd, 0, os.SEEK_SET)
                data, self.size = bytes(self.tail), len(self.tail)
            os.write(self.fd, data)
        except OSError:
            pass  # a full or over-limit log must not break the bot


class Host:
    """The request loop around one bot instance."""

    def __init__(self, out_fd: int, log: CappedLog, bot: Any,
                 make_obs: Callable[..., Any], action_text: Callable[[Any], str]) -> None:
        self.out_fd, self.log, self.bot = out_fd, log, bot
        self.history: tuple[Any, ...] = ()   # earlier public events, as the observation holds them
        self.rules: dict[str, Any] = {}
        self.make_obs, self.action_text = make_obs, action_text

    def reply(self, text: str) -> None:
        """Flush the bot's log, then write one protocol line."""
        self.log.flush()
        data = (text + "\n").encode("utf-8", "backslashreplace")
        while data:
            data = data[os.write(self.out_fd, data):]

    def report(self, marker: str, exc: BaseException) -> None:
        """``!error``/``!memory`` with the last traceback lines, also written to the log."""
        import traceback  # only on failure

        lines = ([f"{exc}\n"] if isinstance(exc, NotAnAction)
                 else traceback.format_exception(exc))
        self.log.write("".join(lines))
        tail = "".join(lines).rstrip("\n").splitlines()[-TRACEBACK_LINES:]
        self.reply(f"!{marker} " + json.dumps("\n".join(tail)))

    def handle(self, msg: dict[str, Any]) -> None:
        """Answer one request."""
        kind = msg.get("type")
        if kind == "act":
            self.reply(self.act(msg.get("obs") or {}))
        elif kind == "start":
            self.history, self.rules = (), msg.get("rules") or {}
            _seed_random(msg.get("seed"))
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

    def act(self, obs: dict[str, Any]) -> str:
        """The bot's action text for one observation; raises when it is not an action."""
        observation = self.make_obs(obs, self.history, self.rules)
        # The observation holds the full history (earlier events + this message's events);
        # keeping it avoids rebuilding the earlier events on every request.
        self.history = getattr(observation, "history", self.history)
        action = self.bot.act(observation)
        if action is None:
            raise NotAnAction("act() returned None instead of an action")
        try:
            text = action if isinstance(action, str) else self.action_text(action)
        except ValueError:  # the engine's InvalidActionError: not text, not an action object
            from arena.settings import show  # loaded with the engine already: failures only
            raise NotAnAction(f"act() returned {type(action).__name__} {show(action)}, "
                              "not an action (its text, or a Play, Draw or Pass)") from None
        if "\n" in text or "\r" in text or text.lstrip().startswith("!"):
            from arena.settings import show
            raise NotAnAction(f"act() returned {show(action)}, not a one-line action text")
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


def _seed_random(seed: object) -> None:
    """Seed the ``random`` module from the seat's seed: every game process starts alike."""
    if isinstance(seed, int):
        import random

        random.seed(seed)


# ---------------------------------------------------------------------------------------------
# The template: setup once, then one forked game process per game


class Template:
    """The template process (and, confined, the init of its PID namespace)."""

    def __init__(self, control: socket.socket, setup: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        self.control = control
        self.setup = setup
        self.files = files                      # (name, content): the bot file first
        self.source = files[0][1] if files else b""
        self.command: list[str] | None = setup.get("command")
        self.confine = bool(setup.get("confine"))
        self.filter: _Filter | None = None
        self.code = None
        self.game_pid: int | None = None
        self.game_pidfd: int | None = None
        self.pidns_fd: int | None = None

    # -- setup ---------------------------------------------------------------------------

    def enter_isolation(self) -> None:
        """Unshare every namespace, build the root; the caller becomes the namespace's init.

        The first process stays outside the new PID namespace, waits for the init it forks and
        exits with its status (so the referee's parent-death signal chain still holds).
        """
        uid, gid = os.geteuid(), os.getegid()
        flags = (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWUTS | CLONE_NEWIPC
                 | CLONE_NEWCGROUP | CLONE_NEWPID)
        _check(_libc.unshare(flags), "unshare (user namespaces)")
        map_ids(uid, gid)
        _check(_libc.sethostname(b"arena", 5), "sethostname")
        make_mounts_private()
        root = self.setup["root"]
        self._build_root(root)
        init = os.fork()
        if init:
            self._send({"init": init})
            _, status = os.waitpid(init, 0)
            os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
        _die_with_parent()
        _mount("proc", os.path.join(root, "proc"), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
        _mount(None, root, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)
        os.chdir(root)
        _check(_libc.pivot_root(b".", b"."), "pivot_root")
        _check(_libc.umount2(b".", MNT_DETACH), "detach the old root")
        os.chdir("/")
        self.pidns_fd = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)

    def _build_root(self, root: str) -> None:
        """A small tmpfs holding only mount points: the interpreter, the runtime, devices."""
        _mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=256k,nr_inodes=256,mode=0755")
        for name in _TOP_LINKS:
            host = "/" + name
            if os.path.islink(host):
                os.symlink(os.readlink(host), root + host)
            elif os.path.isdir(host):
                os.mkdir(root + host)
                _bind_read_only(host, root + host)
        for folder in ("usr", "proc", "dev", "etc", BOT_DIR.strip("/"), RUNTIME_DIR.strip("/")):
            os.makedirs(os.path.join(root, folder), exist_ok=True)
        _bind_read_only("/usr", root + "/usr")
        prefix = os.path.realpath(sys.base_prefix)
        if not (prefix == "/usr" or prefix.startswith("/usr/")):
            os.makedirs(root + prefix, exist_ok=True)
            _bind_read_only(prefix, root + prefix)
        _bind_read_only(self.setup["runtime"], root + RUNTIME_DIR)
        for name in _DEVICES:
            _bind_device(f"/dev/{name}", f"{root}/dev/{name}")
        # for command bots, whose game has a /proc (a Python bot's has none: they lead nowhere)
        for link, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                             ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
            os.symlink(target, f"{root}/dev/{link}")
        if os.path.isfile("/etc/ld.so.cache"):  # the dynamic loader finds libraries through it
            open(root + "/etc/ld.so.cache", "w").close()
            _bind_read_only("/etc/ld.so.cache", root + "/etc/ld.so.cache")
        os.symlink(BOT_DIR, root + "/tmp")

    def preload(self) -> None:
        """Import the runtime and compile the bot now, once, instead of in every game."""
        runtime = RUNTIME_DIR if self.confine else self.setup["runtime"]
        sys.path.insert(0, runtime)
        for name in ("arena.engine.actions", "arena.engine.observation"):
            __import__(name)  # for the game processes, which need both
        _warm_action_cache()
        for name in self.setup.get("preload", ()):
            try:
                __import__(name)
            except Exception:  # an optional module this interpreter lacks
                pass
        if self.confine and self.setup.get("filter"):
            with open(os.path.join(RUNTIME_DIR, self.setup["filter"]), "rb") as f:
                self.filter = _Filter(f.read())
        for name in ("mount", "unshare", "setns", "prctl", "capset", "umount2"):
            getattr(_libc, name)  # resolve the symbols once, not in every game process
        if not self.confine and self.command is None:  # trusted: one copy serves every game
            _write_file(self.bot_path(), self.source)
        if self.command is None:
            self.code = _compile(self.source, self.bot_path())
        import gc

        gc.collect()
        gc.freeze()  # fewer copy-on-write faults in every game process

    def bot_path(self) -> str:
        """Where each game process finds its copy of the bot file."""
        name = self.files[0][0] if self.files else "bot.py"
        return os.path.join(BOT_DIR if self.confine else self.setup["workdir"], name)

    # -- serving -------------------------------------------------------------------------

    def serve(self) -> None:
        """Fork a game process per ``game`` request; report exits; stop at end of file."""
        import select

        self._send({"ready": True})
        while True:
            poller = select.poll()
            poller.register(self.control.fileno(), select.POLLIN)
            if self.game_pidfd is not None:
                poller.register(self.game_pidfd, select.POLLIN)
            for fd, _ in poller.poll():
                if fd == self.game_pidfd:
                    self._report_exit()
                elif not self._handle_request():
                    self._end_game()
                    return

    def _handle_request(self) -> bool:
        """One control message; False at end of file."""
        data, fds, _, _ = socket.recv_fds(self.control, 4096, 4)
        if not data:
            for fd in fds:
                os.close(fd)
            return False
        self._end_game()
        if len(fds) != 3:
            for fd in fds:
                os.close(fd)
            self._send({"error": "a game needs three descriptors"})
            return True
        pid = self._fork_game(fds)
        for fd in fds:
            os.close(fd)
        self.game_pid = pid
        self.game_pidfd = os.pidfd_open(pid)
        self._send_pid(pid)
        return True

    def _fork_game(self, fds: list[int]) -> int:
        """Fork the game process (confined: as PID 1 of a new PID namespace)."""
        if self.confine:
            _check(_libc.unshare(CLONE_NEWPID), "unshare (PID namespace)")
        pid = os.fork()
        if pid == 0:
            self._become_game(fds)
        if self.confine:
            _check(_libc.setns(self.pidns_fd, CLONE_NEWPID), "setns (PID namespace)")
        return pid

    def _become_game(self, fds: list[int]) -> None:
        """In the game process: confine, load the bot, serve. Never returns."""
        requests, replies, log_fd = fds
        out_fd = replies
        try:
            self.control.detach()  # closed below with every other inherited descriptor
            os.dup2(requests, 0)
            os.dup2(log_fd, 1)
            os.dup2(log_fd, 2)
            out_fd = os.dup2(replies, 3, inheritable=False)
            os.closerange(4, 1 << 20)
            if self.confine:
                # A session and process group of its own: kill(0, ...), setpriority(PRIO_PGRP,
                # 0) and the like would otherwise reach its template and init, outside its PID
                # namespace. (Trusted, it stays in the template's group, which the referee
                # kills as a whole when the template ends, children of the bot included.)
                os.setsid()
                self._confine_game()
            else:
                _die_with_parent()
            os.chdir(os.path.dirname(self.bot_path()))
            if self.command is not None:
                os.dup2(out_fd, 1)
                os.close(out_fd)
                out_fd = 1  # where a failed exec reports
                if self.setup.get("options"):  # a command bot's options (arena.sandbox.options)
                    os.environ["ARENA_OPTIONS"] = json.dumps(self.setup["options"])
                # Past RLIMIT_FSIZE its log writes fail instead of killing it: an ignored signal
                # stays ignored across exec. This interpreter's start ignored it already; said
                # here so that the bot's protection does not rest on that.
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                os.execvp(self.command[0], self.command)
        except BaseException as exc:  # the referee sees the line, then the exit status
            os.write(out_fd, ("!error " + json.dumps(f"sandbox setup: {exc}") + "\n").encode())
            os._exit(SETUP_EXIT)
        _run_bot(self, out_fd)

    def _confine_game(self) -> None:
        """Own IPC and mount namespaces, a fresh folder, no /proc (a command bot: its own), no
        capabilities, a thread limit, seccomp."""
        _check(_libc.unshare(CLONE_NEWIPC | CLONE_NEWNS), "unshare (IPC, mount)")
        size, files = int(self.setup["disk_bytes"]), int(self.setup["files_max"])
        _mount("tmpfs", BOT_DIR, "tmpfs", MS_NOSUID | MS_NODEV,
               f"size={size},nr_inodes={files},mode=0700,uid={INSIDE_ID},gid={INSIDE_ID}")
        if self.command is None:
            # No /proc: its entries take their inode numbers from the same machine-wide counter
            # as pipes, which one bot could move (with threads) and another read.
            _check(_libc.umount2(b"/proc", MNT_DETACH), "detach /proc")
        else:  # programs load through it (the loader's $ORIGIN, Java's launcher): only itself
            _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, GAME_PROC_OPTIONS)
        for name, data in self.files:
            _write_file(os.path.join(BOT_DIR, name), data, executable=self.command is not None)
        _drop_capabilities()
        hard = resource.getrlimit(resource.RLIMIT_NPROC)[1]
        threads = NPROC if hard == resource.RLIM_INFINITY else min(NPROC, hard)
        resource.setrlimit(resource.RLIMIT_NPROC, (threads, threads))
        _die_with_parent()
        if self.filter is not None:
            self.filter.install()

    def _end_game(self) -> None:
        """Kill the current game process (if any) and reap it."""
        if self.game_pid is None:
            return
        try:
            os.kill(self.game_pid, 9)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.game_pid, 0)
        except ChildProcessError:
            pass
        if self.game_pidfd is not None:
            os.close(self.game_pidfd)
        self.game_pid = self.game_pidfd = None

    def _report_exit(self) -> None:
        """Tell the referee how the game process ended; it is reaped at the next request."""
        assert self.game_pid is not None and self.game_pidfd is not None
        info = os.waitid(os.P_PID, self.game_pid, os.WEXITED | os.WNOWAIT | os.WNOHANG)
        os.close(self.game_pidfd)
        self.game_pidfd = None
        if info is None:
            return
        status = info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
        self._send({"exit": self.game_pid, "status": status})

    def _send(self, message: dict[str, Any]) -> None:
        """One JSON control message to the referee."""
        self.control.send(json.dumps(message).encode())

    def _send_pid(self, pid: int) -> None:
        """The game's pid; confined, as credentials the kernel translates for the referee."""
        data = json.dumps({"game": pid}).encode()
        if not self.confine:
            self.control.send(data)
            return
        creds = struct.pack("3i", pid, os.getuid(), os.getgid())
        self.control.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_CREDENTIALS, creds)])


def _warm_action_cache() -> None:
    """Parse the common action texts once in the template (every card alone, with each suit
    call, draw and pass): each game process inherits them instead of parsing them anew."""
    from arena.engine.actions import Action
    from arena.engine.cards import NAMES

    texts = ["draw", "pass", *NAMES, *(f"{n}={s}" for n in NAMES for s in "CDHS")]
    for text in texts:
        try:
            Action.parse(text)
        except Exception:  # a text this rule set's notation refuses
            pass


def _run_bot(template: Template, out_fd: int) -> None:
    """The game process after confinement: the bot's output to the log, load, serve."""
    log = CappedLog(2, int(template.setup["log_bytes"]))
    sys.stdout = sys.stderr = log
    sys.path.append(os.path.dirname(template.bot_path()))
    from arena.engine.actions import action_text
    from arena.engine.observation import Observation

    host = Host(out_fd, log, None, Observation.from_wire, action_text)
    try:
        host.bot = _instantiate(template.code, template.bot_path(), template.setup["class"],
                                template.setup.get("options") or {})
    except MemoryError as exc:
        host.report("memory", exc)
        os._exit(MEMORY_EXIT)
    except BaseException as exc:  # SystemExit at import is a failure to load too
        host.report("error", exc)
        os._exit(1)
    host.serve(open(0, "rb", closefd=False))
    log.flush()
    os._exit(0)


def _compile(source: bytes, path: str):  # type: ignore[no-untyped-def]
    """The bot's code object, or None when it does not compile (reported by each game)."""
    try:
        return compile(source, path, "exec")
    except BaseException:
        return None


def _instantiate(code, path: str, class_name: str,  # type: ignore[no-untyped-def]
                 options: dict[str, Any]) -> object:
    """Run the bot's code as a module of a private name and instantiate its class, with its
    options as keyword arguments (a bot that declares none is constructed without any).

    Not under its file's name: a bot file called ``random.py`` that imports ``random`` must get
    the standard library, not itself.
    """
    if code is None:
        with open(path, "rb") as f:
            code = compile(f.read(), path, "exec")  # raises the SyntaxError to report
    name = "__arena_bot__"
    module = type(sys)(name)
    module.__file__ = path
    sys.modules[name] = module
    exec(code, module.__dict__)
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type):
        raise ImportError(f"{os.path.basename(path)} defines no class {class_name!r}")
    return cls(**options)


# ---------------------------------------------------------------------------------------------
# Small system helpers


def map_ids(uid: int, gid: int) -> None:
    """In a new user namespace: the one outer uid and gid, seen inside as INSIDE_ID."""
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{INSIDE_ID} {uid} 1")
    _write("/proc/self/gid_map", f"{INSIDE_ID} {gid} 1")


def make_mounts_private() -> None:
    """In a new mount namespace: nothing mounted here propagates back to the host."""
    _mount(None, "/", None, MS_REC | MS_PRIVATE)


def _write(path: str, text: str) -> None:
    """Write a /proc control file, or :class:`SetupError`."""
    try:
        with open(path, "w") as f:
            f.write(text)
    except OSError as exc:
        raise SetupError(f"write {path}: {exc.strerror}") from None


def _write_file(path: str, data: bytes, executable: bool = False) -> None:
    """Create the bot's copy of one of its files."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o700 if executable else 0o600)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def _die_with_parent() -> None:
    """SIGKILL when the parent dies; exit now if it already has."""
    parent = os.getppid()
    _check(_libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0), "prctl(PR_SET_PDEATHSIG)")
    if os.getppid() != parent:
        os._exit(1)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


_CAP_HEADER = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
_CAP_NONE = (_CapData * 2)()


def _drop_capabilities() -> None:
    """No capability left in the effective, permitted and inheritable sets: the bot cannot
    mount, unshare or remount anything. (The bounding set does not matter: nothing is exec'd.)"""
    _check(_libc.capset(ctypes.byref(_CAP_HEADER), _CAP_NONE), "capset")


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def _programs(packed: bytes) -> list[bytes]:
    """The BPF programs ``seccomp.bot_filter`` packed (each after its native ``uint32`` count
    of eight-byte instructions), in the order to install them."""
    found, at = [], 0
    while at < len(packed):
        (count,) = struct.unpack_from("=I", packed, at)
        found.append(packed[at + 4:at + 4 + 8 * count])
        at += 4 + 8 * count
    return found


class _Filter:
    """The seccomp programs the referee compiled (the deny-list, then the allow-list), ready
    to install with one prctl call each."""

    def __init__(self, packed: bytes) -> None:
        self.buffers = [ctypes.create_string_buffer(program, len(program))
                        for program in _programs(packed)]
        self.fprogs = [_SockFprog(len(buffer) // 8, ctypes.addressof(buffer))
                       for buffer in self.buffers]
        self.refs = [ctypes.byref(fprog) for fprog in self.fprogs]

    def install(self) -> None:
        """No new privileges, then each filter (the deny-list allows the next one's prctl)."""
        _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
        for ref in self.refs:
            _check(_libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ref, 0, 0),
                   "prctl(PR_SET_SECCOMP)")


def main() -> None:
    """Read the setup, confine, preload, serve games until the referee hangs up."""
    os.dup2(0, CONTROL_FD)
    control = socket.socket(fileno=CONTROL_FD)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    data, fds, _, _ = socket.recv_fds(control, 65536, 16)
    setup = json.loads(data)
    files = []
    for name, fd in zip(setup["files"], fds):
        with os.fdopen(fd, "rb") as f:
            files.append((name, f.read()))
    template = Template(control, setup, files)
    try:
        if template.confine:
            template.enter_isolation()
        else:
            _die_with_parent()
        template.preload()
    except BaseException as exc:
        template._send({"error": str(exc) or type(exc).__name__})
        os._exit(SETUP_EXIT)
    template.serve()
    os._exit(0)


if __name__ == "__main__":
    main()
