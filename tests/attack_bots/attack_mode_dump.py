"""Class 8: can it tell ``arena submit`` from ``arena duel`` from a tournament?

It records every start message its process receives and, at its first decision, raises an
error holding everything it can see of its surroundings as one JSON line, compressed to fit a
stored fault's detail (``DUMP <zlib, base64>``): the
start messages' keys, argv, the environment, its folders' listings, its ids and namespaces'
uid maps, hostname, limits, CPUs, mounts, open descriptors. The test compares the dumps of
the three modes: they must be identical apart from seat and seed values.
"""

import base64
import json
import os
import resource
import socket
import sys
import zlib

STARTS: list = []   # every start message this process received


def _read(path: str) -> str:
    try:
        with open(path) as f:
            return f.read()
    except OSError as exc:
        return f"<{exc.strerror}>"


def _listing(folder: str) -> object:
    try:
        return sorted(os.listdir(folder))
    except OSError as exc:
        return f"<{exc.strerror}>"


def surroundings() -> dict:
    status = {k: v.strip() for k, _, v in (l.partition(":") for l in _read("/proc/self/status").splitlines())}
    keep = ("Uid", "Gid", "Groups", "NSpid", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb",
            "NoNewPrivs", "Seccomp", "Seccomp_filters", "Cpus_allowed_list", "Mems_allowed_list")
    limits = {name: resource.getrlimit(getattr(resource, name))
              for name in sorted(dir(resource)) if name.startswith("RLIMIT_")}
    vfs = os.statvfs(os.getcwd())
    return {
        "starts": [sorted(s) for s in STARTS],
        "start_values": [{k: v for k, v in s.items() if k not in ("seat", "seed")} for s in STARTS],
        "argv": sys.argv,
        "cmdline": _read("/proc/self/cmdline").split("\0"),
        "environ": dict(os.environ),
        "cwd": os.getcwd(),
        "listings": {f: _listing(f) for f in (".", "/", "/tmp", "/bot", "/arena", "/dev", "/etc", "/proc/self/fd")},
        "ids": [os.getpid(), os.getppid(), os.getpgrp(), os.getsid(0), os.getuid(), os.getgid()],
        "status": {k: status.get(k) for k in keep},
        "uid_map": _read("/proc/self/uid_map"), "gid_map": _read("/proc/self/gid_map"),
        "hostname": socket.gethostname(), "uname": list(os.uname()),
        "rlimits": limits,
        "cpus": sorted(os.sched_getaffinity(0)),
        "nice": os.nice(0), "umask": os.umask(0o077),
        "folder": [vfs.f_bsize * vfs.f_blocks, vfs.f_files],
        "mounts": _read("/proc/self/mountinfo"),
        "cgroup": _read("/proc/self/cgroup"),
        "python": [sys.version, sys.executable, sys.prefix, sys.path],
    }


class Bot:
    def __init__(self) -> None:
        self.asked = False

    def on_game_start(self, info: dict) -> None:
        STARTS.append(dict(info))

    def act(self, obs):
        text = json.dumps(surroundings(), sort_keys=True, default=str)
        raise RuntimeError("DUMP " + base64.b64encode(zlib.compress(text.encode(), 9)).decode())
