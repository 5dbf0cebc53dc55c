"""gunicorn settings of one app server behind nginx (`gunicorn -c deploy/gunicorn.conf.py
canastaclub.wsgi --bind 127.0.0.1:8001`); every server of a cluster runs the same.

Workers and threads: GUNICORN_WORKERS (default: the machine's cores + 1) and GUNICORN_THREADS
(default 2). A page waits on the database most of its time, so two threads per process keep a
core busy; README, Deployment, gives the sizing measured.
"""

import multiprocessing
import os

workers = int(os.environ.get("GUNICORN_WORKERS") or multiprocessing.cpu_count() + 1)
threads = int(os.environ.get("GUNICORN_THREADS") or 2)
# The proxies whose forwarding headers gunicorn believes: the same list the site believes
# X-Forwarded-For from (DJANGO_TRUSTED_PROXIES), nginx on this machine unless said otherwise.
forwarded_allow_ips = os.environ.get("DJANGO_TRUSTED_PROXIES") or "127.0.0.1,::1"
# A restart (an upgrade, one server at a time) lets requests under way finish first.
graceful_timeout = 20
timeout = 60
# Keep-alive connections from nginx (its upstream keepalive).
keepalive = 75
# gunicorn's control socket is one path per user (~/.gunicorn/gunicorn.ctl): several servers on
# one machine would take it from each other. They are run and stopped by signals instead.
control_socket_disable = True
