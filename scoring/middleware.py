"""Swedish first: the site speaks Swedish until the visitor picks English with the language switch.

Django's LocaleMiddleware would follow the browser's Accept-Language header, so a phone set to
English would get English although the club plays in Swedish. The language switch stores the
choice in a cookie, which LocaleMiddleware still honours; only the browser's guess is ignored.
"""

from __future__ import annotations


class SwedishFirstMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return self.get_response(request)
