"""Class 6, the writer: publishes its hand, every move, through every channel it can find.

(a) a world-readable file in its folder (and in /tmp); (b) its process name, command line and
environment, rewritten in place; (c) a System V shared-memory segment; (d) a read lock (an
open-file-description lock, and ``flock``) on files every bot can read: the runtime's and the
standard library's; (e) an abstract unix socket; (f) the page cache of a standard-library file
(it reads a few chosen pages); (g) the machine's counter of pipe and /proc inode numbers (one
per CPU, and the table's seats share their worker's CPU): it makes pipes, or failing that
/proc entries of short-lived threads, until the next number ends (modulo 1024) on a mark;
(h) the counter of in-memory files, which numbers the log the referee hands each seat at the
start of a game: from its own log's number it makes shared anonymous mappings (each one such
a file) until the next game's logs are numbered on a mark; (i) the user's quota of queued
signals: it holds a number of real-time signals pending for the whole game.
``collude_reader.py`` at the same table looks for each.
"""

import ctypes
import fcntl
import mmap
import os
import signal
import socket
import struct
import threading

import arena

CONFIG: dict = {}  # filled in by the test: {"marker": text, "key": int, "lock_at": int}
MARK = CONFIG.get("marker", "colludemark")
KEY = CONFIG.get("key", 0xC011D)
LOCK_AT = CONFIG.get("lock_at", 1 << 30)
PAGES = tuple(range(8, 128, 16))   # pages of the page-cache file it reads
PAGE = 4096
IPC_CREAT, IPC_RMID = 0o1000, 0
F_OFD_SETLK, F_RDLCK = 37, 0
PR_SET_NAME = 15
INODE_MARK = 677   # the residue (mod 1024) of the next inode number it leaves for the reader
LOG_MARK = 301     # the residue (mod 1024) it leaves the next game's logs a few numbers under
SYS_FCNTL = 72  # x86_64
HOLD = 1021        # (i) real-time signals it holds pending, a count the reader recognizes
HELD_SIGNAL = signal.SIGRTMIN + 5

libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
libc.syscall.restype = ctypes.c_long


def lock_files() -> list:
    """Files both bots can read: the runtime's package (shared by a referee's bots) and the
    standard library (shared by every process on the machine)."""
    return [os.path.abspath(arena.__file__), os.path.abspath(os.__file__)]


def page_file() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(os.__file__)), "pydoc_data", "topics.py")


def flock_file() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(os.__file__)), "pydoc_data", "__init__.py")


def ofd_lock(fd: int, start: int) -> str:
    """A read lock on one byte: through fcntl, else through the raw system call with the
    command's unused upper 32 bits set (the kernel reads the command as a 32-bit int)."""
    flock = struct.pack("hhqqi4x", F_RDLCK, os.SEEK_SET, start, 1, 0)
    try:
        fcntl.fcntl(fd, F_OFD_SETLK, flock)
        return "fcntl"
    except OSError:
        pass
    buffer = ctypes.create_string_buffer(flock, len(flock))
    if libc.syscall(SYS_FCNTL, fd, ctypes.c_ulong((1 << 32) | F_OFD_SETLK), buffer) == 0:
        return "raw fcntl, high bits set"
    return ""


def _overwrite_own(start_field: int, payload: bytes) -> bool:
    """Write ``payload`` over this process's argv (or environ) strings via /proc/self/mem."""
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rpartition(b")")[2].split()
        start, end = int(fields[start_field - 3]), int(fields[start_field - 2])
        if end - start < 2:
            return False
        with open("/proc/self/mem", "r+b", buffering=0) as mem:
            mem.seek(start)
            mem.write(payload[: end - start - 1].ljust(end - start - 1, b" ") + b"\0")
        return True
    except (OSError, ValueError, IndexError):
        return False


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


def mark_inodes() -> None:
    """(g) Leave the counter one short of the mark, so that the next inode made on this CPU
    (the reader's) ends on it."""
    for make in (pipe_inode, proc_inode):
        try:
            for _ in range(2048):
                if make() % 1024 == INODE_MARK - 1:
                    return
        except (OSError, RuntimeError, IndexError):
            continue


