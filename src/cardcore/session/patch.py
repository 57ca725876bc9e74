"""View patches: what changed between two views, as a short list of operations.

An ``update`` message carries the change from the seat's previous view to
its new one instead of the whole view. A patch is a list of operations, each
a JSON array, applied in order:

* ``["set", path, value]``: put *value* at *path* (the whole view if *path* is ``[]``);
* ``["del", path]``: remove the key at the end of *path* from its object.

A path is a list of object keys (strings) and list indexes (integers from 0);
``del`` removes an object's key only (a list that changes length is set whole).
Objects are compared key by key; a list of the same length in which at
most half the items changed is patched item by item, any other changed list is
set whole. :func:`apply_patch` is the whole
client side (a dozen lines in any language)::

    >>> old = {"a": 1, "b": [1, 2], "c": 3}
    >>> new = {"a": 1, "b": [1, 5], "d": 4}
    >>> ops = diff(old, new)
    >>> ops
    [['del', ['c']], ['set', ['b', 1], 5], ['set', ['d'], 4]]
    >>> apply_patch(old, ops) == new
    True
"""

from __future__ import annotations

import copy
import marshal
import math
from collections import Counter
from collections.abc import Iterator
from typing import Any

from cardcore._text import plain, shown
from cardcore.cards import Card
from cardcore.errors import CorruptStateError, NotationError

__all__ = ["apply_patch", "card_places", "card_words", "diff", "may_show"]

Path = list[str | int]


