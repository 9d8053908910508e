"""The JSON API; errors under `/api` are answered as JSON."""
