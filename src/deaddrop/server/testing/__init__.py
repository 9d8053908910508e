"""Helpers for tests that production never wires: clocks a test can move."""
