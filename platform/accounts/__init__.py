"""Accounts: sign-up, log-in, API tokens."""
