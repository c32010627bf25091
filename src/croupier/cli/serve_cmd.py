"""``croupier serve``: run the card room (the table server) under uvicorn.

Needs the ``server`` extra (``pip install 'croupier[server]'``); FastAPI, pydantic and
uvicorn are imported only when the command runs.

>>> from click.testing import CliRunner
>>> CliRunner().invoke(serve, ["--help"]).exit_code
0
"""

from __future__ import annotations

import functools
import gc
import socket
import sys
import urllib.parse
from datetime import timedelta
from pathlib import Path

import click

__all__ = ["serve"]


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--db",
    "db",
    metavar="URL",
    default=None,
    help="The store (sqlite:///file.db, postgresql://...); default $CROUPIER_DB, else the user's data directory.",
)
@click.option(
    "--tables",
    "tables_file",
    metavar="FILE.toml",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="The tables ([[table]] entries); default: a few bot-filled tables.",
)
@click.option(
    "--admin",
    "admins",
    metavar="NAME",
    multiple=True,
    help="An account that may use the admin API (repeat for more).",
)
@click.option(
    "--public-url",
    metavar="URL",
    default=None,
    callback=lambda _ctx, _param, value: _public_url(value),
    help="Where clients reach this process (the lobby shows it): http(s)://host[:port][/path]; default http://HOST:PORT.",
)
@click.option(
    "--lease-ttl",
    type=click.FloatRange(1.0, 3600.0),
    default=10.0,
    show_default=True,
    help="Seconds a table's lease lasts unrenewed: another server sharing the database takes a dead one's tables over after that.",
)
@click.option(
    "--ws-compression/--no-ws-compression",
    default=False,
    show_default=True,
    help="Offer permessage-deflate on the WebSocket (saves bandwidth on slow links, costs server CPU on every message).",
)
@click.option(
    "--allowed-origin",
    "origins",
    metavar="URL",
    multiple=True,
    callback=lambda _ctx, _param, values: tuple(_origin(v) for v in values),
    help="Another origin whose pages may open the WebSocket (repeat for more); the room's own and --public-url's always may.",
)
@click.option(
    "--max-registrations",
    type=click.IntRange(1, 1_000_000),
    default=10,
    show_default=True,
    help="Registrations one client address may make in an hour.",
)
@click.option(
    "--max-failed-logins",
    type=click.IntRange(1, 1_000_000),
    default=5,
    show_default=True,
    help="Failed logins an account may have in 15 minutes before it is locked out (the lock-out doubles each time); an address may have four times as many.",
)
@click.option(
    "--check",
    is_flag=True,
    help="Check the options, the store and the tables, then exit without serving.",
)
def serve(
    host: str,
    port: int,
    db: str | None,
    tables_file: Path | None,
    admins: tuple[str, ...],
    public_url: str | None,
    lease_ttl: float,
    ws_compression: bool,
    origins: tuple[str, ...],
    max_registrations: int,
    max_failed_logins: int,
    check: bool,
) -> None:
    """Run the table server: the HTTP API and WS /ws (see docs/protocol.md).
    \f
    >>> from click.testing import CliRunner
    >>> CliRunner().invoke(serve, ["--port", "x"]).exit_code
    2
    >>> CliRunner().invoke(serve, ["--db", "sqlite://", "--check"]).output.startswith("croupier: ")
    True
    """
    try:
        import uvicorn

        from croupier.server.app import create_app
        from croupier.server.protocol import MAX_MESSAGE_BYTES
        from croupier.server.tables import DEFAULT_TABLES, load_tables
        from croupier.server.throttle import ThrottleSettings
    except ModuleNotFoundError as error:  # pragma: no cover - the extra is missing
        raise click.ClickException(
            f"the server needs {error.name!r}: pip install 'croupier[server]'"
        ) from None
    tables = DEFAULT_TABLES if tables_file is None else load_tables(tables_file.read_text())
    _warn(
        [
            f"table {t.name} is seeded: whoever knows the seed knows every deck (tests only)"
            for t in tables
            if t.seed is not None
        ]
    )
    throttle = ThrottleSettings(
        login_per_account=max_failed_logins,
        login_per_address=4 * max_failed_logins,
        registrations_per_address=max_registrations,
    )
    make_app = functools.partial(
        create_app,
        db,
        tables=tables,
        admins=admins,
        origins=origins,
        throttle=throttle,
        lease_ttl=timedelta(seconds=lease_ttl),
    )
    if check:
        _listen(host, 0).close()  # the address can be listened on (the port is not taken)
        app = make_app(url=public_url or f"http://{host}:{port}", grant=False)
        _warn(app.state.account_problems)
        click.echo(f"croupier: ready to serve {len(tables)} tables on http://{host}:{port}/")
        return
    # listen first: a lease left by an earlier run at this address is then known dead
    listener = _listen(host, port)
    port = listener.getsockname()[1]
    url = public_url or f"http://{host}:{port}"
    app = make_app(url=url, url_is_exclusive=True)
    _warn(app.state.account_problems)
    click.echo(f"croupier: serving {len(tables)} tables on http://{host}:{port}/", err=True)
    _quiet_garbage_collector()
    uvicorn.run(
        app,
        fd=listener.fileno(),
        ws_max_size=4 * MAX_MESSAGE_BYTES,
        ws_per_message_deflate=ws_compression,
        log_level="info",
        proxy_headers=False,  # the client's address is the socket's peer, never a header it sends
    )


