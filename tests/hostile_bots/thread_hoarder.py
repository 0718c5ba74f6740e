"""Starts as many threads as it can (up to 100, on small stacks, each blocked for good):
threads take pids, which the whole machine shares. Replies with how many it started."""
import threading

WANTED = 100


class Bot:
    def act(self, obs):
        threading.stack_size(64 * 1024)  # so that the address-space limit is not what stops it
        stop = threading.Event()
        started = 0
        try:
            for _ in range(WANTED):
                threading.Thread(target=stop.wait, daemon=True).start()
                started += 1
        except RuntimeError:  # "can't start new thread"
            pass
        return f"threads {started}"
