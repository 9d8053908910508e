"""The database: SQLAlchemy 2 (async) tables, the engine, and Alembic migrations."""
