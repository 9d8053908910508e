"""Numbered migration scripts; add one with `deaddrop migrate --new "what changed"`."""
