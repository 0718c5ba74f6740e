"""The runtime folder: the bot host, a copy of the ``arena`` package and the seccomp filter.

The repository may live where a bot's uid cannot read it (CI clones as root into an unknown
folder), so once per referee process the package's files (its Python files, and an installed
package's compiled engine) are copied into a temp folder that every bot uid can read, with
their bytecode: the package's own where it is up to date, compiled there otherwise (a bot
cannot write ``__pycache__``, and compiling on every start would cost milliseconds). A
template mounts ``rt/`` read-only at ``/arena`` in its own root, which it builds on the empty
mount point ``root/``.
"""

from __future__ import annotations

import atexit
import compileall
import importlib.util
import logging
import os
import shutil
import stat
import struct
import sys
import tempfile
from pathlib import Path

import arena
from arena.sandbox import seccomp

log = logging.getLogger("arena.sandbox")

HOST_SCRIPT = "arena_host.py"
PREFIX = "arena-sandbox-"
BOT_FILTER = "bot.bpf"
COMMAND_FILTER = "command.bpf"
# Folders a game process sees as they are on the host (mounted read-only in its root).
SYSTEM_DIRS = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/")
_PYTHON_CANDIDATES = ("/usr/bin/python3.11", "/usr/local/bin/python3.11", "/usr/bin/python3")


class Runtime:
    """One per referee process: ``base`` (0711) holds ``rt/``, ``root/`` and trusted workdirs."""

    def __init__(self, filters: tuple[bytes, bytes] | None) -> None:
        self.pid = os.getpid()
        sweep_stale_runtimes()
        self.base = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{self.pid}-"))
        # Bot uids may pass through base to rt/ and root/, not list it.
        os.chmod(self.base, 0o711)
        self.rt = self.base / "rt"
        self.root = self.base / "root"
        self.root.mkdir(mode=0o755)
        self.root.chmod(0o755)
        self._copy_package(filters)
        atexit.register(self.remove)

    def _copy_package(self, filters: tuple[bytes, bytes] | None) -> None:
        """Copy ``arena``'s .py files, its compiled modules (an installed package's engine, see
        setup.py: a bot's search runs them too) and the host script, then byte-compile."""
        source = Path(arena.__file__).resolve().parent
        copy_compiled(source, self.rt / "arena")
        shutil.copy2(source / "sandbox" / "host.py", self.rt / HOST_SCRIPT)
        if filters is not None:
            (self.rt / BOT_FILTER).write_bytes(filters[0])
            (self.rt / COMMAND_FILTER).write_bytes(filters[1])
        compile_runtime(self.rt)
        _make_world_readable(self.rt)

    def remove(self) -> None:
        """Delete everything (registered with atexit; forked workers leave the parent's alone)."""
        if os.getpid() == self.pid:
            shutil.rmtree(self.base, ignore_errors=True)


def copy_compiled(source: Path, target: Path) -> None:
    """Copy a package's files, with the bytecode of each module that is up to date: this
    Python's, readable, its header matching the source's mtime and size as an import checks
    them (:func:`_fresh_bytecode`; the copy keeps the mtime). ``compile_runtime`` then compiles
    only what is missing. Every worker builds a runtime, and compiling the whole package costs
    it about 0.17 s of CPU where an installed package, or one already imported, has its
    bytecode.

    Only where this Python's own imports read that bytecode: under PYTHONPYCACHEPREFIX they
    never do, and a file planted there (a header is no proof of content) would run in the
    bots' engine copy and not in the referee's; then everything is compiled."""
    own = f".{sys.implementation.cache_tag}.pyc" if sys.pycache_prefix is None else None

    def left_out(folder: str, names: list[str]) -> set[str]:
        in_cache = os.path.basename(folder) == "__pycache__"
        return {name for name in names if not _copied(folder, name, in_cache, own)}

    shutil.copytree(source, target, ignore=left_out, copy_function=_copy_unless_gone)


def compile_runtime(folder: Path) -> None:
    """Byte-compile ``folder`` into its own ``__pycache__`` folders, where the bot host (run
    with ``-I``, which ignores PYTHONPYCACHEPREFIX) looks, whatever prefix this Python has."""
    prefix, sys.pycache_prefix = sys.pycache_prefix, None
    try:
        compileall.compile_dir(folder, quiet=2, workers=1)
    finally:
        sys.pycache_prefix = prefix


