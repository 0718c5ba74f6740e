"""Fills its folder as far as it can, then fails its first move with what the folder held, so
that the fault shows the folder's caps (``limits.disk_mb`` and ``limits.files``)."""
import os

BLOCK = 1 << 18  # 256 KiB a file: well under the cap on one file's size (1 MiB)


class Bot:
    """Writes 256 KiB files until the folder is full, then, once they are gone, empty files."""

    def act(self, obs):
        """Never a move: an error naming the KiB and the files the folder took."""
        blocks = 0
        try:
            for i in range(256):
                with open(f"b{i}", "wb") as f:
                    f.write(b"x" * BLOCK)
                blocks += 1
        except OSError:
            pass
        for i in range(blocks + 1):
            if os.path.exists(f"b{i}"):
                os.remove(f"b{i}")
        files = 0
        try:
            for i in range(2000):
                open(f"f{i}", "w").close()
                files += 1
        except OSError:
            pass
        raise RuntimeError(f"folder held {blocks * BLOCK >> 10} KiB and {files} files")
