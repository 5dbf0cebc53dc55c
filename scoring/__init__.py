"""The scoring app: Canasta clubs, competitions, matches and their protocols (deal by deal)."""
