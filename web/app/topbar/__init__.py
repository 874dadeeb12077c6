"""topbar."""
