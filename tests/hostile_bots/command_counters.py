"""A command bot (run as ``python3 command_counters.py``) that answers every request with
what it reached of the inode counters (pipe, memfd, /proc) and whether /proc/self/exe
resolves, as the dynamic loader's $ORIGIN and Java's launcher need."""
import json
import os
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message.get("type") != "act":
        print("ok", flush=True)
        continue
    reached = []
    for name, probe in (("pipe", os.pipe), ("memfd", lambda: os.memfd_create("x")),
                        ("exe", lambda: os.readlink("/proc/self/exe"))):
        try:
            probe()
            reached.append(name)
        except OSError:
            pass
    print("reached " + ",".join(reached), flush=True)
