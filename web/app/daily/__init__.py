"""daily."""
