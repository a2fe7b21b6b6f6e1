"""Models of the compliance app."""
