"""The replay viewer's server side: cached viewer data per match, per-decision stderr (owner-only)."""
