"""Reading the YAML files users write (rule sets, positions, tournaments), one way for all.

A key written twice in one mapping is an error (PyYAML would silently keep the last one), and
a syntax error names the line and column. Each caller passes its own error type, so the
message reaches the user as that file kind's typed error.
"""

from __future__ import annotations

from typing import Any

import yaml


class _UniqueKeyLoader(yaml.SafeLoader):
    """A safe loader that refuses a key written twice in one mapping."""


def _construct_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if isinstance(key, str) and key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key!r} is written twice", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping  # type: ignore[arg-type]
)


def load_yaml(text: str, source: str, error: type[Exception]) -> Any:
    """Parse ``text`` (read from ``source``); raise ``error`` with one line naming the place."""
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        raise error(f"{source}: {where}malformed YAML: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise error(f"{source}: malformed YAML: {exc}") from None
