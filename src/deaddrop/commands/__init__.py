"""Subcommands of `deaddrop`, one module per area; each exposes `register(subparsers)`."""
