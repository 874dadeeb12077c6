"""computer."""
