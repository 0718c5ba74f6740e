"""A command bot (``python3 command_reads_elsewhere.py``) that keeps its request pipe at
another number and, after each reply, blocks reading a file at descriptor 0 for a while (a
file opened with O_DIRECT sleeps in each read): to a referee that looks for one thread blocked
reading descriptor 0, it would seem to wait for its request while it runs free."""
import ctypes
import json
import mmap
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
requests = os.dup(0)
disk = os.open(os.path.realpath(sys.executable), os.O_RDONLY | os.O_DIRECT)
size = os.fstat(disk).st_size
buffer = mmap.mmap(-1, 1 << 16)
address = ctypes.addressof(ctypes.c_char.from_buffer(buffer))


def read_elsewhere(times: int = 50) -> None:
    os.dup2(disk, 0)
    for step in range(times):
        os.lseek(0, (step << 16) % max(size - (1 << 16), 1) & ~4095, os.SEEK_SET)
        libc.read(0, ctypes.c_void_p(address), 1 << 16)


pending = b""
while True:
    while b"\n" not in pending:
        chunk = os.read(requests, 65536)
        if not chunk:
            sys.exit(0)
        pending += chunk
    line, _, pending = pending.partition(b"\n")
    kind = json.loads(line).get("type")
    os.write(1, b"draw\n" if kind == "act" else b"ok\n")
    read_elsewhere()
