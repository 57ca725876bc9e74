"""``cardcore serve``: the web server (lobby, game pages, WebSocket) with uvicorn.

The address is bound here, before uvicorn starts, so that a bad host or a port
in use is one line and exit status 2, like an unwritable database.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from typing import Any

from cardcore._text import shown
from cardcore.cli.args import UsageError, _digits, _seconds

MAX_HEAD = 64 * 1024
"""h11's bound on a request head not yet parsed, in bytes: heads of a few hundred KiB are
refused (400) before the app sees them."""

__all__ = ["add_parser", "cmd_serve"]

WEB_MISSING = "cardcore serve needs the web extra: pip install 'cardcore[web]' (in a checkout: pip install -e '.[web]')"


def _port(text: str) -> int:
    value = _digits(text)
    if value is None:
        msg = f"not a port number: {shown(text, 40)}"
        raise argparse.ArgumentTypeError(msg) from None
    if not 0 <= value <= 65535:
        msg = f"a port is from 0 to 65535, not {shown(value, 40)}"
        raise argparse.ArgumentTypeError(msg)
    return value


def add_parser(sub: Any) -> None:
    """Add the ``serve`` subcommand to the command's subparsers *sub*."""
    p = sub.add_parser(
        "serve",
        help="serve games to browsers: a lobby, play and watch pages, a WebSocket",
        description=(
            "Run the web server: create a game in the lobby, send each player their link,"
            " play and watch in the browser. Games are kept in --db and resume after a restart."
        ),
        epilog=(
            "Limits come from the environment (0: none): CARDCORE_MAX_SESSIONS,"
            " CARDCORE_MAX_SESSIONS_PER_CLIENT, CARDCORE_MAX_BOT_GAMES, CARDCORE_IDLE_CLOSE,"
            " CARDCORE_MAX_SOCKETS, CARDCORE_MAX_SOCKETS_PER_CLIENT, CARDCORE_JOIN_WAIT,"
            " CARDCORE_KEEP_OVER"
            " (see docs/web.rst)."
        ),
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)"
    )
    p.add_argument(
        "--port", type=_port, default=8000, help="the port (default 8000; 0: any free port)"
    )
    p.add_argument(
        "--db",
        default="cardcore-sessions.db",
        metavar="PATH",
        help="the SQLite database of games (default cardcore-sessions.db in this directory)",
    )
    p.add_argument(
        "--bot-delay",
        type=_seconds("a bot's pause"),
        default=0.4,
        metavar="SECONDS",
        help="a turn-based bot's pause, 0 to 60 (default 0.4)",
    )
    p.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        default=None,
        help=(
            "trust X-Forwarded-For from these proxy addresses (comma-separated, as uvicorn"
            " reads them); default: trust none, each client is the address it connects from"
        ),
    )


def bind(host: str, port: int) -> socket.socket:
    """Bind *host*:*port* (IPv4 or IPv6).

    :raises UsageError: A host that does not resolve, or an address that cannot be bound.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        msg = f"cannot listen on host {host!r}: {exc}"
        raise UsageError(msg) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        msg = f"cannot listen on {host}:{port}: {exc.strerror or exc}"
        raise UsageError(msg) from None
    sock.setblocking(False)
    return sock


def _hold(db: str) -> int | None:
    """Lock the database file *db* for this server (an advisory ``flock``, freed when the
    process ends, however it ends), so a second ``cardcore serve`` on it stops at once:
    each resumes every game in the file, and two would play each game twice.

    :returns: The locked file's descriptor (kept open while the server runs), or ``None``
        where there is nothing to lock (``:memory:``, a platform without ``flock``).
    :raises UsageError: Another process holds the lock, or the file cannot be opened.
    """
    try:
        import fcntl
    except ImportError:  # (Windows: the store's own checks still refuse a changed game)
        return None
    if db in (":memory:", ""):
        return None
    try:
        fd = os.open(db, os.O_RDONLY | os.O_CREAT, 0o644)
    except (OSError, ValueError) as exc:  # (ValueError: a NUL in the path)
        msg = f"cannot use {db!r} as a session store: {getattr(exc, 'strerror', None) or exc}"
        raise UsageError(msg) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        msg = f"{db!r} is in use by another cardcore serve: give each server its own --db"
        raise UsageError(msg) from None
    return fd


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the server until interrupted."""
    try:
        import uvicorn  # noqa: F401 (here: a missing extra is said before the database is touched)

        import cardcore.web.app  # noqa: F401
    except ImportError:
        raise UsageError(WEB_MISSING) from None
    lock = _hold(args.db)  # before the store resumes any game
    try:
        return _serve(args)
    finally:  # (also when the start fails: an in-process caller may try again)
        if lock is not None:
            os.close(lock)


def _serve(args: argparse.Namespace) -> int:
    """Start the server on the locked database and run it until interrupted."""
    import uvicorn

    from cardcore.session import StoreError
    from cardcore.web.app import MAX_FRAME, WebError, WebServer, create_app

    try:
        server = WebServer(args.db, bot_delay=max(0.0, args.bot_delay))
    except (StoreError, WebError) as exc:  # an unwritable database, a bad CARDCORE_INSTANCE
        raise UsageError(str(exc)) from None
    sock = bind(args.host, args.port)
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    sys.stderr.write(
        f"cardcore serve: http://{shown}:{port}/ (games kept in {args.db}; Ctrl-C stops)\n"
    )
    sys.stderr.flush()
    # h11 with a bound on a request's head: httptools read a 64 MB header whole
    config = uvicorn.Config(
        create_app(server),
        log_level="warning",
        ws_max_size=MAX_FRAME,
        lifespan="on",
        ws="auto",
        http="h11",
        h11_max_incomplete_event_size=MAX_HEAD,
        # a client's own X-Forwarded-For would name any address it likes (and lift the
        # per-client limits); only a proxy the operator names may say who connected
        proxy_headers=args.forwarded_allow_ips is not None,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )
    uvicorn.Server(config).run(sockets=[sock])
    return 0
