"""Class 2: files around the bot, by absolute path.

Opens the tournament file, the results database and other bots' sources (the test bakes
their paths in, as an attacker who read the arena's code knows the layout), and lists the
workspace, the user's home folder, /tmp, /work and the folder its own file came from. A file
read, or a listing that names anything but its own file, is a LEAK. So is an answer from
``ustat``, which finds any filesystem of the machine by its device number (another bot's
folder, its free blocks and inodes set by that bot), or a seccomp notification listener, whose
``SECCOMP_IOCTL_NOTIF_ADDFD`` copies any of its own descriptors to a number of its choosing.
"""

import ctypes
import os
import struct
import sys

SYS_USTAT, SYS_SECCOMP = 136, 317   # x86_64
SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER = 1, 8
PR_SET_NO_NEW_PRIVS = 38
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long

CONFIG: dict = {}  # filled in by the test: {"read": [paths], "list": [folders]}


def _own_names() -> set:
    """Names a listing may show without leaking: its own file, and the folders that lead to
    the interpreter the sandbox mounts on purpose."""
    names = {os.path.basename(__file__)}
    for prefix in (sys.base_prefix, sys.prefix):
        parts = os.path.realpath(prefix).strip("/").split("/")
        names.update(parts)
    return names


def ustat_answers() -> list:
    """The devices near its own folder's (the other bots' folders are mounted alike) for which
    ``ustat`` answered."""
    dev = os.stat(os.path.expanduser("~")).st_dev
    major, minor = os.major(dev), os.minor(dev)
    answered = []
    for near in range(max(0, minor - 8), minor + 9):
        buffer = ctypes.create_string_buffer(64)
        if libc.syscall(SYS_USTAT, ctypes.c_ulong(os.makedev(major, near)), buffer) == 0:
            answered.append(f"{major}:{near}")
    return answered


def seccomp_listener() -> int:
    """A notification listener for an allow-everything filter of its own (-1: refused)."""
    allow = struct.pack("HBBI", 0x06, 0, 0, 0x7FFF0000)   # BPF_RET | BPF_K, SECCOMP_RET_ALLOW
    program = ctypes.create_string_buffer(allow, len(allow))
    fprog = struct.pack("HxxxxxxQ", 1, ctypes.addressof(program))
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    return libc.syscall(SYS_SECCOMP, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
                        ctypes.c_char_p(fprog))


class Bot:
    def on_game_start(self, info: dict) -> None:
        found = []
        answered = ustat_answers()
        if answered:
            found.append(f"ustat answered for devices {answered[:4]}")
        listener = seccomp_listener()
        if listener >= 0:
            found.append(f"a seccomp listener was granted (descriptor {listener})")
            os.close(listener)
        for path in CONFIG.get("read", []):
            try:
                with open(path, "rb") as f:
                    data = f.read(64)
                found.append(f"read {path}: {data[:24]!r}")
            except OSError:
                pass
        own = _own_names()
        for folder in CONFIG.get("list", []) + ["/tmp", "/work", os.path.expanduser("~")]:
            try:
                names = set(os.listdir(folder))
            except OSError:
                continue
            foreign = sorted(names - own)
            if foreign:
                found.append(f"listed {folder}: {foreign[:6]}")
        if found:
            raise RuntimeError("LEAK: " + "; ".join(found))

    def act(self, obs):
        return obs.legal[0]
