"""Forms, one module per area: protocol (entering and correcting deals, the match lifecycle),
manage (a club's players and teams, competitions, rounds and matches), schedules."""
