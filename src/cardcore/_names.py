"""Seat names as people read them: whether a name shows anything, and whether two names show
alike (shared by the web lobby and the command line, which refuse such names alike)."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["MARKS", "hidden", "marked", "same_name", "shows", "tidy"]

_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")  # letters and symbols that show as nothing
_ZWJ = "\u200d"  # joins emoji: a format character that shows


def shows(name: str) -> bool:
    """Whether *name* has a character that shows, and no format character that hides
    (a zero-width space, a direction mark, a joiner anywhere but between emoji)."""
    if hidden(name) is not None:
        return False
    return any(unicodedata.category(ch)[0] not in "ZCM" and ch not in _BLANK for ch in name)


def hidden(name: str) -> str | None:
    """The first format character of *name* that hides (``"U+200C"``; the emoji joiner
    only outside an emoji sequence), else ``None``."""
    for i, ch in enumerate(name):
        if unicodedata.category(ch) == "Cf" and not (ch == _ZWJ and _joins(name, i)):
            return f"U+{ord(ch):04X}"
    return None


def _joins(name: str, i: int) -> bool:
    """Whether the joiner at *i* stands between two emoji (after a symbol, a skin tone or
    an emoji presentation selector; before a symbol), as in a ZWJ sequence."""
    before, after = name[i - 1 : i], name[i + 1 : i + 2]
    return (
        bool(before and after)
        and (unicodedata.category(before) in ("So", "Sk") or before == "\ufe0f")
        and unicodedata.category(after) == "So"
    )


MARKS = ("(you)", "(time ran out)", "(bot …)", "(seat N)")
"""What the pages (the browser's and the terminal's) add after a seat's name: "Bob (you)" is
the reader's own seat, "Ann (time ran out): draw" a move played for Ann, "Ann (bot random)"
a bot in the lobby, "Ann (seat 1)" a seat a table field names. A name ending in one would pass
for another seat's, a bot's, or a move played by the clock."""

_ENDINGS = tuple(  # "(time ran out)" anywhere: "Ann (time ran out): draw" is a timeout's line
    re.compile(r"\( ?" + p + r" ?\)" + end)
    for p, end in (("you", "$"), ("time ?ran ?out", ""), ("bot [^()]*", "$"), ("seat ?[0-9]+", "$"))
)


_BRACKETS = str.maketrans("❨❪⟮⦅⸨﴾❩❫⟯⦆⸩﴿", "(((((())))))")  # ornaments read as ( )


def marked(name: str) -> str | None:
    """The mark of :data:`MARKS` that *name* ends with (``(time ran out)``: holds) as people
    read it (runs of spaces, case, characters that show as nothing and look-alikes aside:
    ``"Bob(YOU)"`` too), else ``None``."""
    base = unicodedata.normalize("NFKD", name).casefold().translate(_BRACKETS)
    for table in (_LOOKALIKE, _LOOKALIKE_U):  # Greek υ reads as u beside "yo", as y elsewhere
        read = unicodedata.normalize("NFKC", base.translate(table))
        shown = (" " if unicodedata.category(ch)[0] == "Z" else ch for ch in read)
        folded = " ".join(
            "".join(
                ch for ch in shown if unicodedata.category(ch)[0] not in "CM" and ch not in _BLANK
            ).split()
        )
        for mark, ending in zip(MARKS, _ENDINGS, strict=True):
            if ending.search(folded):
                return mark
    return None


def tidy(name: str) -> str:
    """*name* as a page shows it: runs of spaces as one, no space at either end, composed (NFC)."""
    return unicodedata.normalize("NFC", " ".join(name.split()))


# Cyrillic and Greek letters that show as Latin ones (after casefolding, so capitals too):
# "Аnn" with a Cyrillic А is the same name as "Ann" to whoever reads the table.
_LOOKALIKE = str.maketrans(
    "авекмнорстухіјѕԁӏһԛԝαβεζηικμνορτυχ", "abekmhopctyxijsdlhqwabezhikmnoptyx"
)


_LOOKALIKE_U = {**_LOOKALIKE, ord("υ"): ord("u")}


def same_name(a: str, b: str) -> bool:
    """Whether two seat names show alike: compared compatibility-composed (NFKC), casefolded,
    with Cyrillic and Greek look-alikes of Latin letters read as those letters."""
    return _shown_as(a) == _shown_as(b)


_INVISIBLE = re.compile("[\u034f\u115f\u1160\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0\U000e0100-\U000e01ef]")
"""Characters that show as nothing on their own (the grapheme joiner, fillers, variation
selectors): ``"A\u034fnn"`` shows as ``"Ann"``."""


def _shown_as(name: str) -> str:
    # decomposed first, so an accented look-alike (Cyrillic ё) maps its base letter too
    folded = unicodedata.normalize("NFKD", name).casefold().translate(_LOOKALIKE)
    seen = "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")  # joiners
    return unicodedata.normalize("NFKC", _INVISIBLE.sub("", seen))
