"""HTTP keeps the public pages (docs/architecture.md, "What is kept (caching)").

Every public page, live part, feed, calendar, embed and document is named below with the versions
it is drawn from (scoring.selectors.versions, moved by the services in their transactions). Its
validator (ETag) is made of those, the language, who looks, the day (a round is live on its day)
and the code's version. A GET whose If-None-Match holds the validator is answered 304 before the
view runs when anyone may see the page; a page of a competition that is not public is answered
only after its view has checked who asks (an anonymous visitor gets its 404 whatever validator
they send), and so is `If-None-Match: *`, which holds for a page only if there is one. Any other
GET gets the page with its ETag and, for anonymous visitors,
`Cache-Control: public, max-age=PUBLIC_MAX_AGE`, so the browser and nginx's proxy cache
(deploy/nginx-proxy.conf) keep it for that long. Signed-in pages stay `private, no-store`
(scoring.web.middleware.SignedInNoStoreMiddleware).

An anonymous answer carries nothing per visitor: its body has no CSRF token (templates/base.html
asks for one only for a signed-in person), it sets no cookie, and it does not vary on Cookie
(it is the same for every anonymous visitor, whatever cookies they send).

The hall clock is left out on purpose: its page carries the server's current time, from which the
display counts down.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import quote_etag
from django.utils.translation import get_language

from scoring.selectors import versions
from scoring.site_address import site_url


def one_competition(kwargs):
    return versions.competition_version(kwargs["pk"])


def one_match(kwargs):
    return versions.match_version(kwargs["pk"])


def one_match_document(kwargs):
    return versions.match_document_version(kwargs["pk"])


# Each public address (its URL name in the "scoring" namespace) and the versions it is drawn from;
# the documents too (scoring.views.exports stores each made copy under the same versions).
COMPETITION_PAGES = [
    "competition-detail", "competition-live", "competition-rounds", "competition-embed", "competition-feed",
    "competition-clubs", "competition-players", "round-detail", "round-live", "standings-pdf", "standings-xlsx",
    "competition-pdf", "competition-xlsx", "round-results-pdf", "round-results-xlsx",
]  # fmt: skip
MATCH_PAGES = ["match-detail", "match-live"]
# A match's documents show the match and the names and rules it is played under, not the rest of
# its competition: another match's deal leaves their validator and stored copy as they were.
MATCH_DOCUMENTS = ["match-protocol-pdf", "match-protocol-xlsx", "match-protocol-csv"]
PUBLIC_PAGES = {
    **dict.fromkeys(COMPETITION_PAGES, one_competition),
    **dict.fromkeys(MATCH_PAGES, one_match),
    **dict.fromkeys(MATCH_DOCUMENTS, one_match_document),
    **dict.fromkeys(["team-detail", "team-calendar"], lambda kwargs: versions.team_version(kwargs["pk"])),
    **dict.fromkeys(["rankings", "ranking-player", "ranking-pair"], lambda kwargs: versions.rankings_version()),
    "home": lambda kwargs: versions.start_page_version(),
    "competition-list": lambda kwargs: versions.all_competitions_version(),
    "player-detail": lambda kwargs: versions.player_version(kwargs["pk"]),
    "club-list": lambda kwargs: versions.all_clubs_version(),
    "club-detail": lambda kwargs: versions.club_version(kwargs["pk"]),
    # Drawn from the code alone (the engine's rule sets): the code's version is their validator.
    **dict.fromkeys(["rating-explained", "rules-index", "rules"], lambda kwargs: ()),
}  # fmt: skip
# Pages whose view asks who may see them (a competition that is not public is its organiser's):
# their versions say whether the competition is public, (version, is_public), and are None when
# it is not there (scoring.selectors.versions).
BEHIND_A_COMPETITION = frozenset(COMPETITION_PAGES + MATCH_PAGES + MATCH_DOCUMENTS)


def open_to_all(url_name: str, page_versions) -> bool:
    """Whether anyone may see the page, so that its 304 may come before its view: a page of one
    competition or match only when the competition is there and public; the others always."""
    if url_name in BEHIND_A_COMPETITION:
        return page_versions is not None and page_versions[1]
    return True


def code_version(base: Path) -> str:
    """What the code under `base` draws pages with: the content of the files of the app, its
    templates, static files and translations, by their paths under `base`, and the settings pages
    read. A deployment changes it, so no browser or proxy keeps a page drawn by the code before;
    servers started from copies of the same code agree, wherever and whenever the copies were made."""
    digest = hashlib.sha256()
    for folder in ("scoring", "templates", "static", "locale", "canastaclub"):
        for path in sorted((base / folder).rglob("*")):
            # Not the compiled files: a process writing them must not change the others' validators.
            name = path.relative_to(base)
            if path.is_file() and "__pycache__" not in name.parts:
                digest.update(f"{name.as_posix()}:{hashlib.sha256(path.read_bytes()).hexdigest()};".encode())
    digest.update(repr((settings.PUBLIC_MAX_AGE, getattr(settings, "SCORING_LIVE_POLL_SECONDS", None))).encode())
    return digest.hexdigest()[:16]


# Once, as the process starts: the code it runs is the code it read then.
CODE_VERSION = code_version(Path(settings.BASE_DIR))


def page_validator(url_name: str, kwargs: dict, user) -> tuple[str, bool] | None:
    """The ETag (unquoted) of the public page `url_name` for `user` and whether anyone may see the
    page (open_to_all), or None for another page."""
    page_versions = PUBLIC_PAGES.get(url_name)
    if page_versions is None:
        return None
    drawn_from = page_versions(kwargs)
    viewer = user.pk if user.is_authenticated else 0
    # Not the address: a page and its live part share the validator, so the page hands it to the
    # part's first poll (templates/scoring/public/_match_live.html).
    parts = (drawn_from, get_language(), viewer, timezone.localdate().isoformat(), CODE_VERSION)
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32], open_to_all(url_name, drawn_from)


def document_key(url_name: str, kwargs: dict, parameters: tuple) -> str | None:
    """The key a public document is stored under: its versions, the parameters it reads (checked
    by the view), the language, the day and the code; not who asks (each sees the same document).
    None for a document that is not public (made every time)."""
    page_versions = PUBLIC_PAGES.get(url_name)
    if page_versions is None:
        return None
    # The site's address too: the links a document prints follow the request's in debug
    # (scoring.site_address).
    parts = (url_name, sorted(kwargs.items()), parameters, page_versions(kwargs), get_language(),
             timezone.localdate().isoformat(), CODE_VERSION, site_url())  # fmt: skip
    return "document:" + hashlib.sha256(repr(parts).encode()).hexdigest()


def resolved_validator(request) -> tuple[str, bool] | None:
    match = request.resolver_match
    if match is None or match.namespace != "scoring" or request.method not in ("GET", "HEAD"):
        return None
    return page_validator(match.url_name, match.kwargs, request.user)


def anonymous_headers(request, response) -> None:
    """What an anonymous answer of a public page says of itself: kept for PUBLIC_MAX_AGE seconds
    by anyone, the same whatever cookies were sent."""
    if request.user.is_authenticated:
        return
    if response.cookies:
        # Something of this visitor's own (a message shown once): kept by nobody else.
        patch_cache_control(response, private=True, no_cache=True)
        return
    patch_cache_control(response, public=True, max_age=settings.PUBLIC_MAX_AGE)
    vary = [v.strip() for v in response.get("Vary", "").split(",") if v.strip() and v.strip().lower() != "cookie"]
    if vary:
        response["Vary"] = ", ".join(vary)
    elif "Vary" in response:
        del response["Vary"]


class PublicCacheMiddleware:
    """Validators, 304s and Cache-Control for the pages of PUBLIC_PAGES (module docstring). It sits
    outside the session and CSRF middleware, so it sees their Vary headers on the way out."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        etag = getattr(request, "public_etag", None)
        if etag is not None and response.status_code in (200, 304):
            response["ETag"] = quote_etag(etag)
            anonymous_headers(request, response)
        if etag is not None and response.status_code == 200:
            # A page its view has let this visitor see (process_view left it to the view): 304
            # now when the visitor holds the validator, as Django's ConditionalGetMiddleware does.
            response = get_conditional_response(request, etag=quote_etag(etag), response=response)
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        found = resolved_validator(request)
        if found is None:
            return None
        etag, open_to_anyone = found
        request.public_etag = etag
        if not open_to_anyone or request.headers.get("If-None-Match", "").strip() == "*":
            # Who may see the page is the view's to say (a competition that is not public), and
            # whether there is one at all, which "*" asks: the view runs, and __call__ answers 304
            # after it when the visitor may see the page and holds it.
            return None
        # 304 when the visitor holds this validator: nothing is read or drawn.
        return get_conditional_response(request, etag=quote_etag(etag))
