"""HTTP keeps the public pages (docs/architecture.md, "What is kept (caching)"). A public view names
what it is drawn from (`drawn_from`: scoring.selectors.editions); that, the language, who looks, the
day and the code make its ETag. The 304 comes before the view only if anyone may see the page."""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import quote_etag
from django.utils.translation import get_language


def code_version(base: Path) -> str:
    """The code, templates, static files and translations under `base` (their paths and content, not
    what a process compiles) and the settings pages read: servers run from copies of it agree."""
    digest = hashlib.sha256(repr((settings.PUBLIC_MAX_AGE, getattr(settings, "SCORING_LIVE_POLL_SECONDS", 0))).encode())
    for folder in ("scoring", "templates", "static", "locale", "canastaclub"):
        for path in sorted(p for p in (base / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            content = hashlib.sha256(path.read_bytes()).hexdigest()
            digest.update(f"{path.relative_to(base).as_posix()}:{content};".encode())
    return digest.hexdigest()[:16]


CODE_VERSION = code_version(Path(settings.BASE_DIR))  # once: the code a process runs is what it read


def validator(*drawn_from) -> str:
    """A page's or stored document's key: what it is drawn from, the day and the code."""
    parts = (drawn_from, timezone.localdate().isoformat(), CODE_VERSION)
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


class PublicCacheMiddleware:
    """Outside the session middleware, so that it sees the Vary: Cookie it adds on the way out."""

    def __init__(self, get_response):
        self.get_response = get_response

    def process_view(self, request, view, args, kwargs):
        drawn_from = getattr(getattr(view, "view_class", None), "drawn_from", None)
        found = drawn_from(**kwargs) if drawn_from and request.method in ("GET", "HEAD") else None
        if found is not None:
            # Not the address: a page hands its ETag to its live part's first poll (_match_live.html).
            request.public_etag = validator(found[1], get_language(), request.user.pk)
            # Before the view only if anyone may see the page, and not for "*" (is the page there?).
            if found[0] and request.headers.get("If-None-Match", "").strip() != "*":
                return get_conditional_response(request, etag=quote_etag(request.public_etag))

    def __call__(self, request):
        response = self.get_response(request)
        user, etag = getattr(request, "user", None), getattr(request, "public_etag", None)
        if user is not None and user.is_authenticated:
            # Theirs alone: kept by no proxy, nor on the disk of a club's computer (the Back button).
            response["Cache-Control"] = "private, no-store"
        if etag is None or response.status_code not in (200, 304):
            return response
        response["ETag"] = quote_etag(etag)
        if response.cookies and not user.is_authenticated:
            patch_cache_control(response, private=True, no_cache=True)  # this visitor's own (a message)
        elif not user.is_authenticated:
            # The same for every anonymous visitor (no CSRF token, templates/base.html), whatever
            # cookies they send: kept by anyone for PUBLIC_MAX_AGE seconds.
            patch_cache_control(response, public=True, max_age=settings.PUBLIC_MAX_AGE)
            vary = response.get("Vary", "").replace(" ", "").split(",")
            del response["Vary"]
            if vary := [name for name in vary if name and name.lower() != "cookie"]:
                response["Vary"] = ", ".join(vary)
        # The view let this visitor see the page: 304 if they hold it, as ConditionalGetMiddleware.
        return get_conditional_response(request, etag=quote_etag(etag), response=response)
