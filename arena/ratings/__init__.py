"""Ratings: Elo updates, the batch maximum-likelihood fit with intervals, rank statistics."""
