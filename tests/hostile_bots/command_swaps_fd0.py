"""A command bot (``python3 command_swaps_fd0.py``) that escapes its freeze with two threads:
one blocks in a long read at descriptor 0 of a large file opened with O_DIRECT (asleep on the
disk), the other puts a copy of the request pipe back at descriptor 0, writes the reply and
ends. The referee would then see one thread blocked in read(0) on its request pipe, and leave
it running until its next request."""
import ctypes
import json
import mmap
import os
import sys
import threading
import time

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
SYS_EXIT = 60  # x86_64: this thread only
requests = os.dup(0)


def largest_library() -> str:
    folders = ("/usr/lib/x86_64-linux-gnu", "/usr/lib")
    files = [entry for folder in folders if os.path.isdir(folder) for entry in os.scandir(folder)
             if entry.is_file(follow_symlinks=False)]
    return max(files, key=lambda entry: entry.stat().st_size).path


disk = os.open(largest_library(), os.O_RDONLY | os.O_DIRECT)
size = min(32 << 20, os.fstat(disk).st_size & ~4095)
buffer = mmap.mmap(-1, size)
address = ctypes.addressof(ctypes.c_char.from_buffer(buffer))
pending = b""


def next_message() -> dict:
    global pending
    while b"\n" not in pending:
        chunk = os.read(requests, 65536)
        if not chunk:
            sys.exit(0)
        pending += chunk
    line, _, pending = pending.partition(b"\n")
    return json.loads(line)


def reply_and_end(data: bytes, reader: int, read_over: threading.Event) -> None:
    """Once the reader sleeps in read(0) on the file (its own /proc says so), put the pipe back
    at descriptor 0, reply and end: the reader must not read the next request instead."""
    while not read_over.is_set():
        try:
            with open(f"/proc/self/task/{reader}/syscall") as f:
                if f.read().startswith("0 0x0 "):
                    break
        except OSError:
            break
        time.sleep(0.0005)
    os.dup2(requests, 0)
    os.write(1, data)
    libc.syscall(SYS_EXIT, 0)


while True:
    kind = next_message().get("type")
    data = b"draw\n" if kind == "act" else b"ok\n"
    os.dup2(disk, 0)
    os.lseek(0, 0, os.SEEK_SET)
    read_over = threading.Event()
    threading.Thread(target=reply_and_end, args=(data, threading.get_native_id(), read_over)).start()
    libc.read(0, ctypes.c_void_p(address), ctypes.c_size_t(size))
    read_over.set()
