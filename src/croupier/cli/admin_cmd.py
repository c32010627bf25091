"""``croupier admin grant|revoke|list|log``: the card room's admin role and audit log.

The role is stored with the accounts in the store (``--db``, as ``croupier serve``); it
is granted to existing accounts only, and every grant and revoke is recorded in the audit
log with the user who ran the command. ``log`` lists the audit log: every admin act, by
whom, on what, when.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(admin, ["grant", "ghost", "--db", "sqlite:///:memory:"])
>>> result.exit_code, result.output.strip()
(1, "Error: no account named 'ghost'")
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from croupier.cli.history_cmd import DB_OPTION
from croupier.cli.options import echo_json
from croupier.errors import CroupierError

if TYPE_CHECKING:
    from croupier.server.accounts import Accounts

__all__ = ["admin"]

NO_EXTRA = "the admin commands need the 'server' extra: pip install 'croupier[server]'"


@contextmanager
def _accounts(url: str | None) -> Iterator[Accounts]:
    try:
        from croupier.server.accounts import Accounts
        from croupier.store import Store
    except ImportError as error:
        raise click.ClickException(f"{NO_EXTRA} ({error.name} is missing)") from None
    store = Store.open(url)
    try:
        yield Accounts(store.engine)
    except CroupierError as error:
        raise click.ClickException(str(error)) from None
    finally:
        store.close()


@click.group("admin")
def admin() -> None:
    """Grant and revoke the card room's admin role; list the admins and the audit log.

    \b
    Examples:
      croupier admin grant ann --db sqlite:///room.db
      croupier admin list
      croupier admin log --json
    """


@admin.command("grant")
@click.argument("name")
@DB_OPTION
def grant(name: str, db: str | None) -> None:
    """Give the existing account NAME the admin role (recorded in the audit log)."""
    from croupier.server.accounts import command_line_actor

    with _accounts(db) as accounts:
        account = accounts.grant(name, actor=command_line_actor())
    click.echo(f"{account.name} is an admin")


@admin.command("revoke")
@click.argument("name")
@DB_OPTION
def revoke(name: str, db: str | None) -> None:
    """Take the admin role from the account NAME (recorded in the audit log)."""
    from croupier.server.accounts import command_line_actor

    with _accounts(db) as accounts:
        account = accounts.revoke_role(name, actor=command_line_actor())
    click.echo(f"{account.name} is not an admin")


@admin.command("list")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def list_admins(db: str | None, as_json: bool) -> None:
    """The accounts holding the admin role."""
    with _accounts(db) as accounts:
        holders = accounts.holders()
    if as_json:
        echo_json([{"id": a.id, "name": a.name} for a in holders])
        return
    click.echo("\n".join(a.name for a in holders) if holders else "no admins")


@admin.command("log")
@DB_OPTION
@click.option("--limit", type=click.IntRange(1, 1_000_000), default=1000, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def log(db: str | None, limit: int, as_json: bool) -> None:
    """The audit log: every admin act (open or close a table, read the ledger or the log,
    grant or revoke), oldest first."""
    with _accounts(db) as accounts:
        entries = accounts.audit_log(limit)
    if as_json:
        echo_json([e.to_dict() for e in entries])
        return
    if not entries:
        click.echo("the audit log is empty")
    for e in entries:
        detail = " ".join(f"{k}={v}" for k, v in sorted(e.detail.items()))
        click.echo(f"{e.at}  {e.actor}  {e.action}  {e.target}  {detail}".rstrip())
