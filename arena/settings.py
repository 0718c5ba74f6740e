"""Reading the YAML files users write (rule sets, positions, tournaments), one way for all.

:func:`load_yaml` parses a file's text: a key written twice in one mapping is an error (PyYAML
would silently keep the last one), and a syntax error names the line and column. :class:`Keys`
then reads the parsed mappings key by key, with a type, a default and a check, and refuses
keys it does not know. Each caller passes its own error type, so every message reaches the user
as that file kind's typed error, on one line naming the file and the key's full path::

    demo.yaml: key 'limits.bank': expected a number >= 0, got -1

PyYAML is imported only to parse: bots in the sandbox build rule sets from settings that
arrive already parsed, with no PyYAML there.
"""

from __future__ import annotations

import difflib
import json
import math
import re
import reprlib
import shlex
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar

__all__ = ["REQUIRED", "Keys", "did_you_mean", "load_yaml", "refuse_other_kind", "show"]

REQUIRED: Any = ...  # the default of a key that must be written
E = TypeVar("E", bound=Exception)

# How an expected type reads in a message; a tuple of types reads as "a text or a list".
_KIND_NAMES = {bool: "true or false", int: "an integer", float: "a number", str: "a text",
               list: "a list", dict: "a mapping"}


def read_text(path: Path, what: str, error: type[Exception]) -> str:
    """The UTF-8 text of the settings file ``path`` (``what`` names its kind in messages); raise
    ``error`` with one line when it cannot be read or is not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"{path}: cannot read {what} ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise error(f"{path}: {what} is not UTF-8 text "
                    f"({exc.reason} at byte {exc.start})") from None


def load_yaml(text: str, source: str, error: type[Exception]) -> Any:
    """Parse ``text`` (read from ``source``); raise ``error`` with one line naming the place."""
    import yaml

    try:
        return yaml.load(text, Loader=_unique_key_loader())  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        raise error(f"{source}: {where}malformed YAML: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise error(f"{source}: malformed YAML: {exc}") from None
    except ValueError as exc:  # what a scalar's own conversion refuses: an int of 5,000 digits
        raise error(f"{source}: malformed YAML: {str(exc).split(':')[0]}") from None


@cache
def _unique_key_loader() -> Any:
    """A safe loader that refuses a key written twice in one mapping (built on first use)."""
    import yaml

    class UniqueKeyLoader(yaml.SafeLoader):
        """A :class:`yaml.SafeLoader` whose mappings refuse a repeated key."""

    def construct_mapping(loader: UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = loader.construct_object(key_node, deep=deep)
            if isinstance(key, str) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} is written twice", key_node.start_mark
                )
            seen.add(key)
        return loader.construct_mapping(node, deep=deep)

    UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    return UniqueKeyLoader


def file_kind(data: Any) -> str | None:
    """Which of the three files a parsed file is by its telling keys: ``"tournament"`` (bots),
    ``"position"`` (hands or moves), ``"rule set"`` (a base preset or powers), else ``None``."""
    if not isinstance(data, Mapping):
        return None
    if "bots" in data:
        return "tournament"
    if "hands" in data or "moves" in data:
        return "position"
    if "base" in data or "powers" in data:
        return "rule set"
    return None


def refuse_other_kind(data: Any, source: str, expected: str, error: type[Exception]) -> None:
    """A file of another kind given where ``expected`` is due gets one line saying what it is
    and the command that takes it, not "key 'bots': unknown key"; each command follows a colon,
    ready to copy, its path quoted for the shell."""
    kind = file_kind(data)
    if kind is None or kind == expected:
        return
    path = shlex.quote(source)
    value = source if re.fullmatch(r"[\w./~-]+", source) else json.dumps(source)  # YAML reads it so
    use = {
        "tournament": f"run it with: arena run {path}",
        "rule set": f"name it in a tournament ('rules: {value}'), or show it with: arena rules {path}",
        "position": f"replay it with: arena replay {path}   (or step through it with: "
                    f"arena watch --position {path})",
    }[kind]
    raise error(f"{source}: a {kind}, not a {expected}: {use}")


def show(value: Any) -> str:
    """A value as a message quotes it: its repr, cut to 60 characters; a YAML null is 'nothing'.

    Through :data:`_SHOWN`, which looks no deeper and no further into a collection than those
    60 characters could show: YAML's aliases can make a short file stand for a list of a
    billion items (``&a [*b, *b, ...]`` nested), whose full repr would fill the memory.
    """
    if value is None:
        return "nothing"
    try:
        text = _SHOWN.repr(value)
    except ValueError:  # an int past Python's limit on digits to print
        return "a number of more than 4,300 digits"
    return text if len(text) <= 60 else text[:57] + "..."


_SHOWN = reprlib.Repr()
_SHOWN.maxlevel = 4
_SHOWN.maxlist = _SHOWN.maxtuple = _SHOWN.maxdict = _SHOWN.maxset = _SHOWN.maxfrozenset = 30
_SHOWN.maxstring = _SHOWN.maxlong = _SHOWN.maxother = 200   # past the 60 shown: cut below


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the known name closest to a mistyped ``word``, else ``""``.

    Every "unknown ..." message (keys, presets, bots, tournaments) appends it, so a typo such
    as ``rouds``, ``swtich`` or ``gredy`` is answered with the name that was meant.
    """
    by_lower = {name.lower(): name for name in sorted(set(known), reverse=True)}  # first wins
    close = difflib.get_close_matches(word.lower(), sorted(by_lower), n=1)  # 'Mid' is 'mid'
    return f" (did you mean '{by_lower[close[0]]}'?)" if close else ""


