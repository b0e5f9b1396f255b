"""Bots and their uploaded versions, validation and smoke tests."""
