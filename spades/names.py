"""People's names compared as people read them (pure: no I/O).

:func:`name_key` is the form in which two account names are the same name: Unicode NFKC
(fullwidth and other compatibility forms folded), each character that looks like a Latin
letter or digit replaced by it (the Unicode confusables data, via ``confusable_homoglyphs``),
case folded, runs of spaces collapsed. :func:`look_alike` refuses a name that mixes scripts
with characters that pass for another script's (a Cyrillic "а" among Latin letters...).
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import confusables


@functools.lru_cache(maxsize=4096)
def _skeleton_char(ch: str) -> str:
    if ch.isascii():
        return ch
    found = confusables.is_confusable(ch, preferred_aliases=["latin"])
    if found:
        for glyph in found[0]["homoglyphs"]:
            if glyph["c"].isascii() and glyph["c"].isalnum():
                return str(glyph["c"])
    return ch


def name_key(name: str) -> str:
    """The key under which ``name`` is unique: ``name_key("Ｊｏｅ") == name_key("joe")``."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(_skeleton_char(ch) for ch in text)
    return " ".join(unicodedata.normalize("NFKC", text.casefold()).split())


def look_alike(name: str) -> str | None:
    """Why ``name`` would pass for another (mixed scripts with look-alike letters), or None."""
    found = confusables.is_dangerous(name)
    if not found:
        return None
    return ("a name may not mix scripts with letters that look like another script's "
            "(use one alphabet)")
