"""Bot options: what a bot declares it can be set to, and the values a tournament entry gives it.

Like a chess engine's UCI options, every option has a name, a type (``int``, ``float``,
``bool`` or ``str``), a default, and optionally a range (``min``/``max``) or a list of
``choices``, and a ``help`` text. A Python bot declares them as a literal ``OPTIONS`` mapping in
its class body (or at the top level of its file)::

    class Bot:
        OPTIONS = {"iterations": {"type": "int", "default": 1000, "min": 1, "max": 100_000,
                                  "help": "playouts per move"}}

        def __init__(self, iterations: int = 1000) -> None: ...

A command bot declares the same mapping, as JSON, in ``<stem>.options.json`` beside the first
file of its own that its command names (``first_legal_cmd.py`` -> ``first_legal_cmd.options.json``).

The referee never runs a bot's file, so the declaration is read from the source with
:func:`ast.literal_eval` (:func:`declared_options`), the way :mod:`arena.sandbox.contract` reads
the contract. :func:`with_options` checks an entry's values against it and fills in the
defaults; the result is :attr:`BotSpec.options`, which the bot host hands to the bot's
constructor as keyword arguments (a command bot finds it as JSON in ``$ARENA_OPTIONS``). A bot
that declares nothing gets none, exactly as before options existed.
"""

from __future__ import annotations

import ast
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.sandbox.contract import SourceError, parse_source
from arena.sandbox.runtime import is_system_program
from arena.sandbox.spec import BotSpec
from arena.settings import did_you_mean, show

DECLARATION = "OPTIONS"             # the name a Python bot's declaration is assigned to
SIDECAR_SUFFIX = ".options.json"    # a command bot's declaration file: <stem>.options.json
ENVIRONMENT = "ARENA_OPTIONS"       # where a command bot finds its values (JSON)
TYPES: dict[str, tuple[type, ...]] = {"int": (int,), "float": (int, float), "bool": (bool,),
                                      "str": (str,)}
_FIELDS = ("type", "default", "min", "max", "choices", "help")
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


@dataclass(frozen=True)
class OptionSpec:
    """One declared option; build them with :func:`declared_options`."""

    name: str
    type: str
    default: Any
    min: float | None = None
    max: float | None = None
    choices: tuple[Any, ...] = ()
    help: str = ""

    def accepts(self, value: Any) -> bool:
        """True when ``value`` is of the option's type and within its range or choices."""
        if isinstance(value, bool) and self.type != "bool":
            return False
        if not isinstance(value, TYPES[self.type]):
            return False
        if isinstance(value, float) and not math.isfinite(value):
            return False
        if self.choices and value not in self.choices:
            return False
        return self.type not in ("int", "float") or self._in_range(value)

    def _in_range(self, number: Any) -> bool:
        return (self.min is None or number >= self.min) and (self.max is None or number <= self.max)

    def typed(self, value: Any) -> Any:
        """An accepted value as the bot receives it: a float option's whole number as a float."""
        return float(value) if self.type == "float" else value

    def expectation(self) -> str:
        """What the option takes, as a message says it: ``an integer 1..100000``."""
        if self.choices:
            return "one of " + ", ".join(map(repr, self.choices))
        kind = {"int": "an integer", "float": "a number", "bool": "true or false",
                "str": "a text"}[self.type]
        if self.min is not None and self.max is not None:
            return f"{kind} {_number(self.min)}..{_number(self.max)}"
        if self.min is not None:
            return f"{kind} >= {_number(self.min)}"
        return f"{kind} <= {_number(self.max)}" if self.max is not None else kind

    def describe(self) -> str:
        """One line for ``arena bots``: type, range or choices, default, help."""
        if self.choices:
            kind = f"{self.type} in {'|'.join(map(str, self.choices))}"
        elif self.min is not None or self.max is not None:
            low = "" if self.min is None else _number(self.min)
            high = "" if self.max is None else _number(self.max)
            kind = f"{self.type} {low}..{high}"
        else:
            kind = self.type
        text = f"{self.name}: {kind}, default {_literal(self.default)}"
        return f"{text}; {self.help}" if self.help else text

    def parse_text(self, text: str) -> Any:
        """The value a command line's ``KEY=VALUE`` writes, of the option's type (unchecked
        against the range); :class:`ValueError` saying what was expected."""
        if self.type == "bool":
            lowered = text.strip().lower()
            if lowered in _TRUE or lowered in _FALSE:
                return lowered in _TRUE
            raise ValueError(self.expectation())
        if self.type in ("int", "float"):
            try:
                return int(text) if self.type == "int" else float(text)
            except ValueError:
                raise ValueError(self.expectation()) from None
        return text