class Keys(Generic[E]):
    """The keys of one mapping of a settings file, read one at a time, each with its type.

    ``prefix`` is the path of the mapping inside the file (``"limits."``), so that errors name
    the key in full. With ``allowed``, a key outside it is refused at once; otherwise
    :meth:`done` refuses every key that was never read. Either way the message offers the
    closest known key ("did you mean ...?"). Reading does not consume: a key may be looked at
    with :meth:`has` and read later, and the mapping itself stays as the file wrote it.
    """

    def __init__(self, data: Any, source: str, error: type[E], prefix: str = "",
                 allowed: Iterable[str] | None = None) -> None:
        self.source, self.error, self.prefix = source, error, prefix
        if not isinstance(data, Mapping):
            where = f"key '{prefix.rstrip('.')}': expected" if prefix else "expected"
            raise error(f"{source}: {where} a mapping of keys, got {show(data)}")
        self.data: Mapping[Any, Any] = data
        self._read: set[Any] = set()
        self._allowed = tuple(allowed) if allowed is not None else None
        if self._allowed is not None:
            for key in data:
                if key not in self._allowed:
                    raise self.fail(str(key), self._unknown(key, self._allowed))

    def fail(self, key: str, message: str) -> E:
        """The caller's error naming the file and ``key`` under this mapping (raise it)."""
        return self.error(f"{self.source}: key '{self.prefix}{key}': {message}")

    def has(self, key: Any) -> bool:
        """True when the mapping writes ``key`` (even as null)."""
        return key in self.data

    def take(self, key: Any, kind: type | tuple[type, ...], default: Any = REQUIRED,
             check: Callable[[Any], Any] | None = None, expect: str = "") -> Any:
        """The value of ``key``, else ``default`` (:data:`REQUIRED`: the key must be written).

        The value must be of ``kind`` (``object``: anything; ``int`` refuses true and false,
        ``float`` takes any finite number and returns a float) and pass ``check``; ``expect``
        says what is wanted in the error ("an integer 2..10"). A null is allowed where the
        default is ``None``.
        """
        self._read.add(key)
        wanted = expect or _kind_name(kind)
        if key not in self.data:
            if default is REQUIRED:
                raise self.fail(str(key), f"required, {wanted}")
            return default
        value = self.data[key]
        if value is None and default is None:
            return None
        if not _is_kind(value, kind) or (check is not None and not check(value)):
            raise self.fail(str(key), f"expected {wanted}, got {show(value)}")
        return float(value) if kind is float else value

    def choice(self, key: Any, options: tuple[str, ...], default: Any = REQUIRED) -> str:
        """The value of ``key``, one of ``options``."""
        value: str = self.take(key, str, default, lambda v: v in options, "one of " + ", ".join(options))
        return value

    def sub(self, key: Any, allowed: Iterable[str] | None = None) -> Keys[E]:
        """The mapping under ``key`` (absent or null: an empty one), named ``prefix.key.``."""
        self._read.add(key)
        value = self.data.get(key)
        return Keys({} if value is None else value, self.source, self.error,
                    f"{self.prefix}{key}.", allowed)

    def done(self) -> None:
        """Refuse the first key (in sorted order) that was never read."""
        unread = sorted((k for k in self.data if k not in self._read), key=str)
        if unread:
            raise self.fail(str(unread[0]), self._unknown(unread[0], self._allowed or self._read))

    @staticmethod
    def _unknown(key: Any, known: Iterable[Any]) -> str:
        names = sorted(str(k) for k in known)
        hint = did_you_mean(str(key), names)
        if hint:
            return f"unknown key{hint}"
        return f"unknown key (known: {', '.join(names)})" if names else "unknown key"


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(_KIND_NAMES.get(k, k.__name__) for k in kinds)


def _is_kind(value: Any, kind: type | tuple[type, ...]) -> bool:
    """``isinstance``, except that a YAML true or false is no number, and a number is finite."""
    for k in kind if isinstance(kind, tuple) else (kind,):
        if k is int and isinstance(value, int) and not isinstance(value, bool):
            return True
        if (k is float and isinstance(value, (int, float)) and not isinstance(value, bool)
                and math.isfinite(value)):
            return True
        if k not in (int, float) and isinstance(value, k):
            return True
    return False