def mark_log_inode() -> None:
    """(h) From its log's number (descriptor 1, made at this game's start; a few files came
    since), leave the counter of in-memory files so that the next game's logs end near the
    mark: each shared anonymous mapping is one more such file."""
    try:
        made_at_start = os.fstat(1).st_ino
    except OSError:
        return
    for _ in range((LOG_MARK - made_at_start - 1) % 1024):
        mmap.mmap(-1, 4096).close()


def hold_signals() -> None:
    """(i) Queue HOLD real-time signals to itself, blocked: they stay pending, counted against
    the quota of every process of its user, until the game process ends."""
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, [HELD_SIGNAL])
        for _ in range(HOLD):
            signal.pthread_kill(threading.get_ident(), HELD_SIGNAL)
    except OSError:
        pass


class Bot:
    def __init__(self) -> None:
        self.keep: list = []       # descriptors and sockets held for the whole game
        self.published = False
        self.page_fd = None

    def on_game_start(self, info: dict) -> None:
        self.published = self.log_marked = False

    def act(self, obs):
        hand = " ".join(str(c) for c in obs.hand)
        note = f"{MARK}:{hand}".encode()
        if not self.published:
            self.published = True
            self.publish(note)
            hold_signals()
        self.write_file(note)
        self.touch_pages()
        mark_inodes()
        if not self.log_marked:
            self.log_marked = True
            mark_log_inode()
        return obs.legal[0]

    def publish(self, note: bytes) -> None:
        # (b) process name, command line, environment
        libc.prctl(PR_SET_NAME, ctypes.c_char_p(MARK[:15].encode()), 0, 0, 0)
        _overwrite_own(48, note)   # arg_start, arg_end
        _overwrite_own(50, note)   # env_start, env_end
        # (c) shared memory
        ident = libc.shmget(KEY, PAGE, IPC_CREAT | 0o644)
        if ident >= 0:
            addr = libc.shmat(ident, None, 0)
            if addr not in (None, ctypes.c_void_p(-1).value):
                ctypes.memmove(addr, note + b"\0", min(len(note) + 1, PAGE))
        # (d) locks on shared read-only files
        for path in lock_files():
            try:
                fd = os.open(path, os.O_RDONLY)
            except OSError:
                continue
            self.keep.append(fd)
            ofd_lock(fd, LOCK_AT)
        try:
            fd = os.open(flock_file(), os.O_RDONLY)
            self.keep.append(fd)
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            pass
        # (e) an abstract unix socket
        try:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.bind("\0" + MARK + "-" + note.decode()[len(MARK) + 1:][:40].replace(" ", "_"))
            sock.listen(1)
            self.keep.append(sock)
        except OSError:
            pass

    def write_file(self, note: bytes) -> None:
        """(a) the hand in a world-readable file, its folder opened to everyone."""
        home = os.environ.get("HOME", os.getcwd())
        for folder in (home, "/tmp"):
            path = os.path.join(folder, f"{MARK}-hand")
            try:
                with open(path, "wb") as f:
                    f.write(note)
                os.chmod(path, 0o644)
            except OSError:
                pass
        try:
            os.chmod(home, 0o755)
        except OSError:
            pass

    def touch_pages(self) -> None:
        """(f) read chosen pages of a file nobody else reads (no read-ahead)."""
        try:
            if self.page_fd is None:
                self.page_fd = os.open(page_file(), os.O_RDONLY)
                os.posix_fadvise(self.page_fd, 0, 0, os.POSIX_FADV_RANDOM)
            for page in PAGES:
                os.pread(self.page_fd, 1, page * PAGE)
        except OSError:
            pass

    def on_game_end(self, result: dict) -> None:
        """Clean up what would outlive the game, so that only a live partner can read it."""
        for folder in (os.environ.get("HOME", os.getcwd()), "/tmp"):
            try:
                os.unlink(os.path.join(folder, f"{MARK}-hand"))
            except OSError:
                pass
        ident = libc.shmget(KEY, 0, 0)
        if ident >= 0:
            libc.shmctl(ident, IPC_RMID, None)
