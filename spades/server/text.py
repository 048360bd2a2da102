"""Cleaning what people type: display names and chat lines."""

from __future__ import annotations

import unicodedata

from spades.bots.hints import COMPASS_NAMES
from spades.names import name_key
from spades.server.seating import PLACES

NAME_MAX = 24
#: The longest table name, in characters and in letters' width (:func:`width`).
LABEL_MAX = 40
CHAT_MAX = 300
_NAME_EXTRA = frozenset(" _.-'’")  # ' and ’ for O'Brien, D’Angelo
#: Words the tables use for seats and players (the page names seats by compass points and
#: CPUs by "CPU" and where they sit): a person called "West" would be read as a place.
_TAKEN = frozenset(name_key(w) for w in (
    {n for names in (*COMPASS_NAMES.values(), *PLACES.values()) for n in names}
    | {"You", "Partner", "Your partner", "CPU", "Nobody", "Everyone"}))


#: Combining marks kept after a character (Hebrew points with a cantillation mark, or a
#: Devanagari conjunct's, need up to 4); more ("Zalgo" text) are drawn as a column of
#: accents through the lines above and below, and are dropped.
MARKS_MAX = 4
_DROPPED = frozenset(("Cc", "Cf", "Cs", "Co", "Cn"))
#: Letters and symbols drawn as nothing, which Python counts as letters (the Hangul
#: fillers) or as printable (the blank braille pattern): a name, chat line or table name
#: of only these showed blank to everyone, and one before a name hid in front of it. Read
#: as spaces.
_BLANKS = str.maketrans(dict.fromkeys("\u115f\u1160\u3164\uffa0\u2800", " "))


#: Characters drawn much wider than a letter, and how many letters wide each counts in
#: :func:`width` (generously: in the fonts pages fall back to). ﷽ (the whole basmala in
#: one character) is drawn as wide as some 20 letters where a font has it (a table name of
#: 40 of them ran far across the lobby); the other Arabic ligatures of whole phrases, ‱,
#: the two- and three-em dashes and the cuneiform signs three to six.
_VERY_WIDE: tuple[tuple[int, int, int], ...] = (
    (0xFDFD, 0xFDFD, 20),  # ﷽ ARABIC LIGATURE BISMILLAH AR-RAHMAN AR-RAHEEM
    (0xFD40, 0xFD4F, 4),  # ARABIC LIGATURE RAHIMAHU ALLAAH...
    (0xFDCF, 0xFDCF, 4),  # ARABIC LIGATURE SALAAMUHU ALAYNAA
    (0xFDFA, 0xFDFB, 4),  # ﷺ ﷻ
    (0xFDFE, 0xFDFF, 4),  # ARABIC LIGATURE SUBHAANAHU WA TAAALAA, AZZA WA JALL
    (0x2031, 0x2031, 3),  # ‱ PER TEN THOUSAND SIGN
    (0x2E3A, 0x2E3A, 4),  # ⸺ TWO-EM DASH
    (0x2E3B, 0x2E3B, 6),  # ⸻ THREE-EM DASH
    (0x12000, 0x1254F, 4),  # cuneiform signs and numbers
)


class TextError(ValueError):
    pass


def char_width(ch: str) -> int:
    """How many letters wide ``ch`` is drawn, roughly: 0 for a combining mark, 2 for a
    wide or full-width character (Chinese, Japanese, Korean, most emoji), more for those
    of :data:`_VERY_WIDE`, else 1."""
    cp = ord(ch)
    for first, last, wide in _VERY_WIDE:
        if first <= cp <= last:
            return wide
    if unicodedata.category(ch) in ("Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def width(text: str) -> int:
    """How many letters wide ``text`` is drawn, roughly (:func:`char_width`): a name or
    table name is held to a width, not only to a count of characters."""
    return sum(char_width(ch) for ch in text)


def too_wide(text: str, most: int) -> str:
    """Why ``text`` is too wide to show in ``most`` letters' width ("" if it is not): how
    wide it is, and its widest character."""
    wide = width(text)
    if wide <= most:
        return ""
    widest = max(text, key=char_width)
    return (f"at most {most} letters wide, and this is {wide} ({widest!r} counts as "
            f"{char_width(widest)})")


def narrowed(text: str, most: int) -> str:
    """``text`` cut to at most ``most`` letters' width (:func:`width`)."""
    wide = 0
    for i, ch in enumerate(text):
        wide += char_width(ch)
        if wide > most:
            return text[:i].rstrip()
    return text


def _shown(raw: str) -> str:
    """``raw`` in NFC without control, format (bidi, zero-width), surrogate, private-use
    and unassigned characters, with characters drawn as nothing as spaces, and with at
    most :data:`MARKS_MAX` combining marks in a row."""
    out = []
    run = 0
    for ch in unicodedata.normalize("NFC", raw).translate(_BLANKS):
        kind = unicodedata.category(ch)
        if kind in _DROPPED:
            continue
        if kind in ("Mn", "Me"):
            run += 1
            if run > MARKS_MAX:
                continue
        else:
            run = 0
        out.append(ch)
    return "".join(out)


def clean_name(raw: str) -> str:
    """A display name: letters, digits, space, ``_ . - '`` (letters drawn as nothing read
    as spaces); 1 to 24 characters, at most 24 letters wide (:func:`width`: ﷺ counts 4);
    not a word the tables use for a seat or a player (North, Partner, CPU...)."""
    name = " ".join(unicodedata.normalize("NFC", raw).translate(_BLANKS).split())
    if not name:
        raise TextError("a name cannot be empty")
    if len(name) > NAME_MAX:
        raise TextError(f"a name has at most {NAME_MAX} characters")
    bad = sorted({ch for ch in name if not (ch.isalnum() or ch in _NAME_EXTRA)})
    if bad:
        raise TextError("a name may hold letters, digits, spaces and _ . - ' only, not "
                        + " ".join(repr(ch) for ch in bad[:5]))
    why = too_wide(name, NAME_MAX)
    if why:
        raise TextError(f"a name is too wide to show: {why}")
    if names_a_seat(name):
        raise TextError(f"{name!r} is what the tables call a seat or a CPU player, so "
                        "people would take it for one: choose another name")
    return name


def names_a_seat(name: str) -> bool:
    """Whether ``name`` is a word the tables use for a seat or a player ("West", "Seat 3",
    "CPU 2", "Partner"): what the terminal's records call a seat nobody named, not a
    person."""
    key = name_key(name)
    return key in _TAKEN or key.startswith(("cpu ", "seat "))


def clean_label(raw: str) -> str:
    """A short label such as a table name: control, format (bidi overrides, zero-width...)
    and unassigned characters removed, combining marks beyond 4 in a row dropped, spaces
    collapsed; may end up empty."""
    return " ".join(_shown(raw).split())


def check_password(password: str) -> None:
    """Refuse a password of only spaces (or other blanks)."""
    if not password.strip():
        raise TextError("password: cannot be only spaces")


def clean_chat(raw: str) -> str:
    """A chat line: control and format characters removed, combining marks beyond 4 in a
    row dropped, spaces collapsed, ≤ 300 chars."""
    text = " ".join(_shown(raw).split())
    if not text:
        raise TextError("an empty chat line")
    if len(text) > CHAT_MAX:
        raise TextError(f"a chat line has at most {CHAT_MAX} characters")
    return text
