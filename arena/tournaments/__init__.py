"""Tournaments: ladder matchmaking, league formats and standings, version-test SPRT, head-to-head."""
