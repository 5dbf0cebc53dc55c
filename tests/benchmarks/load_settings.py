"""Settings of the round-night load test (`make load`): the site's own, served over plain HTTP on
loopback (no HTTPS redirect, cookies without the Secure flag), with one extra URL, the baseline
view (load_urls.py)."""

from canastaclub.settings import *  # noqa: F401,F403

ROOT_URLCONF = "tests.benchmarks.load_urls"
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
