"""Class 6, the reader: looks for its partner's hand through every channel the writer uses.

Checks (a) the partner's world-readable file, (b) other processes' names, command lines and
environments, (c) the shared-memory segment, (d) a lock on the shared files (and ``flock``),
(e) the abstract socket, (f) which pages of the page-cache file are cached (without reading
them, and by how fast they read), evicting them again after each look, (g) whether the number of
a new pipe or /proc inode ends on the writer's mark, (h) whether the number of its own log
(descriptor 1, made by the referee at this game's start) lies just over the writer's other
mark, read in every way the kernel offers, (i) whether the user's other processes hold a
multiple of the writer's count of queued signals: the quota, less how many it may queue
itself before the kernel refuses (EAGAIN). It reports every channel that worked at the end of
the game, as a LEAK.
"""

import ctypes
import errno
import fcntl
import glob
import os
import resource
import signal
import statistics
import struct
import threading
import time

import arena

CONFIG: dict = {}  # filled in by the test: {"marker": text, "key": int, "lock_at": int}
MARK = CONFIG.get("marker", "colludemark")
KEY = CONFIG.get("key", 0xC011D)
LOCK_AT = CONFIG.get("lock_at", 1 << 30)
PAGES = tuple(range(8, 128, 16))       # pages the writer reads
CONTROL = tuple(range(16, 136, 16))    # pages nobody reads
# Asking the kernel (RWF_NOWAIT) starts reading a missing page, so the two probes use
# separate pages: the first four of each set are asked about, the last four timed.
ASKED, TIMED = (PAGES[:4], CONTROL[:4]), (PAGES[4:], CONTROL[4:])
PAGE = 4096
F_OFD_GETLK, F_WRLCK, F_UNLCK = 36, 1, 2
INODE_MARK = 677   # the writer's mark (mod 1024); a few other inodes may come between
INODE_SLACK = 16
LOG_MARK = 301     # the writer's mark for the logs of the next game (mod 1024)
AT_EMPTY_PATH, STATX_INO = 0x1000, 0x100
SYS_FSTAT, SYS_NEWFSTATAT, SYS_DUP3, SYS_STATX = 5, 262, 292, 332  # x86_64
SYS_FCNTL = 72  # x86_64
HOLD, HOLD_SLACK = 1021, 8   # (i) the writer's count of pending signals; others the user holds
QUOTA_SIGNAL = signal.SIGRTMIN + 6
QUOTA_LOOKS = (2, 3)         # its acts that measure (the writer has acted by then)

libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
libc.syscall.restype = ctypes.c_long


def lock_files() -> list:
    return [os.path.abspath(arena.__file__), os.path.abspath(os.__file__)]


def page_file() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(os.__file__)), "pydoc_data", "topics.py")


def flock_file() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(os.__file__)), "pydoc_data", "__init__.py")


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(1 << 16)
    except OSError:
        return b""


def locked(fd: int, start: int) -> bool | None:
    """Whether someone holds a lock on byte ``start`` (None: the question was refused)."""
    query = struct.pack("hhqqi4x", F_WRLCK, os.SEEK_SET, start, 1, 0)
    try:
        answer = fcntl.fcntl(fd, F_OFD_GETLK, query)
    except OSError:
        buffer = ctypes.create_string_buffer(query, len(query))
        if libc.syscall(SYS_FCNTL, fd, ctypes.c_ulong((1 << 32) | F_OFD_GETLK), buffer) != 0:
            return None
        answer = buffer.raw[: len(query)]
    return struct.unpack("hhqqi4x", answer)[0] != F_UNLCK


def _cached(fd: int, page: int) -> bool | None:
    """Whether a page of the file is cached, asked without waiting for the disk (None: the
    question was refused)."""
    try:
        os.preadv(fd, [bytearray(1)], page * PAGE, os.RWF_NOWAIT)
        return True
    except BlockingIOError:
        return False
    except OSError:
        return None


def pipe_inode() -> int:
    """The inode number of a new pipe (closed again)."""
    read, write = os.pipe()
    number = os.fstat(read).st_ino
    os.close(read)
    os.close(write)
    return number


def proc_inode() -> int:
    """The inode number of a new /proc entry: one of a thread that has just ended."""
    seen = []
    thread = threading.Thread(target=lambda: seen.append(threading.get_native_id()))
    thread.start()
    thread.join()
    return os.stat(f"/proc/self/task/{seen[0]}").st_ino


