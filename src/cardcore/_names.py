"""Seat names as people read them: whether a name shows anything, and whether two names show
alike (shared by the web lobby and the command line, which refuse such names alike)."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["MARKS", "hidden", "marked", "same_name", "shows", "tidy"]

_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")  # letters and symbols that show as nothing


def shows(name: str) -> bool:
    """Whether *name* has a character that shows, and no format character that hides
    (a zero-width space, a direction mark, a joiner anywhere but between emoji)."""
    if hidden(name) is not None:
        return False
    return any(unicodedata.category(ch)[0] not in "ZCM" and ch not in _BLANK for ch in name)


def hidden(name: str) -> str | None:
    """The first format character of *name* that hides (``"U+200B"``), else ``None``. The
    joiner and non-joiner that shape a word (an emoji sequence, a Sinhala or Devanagari
    conjunct, a Persian word) count only at either end or beside a space, and the tag
    characters only in a flag (England's: a black flag, tags, a cancel tag)."""
    for i, ch in enumerate(name):
        if unicodedata.category(ch) != "Cf":
            continue
        if ch in _JOINERS and _within(name, i):
            continue
        if "\U000e0020" <= ch <= "\U000e007f" and _in_flag(name, i):
            continue
        return f"U+{ord(ch):04X}"
    return None


_JOINERS = frozenset("\u200c\u200d")  # the non-joiner and the joiner


def _within(name: str, i: int) -> bool:
    """Whether the joiner at *i* stands inside a word: characters that are no space on
    either side (else it only makes one name look like another), or ends one after a
    virama (a Malayalam chillu: ``ണ്\u200d``)."""
    before, after = name[i - 1 : i], name[i + 1 : i + 2]
    if before and unicodedata.combining(before) == 9 and not after.strip():
        return True
    return bool(before and after) and not (before.isspace() or after.isspace())


def _in_flag(name: str, i: int) -> bool:
    """Whether the tag character at *i* belongs to a flag sequence: a black flag, one or
    more tag digits or lowercase letters, then the cancel tag (U+E007F)."""
    start = i
    while start > 0 and name[start - 1] in _FLAG_TAGS:
        start -= 1
    end = i
    while end < len(name) and name[end] in _FLAG_TAGS:
        end += 1
    return (
        end > start
        and start > 0
        and name[start - 1] == "\U0001f3f4"
        and name[end : end + 1] == "\U000e007f"
    )


_FLAG_TAGS = frozenset(chr(c) for c in [*range(0xE0030, 0xE003A), *range(0xE0061, 0xE007B)])
"""The tag characters of a subdivision flag: digits and lowercase letters (UTS #51)."""


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


_INVISIBLE = re.compile("[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\ufe00-\ufe0f\uffa0\U000e0100-\U000e01ef]")
"""Characters that show as nothing on their own (the grapheme joiner, fillers, variation
selectors): ``"A\u034fnn"`` shows as ``"Ann"``."""


def _shown_as(name: str) -> str:
    # decomposed first, so an accented look-alike (Cyrillic ё) maps its base letter too
    folded = unicodedata.normalize("NFKD", name).casefold().translate(_LOOKALIKE)
    seen = "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")  # joiners
    return unicodedata.normalize("NFKC", _INVISIBLE.sub("", seen))
