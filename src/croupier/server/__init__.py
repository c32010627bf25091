"""The card-room server: a FastAPI app with one WebSocket per client and one asyncio task
per table (see ``docs/protocol.md``). Needs the ``server`` extra
(``pip install 'croupier[server]'``); ``import croupier`` never loads it.

* :mod:`croupier.server.protocol`: the messages (pydantic v2 models) and their JSON Schema.
* :mod:`croupier.server.accounts`: accounts, argon2 password hashes, session tokens.
* :mod:`croupier.server.tables`: the table configuration and the task running each table.
* :mod:`croupier.server.app`: the HTTP API and ``WS /ws``.
"""
