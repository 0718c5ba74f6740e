"""Rebuilding a frozen dataclass from its fields: how ``pickle`` and ``copy`` handle one.

Their default way sets each field on a bare instance, which a frozen dataclass compiled by
mypyc refuses (``FrozenInstanceError``: its fields are C fields behind the frozen check).
Calling the class with every field's value works whether the class is compiled or not, so
:class:`~arena.engine.actions.Play`, :class:`~arena.engine.powers.Power` and
:class:`~arena.engine.rules.RuleSet` reduce to that. Stdlib-only: the bot host imports it.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def rebuilt_from_fields(value: Any) -> tuple[Any, ...]:
    """``__reduce__``'s answer for the dataclass ``value``: its class and every field's value."""
    return type(value), tuple(getattr(value, field.name) for field in fields(value))
