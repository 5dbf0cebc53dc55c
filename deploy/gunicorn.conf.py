"""gunicorn settings of one app server behind nginx (`gunicorn -c deploy/gunicorn.conf.py
canastaclub.wsgi --bind 127.0.0.1:8001`); every server of a cluster runs the same.

Workers and threads: GUNICORN_WORKERS (default: twice the machine's cores + 1) and
GUNICORN_THREADS (default 1: gunicorn's sync workers). nginx buffers each request and answer, so a
worker is never held by a slow phone; a process takes the next request only when it is free, so a
table's poll never waits in a process behind a page another thread of it is drawing (threads in one
process take turns at the interpreter): on a loaded round night the light requests' p95 was 2 to 12
times lower than with 3 processes of 2 threads, for the same CPU (docs/speed.md, "The round night").
"""

import multiprocessing
import os

workers = int(os.environ.get("GUNICORN_WORKERS") or 2 * multiprocessing.cpu_count() + 1)
threads = int(os.environ.get("GUNICORN_THREADS") or 1)
# The proxies whose forwarding headers gunicorn believes: the same list the site believes
# X-Forwarded-For from (DJANGO_TRUSTED_PROXIES), nginx on this machine unless said otherwise.
forwarded_allow_ips = os.environ.get("DJANGO_TRUSTED_PROXIES") or "127.0.0.1,::1"
# A restart (an upgrade, one server at a time) lets requests under way finish first.
graceful_timeout = 20
timeout = 60
# Keep-alive connections from nginx (its upstream keepalive), where threads are set: a sync worker
# closes each connection after its answer.
keepalive = 75
# gunicorn's control socket is one path per user (~/.gunicorn/gunicorn.ctl): several servers on
# one machine would take it from each other. They are run and stopped by signals instead.
control_socket_disable = True
