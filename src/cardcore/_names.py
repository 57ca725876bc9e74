"""Seat names as people read them: whether a name shows anything, and whether two names show
alike (shared by the web lobby and the command line, which refuse such names alike)."""

from __future__ import annotations

import unicodedata

__all__ = ["MARKS", "hidden", "marked", "same_name", "shows", "tidy"]

_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")  # letters and symbols that show as nothing
_ZWJ = "\u200d"  # joins emoji: a format character that shows


def shows(name: str) -> bool:
    """Whether *name* has a character that shows, and no format character that hides
    (a zero-width space, a direction mark) but the emoji joiner."""
    shown = False
    for ch in name:
        kind = unicodedata.category(ch)
        if kind == "Cf" and ch != _ZWJ:
            return False
        if kind[0] not in "ZCM" and ch not in _BLANK:
            shown = True
    return shown


def hidden(name: str) -> str | None:
    """The first format character of *name* that hides (``"U+200C"``), else ``None``."""
    for ch in name:
        if unicodedata.category(ch) == "Cf" and ch != _ZWJ:
            return f"U+{ord(ch):04X}"
    return None


MARKS = ("(you)", "(time ran out)")
"""What the pages (the browser's and the terminal's) add after a seat's name: "Bob (you)" is
the reader's own seat, "Ann (time ran out): draw" a move played for Ann. A name ending in one
would pass for another seat's, or a move played by the clock."""


def marked(name: str) -> str | None:
    """The mark of :data:`MARKS` that *name* ends with as people read it (spaces, case and
    look-alikes aside: ``"Bob(YOU)"`` too), else ``None``."""
    folded = "".join(_shown_as(tidy(name)).split())
    return next((m for m in MARKS if folded.endswith("".join(m.split()))), None)


def tidy(name: str) -> str:
    """*name* as a page shows it: runs of spaces as one, no space at either end, composed (NFC)."""
    return unicodedata.normalize("NFC", " ".join(name.split()))


# Cyrillic and Greek letters that show as Latin ones (after casefolding, so capitals too):
# "Аnn" with a Cyrillic А is the same name as "Ann" to whoever reads the table.
_LOOKALIKE = str.maketrans(
    "авекмнорстухіјѕԁӏһԛԝαβεζηικμνορτυχ", "abekmhopctyxijsdlhqwabezhikmnoptyx"
)


def same_name(a: str, b: str) -> bool:
    """Whether two seat names show alike: compared compatibility-composed (NFKC), casefolded,
    with Cyrillic and Greek look-alikes of Latin letters read as those letters."""
    return _shown_as(a) == _shown_as(b)


def _shown_as(name: str) -> str:
    # decomposed first, so an accented look-alike (Cyrillic ё) maps its base letter too
    folded = unicodedata.normalize("NFKD", name).casefold().translate(_LOOKALIKE)
    return unicodedata.normalize("NFKC", folded)
