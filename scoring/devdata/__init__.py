"""Example data, never needed by the site itself: the demo season (`demo.py`, behind `manage.py
demo`), the legal-deal generator both use (`generate.py`), and the federation-scale data set
(`federation.py`, `manage.py demo --scale federation`) for benchmarks and the load test. Every
protocol is played through the services (the demo's deal by deal, the federation's with
matches_record_played), so its numbers are what a secretary's entries would give. The rows
around the protocols are written here through the models: the demo's users, clubs, players, teams
and competitions are found by name first (get_or_create), so a second run adds nothing, and the
federation's clubs, players, teams, competitions and rounds go in by the thousand (bulk_create)."""
