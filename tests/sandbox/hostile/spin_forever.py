"""Hostile bot: burns CPU forever without answering."""

while True:
    pass