#: The most options a bot may declare: a declaration is read by the parent and listed by
#: ``arena bots``, so a hostile file cannot make it carry an unbounded table.
MAX_OPTIONS = 64


def declared_options(spec: BotSpec) -> tuple[OptionSpec, ...]:
    """The options the bot of ``spec`` declares (none when it declares nothing), read without
    running it; :class:`ConfigError` naming the file when the declaration is not usable."""
    source = declaration_file(spec)
    if source is None:
        return ()
    if spec.path is not None:
        raw = _python_declaration(source, spec.class_name)
    else:
        raw = _sidecar_declaration(source)
    return () if raw is None else _parse_declaration(raw, source)


def declaration_file(spec: BotSpec) -> Path | None:
    """The file that holds (or would hold) the bot's declaration: a Python bot's own file, a
    command bot's sidecar when it exists; ``None`` for a command that names no file of its own."""
    if spec.path is not None:
        return spec.path
    assert spec.command is not None
    for arg in spec.command:
        path = Path(arg)
        if path.is_absolute() and path.is_file() and not is_system_program(arg):
            sidecar = path.with_name(path.stem + SIDECAR_SUFFIX)
            return sidecar if sidecar.is_file() else None
    return None


def with_options(spec: BotSpec, given: Mapping[str, Any]) -> BotSpec:
    """``spec`` with its options: the declared defaults overridden by ``given``.

    Raises :class:`ConfigError` on one line naming the bot, the key and the declaring file for
    an option the bot does not declare (with the closest declared name), a value of the wrong
    type or out of range.
    """
    declared = {option.name: option for option in declared_options(spec)}
    where = declaration_file(spec) or spec.path or (spec.command or ("?",))[0]
    values = {name: option.typed(option.default) for name, option in declared.items()}
    for key, value in given.items():
        option = declared.get(key)
        if option is None:
            known = ", ".join(declared) or "none"
            raise ConfigError(f"bot {spec.name!r}: option {key!r}: not an option of {where} "
                              f"(declared: {known}){did_you_mean(key, declared)}")
        if not option.accepts(value):
            raise ConfigError(f"bot {spec.name!r}: option {key!r} of {where}: expected "
                              f"{option.expectation()}, got {show(value)}")
        values[key] = option.typed(value)
    return replace(spec, options=tuple(sorted(values.items())))


def parse_assignments(spec: BotSpec, texts: Sequence[str]) -> dict[str, Any]:
    """The values of command-line ``KEY=VALUE`` texts, typed by what ``spec``'s bot declares
    (an undeclared key is left as text, for :func:`with_options` to refuse with its message)."""
    declared = {option.name: option for option in declared_options(spec)}
    values: dict[str, Any] = {}
    for text in texts:
        key, sep, value = text.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"--option {text!r}: expected KEY=VALUE")
        option = declared.get(key)
        try:
            values[key] = option.parse_text(value) if option is not None else value
        except ValueError as error:
            raise ConfigError(f"bot {spec.name!r}: option {key!r}: expected {error}, "
                              f"got {value!r}") from None
    return values


