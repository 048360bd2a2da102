"""Every frame a client receives, checked against the published schema
(``spades serve --print-schema``: :func:`spades.server.schema.schemas`)."""

from __future__ import annotations

from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from spades.server.schema import schemas


@cache
def _validators() -> dict[str, Draft202012Validator]:
    return {name: Draft202012Validator(schema)
            for name, schema in schemas()["server"].items()}


def check_schema(frame: dict[str, Any]) -> None:
    """Raise AssertionError unless ``frame`` is one of the server's published messages."""
    validator = _validators().get(frame.get("type", ""))
    assert validator is not None, f"a frame of no published type: {frame!r:.200}"
    errors = sorted(validator.iter_errors(frame), key=lambda e: list(e.path))
    assert not errors, (f"{frame['type']} frame does not match the schema: "
                        f"{'/'.join(map(str, errors[0].path))}: {errors[0].message:.300}")
