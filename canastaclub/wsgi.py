"""WSGI entry point: `gunicorn canastaclub.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canastaclub.settings")

application = get_wsgi_application()
