"""Station web tests."""
