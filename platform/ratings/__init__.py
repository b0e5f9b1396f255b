"""Elo ratings per (bot, rule set) with immutable history, and leaderboards."""
