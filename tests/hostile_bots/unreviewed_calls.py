"""Makes system calls that no Python bot needs and nobody reviewed for the sandbox, each by its
x86_64 number with harmless arguments, and replies with what each answered: ``name=ok`` or
``name=ERRNO``. Confined, every one should answer ENOSYS (the allow-list refuses it)."""
import ctypes
import errno

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
BUFFER = ctypes.create_string_buffer(64)
# name: (number, arguments); queries only, nothing changes if the call is let through.
CALLS = {
    "personality": (135, (0xFFFFFFFF,)),                # the current persona
    "getitimer": (36, (0, BUFFER)),                       # ITIMER_REAL
    "ioprio_get": (252, (1, 0)),                          # IOPRIO_WHO_PROCESS, itself
    "get_mempolicy": (239, (None, None, 0, None, 0)),
    "lsm_list_modules": (461, (None, None, 0)),
    "file_getattr": (468, (-100, None, None, 0, 0)),
}


def answer(number: int, args: tuple) -> str:
    ctypes.set_errno(0)
    if libc.syscall(number, *args) >= 0:
        return "ok"
    return errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))


class Bot:
    def act(self, obs):
        return " ".join(f"{name}={answer(*call)}" for name, call in CALLS.items())
