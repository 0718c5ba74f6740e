"""The runtime folder every template imports ``arena`` from: a copy of the package with its
bytecode, the package's own reused where it is up to date (docs/sandbox.md, the runtime)."""

from __future__ import annotations

import compileall
import importlib.util
import os
import py_compile
import struct
import sys
from pathlib import Path

from arena.sandbox.runtime import copy_compiled, get_runtime

TAG = sys.implementation.cache_tag


def cached(module: Path) -> Path:
    """Where this Python keeps ``module``'s bytecode."""
    return Path(importlib.util.cache_from_source(str(module)))


def write_module(path: Path, text: str, mtime: int) -> None:
    path.write_text(text)
    os.utime(path, (mtime, mtime))


def test_every_module_of_the_runtime_has_up_to_date_bytecode() -> None:
    """A bot cannot write __pycache__: without bytecode each game would compile what it imports."""
    rt = get_runtime().rt / "arena"
    sources = sorted(rt.rglob("*.py"))
    assert len(sources) > 50 and (rt / "engine" / "game.py") in sources
    for source in sources:
        header = cached(source).read_bytes()[:16]  # magic, flags, the source's mtime and size
        assert header[:4] == importlib.util.MAGIC_NUMBER, source
        assert struct.unpack("<II", header[8:]) == (int(source.stat().st_mtime) & 0xFFFFFFFF,
                                                    source.stat().st_size & 0xFFFFFFFF), source


def test_the_packages_bytecode_is_reused_where_up_to_date_and_compiled_where_stale(tmp_path: Path) -> None:
    package = tmp_path / "package"
    package.mkdir()
    # kept.py's bytecode was compiled from other text of the same size and mtime: the header
    # matches, so the copy takes it as it is, and the planted answer shows it was not compiled again
    write_module(package / "kept.py", "ANSWER = 'planted'\n", 1_700_000_000)
    py_compile.compile(str(package / "kept.py"))
    write_module(package / "kept.py", "ANSWER = 'source!'\n", 1_700_000_000)
    # stale.py changed after its bytecode was written: compiled again from the source
    write_module(package / "stale.py", "ANSWER = 1\n", 1_700_000_000)
    py_compile.compile(str(package / "stale.py"))
    write_module(package / "stale.py", "ANSWER = 22\n", 1_700_000_100)
    # bytecode of another Python, an optimized one, a stray .pyc and the package's data stay out
    pycache = package / "__pycache__"
    (pycache / "kept.cpython-30.pyc").write_bytes(b"other python")
    (pycache / f"kept.{TAG}.opt-1.pyc").write_bytes(b"optimized")
    (package / "stray.pyc").write_bytes(b"stray")
    (package / "rules.yaml").write_text("name: x\n")
    (package / "py.typed").write_text("")

    copy = tmp_path / "copy"
    copy_compiled(package, copy)
    compileall.compile_dir(copy, quiet=2, workers=1)

    assert sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file()) == [
        f"__pycache__/kept.{TAG}.pyc", f"__pycache__/stale.{TAG}.pyc", "kept.py", "stale.py"]
    assert cached(copy / "kept.py").read_bytes() == cached(package / "kept.py").read_bytes()
    assert _answer(copy / "kept.py") == "planted"
    assert _answer(copy / "stale.py") == 22


def _answer(module: Path) -> object:
    """ANSWER as an import of ``module`` sees it (from its bytecode when that is up to date)."""
    spec = importlib.util.spec_from_file_location(f"probe_{module.stem}_{id(module)}", module)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded.ANSWER


def test_bytecode_this_user_cannot_read_is_compiled_again(tmp_path: Path) -> None:
    """An install whose bytecode the user may not read (Python then compiles from source): the
    copy leaves it out rather than failing. Root reads it anyway, an ordinary user does not
    (the ordinary user's run of these tests checks that side)."""
    package = tmp_path / "package"
    package.mkdir()
    write_module(package / "locked.py", "ANSWER = 'planted'\n", 1_700_000_000)
    py_compile.compile(str(package / "locked.py"))
    write_module(package / "locked.py", "ANSWER = 'source!'\n", 1_700_000_000)
    cached(package / "locked.py").chmod(0)
    readable = os.access(cached(package / "locked.py"), os.R_OK)

    copy = tmp_path / "copy"
    copy_compiled(package, copy)
    compileall.compile_dir(copy, quiet=2, workers=1)

    assert _answer(copy / "locked.py") == ("planted" if readable else "source!")
