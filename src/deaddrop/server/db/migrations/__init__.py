"""Alembic migrations of the Dead Drop database (run them with `deaddrop migrate`)."""