def _copied(folder: str, name: str, in_cache: bool, own: str | None) -> bool:
    """Whether the runtime takes the package's file or folder ``name``: not its data, and in
    ``__pycache__`` only up-to-date bytecode of this Python (not another Python's, an optimized
    one, one being written, nor one this user cannot read: those are compiled again); none
    when ``own`` (the bytecode suffix this Python's imports read there) is None."""
    if in_cache:
        return own is not None and name.endswith(own) and _fresh_bytecode(
            os.path.join(folder, name), os.path.join(os.path.dirname(folder), name[: -len(own)] + ".py"))
    if name == "py.typed" or name.endswith((".yaml", ".pyc")):
        return False
    if name == "__pycache__":
        return os.access(os.path.join(folder, name), os.R_OK | os.X_OK)
    return True


def _fresh_bytecode(bytecode: str, source: str) -> bool:
    """Whether ``bytecode`` is what an import of ``source`` would use: this Python's magic
    number, a timestamp header (flags 0) and the source's mtime and size."""
    try:
        with open(bytecode, "rb") as file:
            header = file.read(16)
        info = os.stat(source)
    except OSError:
        return False
    expected = struct.pack("<4sLLL", importlib.util.MAGIC_NUMBER, 0, int(info.st_mtime) & 0xFFFFFFFF,
                           info.st_size & 0xFFFFFFFF)
    return header == expected


def _copy_unless_gone(source: str, target: str) -> str:
    """shutil.copy2, except that bytecode replaced or removed since the folder was listed
    is skipped (compiled again instead)."""
    try:
        return shutil.copy2(source, target)
    except FileNotFoundError:
        if source.endswith(".pyc"):
            return target
        raise


def sweep_stale_runtimes() -> None:
    """Delete the runtime folders of referees that died without removing theirs (a killed
    worker, a crashed run): each folder's name carries its owner's pid."""
    folder = Path(tempfile.gettempdir())
    for path in folder.glob(f"{PREFIX}*-*"):
        owner = path.name[len(PREFIX):].split("-", 1)[0]
        try:
            if not owner.isdigit() or path.is_symlink() or path.stat().st_uid != os.geteuid():
                continue
            os.kill(int(owner), 0)  # the owner lives: its folder stays
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except OSError:
            continue


def release_runtime() -> None:
    """Remove this process's runtime now (a worker that exits without running atexit)."""
    global _runtime
    if _runtime is not None and _runtime.pid == os.getpid():
        _runtime.remove()
        _runtime = None


def _make_world_readable(root: Path) -> None:
    """Folders 0755, files 0644: readable by every bot uid, writable by none."""
    os.chmod(root, 0o755)
    for folder, dirs, files in os.walk(root):
        for name in dirs:
            os.chmod(os.path.join(folder, name), 0o755)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o644)


_runtime: Runtime | None = None


def get_runtime() -> Runtime:
    """The runtime of this process (a forked worker builds its own)."""
    global _runtime
    if _runtime is None or _runtime.pid != os.getpid():
        try:
            filters: tuple[bytes, bytes] | None = (seccomp.bot_filter(), seccomp.bot_filter(True))
        except (seccomp.SeccompUnavailable, OSError, AttributeError):
            filters = None  # trusted runs need none; confined ones were refused earlier
        _runtime = Runtime(filters)
    return _runtime


def reachable_by_others(path: str) -> bool:
    """Whether a uid with no rights of its own can execute ``path`` (every folder o+x)."""
    real = os.path.realpath(path)
    parts = Path(real).parents
    try:
        if not all(os.stat(p).st_mode & stat.S_IXOTH for p in parts):
            return False
        mode = os.stat(real).st_mode
    except OSError:
        return False
    return bool(mode & stat.S_IXOTH and mode & stat.S_IROTH)


def is_system_program(path: str) -> bool:
    """Whether a command's file is a program of the system or the referee's own interpreter,
    which a game process runs in place, rather than a file of the bot's (copied for it)."""
    real = os.path.realpath(path)
    return real.startswith(SYSTEM_DIRS) or real == os.path.realpath(sys.executable)


def find_python(for_other_uid: bool) -> str | None:
    """A Python 3.11+ for the bot host: this one if reachable, else a system one."""
    if not for_other_uid or reachable_by_others(sys.executable):
        return sys.executable
    for candidate in _PYTHON_CANDIDATES:
        if os.path.exists(candidate) and reachable_by_others(candidate):
            return candidate
    return None
