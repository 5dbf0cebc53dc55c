"""Swedish first: the language is the address's (i18n_patterns: Swedish at the bare addresses,
English under /en/), and nothing else.

Django's LocaleMiddleware would also follow the browser's Accept-Language header and a language
cookie, so a phone set to English would get English although the club plays in Swedish, and one
address would answer differently from one visitor to the next, which no cache could keep. Both are
ignored, and the answer does not say it varies on Accept-Language.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.cache import patch_vary_headers


class SwedishFirstMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        request.COOKIES.pop(settings.LANGUAGE_COOKIE_NAME, None)
        response = self.get_response(request)
        vary = [v.strip() for v in response.get("Vary", "").split(",") if v.strip() and v.strip().lower() != "accept-language"]
        if "Vary" in response:
            del response["Vary"]
            patch_vary_headers(response, vary)
        return response


class SignedInNoStoreMiddleware:
    """Pages for a signed-in user are theirs alone: `Cache-Control: private, no-store`, so that
    neither a shared cache (a proxy) nor the browser's disk keeps a secretary's pages, which a
    later user of the same club computer could then see with the Back button."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            response["Cache-Control"] = "private, no-store"
        return response
