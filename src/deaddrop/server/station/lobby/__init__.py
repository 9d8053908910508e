"""lobby."""
