"""Pickling and copying the engine's values when they are compiled with mypyc.

The server sends observations to CPU worker processes (pickled), and values are copied
with :mod:`copy`. Pure Python handles both by itself; compiled with mypyc (see setup.py),
two kinds of class need help, given here so that both builds behave the same:

* a frozen dataclass: mypyc's default unpickling assigns each field in turn, which a frozen
  dataclass refuses (``FrozenInstanceError``). :func:`by_fields` rebuilds it by calling the
  class with its fields instead (its ``__reduce__``);
* a class whose ``__init__`` takes arguments: a compiled class cannot be created empty (its
  ``__new__`` runs ``__init__``). Its ``__reduce__`` names a constructor call and the state,
  and :func:`set_state` puts every attribute back (its ``__setstate__``).

Neither is on the hot path: only pickling and :mod:`copy` call them.
"""

from __future__ import annotations

import dataclasses
from typing import Any


def by_fields(value: Any) -> tuple[type[Any], tuple[Any, ...]]:
    """``__reduce__`` for a (frozen) dataclass whose fields can all be passed by position:
    the class, called with the value's fields in order."""
    return type(value), tuple(getattr(value, f.name) for f in dataclasses.fields(value))


def attribute_names(cls: type[Any]) -> tuple[str, ...]:
    """Every instance attribute of a class with slots: mypyc lists them in
    ``__mypyc_attrs__``; pure Python has each class's ``__slots__``."""
    names = getattr(cls, "__mypyc_attrs__", None)
    if names is None:
        names = [n for k in reversed(cls.__mro__) for n in getattr(k, "__slots__", ())]
    return tuple(dict.fromkeys(names))


def get_state(value: Any) -> dict[str, Any]:
    """Every attribute of ``value`` (see :func:`attribute_names`) that is set."""
    state: dict[str, Any] = {}
    for name in attribute_names(type(value)):
        try:
            state[name] = getattr(value, name)
        except AttributeError:
            continue
    return state


def set_state(value: Any, state: dict[str, Any]) -> None:
    """``__setstate__``: set each attribute of ``state`` on ``value``."""
    for name, item in state.items():
        setattr(value, name, item)


__all__ = ["attribute_names", "by_fields", "get_state", "set_state"]
