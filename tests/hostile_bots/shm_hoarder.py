"""Creates SysV shared memory segments it never attaches (so outside its address space):
up to 1 GiB in 64 MiB segments. Answers with how many MiB it got."""
import ctypes

IPC_PRIVATE, IPC_CREAT = 0, 0o1000


class Bot:
    def act(self, obs):
        libc = ctypes.CDLL(None, use_errno=True)
        got = 0
        for _ in range(16):
            if libc.shmget(IPC_PRIVATE, ctypes.c_size_t(64 << 20), IPC_CREAT | 0o600) < 0:
                break
            got += 64
        return f"got {got}"
