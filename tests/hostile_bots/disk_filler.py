"""Fills its folder: 64 MiB in one file, then 2,000 small files. Answers with what it managed."""
import os


class Bot:
    def act(self, obs):
        mib = 0
        try:
            with open("big.bin", "wb") as f:
                for _ in range(64):
                    f.write(b"x" * (1 << 20))
                    f.flush()
                    mib += 1
        except OSError:
            pass
        os.remove("big.bin")
        files = 0
        try:
            for i in range(2000):
                with open(f"f{i}", "w") as f:
                    f.write("x")
                files += 1
        except OSError:
            pass
        return f"wrote {mib} files {files}"