def diff(old: Any, new: Any) -> list[list[Any]]:
    """Return the operations that turn *old* into *new* (both JSON-ready).

    :raises CorruptStateError: A document nested too deep to compare.
    """
    ops: list[list[Any]] = []
    try:
        _diff(old, new, [], ops)
    except RecursionError:
        raise CorruptStateError("a document is nested too deep to compare") from None
    return ops


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON: ``1``, ``1.0`` and ``True`` differ, inside objects and lists too.

    Python's ``==`` calls them equal, so two equal containers are told apart by their
    ``marshal`` bytes (version 0: the types, no sharing), in C; two equal ones whose keys
    come in another order read as changed, which only makes the patch longer."""
    if type(a) is not type(b) or a != b:
        return False
    if type(a) is float:  # -0.0 == 0.0, but JSON writes them apart
        return a != 0.0 or math.copysign(1.0, a) == math.copysign(1.0, b)
    if type(a) is dict or type(a) is list:
        try:
            return marshal.dumps(a, 0) == marshal.dumps(b, 0)
        except ValueError:  # a value marshal cannot write (a view is JSON-ready: never)
            return _walk(a, b)
    return True


def _walk(a: Any, b: Any) -> bool:
    """:func:`_same`, item by item."""
    if type(a) is not type(b) or a != b:
        return False
    if type(a) is float:
        return _same(a, b)
    if type(a) is dict:
        return all(_walk(value, b[key]) for key, value in a.items())
    if type(a) is list:
        return all(map(_walk, a, b))
    return True


def _diff(old: Any, new: Any, path: Path, ops: list[list[Any]]) -> None:
    if _same(old, new):
        return
    if type(old) is dict and type(new) is dict:
        for key in old:
            if key not in new:
                ops.append(["del", [*path, key]])
        for key, value in new.items():
            if key not in old:
                ops.append(["set", [*path, key], value])
            elif not _same(old[key], value):
                _diff(old[key], value, [*path, key], ops)
        return
    if type(old) is list and type(new) is list and len(old) == len(new):
        changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if not _same(a, b)]
        if 2 * len(changed) <= len(old):  # a few items changed: patch them; else set the list
            for i in changed:
                _diff(old[i], new[i], [*path, i], ops)
            return
    ops.append(["set", path, new])


def apply_patch(doc: Any, ops: list[list[Any]]) -> Any:
    """Return *doc* with the operations *ops* applied (a new document; *doc* is not changed).

    :raises CorruptStateError: *ops* is no list of operations, an operation does not fit
        the document, or either is nested too deep to copy (a ``ValueError`` too).
    """
    try:
        return _apply(copy.deepcopy(doc), ops)
    except RecursionError:
        raise CorruptStateError("a patch or its document is nested too deep to apply") from None


def _apply(doc: Any, ops: list[list[Any]]) -> Any:
    if not issubclass(type(ops), list | tuple):  # (the real type, as for each operation)
        raise CorruptStateError(f"a patch is a list of operations, not {shown(ops)}")
    for op in ops:
        if not issubclass(type(op), list) or len(op) not in (2, 3) or not issubclass(type(op[1]), list):
            msg = f"not a patch operation: {shown(op)}"
            raise CorruptStateError(msg)
        kind, path = plain(op[0]), op[1]  # a str subclass could compare its own way
        if type(kind) is not str or kind not in ("set", "del"):
            raise CorruptStateError(f"unknown patch operation {shown(kind)}")
        if not path:
            if kind != "set" or len(op) != 3:
                msg = "only 'set' with a value applies to the whole document"
                raise CorruptStateError(msg)
            doc = copy.deepcopy(op[2])
            continue
        if len(op) != (3 if kind == "set" else 2):
            takes = "a path and a value" if kind == "set" else "a path and no value"
            raise CorruptStateError(f"a {kind!r} operation takes {takes}, not {shown(op)}")
        parent = doc
        try:
            for key in path[:-1]:
                parent = parent[_step(parent, key, path)]
            last = _step(parent, path[-1], path)
            if kind == "set":
                parent[last] = copy.deepcopy(op[2])
            elif type(parent) is dict:
                del parent[last]
            else:
                msg = f"patch path {shown(path)}: 'del' removes an object's key, not a list's item"
                raise CorruptStateError(msg)
        except (RecursionError, CorruptStateError):
            raise  # too deep (apply_patch says so), or a step of the wrong kind
        except Exception as exc:  # a key that is none, or one that hashes or compares its own way
            msg = f"patch path {shown(path)} does not fit the document: {shown(exc)}"
            raise CorruptStateError(msg) from None
    return doc


def _step(parent: Any, key: Any, path: Any) -> Any:
    """*key* if it is a step JSON has into *parent*: a text into an object, an index from 0
    into a list (not ``true``, nor a negative one, which a JavaScript client reads otherwise)."""
    if type(parent) is dict:
        if type(key) is str:
            return key
    elif type(parent) is list:
        if type(key) is int and key >= 0:
            return key
    else:
        msg = f"patch path {shown(path)} steps into {shown(parent)}, which is no object or list"
        raise CorruptStateError(msg)
    kind = "an object's key (a text)" if type(parent) is dict else "a list's index (from 0)"
    raise CorruptStateError(f"patch path {shown(path)}: {shown(key)} is not {kind}")


_CARDS: dict[str, bool] = {}


def _is_card(word: str) -> bool:
    known = _CARDS.get(word)
    if known is None:
        try:
            Card.parse(word)
            known = True
        except NotationError:
            known = False
        if len(_CARDS) < 4096:
            _CARDS[word] = known
    return known


def card_words(value: Any) -> Iterator[str]:
    """Yield every card (in its notation) named anywhere in a JSON-ready *value*.

    Every string is split into words; each word that :meth:`cardcore.Card.parse`
    reads is a card (``"play 7H L"`` names ``7H``).

    >>> sorted(card_words({"a": ["QS", None], "b": "discard 10H"}))
    ['10H', 'QS']
    """
    if isinstance(value, str):
        for word in value.split():
            if 2 <= len(word) <= 3 and _is_card(word):
                yield word
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from card_words(key)
            yield from card_words(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from card_words(item)


def card_places(value: Any) -> Counter[tuple[tuple[str | int, ...], str]]:
    """Count every card named in a JSON-ready *value* by where it lies: the object keys and
    the places of objects and lists on its way (an object by its ``name``, ``seat`` or
    ``id``, else its position; the position of a text in its list is left out, so a pile
    that grows underneath is no move).

    A card that went from one pile to another counts apart, where :func:`card_words`
    sees the same card:

    >>> card_places({"prize": ["QS"]}) == card_places({"discard": ["QS"]})
    False
    >>> card_places({"pile": ["QS"]}) == card_places({"pile": [None, "QS"]})
    True
    >>> card_places([{"cards": ["QS"]}, {"cards": []}]) == card_places([{"cards": []}, {"cards": ["QS"]}])
    False
    >>> card_places([{"seat": 0, "won": ["QS"]}, {"seat": 1, "won": []}]) == card_places(
    ...     [{"seat": 1, "won": []}, {"seat": 0, "won": ["QS"]}])
    True
    """
    places: Counter[tuple[tuple[str | int, ...], str]] = Counter()
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            places.update((path, word) for word in card_words(item))
        elif isinstance(item, dict):
            for key, inner in item.items():
                places.update((path, word) for word in card_words(key))
                stack.append(((*path, str(key)), inner))
        elif isinstance(item, list | tuple):
            keys = [_place(inner) for inner in item]
            count = Counter(keys)
            for i, inner in enumerate(item):
                if isinstance(inner, dict | list | tuple):
                    key = keys[i]  # an object told apart by its key; else by its position
                    stack.append(((*path, key if key and count[key] == 1 else i), inner))
                else:
                    stack.append((path, inner))
    return places


def _place(item: Any) -> str:
    """What tells an object apart in its list: its ``name``, ``seat`` and ``id`` (a view
    may list seats in another order as they act); empty when it has none."""
    if not isinstance(item, dict):
        return ""
    return ",".join(
        f"{key}={value}"
        for key in ("name", "seat", "id")
        if isinstance(value := item.get(key), str | int) and not isinstance(value, bool)
    )


def may_show(text: str, old: dict[str, Any], new: dict[str, Any], events: Any = ()) -> bool:
    """Whether a seat may read the action *text*: every card it names is in its view before
    or after (not counting the players' names), or in the *events* it receives for this
    action (a face-up play that ended a hand, its card gathered into the next deal, is
    shown by its events)."""
    cards = list(card_words(text))
    if not cards:
        return True
    known = set(card_words(_table_of(old)))
    known.update(card_words(_table_of(new)))
    known.update(card_words(events))
    return all(card in known for card in cards)


def _table_of(view: Any) -> Any:
    """*view* less its players' names (a seat named ``QS`` shows no card)."""
    if isinstance(view, dict) and "players" in view:
        return {key: value for key, value in view.items() if key != "players"}
    return view
