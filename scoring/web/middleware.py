"""Swedish first: the language is the address's (i18n_patterns: Swedish at the bare addresses,
English under /en/), and nothing else.

Django's LocaleMiddleware would also follow the browser's Accept-Language header and a language
cookie, so a phone set to English would get English although the club plays in Swedish, and one
address would answer differently from one visitor to the next, which no cache could keep. Both are
ignored, and the answer does not say it varies on Accept-Language.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.defaults import bad_request

from scoring.services import DomainError
from scoring.site_address import follow_request

logger = logging.getLogger(__name__)


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


class NulCharacterMiddleware:
    """A NUL character (`%00`) in the address, a query value, a posted field or a cookie is never
    anything the site asked for, and PostgreSQL cannot hold one in a string ("A string literal
    cannot contain NUL characters"): a filter or search of the admin, a table link's client id or
    a session cookie would reach a query with it and end in a server error. Such a request gets
    the site's bad-request page (400.html, 400 Bad Request) before anything reads it. (An
    uploaded file's name has lost its NUL in Django's parser already.)"""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if self.carries_nul(request):
            logger.info("Refused %s %r: a NUL character in the request", request.method, request.path)
            return bad_request(request, exception=None)
        return self.get_response(request)

    @staticmethod
    def carries_nul(request) -> bool:
        texts = [request.path_info, *request.COOKIES.keys(), *request.COOKIES.values()]
        forms = [request.GET]
        if request.method == "POST":
            try:
                forms.append(request.POST)
            except OSError:
                # The body could not be read (the client went away): CSRF's check, which reads the
                # form next, answers that as it always does.
                pass
        for form in forms:
            for key, values in form.lists():
                texts.append(key)
                texts.extend(values)
        return any("\x00" in text for text in texts)


class DomainErrorMiddleware:
    """A refusal by a service (services.DomainError: a closed season, a match in another state, a
    stale version, ...) is the user's to act on, never a server error: whichever view let it
    through, it becomes a page with the refusal in the user's language and 409 Conflict (the
    request conflicts with the present state of what it changes). The service's transaction has
    been rolled back by then, so nothing was written."""

    status = 409
    template_name = "refused.html"

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, DomainError):
            return None
        logger.info("Refused %s %s: %s", request.method, request.path, exception)
        back = request.path if request.method != "GET" else ""
        return render(request, self.template_name, {"message": exception.message, "back": back}, status=self.status)


class SiteAddressFromRequestMiddleware:
    """In debug without SITE_URL, the links the site prints and mails (PDFs, e-mails, feeds) follow
    the host and port the request came to, not a guessed 127.0.0.1:8000 (scoring.site_address).
    With debug off, or SITE_URL set, it does nothing."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with follow_request(request):
            return self.get_response(request)
