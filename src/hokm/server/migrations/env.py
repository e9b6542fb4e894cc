"""Alembic environment: migrations run on the connection handed over by :func:`hokm.server.migrations.upgrade`.

There is no ``alembic.ini`` and no URL here: the server passes an open connection (async engines
run Alembic through ``run_sync``), so the same code path serves SQLite and PostgreSQL.
"""

from alembic import context

from hokm.server.storage.metadata import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through hokm.server.migrations.upgrade(url)")
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
