"""The deployment: nginx, gunicorn, Redis and systemd configuration, and cluster.py, which runs them on loopback (make cluster, tests/cluster)."""
