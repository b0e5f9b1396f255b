"""The continuous ladder: matchmaking per rule set, batch rating fits with intervals, head-to-head."""
