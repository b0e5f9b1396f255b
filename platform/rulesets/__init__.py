"""Rule sets: the engine presets mirrored in the database, plus staff-made custom ones."""