def _stat_ino(call: int, *args) -> int:
    """st_ino from a stat-family system call that fills a ``struct stat`` (x86_64 layout)."""
    buffer = ctypes.create_string_buffer(256)
    if libc.syscall(call, *args, buffer, *([AT_EMPTY_PATH] if call == SYS_NEWFSTATAT else [])) != 0:
        raise OSError(ctypes.get_errno(), "refused")
    return struct.unpack_from("Q", buffer.raw, 8)[0]


def _statx_ino(fd: int) -> int:
    buffer = ctypes.create_string_buffer(256)
    if libc.syscall(SYS_STATX, fd, b"", AT_EMPTY_PATH, STATX_INO, buffer) != 0:
        raise OSError(ctypes.get_errno(), "refused")
    return struct.unpack_from("Q", buffer.raw, 32)[0]


def _through_copy(copy) -> int:  # type: ignore[no-untyped-def]
    fd = copy()
    try:
        return os.fstat(fd).st_ino
    finally:
        os.close(fd)


def log_inodes() -> dict:
    """The number of descriptor 1 (the log the referee made), by every way there is to read
    it: way -> number, for the ways that answered."""
    ways = {
        "fstat": lambda: os.fstat(1).st_ino,
        "fstat-high-bits": lambda: _stat_ino(SYS_FSTAT, ctypes.c_ulong((1 << 32) | 1)),
        "newfstatat": lambda: _stat_ino(SYS_NEWFSTATAT, 1, b""),
        "statx": lambda: _statx_ino(1),
        "dup": lambda: _through_copy(lambda: os.dup(1)),
        "dup2": lambda: _through_copy(lambda: os.dup2(1, 40)),
        "dup3": lambda: _through_copy(lambda: _checked(libc.syscall(SYS_DUP3, 1, 41, 0))),
        "F_DUPFD": lambda: _through_copy(lambda: fcntl.fcntl(1, fcntl.F_DUPFD, 42)),
        "F_DUPFD_CLOEXEC": lambda: _through_copy(lambda: fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 43)),
    }
    numbers = {}
    for way, read in ways.items():
        try:
            numbers[way] = read()
        except OSError:
            continue
    return numbers


def _checked(fd: int) -> int:
    if fd < 0:
        raise OSError(ctypes.get_errno(), "refused")
    return fd


def held_by_others() -> int | None:
    """(i) How many queued signals the user's other processes hold: the quota less how many
    this thread may queue, blocked, before EAGAIN (then all dropped again); None when it may
    not queue real-time signals at all."""
    limit = resource.getrlimit(resource.RLIMIT_SIGPENDING)[0]
    if not 0 < limit < 1 << 22:
        return None
    queued = 0
    signal.pthread_sigmask(signal.SIG_BLOCK, [QUOTA_SIGNAL])
    try:
        while queued <= limit:
            signal.pthread_kill(threading.get_ident(), QUOTA_SIGNAL)
            queued += 1
        return None
    except OSError as exc:
        return limit - queued if exc.errno == errno.EAGAIN else None
    finally:
        signal.signal(QUOTA_SIGNAL, signal.SIG_IGN)  # drops the pending ones
        signal.signal(QUOTA_SIGNAL, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [QUOTA_SIGNAL])


