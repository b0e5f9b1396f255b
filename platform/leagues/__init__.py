"""Leagues: scheduled competitions (round robin, Swiss, season) with rounds, matches and standings."""