def _warn(lines: list[str]) -> None:
    """Print each start-up warning (a seeded table, an account that newer name rules
    refuse) as a line."""
    for line in lines:
        click.echo(f"croupier: warning: {line}", err=True)


def _origin(value: str) -> str:
    """An ``--allowed-origin``: an http(s) URL with a host.

    >>> _origin("https://poker.example/")
    'https://poker.example'
    """
    from croupier.errors import CroupierError
    from croupier.server.web_security import origin_of

    try:
        return origin_of(value)
    except CroupierError as error:
        raise click.BadParameter(str(error)) from None


def _quiet_garbage_collector() -> None:
    """Keep the cyclic garbage collector out of the action latency (and let the journal's
    writer thread have the GIL sooner, see below): everything loaded so
    far (modules, the app, the tables) is frozen out of its scans, and it runs less
    often (a full collection of a server's heap took 40-100 ms, a pause every table
    felt; objects here die by reference counting, a cycle is rare)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    # the journal's writer thread hands the GIL back and forth with every statement; at
    # the default 5 ms a busy event loop made each of those hand-overs wait (measured:
    # 1 ms gave about a fifth more actions a second at the same latency)
    sys.setswitchinterval(0.001)


def _public_url(value: str | None) -> str | None:
    """``--public-url`` checked: http or https, a host, no query or fragment; the URL
    without a trailing slash.

    >>> _public_url("https://room.example:8443/")
    'https://room.example:8443'
    >>> _public_url("room.example")
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: 'room.example' is not an http(s) URL with a host (like http://room.example:8000)
    """
    if value is None:
        return None
    try:
        parts: urllib.parse.SplitResult | None = urllib.parse.urlsplit(value)
        port_ok = parts is not None and (parts.port is None or parts.port > 0)
    except ValueError:  # a bad port, an unclosed [ of an IPv6 host
        parts, port_ok = None, False
    good = (
        parts is not None
        and parts.scheme in ("http", "https")
        and bool(parts.hostname)
        and port_ok
        and not (parts.query or parts.fragment)
        and value.isprintable()
        and " " not in value
    )
    if not good:
        raise click.BadParameter(
            f"{value!r} is not an http(s) URL with a host (like http://room.example:8000)"
        )
    return value.rstrip("/")


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; a one-line error when it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except (OSError, UnicodeError, ValueError, TypeError) as error:  # gaierror: an OSError
        listener.close()
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        where = host if port == 0 else f"{host}:{port}"  # port 0: --check tries the address
        raise click.ClickException(f"cannot listen on {where}: {reason}") from None
    listener.listen(2048)
    listener.set_inheritable(True)
    return listener
