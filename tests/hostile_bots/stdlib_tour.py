"""Not hostile: does what an honest bot may do with the standard library (files in its folder,
threads, sleeping, clocks, randomness, compression, an in-memory database, mappings, polling,
signals to itself) and replies ``draw`` when all of it worked, else ``failed`` and what broke.
The sandbox must refuse only calls that reach beyond the bot (sandbox.md), never these."""
import bz2
import concurrent.futures
import datetime
import decimal
import hashlib
import json
import lzma
import mmap
import os
import pathlib
import platform
import queue
import random
import resource
import secrets
import select
import shutil
import signal
import sqlite3
import sys
import tempfile
import threading
import time
import uuid
import zlib


def files():
    folder = pathlib.Path(tempfile.mkdtemp())
    path = folder / "book.json"
    path.write_text(json.dumps({"opening": [1, 2, 3]}))
    assert json.loads(path.read_text())["opening"] == [1, 2, 3]
    shutil.copy2(path, folder / "copy.json")
    os.rename(folder / "copy.json", folder / "moved.json")
    os.symlink(folder / "moved.json", folder / "link.json")
    assert sorted(p.name for p in folder.iterdir()) == ["book.json", "link.json", "moved.json"]
    os.chmod(path, 0o600)
    os.utime(path)
    os.truncate(path, 0)
    with open(path, "r+b") as f:
        f.write(b"x" * 4096)
        f.flush()
        os.fsync(f.fileno())
        with mmap.mmap(f.fileno(), 0) as mapped:
            mapped[:1] = b"y"
    assert os.statvfs(folder).f_bsize > 0 and shutil.disk_usage(folder).total > 0
    with tempfile.TemporaryFile() as f, tempfile.NamedTemporaryFile() as g:
        f.write(b"1")
        g.write(b"2")
    shutil.rmtree(folder)


def threads():
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        assert list(pool.map(lambda x: x * x, range(5))) == [0, 1, 4, 9, 16]
    done = threading.Event()
    timer = threading.Timer(0.001, done.set)
    timer.start()
    assert done.wait(5)
    timer.join()
    q = queue.Queue()
    threading.Thread(target=q.put, args=(7,)).start()
    assert q.get(timeout=5) == 7
    condition = threading.Condition()
    with condition:
        condition.wait(0.001)


def clocks():
    for clock in (time.process_time, time.perf_counter, time.monotonic, time.time, time.thread_time):
        clock()
    time.sleep(0.001)
    datetime.datetime.now().astimezone()
    time.localtime()


def randomness():
    random.Random(secrets.randbits(64)).random()
    os.urandom(16)
    with open("/dev/urandom", "rb") as noise, open("/dev/zero", "rb") as zeros:
        assert len(noise.read(8)) == 8 and zeros.read(4) == bytes(4)
    with open("/dev/null", "w") as null:
        print("thrown away", file=null)
    uuid.uuid4()
    hashlib.sha256(b"deal").hexdigest()


def data():
    blob = b"switch" * 100
    for module, options in ((zlib, {}), (bz2, {}), (lzma, {"preset": 1})):  # lzma's default needs 94 MiB
        assert module.decompress(module.compress(blob, **options)) == blob
    db = sqlite3.connect(":memory:")
    db.execute("create table moves(card)")
    db.execute("insert into moves values ('8S')")
    assert db.execute("select card from moves").fetchone() == ("8S",)
    db.close()
    assert decimal.Decimal(1) / 4 == decimal.Decimal("0.25")
    with mmap.mmap(-1, 1 << 20) as anonymous:
        anonymous[0] = 1


def the_process():
    platform.uname()
    os.cpu_count()
    os.sched_getaffinity(0)
    resource.getrlimit(resource.RLIMIT_AS)
    os.getpid(), os.getppid(), os.getuid(), os.getgid(), os.getcwd(), os.umask(0o022)
    os.getpriority(os.PRIO_PROCESS, 0)
    os.times()


def polling_and_signals():
    select.select([sys.stdin], [], [], 0)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    poller.poll(0)
    select.epoll().close()
    os.close(os.eventfd(0))
    caught = []
    signal.signal(signal.SIGUSR1, lambda *_: caught.append(1))
    os.kill(os.getpid(), signal.SIGUSR1)
    signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)
    assert caught == [1, 1]
    signal.pthread_sigmask(signal.SIG_BLOCK, [])
    os.isatty(1)
    shutil.get_terminal_size()
    with open(__file__, "rb") as f:
        os.set_inheritable(f.fileno(), True)
        os.set_inheritable(f.fileno(), False)


TOUR = (files, threads, clocks, randomness, data, the_process, polling_and_signals)


class Bot:
    def act(self, obs):
        failed = []
        for step in TOUR:
            try:
                step()
            except Exception as exc:
                failed.append(f"{step.__name__} ({type(exc).__name__}: {exc})")
        return "failed " + "; ".join(failed) if failed else "draw"
