"""Models of Ultimate Texas Hold'em tables and rounds."""
