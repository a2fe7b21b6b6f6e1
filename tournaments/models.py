"""Models of the tournaments app."""
