"""Accounts: sign up, log in and out, password change, profile."""
