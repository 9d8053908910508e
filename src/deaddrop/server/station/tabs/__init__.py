"""tabs."""