def options_label(options: Mapping[str, Any]) -> str:
    """The options as a name suffix, ``[iterations=100]``; ``""`` for none."""
    if not options:
        return ""
    return "[" + ",".join(f"{key}={_literal(value)}" for key, value in sorted(options.items())) + "]"


def _python_declaration(path: Path, class_name: str) -> Any:
    """The literal assigned to ``OPTIONS`` in the bot's class body, else at the file's top
    level; ``None`` when neither assigns it (a broken file is the contract check's to report)."""
    try:
        tree = parse_source(path)
    except SourceError:
        return None
    bodies = [node.body for node in tree.body
              if isinstance(node, ast.ClassDef) and node.name == class_name]
    for body in [*bodies, tree.body]:
        for node in body:
            value = _assigned(node)
            if value is not None:
                try:
                    return ast.literal_eval(value)
                except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
                    raise ConfigError(f"{path}: line {node.lineno}: {DECLARATION} must be a "
                                      "literal mapping (no names, calls or arithmetic)") from None
    return None


def _assigned(node: ast.stmt) -> ast.expr | None:
    """The value of ``OPTIONS = ...`` (or ``OPTIONS: T = ...``), else ``None``."""
    if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == DECLARATION
                                            for t in node.targets):
        return node.value
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
            and node.target.id == DECLARATION:
        return node.value
    return None


def _sidecar_declaration(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ConfigError(f"{path}: not a JSON declaration of options: {error}") from None


def _parse_declaration(raw: Any, source: Path) -> tuple[OptionSpec, ...]:
    """Every declared option, checked: its fields, its type, and a default it accepts."""
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{source}: {DECLARATION}: expected a mapping of option names, "
                          f"got {show(raw)}")
    if len(raw) > MAX_OPTIONS:
        raise ConfigError(f"{source}: {DECLARATION}: {len(raw)} options declared, at most "
                          f"{MAX_OPTIONS} are read")
    return tuple(_parse_option(name, fields, source) for name, fields in raw.items())


def _parse_option(name: Any, fields: Any, source: Path) -> OptionSpec:
    where = f"{source}: {DECLARATION}: option {name!r}"
    if not isinstance(name, str) or not name.isidentifier():
        raise ConfigError(f"{where}: a name must be a Python identifier (it is a keyword argument)")
    if not isinstance(fields, Mapping):
        raise ConfigError(f"{where}: expected a mapping with 'type' and 'default'")
    unknown = [key for key in fields if key not in _FIELDS]
    if unknown:
        raise ConfigError(f"{where}: unknown field {unknown[0]!r}"
                          f"{did_you_mean(str(unknown[0]), _FIELDS)}")
    kind = fields.get("type")
    if kind not in TYPES:
        raise ConfigError(f"{where}: 'type' must be one of {', '.join(TYPES)}, got {show(kind)}")
    if "default" not in fields:
        raise ConfigError(f"{where}: 'default' is required")
    bounds = [fields.get(key) for key in ("min", "max")]
    if any(b is not None and (isinstance(b, bool) or not isinstance(b, (int, float))) for b in bounds):
        raise ConfigError(f"{where}: 'min' and 'max' must be numbers")
    choices = fields.get("choices", ())
    if not isinstance(choices, (list, tuple)):
        raise ConfigError(f"{where}: 'choices' must be a list")
    option = OptionSpec(name, kind, fields["default"], bounds[0], bounds[1], tuple(choices),
                        str(fields.get("help", "")))
    if not option.accepts(option.default):
        raise ConfigError(f"{where}: the default {show(option.default)} is not "
                          f"{option.expectation()}")
    return option


def _literal(value: Any) -> str:
    """A value as YAML writes it: ``true``, ``0.1``, ``fast``."""
    return json.dumps(value) if isinstance(value, bool) else str(value)


def _number(value: float) -> str:
    """A bound as a person reads it: ``1,000,000`` rather than ``1e+06``, ``0.5`` as is."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"
