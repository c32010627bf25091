"""Alembic's environment for the audit store: run by ``croupier.store`` itself.

The store passes its open connection in ``config.attributes["connection"]``; there is no
``alembic.ini`` and no offline (SQL script) mode. Imported anywhere else (pytest's doctest
collection walks every file), it does nothing: ``alembic.context`` exists only while
Alembic runs it.
"""

from __future__ import annotations

from alembic import context

from croupier.store.schema import Base


def run_migrations() -> None:
    """Run the migrations on the connection the store passed in."""
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("croupier's migrations run through croupier.store, with a connection")
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # Alembic is running this file
    run_migrations()
