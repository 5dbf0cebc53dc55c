"""Template tags and filters of the scoring app."""
