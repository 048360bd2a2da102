"""Cleaning what people type: display names and chat lines."""

from __future__ import annotations

import unicodedata

NAME_MAX = 24
CHAT_MAX = 300
_NAME_EXTRA = frozenset(" _.-")


class TextError(ValueError):
    pass


def clean_name(raw: str) -> str:
    """A display name: letters, digits, space, ``_ . -``; 1 to 24 characters."""
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name:
        raise TextError("a name cannot be empty")
    if len(name) > NAME_MAX:
        raise TextError(f"a name has at most {NAME_MAX} characters")
    bad = sorted({ch for ch in name if not (ch.isalnum() or ch in _NAME_EXTRA)})
    if bad:
        raise TextError("a name may hold letters, digits, spaces and _ . - only, not "
                        + " ".join(repr(ch) for ch in bad[:5]))
    return name


def clean_label(raw: str) -> str:
    """A short label such as a table name: control, format (bidi overrides, zero-width...)
    and unassigned characters removed, spaces collapsed; may end up empty."""
    text = "".join(ch for ch in unicodedata.normalize("NFC", raw)
                   if unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    return " ".join(text.split())


def check_password(password: str) -> None:
    """Refuse a password of only spaces (or other blanks)."""
    if not password.strip():
        raise TextError("password: cannot be only spaces")


def clean_chat(raw: str) -> str:
    """A chat line: control and format characters removed, spaces collapsed, ≤ 300 chars."""
    text = "".join(ch for ch in unicodedata.normalize("NFC", raw)
                   if unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    text = " ".join(text.split())
    if not text:
        raise TextError("an empty chat line")
    if len(text) > CHAT_MAX:
        raise TextError(f"a chat line has at most {CHAT_MAX} characters")
    return text
