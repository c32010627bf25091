"""``croupier serve``: run the card room (the table server) under uvicorn.

Needs the ``server`` extra (``pip install 'croupier[server]'``); FastAPI, pydantic and
uvicorn are imported only when the command runs.

>>> from click.testing import CliRunner
>>> CliRunner().invoke(serve, ["--help"]).exit_code
0
"""

from __future__ import annotations

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
    "--check",
    is_flag=True,
    help="Check the options, the store and the tables, then exit without serving.",
)
def serve(host: str, port: int, db: str | None, tables_file: Path | None, check: bool) -> None:
    """Run the table server: the HTTP API and WS /ws (see docs/protocol.md).

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
    except ModuleNotFoundError as error:  # pragma: no cover - the extra is missing
        raise click.ClickException(
            f"the server needs {error.name!r}: pip install 'croupier[server]'"
        ) from None
    tables = DEFAULT_TABLES if tables_file is None else load_tables(tables_file.read_text())
    app = create_app(db, tables=tables)
    if check:
        click.echo(f"croupier: ready to serve {len(tables)} tables on http://{host}:{port}/")
        return
    click.echo(f"croupier: serving {len(tables)} tables on http://{host}:{port}/", err=True)
    uvicorn.run(app, host=host, port=port, ws_max_size=4 * MAX_MESSAGE_BYTES, log_level="info")
