"""tutorial."""
