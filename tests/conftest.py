"""Shared test set-up.

pytest-django's live_server runs the site in a thread next to the test's event loop (Playwright);
Django refuses database access from such a context unless told it is safe, which it is here.
"""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
