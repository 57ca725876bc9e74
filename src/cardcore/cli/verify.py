"""``cardcore verify RECORD``: check a fair deal, or that a record replays.

RECORD is the fair-deal bundle a session reveals when its game ends (see
:mod:`cardcore.session.fair`): the command checks the commitment against the
revealed server seed and salt (and against ``--commitment``, the one you noted
at the start), derives the seed from them and every seat's entropy, checks it
is the record's, and replays the record, recomputing every shuffle. A plain
record (no commitment) is replayed and checked, and the command says that
there was no commitment to check. Exit status: 0 verified, 1 the deal does
not verify, 2 the file cannot be read or is damaged. Needs no rich.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import Any

from cardcore._recording import unique_keys
from cardcore._text import counted, kind_of, why_unreadable
from cardcore.cli.args import UsageError
from cardcore.errors import CorruptStateError
from cardcore.records import MAX_BYTES, replay
from cardcore.session.fair import BUNDLE_FORMAT, FairDealError, verify_bundle

__all__ = ["cmd_verify"]


def _read(path: str) -> Mapping[str, Any]:
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        msg = f"cannot read {path!r}: {exc.strerror}"
        raise UsageError(msg) from None
    except UnicodeDecodeError:
        msg = f"{path!r} is not UTF-8 text"
        raise CorruptStateError(msg) from None
    if len(text) > MAX_BYTES:
        msg = f"{path!r} is too large (more than {MAX_BYTES} characters)"
        raise CorruptStateError(msg)
    try:
        data = json.loads(text, object_pairs_hook=unique_keys)
    except CorruptStateError as exc:
        raise CorruptStateError(f"{path!r} is not sound JSON: {exc}") from None
    except (ValueError, RecursionError) as exc:
        msg = f"{path!r} {why_unreadable(exc)}"
        raise CorruptStateError(msg) from None
    if not isinstance(data, Mapping):
        msg = f"{path!r} holds {kind_of(data)}, not a fair-deal bundle or a record"
        raise CorruptStateError(msg)
    return data


def cmd_verify(args: argparse.Namespace) -> int:
    """Verify the bundle (or record) at ``args.record``; print what was checked."""
    data = _read(args.record)
    if data.get("format") == BUNDLE_FORMAT[0]:
        try:
            report = verify_bundle(data, args.commitment)
        except (CorruptStateError, FairDealError) as exc:  # named, as a record's are
            kind = CorruptStateError if isinstance(exc, CorruptStateError) else FairDealError
            raise kind(f"{args.record!r}: {exc}") from None
        lines = report.lines()
        if args.commitment is None:  # the bundle agrees with itself: only a noted one ties it
            lines.append(
                "not compared with a commitment noted at the start: give --commitment HEX to"
                " check that the deal was fixed before play"
            )
        sys.stdout.write("".join(f"{line}\n" for line in lines))
        return 0
    if args.commitment is not None:
        msg = f"{args.record!r} is a plain record with no commitment to compare with --commitment"
        raise FairDealError(msg)
    try:
        game = replay(data)
    except CorruptStateError as exc:  # named: a loop over many records says which failed
        raise CorruptStateError(f"{args.record!r}: {exc}") from None
    result = "not over" if game.result is None else f"winners {list(game.result.winners)} ({game.result.reason})"
    sys.stdout.write(
        f"replays: {game.name}, {counted(len(game.players), 'player')}, {game.version} action(s); {result}\n"
        "no commitment to check: a plain record, not a fair-deal bundle (a session with fair=True reveals one)\n"
    )
    return 0
