"""WSGI entry point: `gunicorn canastaclub.wsgi`."""

import gc
import os

from django.core.signals import request_finished
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canastaclub.settings")

application = get_wsgi_application()

# A server process soon holds many objects that live as long as it does: the code, the compiled
# templates, the rating history (some forty thousand changes on a federation's data). Python's
# collector walks all of them at each full collection, which on a federation's data stopped the
# process for 100-150 ms about once every 250 requests (all of its threads, so every request in
# it). After its first requests, and again later as it grows, a process moves what it holds out
# of the collector's sight (gc.freeze); what it makes per request is collected as before. Measured
# on `demo --scale federation`: the full collections took 3-10 ms afterwards, and the slowest of
# 1 500 page loads 26 ms instead of 160-170 ms.
FREEZE_AFTER_REQUESTS = frozenset({200, 2_000, 20_000})
requests_served = 0


def freeze_what_the_process_holds(**kwargs):
    global requests_served
    requests_served += 1
    if requests_served in FREEZE_AFTER_REQUESTS:
        gc.freeze()


request_finished.connect(freeze_what_the_process_holds, dispatch_uid="canastaclub.wsgi.freeze")