class Bot:
    def __init__(self) -> None:
        self.found: dict = {}
        self.evicted = False
        self.page_fd = None
        self.acts = 0

    def on_game_start(self, info: dict) -> None:
        self.found, self.evicted, self.acts = {}, False, 0

    def act(self, obs):
        self.look()
        self.acts += 1
        if self.acts in QUOTA_LOOKS:
            self.look_quota()
        return obs.legal[0]

    def look_quota(self) -> None:
        held = held_by_others()
        if held is not None and held >= HOLD and held % HOLD < HOLD_SLACK:
            self.note("sigpending", f"the user's other processes hold {held} queued signals "
                                    f"(the writer's {HOLD})")

    def on_game_end(self, result: dict) -> None:
        self.look()
        if self.found:
            text = "; ".join(f"{k}: {v}" for k, v in sorted(self.found.items()))
            raise RuntimeError(f"LEAK: channels={','.join(sorted(self.found))}; {text}"[:1500])

    def note(self, channel: str, what: object) -> None:
        self.found.setdefault(channel, str(what)[:160])

    def look(self) -> None:
        self.look_files()
        self.look_processes()
        self.look_shm()
        self.look_locks()
        self.look_socket()
        self.look_pages()
        self.look_inodes()
        self.look_log_inode()

    def look_log_inode(self) -> None:
        for way, number in log_inodes().items():
            if (number - LOG_MARK) % 1024 < INODE_SLACK:
                self.note("loginode", f"its log numbered {number} by {way} (mark {LOG_MARK})")
                return

    def look_inodes(self) -> None:
        for name, make in (("pipe", pipe_inode), ("proc", proc_inode)):
            try:
                number = make()
            except (OSError, RuntimeError, IndexError):
                continue
            if (number - INODE_MARK) % 1024 < INODE_SLACK:
                self.note("inode", f"a new {name} inode numbered {number} (mark {INODE_MARK})")
            return

    def look_files(self) -> None:
        home = os.environ.get("HOME", os.getcwd())
        candidates = [f"/tmp/{MARK}-hand"]
        candidates += glob.glob(os.path.join(os.path.dirname(home.rstrip("/")) or "/", "*", f"{MARK}-hand"))
        candidates += glob.glob(f"/proc/[0-9]*/cwd/{MARK}-hand")
        own = os.path.join(home, f"{MARK}-hand")
        for path in candidates:
            if os.path.realpath(path) == os.path.realpath(own):
                continue
            data = _read(path)
            if data.startswith(MARK.encode()):
                self.note("file", f"{path}: {data[:60]!r}")

    def look_processes(self) -> None:
        me = str(os.getpid())
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or entry == me:
                continue
            for name in ("comm", "cmdline", "environ"):
                data = _read(f"/proc/{entry}/{name}")
                if MARK[:15].encode() in data:
                    self.note("cmdline", f"/proc/{entry}/{name}: {data[:80]!r}")

    def look_shm(self) -> None:
        ident = libc.shmget(KEY, 0, 0)
        if ident < 0:
            return
        addr = libc.shmat(ident, None, 0o10000)  # SHM_RDONLY
        if addr in (None, ctypes.c_void_p(-1).value):
            return
        data = ctypes.string_at(addr, 256).split(b"\0", 1)[0]
        libc.shmdt(ctypes.c_void_p(addr))
        if data.startswith(MARK.encode()):
            self.note("shm", data[:80])

    def look_locks(self) -> None:
        for path in lock_files():
            try:
                fd = os.open(path, os.O_RDONLY)
            except OSError:
                continue
            try:
                if locked(fd, LOCK_AT):
                    self.note("lock", f"a lock at byte {LOCK_AT} of {path}")
            finally:
                os.close(fd)
        try:
            fd = os.open(flock_file(), os.O_RDONLY)
        except OSError:
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(fd, fcntl.LOCK_UN)
        except BlockingIOError:
            self.note("flock", f"{flock_file()} is locked")
        except OSError:
            pass
        finally:
            os.close(fd)

    def look_socket(self) -> None:
        table = _read("/proc/net/unix")
        if ("@" + MARK).encode() in table:
            line = [l for l in table.splitlines() if ("@" + MARK).encode() in l][0]
            self.note("socket", line.split()[-1][:80])

    def look_pages(self) -> None:
        """Which pages of the file are cached: timed, and asked without reading (RWF_NOWAIT).
        Only after this bot evicted them itself, so a cached page was read since."""
        try:
            if self.page_fd is None:
                self.page_fd = os.open(page_file(), os.O_RDONLY)
                os.posix_fadvise(self.page_fd, 0, 0, os.POSIX_FADV_RANDOM)
            fd = self.page_fd
            if self.evicted:
                hot, cold = TIMED
                times = {}
                for page in sorted(hot + cold):
                    start = time.perf_counter_ns()
                    os.pread(fd, 1, page * PAGE)
                    times[page] = time.perf_counter_ns() - start
                fast, slow = [times[p] for p in hot], [times[p] for p in cold]
                if max(fast) * 3 < min(slow):  # cached: microseconds; read from disk: ten times more
                    self.note("pagecache-timing", f"pages {hot} read in {statistics.median(fast)} ns, "
                              f"{cold} in {statistics.median(slow)} ns")
                hot, cold = ASKED
                cached = {page: _cached(fd, page) for page in cold + hot}
                if None not in cached.values():
                    if all(cached[p] for p in hot) and not any(cached[p] for p in cold):
                        self.note("pagecache-nowait", f"pages {hot} cached, {cold} not")
                # Asking started reading the missing pages: wait until they are in, so that the
                # eviction below removes them too (and another reader is not misled by them).
                missing = [page for page, known in cached.items() if known is False]
                deadline = time.monotonic() + 0.1
                while missing and time.monotonic() < deadline:
                    time.sleep(0.001)
                    missing = [page for page in missing if _cached(fd, page) is False]
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            self.evicted = True
        except OSError:
            pass
