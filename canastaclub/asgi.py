"""ASGI entry point, for servers that speak ASGI (the site itself is synchronous)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canastaclub.settings")

application = get_asgi_application()
