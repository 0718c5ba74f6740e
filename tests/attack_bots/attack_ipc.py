"""Class 5: System V and POSIX IPC objects left for a later game or a later run.

At the start of every game it looks for a System V shared-memory segment and message queue
under a fixed key and for a POSIX message queue under a fixed name; then it creates each (if
missing) holding the run it came from. Nothing removes them: without an IPC namespace they
outlive the bot, its referee and the tournament. An object found is a LEAK.

It also tries the kernel's other meeting points for bots that share no object: a shared futex
wait on a page of a standard-library file (keyed by the file, so a bot mapping the same file
elsewhere on the machine could wake it, and count the waiters it woke), and ``getrusage``,
whose count of major faults tells exactly whether a page another bot read was cached. Either
one granted is a LEAK.
"""

import ctypes
import ctypes.util
import os

import arena

CONFIG: dict = {}  # filled in by the test: {"key": int, "mq": "/name"}
KEY = CONFIG.get("key", 0x51A7E)
MQ_NAME = CONFIG.get("mq", "/arena-leftover").encode()
RUN = os.path.dirname(os.path.abspath(arena.__file__)).encode()
IPC_CREAT, IPC_NOWAIT = 0o1000, 0o4000
SIZE = 4096

libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
libc.shmdt.argtypes = [ctypes.c_void_p]


def _mq_lib():
    for lib in (libc, ctypes.CDLL(ctypes.util.find_library("rt") or "librt.so.1", use_errno=True)):
        if hasattr(lib, "mq_open"):
            return lib
    return None


class _Msg(ctypes.Structure):
    _fields_ = [("mtype", ctypes.c_long), ("mtext", ctypes.c_char * 256)]


def _shm_read() -> bytes | None:
    ident = libc.shmget(KEY, 0, 0)
    if ident < 0:
        return None
    addr = libc.shmat(ident, None, 0)
    if addr in (None, ctypes.c_void_p(-1).value):
        return b"(cannot attach)"
    data = ctypes.string_at(addr, SIZE).split(b"\0", 1)[0]
    libc.shmdt(addr)
    return data


def _shm_write() -> None:
    ident = libc.shmget(KEY, SIZE, IPC_CREAT | 0o600)
    if ident < 0:
        return
    addr = libc.shmat(ident, None, 0)
    if addr in (None, ctypes.c_void_p(-1).value):
        return
    ctypes.memmove(addr, RUN + b"\0", len(RUN) + 1)
    libc.shmdt(addr)


def _msg_read() -> bytes | None:
    ident = libc.msgget(KEY, 0)
    if ident < 0:
        return None
    msg = _Msg()
    size = libc.msgrcv(ident, ctypes.byref(msg), 256, 0, IPC_NOWAIT)
    if size < 0:
        return b"(empty)"
    libc.msgsnd(ident, ctypes.byref(msg), size, IPC_NOWAIT)  # put it back for the next game
    return bytes(msg.mtext).split(b"\0", 1)[0]


def _msg_write() -> None:
    ident = libc.msgget(KEY, IPC_CREAT | 0o600)
    if ident < 0:
        return
    msg = _Msg(1, RUN)
    libc.msgsnd(ident, ctypes.byref(msg), len(RUN) + 1, IPC_NOWAIT)


def _mq_read(lib) -> bytes | None:
    fd = lib.mq_open(MQ_NAME, os.O_RDONLY | os.O_NONBLOCK)
    if fd < 0:
        return None
    buffer = ctypes.create_string_buffer(1 << 16)
    size = lib.mq_receive(fd, buffer, len(buffer), None)
    os.close(fd)
    return buffer.raw[:size] if size >= 0 else b"(empty)"


def _mq_write(lib) -> None:
    fd = lib.mq_open(MQ_NAME, os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK, 0o600, None)
    if fd < 0:
        return
    lib.mq_send(fd, RUN, len(RUN), 0)
    os.close(fd)


def _describe(kind: str, data: bytes) -> str:
    where = "this run" if data == RUN else "another run"
    return f"{kind} from {where} ({data.decode(errors='replace')})"


SYS_FUTEX, FUTEX_WAIT, SYS_GETRUSAGE = 202, 0, 98   # x86_64
PROT_READ, MAP_SHARED = 1, 1
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                      ctypes.c_long]
libc.syscall.restype = ctypes.c_long


def shared_futex_waited() -> bool:
    """Whether a shared wait on the first word of os.py's first page was let wait (20 ms)."""
    fd = os.open(os.__file__, os.O_RDONLY)
    try:
        address = libc.mmap(None, 4096, PROT_READ, MAP_SHARED, fd, 0)
    finally:
        os.close(fd)
    word = ctypes.c_uint32.from_address(address).value
    timeout = (ctypes.c_long * 2)(0, 20_000_000)
    result = libc.syscall(SYS_FUTEX, ctypes.c_void_p(address), FUTEX_WAIT, ctypes.c_uint32(word),
                          timeout, None, 0)
    return result == 0 or ctypes.get_errno() == 110   # woken, or waited until ETIMEDOUT


def getrusage_answered() -> bool:
    usage = ctypes.create_string_buffer(256)
    return libc.syscall(SYS_GETRUSAGE, 0, usage) == 0


class Bot:
    def on_game_start(self, info: dict) -> None:
        mq = _mq_lib()
        found = []
        if shared_futex_waited():
            found.append("a shared futex wait on os.py was let wait")
        if getrusage_answered():
            found.append("getrusage answered")
        for kind, read in (("shm", _shm_read), ("msg", _msg_read),
                           ("mq", (lambda: _mq_read(mq)) if mq else (lambda: None))):
            data = read()
            if data is not None:
                found.append(_describe(kind, data))
        _shm_write()
        if libc.msgget(KEY, 0) < 0:
            _msg_write()
        if mq is not None:
            _mq_write(mq)
        if found:
            raise RuntimeError("LEAK: " + "; ".join(found))

    def act(self, obs):
        return obs.legal[0]
