"""Writes its reply, then, before going back to read its next request, enters one long system
call: MADV_POPULATE_WRITE of a large mapping, which checks only for fatal signals, so a SIGSTOP
sent meanwhile takes hold only when the call returns, on the next seat's time. The size comes
from the start message (``populate_mb``)."""
import ctypes
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                      ctypes.c_long]
libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
PROT_RW, MAP_PRIVATE_ANONYMOUS = 3, 0x22
MADV_HUGEPAGE, MADV_POPULATE_WRITE = 14, 23
STATE = {"size": 256 << 20, "armed": False, "mapping": None}


def _after_every_reply() -> None:
    """Wrap the host's reply (the bot host is the __main__ module) with the long call."""
    host = sys.modules["__main__"].Host
    reply = host.reply

    def reply_then_work(self, text):
        reply(self, text)  # the referee has its answer now
        if STATE["armed"]:
            STATE["armed"] = False
            size = STATE["size"]
            mapping = libc.mmap(None, size, PROT_RW, MAP_PRIVATE_ANONYMOUS, -1, 0)
            STATE["mapping"] = (mapping, size)
            libc.madvise(mapping, size, MADV_HUGEPAGE)  # longer still, where it compacts
            libc.madvise(mapping, size, MADV_POPULATE_WRITE)

    host.reply = reply_then_work


class Bot:
    def on_game_start(self, info):
        STATE["size"] = int(info.get("populate_mb", 256)) << 20
        _after_every_reply()

    def act(self, obs):
        if STATE["mapping"]:
            libc.munmap(*STATE["mapping"])
            STATE["mapping"] = None
        STATE["armed"] = True
        return obs.legal[0]
