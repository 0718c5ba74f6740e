"""The runtime folder every template imports ``arena`` from: a copy of the package with its
bytecode, the package's own reused where an import would use it (docs/sandbox.md, costs)."""

from __future__ import annotations

import importlib.util
import os
import py_compile
import struct
import sys
from pathlib import Path

import pytest

from arena.sandbox.runtime import compile_runtime, copy_compiled, get_runtime

TAG = sys.implementation.cache_tag


def bytecode(module: Path) -> Path:
    """Where the bot host (``-I``: no PYTHONPYCACHEPREFIX) looks for ``module``'s bytecode."""
    return module.parent / "__pycache__" / f"{module.stem}.{TAG}.pyc"


def write_module(path: Path, text: str, mtime: int) -> None:
    path.write_text(text)
    os.utime(path, (mtime, mtime))


def compiled_from(path: Path, text: str, mtime: int) -> None:
    """Leave ``path``'s bytecode as compiled from ``text`` with ``mtime`` (the source keeps
    whatever is written after)."""
    write_module(path, text, mtime)
    py_compile.compile(str(path), cfile=str(bytecode(path)))


def test_every_module_of_the_runtime_has_up_to_date_bytecode() -> None:
    """A bot cannot write __pycache__: without bytecode each game would compile what it imports."""
    rt = get_runtime().rt / "arena"
    sources = sorted(rt.rglob("*.py"))
    assert len(sources) > 50 and (rt / "engine" / "game.py") in sources
    for source in sources:
        header = bytecode(source).read_bytes()[:16]  # magic, flags, the source's mtime and size
        assert header == struct.pack("<4sLLL", importlib.util.MAGIC_NUMBER, 0,
                                     int(source.stat().st_mtime), source.stat().st_size), source


def test_the_packages_bytecode_is_reused_where_an_import_would_use_it(tmp_path: Path) -> None:
    package = tmp_path / "package"
    package.mkdir()
    # kept.py's bytecode was compiled from other text of the same size and mtime: the header
    # matches, so the copy takes it as it is, and the planted answer shows it was not compiled again
    compiled_from(package / "kept.py", "ANSWER = 'planted'\n", 1_700_000_000)
    write_module(package / "kept.py", "ANSWER = 'source!'\n", 1_700_000_000)
    # stale.py changed after its bytecode was written: compiled again from the source
    compiled_from(package / "stale.py", "ANSWER = 1\n", 1_700_000_000)
    write_module(package / "stale.py", "ANSWER = 22\n", 1_700_000_100)
    # resized.py: the same mtime, another size; compileall would keep that bytecode, an import
    # would not (and a bot, unable to write it, would compile the module in every game)
    compiled_from(package / "resized.py", "ANSWER = 1\n", 1_700_000_000)
    write_module(package / "resized.py", "ANSWER = 333\n", 1_700_000_000)
    # bytecode of another Python, an optimized one, one being written, one without its source,
    # a stray .pyc, and the package's data stay out
    pycache = package / "__pycache__"
    for name in ("kept.cpython-30.pyc", f"kept.{TAG}.opt-1.pyc", f"kept.{TAG}.pyc.140234",
                 f"gone.{TAG}.pyc"):
        (pycache / name).write_bytes(bytecode(package / "kept.py").read_bytes())
    (package / "stray.pyc").write_bytes(b"stray")
    (package / "rules.yaml").write_text("name: x\n")
    (package / "py.typed").write_text("")

    copy = tmp_path / "copy"
    copy_compiled(package, copy)
    taken = sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file())
    assert taken == [f"__pycache__/kept.{TAG}.pyc", "kept.py", "resized.py", "stale.py"]
    compile_runtime(copy)

    assert bytecode(copy / "kept.py").read_bytes() == bytecode(package / "kept.py").read_bytes()
    assert [_answer(copy / f"{name}.py") for name in ("kept", "stale", "resized")] == ["planted", 22, 333]


def test_under_a_pycache_prefix_no_bytecode_of_the_package_is_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With PYTHONPYCACHEPREFIX set the referee's imports never read the package's own
    ``__pycache__``: bytecode planted there would run in the bots' engine copy only, so the
    runtime compiles every module from its source."""
    package = tmp_path / "package"
    package.mkdir()
    compiled_from(package / "kept.py", "ANSWER = 'planted'\n", 1_700_000_000)
    write_module(package / "kept.py", "ANSWER = 'source!'\n", 1_700_000_000)
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "prefix"))

    copy = tmp_path / "copy"
    copy_compiled(package, copy)
    compile_runtime(copy)

    assert _answer(copy / "kept.py") == "source!"


def test_bytecode_this_user_cannot_read_is_compiled_again(tmp_path: Path) -> None:
    """An install whose bytecode the user may not read (Python then compiles from source): the
    copy leaves it out rather than failing. Root reads it anyway, an ordinary user does not
    (the ordinary user's run of these tests checks that side)."""
    package = tmp_path / "package"
    package.mkdir()
    compiled_from(package / "locked.py", "ANSWER = 'planted'\n", 1_700_000_000)
    write_module(package / "locked.py", "ANSWER = 'source!'\n", 1_700_000_000)
    bytecode(package / "locked.py").chmod(0)
    readable = os.access(bytecode(package / "locked.py"), os.R_OK)

    copy = tmp_path / "copy"
    copy_compiled(package, copy)
    compile_runtime(copy)

    assert _answer(copy / "locked.py") == ("planted" if readable else "source!")


def test_the_runtime_is_compiled_beside_its_sources_whatever_the_pycache_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With PYTHONPYCACHEPREFIX set, compileall would write the runtime's bytecode under that
    prefix, where the bot host, run with -I, never looks."""
    prefix = tmp_path / "prefix"
    monkeypatch.setattr(sys, "pycache_prefix", str(prefix))
    folder = tmp_path / "rt"
    folder.mkdir()
    write_module(folder / "mod.py", "ANSWER = 1\n", 1_700_000_000)
    compile_runtime(folder)
    assert bytecode(folder / "mod.py").is_file() and not prefix.exists()
    assert sys.pycache_prefix == str(prefix)


def _answer(module: Path) -> object:
    """ANSWER as the bot host's import of ``module`` sees it: from the bytecode beside it when
    that is up to date (the host ignores PYTHONPYCACHEPREFIX)."""
    prefix, sys.pycache_prefix = sys.pycache_prefix, None
    try:
        spec = importlib.util.spec_from_file_location(f"probe_{module.stem}_{id(module)}", module)
        assert spec is not None and spec.loader is not None
        loaded = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(loaded)
    finally:
        sys.pycache_prefix = prefix
    return loaded.ANSWER
