"""Caching of the standings and the public pages, and its invalidation when a result changes.

Terms:
- a *stamp* is a short string that changes whenever anything a cached read depends on may have
  changed. A competition's stamp is read from the database in one small query: its own settings
  (name, season, visibility, rule and scoring presets and overrides), and of its matches the latest
  `updated_at`, their number and the sum of their `version`s (every service claims a new version and
  saves the row), the number of its teams and of its byes. A match's stamp is the match row's own
  and its competition's settings; a team's stamp is its row plus the same figures over its
  matches. Because the stamp comes
  from the database, a result written by another process (another web worker, a management
  command) shows at once although the cache (LocMemCache by default) belongs to one process.
- a *version counter* lives in the cache and joins every stamp: `bump_competition()` (the match
  services call it after a change commits, through `bump_competition_on_commit`) and `bump_all()`
  (for changes the stamp cannot see: a club, team or player renamed) make every entry built before
  them unreachable at once in this process.
- entries also expire after `TIMEOUT` seconds, which bounds anything time-dependent on a page (a
  round shown as live on its day) and changes made outside the services in another process.

Pages are cached only for 200 answers, per language, full path and *viewer class* (viewer_class):
what the page's content depends on of who looks at it. Visitors, captains and players share a
copy; a secretary's clubs or an admin make a class of their own (they may see private
competitions and blank protocols to print). Whoever has a message waiting gets a fresh page. What
depends on the signed-in user himself, his name and menu (marked in templates/base.html), is
stored as a placeholder and made anew for every answer, and so is the CSRF token a page carries
(the language switch posts a form): the visitor's own token, exactly as a fresh render gives it.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F, Func, OuterRef, Q, Subquery
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.middleware.csrf import _unmask_cipher_token, get_token
from django.utils.translation import get_language

from scoring import permissions
from scoring.models import Bye, Competition, Match, Team

__all__ = [
    "TIMEOUT",
    "bump_all",
    "bump_competition",
    "bump_competition_on_commit",
    "cached_by_competition",
    "competition_stamp",
    "match_stamp",
    "public_page",
    "team_stamp",
]

PREFIX = "scoring:v1"
# Seconds an entry lives at most (settings.SCORING_CACHE_SECONDS overrides).
TIMEOUT = 300
CSRF_PLACEHOLDER = "\x00scoring-csrf-token\x00"
# Headers a cached page keeps; cookies and the CSP are added anew by the middleware on each answer.
KEPT_HEADERS = ("Content-Type", "Content-Language", "X-Frame-Options")
# The parts of the layout that depend on who is signed in, marked in templates/base.html, and the
# templates that make them for a request.
VIEWER_TEMPLATES = {"tools": "_viewer_tools.html", "nav": "_viewer_nav.html"}
VIEWER_PART = re.compile(rb"<!--viewer:(\w+)-->.*?<!--/viewer:\1-->", re.S)
VIEWER_PLACEHOLDER = b"\x00scoring-viewer-%s\x00"
# A masked CSRF token: 64 letters and digits (django.middleware.csrf.CSRF_TOKEN_LENGTH).
TOKEN_PATTERN = re.compile(rb"(?<![A-Za-z0-9])[A-Za-z0-9]{64}(?![A-Za-z0-9])")


def timeout() -> int:
    return int(getattr(settings, "SCORING_CACHE_SECONDS", TIMEOUT))


# -- version counters ---------------------------------------------------------------------------


def _counter_key(name: str) -> str:
    return f"{PREFIX}:counter:{name}"


def _counter(name: str) -> int:
    return cache.get(_counter_key(name), 0)


def _bump(name: str) -> None:
    key = _counter_key(name)
    # The counter never expires on its own: forgetting it would bring old entries back to life.
    if not cache.add(key, 1, None):
        try:
            cache.incr(key)
        except ValueError:  # evicted between add and incr
            cache.set(key, 1, None)


def bump_competition(competition_id: int) -> None:
    """Everything cached about this competition (standings, its pages, its matches' pages) is old."""
    _bump(f"competition:{competition_id}")


def bump_competition_on_commit(competition_id: int) -> None:
    """Bump once the current transaction commits (nothing happens if it rolls back)."""
    transaction.on_commit(lambda: bump_competition(competition_id))


def bump_all() -> None:
    """Everything cached is old (a club, team or player changed: names show on many pages)."""
    _bump("all")


# -- stamps -------------------------------------------------------------------------------------


def _aggregate(queryset, function: str, field: str = "pk") -> Subquery:
    """`SELECT function(field) FROM queryset` as a subquery (a Func, so no GROUP BY is added)."""
    return Subquery(
        queryset.order_by().annotate(value=Func(F(field), function=function)).values("value")[:1]
    )


def _competition_figures(ref: str) -> dict[str, Any]:
    """Annotations over a competition's matches, teams and byes; `ref` names its id in the outer query."""
    matches = Match.objects.filter(competition_id=OuterRef(ref))
    teams = Competition.teams.through.objects.filter(competition_id=OuterRef(ref))
    byes = Bye.objects.filter(round__competition_id=OuterRef(ref))
    return {
        "_last": _aggregate(matches, "MAX", "updated_at"),
        # COUNT(updated_at), not COUNT(id): every value is in the index match_comp_stamp.
        "_matches": _aggregate(matches, "COUNT", "updated_at"),
        "_versions": _aggregate(matches, "SUM", "version"),
        "_teams": _aggregate(teams, "COUNT"),
        "_byes": _aggregate(byes, "COUNT"),
    }


COMPETITION_FIELDS = (
    "name", "season", "kind", "is_public", "requires_confirmation", "rules_key", "rules_overrides",
    "points_key", "points_overrides", "organiser_id",
)
FIGURES = ("_last", "_matches", "_versions", "_teams", "_byes")


def _digest(*parts: Any) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


# The stamp queries are built once per process with the ORM and then run as plain SQL: building
# a query with five subqueries costs more than running it, and a cached page should cost about one
# small query. A sentinel id marks where the real id goes among the parameters.
_SENTINEL = -707_070_707
_compiled: dict[tuple[str, str], tuple[str, tuple[int, ...], tuple]] = {}


def _fetch_row(name: str, build: Callable[[int], Any], object_id: int) -> tuple | None:
    key = (name, connection.vendor)
    compiled = _compiled.get(key)
    if compiled is None:
        sql, params = build(_SENTINEL).query.sql_with_params()
        positions = tuple(i for i, value in enumerate(params) if value == _SENTINEL)
        compiled = _compiled[key] = (sql, positions, tuple(params))
    sql, positions, params = compiled
    values = list(params)
    for position in positions:
        values[position] = int(object_id)
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        return cursor.fetchone()


def _competition_row(competition_id: int):
    return (
        Competition.objects.filter(pk=competition_id)
        .annotate(**_competition_figures("pk"))
        .values_list(*COMPETITION_FIELDS, *FIGURES)
        .order_by()
    )


def _match_row(match_id: int):
    # A match page shows the match and its competition's name and rules, not the other matches.
    fields = [f"competition__{name}" for name in COMPETITION_FIELDS]
    return (
        Match.objects.filter(pk=match_id)
        .values_list("competition_id", "updated_at", "version", *fields)
        .order_by()
    )


def _team_row(team_id: int):
    matches = Match.objects.filter(Q(home_team_id=OuterRef("pk")) | Q(away_team_id=OuterRef("pk")))
    memberships = Competition.teams.through.objects.filter(team_id=OuterRef("pk"))
    return (
        Team.objects.filter(pk=team_id)
        .annotate(
            _last=_aggregate(matches, "MAX", "updated_at"),
            _matches=_aggregate(matches, "COUNT"),
            _versions=_aggregate(matches, "SUM", "version"),
            _public=_aggregate(memberships.filter(competition__is_public=True), "COUNT"),
            _competitions=_aggregate(memberships, "COUNT"),
        )
        .values_list(
            "name", "club_id", "player_one_id", "player_two_id", "player_one__name", "player_two__name",
            "_last", "_matches", "_versions", "_public", "_competitions",
        )
        .order_by()
    )


def competition_stamp(competition_id: int) -> str | None:
    """The competition's stamp, or None when there is no such competition. One query."""
    row = _fetch_row("competition", _competition_row, competition_id)
    if row is None:
        return None
    return _digest(row, _counter(f"competition:{competition_id}"), _counter("all"))


def match_stamp(match_id: int) -> str | None:
    """A match's stamp: its row and its competition's settings. One query."""
    row = _fetch_row("match", _match_row, match_id)
    if row is None:
        return None
    return _digest(row, _counter(f"competition:{row[0]}"), _counter("all"))


def team_stamp(team_id: int) -> str | None:
    """A team's stamp: its row, its players, its matches and its public competitions. One query."""
    row = _fetch_row("team", _team_row, team_id)
    if row is None:
        return None
    return _digest(row, _counter("all"))


# -- cached reads -------------------------------------------------------------------------------


def cached_by_competition(function: Callable) -> Callable:
    """Cache a read `function(competition, **kwargs)` under the competition's stamp.

    The result must be picklable. One entry per competition and arguments holds the stamp it was
    made under and is replaced when the stamp changes, so old results take no room. The stamp is
    read in the caller's transaction, so it sees that transaction's own writes; an entry made from
    uncommitted rows carries a stamp that a rollback never brings back.
    """

    @functools.wraps(function)
    def wrapper(competition, **kwargs):
        stamp = competition_stamp(competition.pk)
        if stamp is None:
            return function(competition, **kwargs)
        key = f"{PREFIX}:{function.__module__}.{function.__qualname__}:{competition.pk}:" + _digest(
            sorted(kwargs.items())
        )
        entry = cache.get(key)
        if entry is not None and entry[0] == stamp:
            return entry[1]
        value = function(competition, **kwargs)
        cache.set(key, (stamp, value), timeout())
        return value

    wrapper.uncached = function
    return wrapper


def _cacheable_request(request: HttpRequest) -> bool:
    """GET and HEAD, without a message waiting to be shown (the layout shows it once)."""
    return request.method in ("GET", "HEAD") and "messages" not in request.COOKIES


def viewer_class(request: HttpRequest) -> str:
    """What a public page's content depends on of who is looking: which competitions they see
    (public ones; a secretary also those their clubs organise; an admin all) and which download
    links they get (a secretary the blank protocols of the matches they keep). Visitors, captains
    and players see the same page; a secretary's clubs, or an admin, make a class of their own."""
    user = getattr(request, "user", None)
    if not getattr(user, "is_authenticated", False):
        return "visitor"
    if user.is_superuser:
        return "admin"
    clubs = sorted(permissions.secretary_club_ids(user))
    return "secretary:" + ",".join(map(str, clubs)) if clubs else "visitor"


def _viewer_parts(content: bytes) -> tuple[bytes, dict[bytes, bytes]]:
    """The page with each part that depends on who is signed in (marked in templates/base.html)
    replaced by a placeholder naming it, and the parts as they were."""
    parts: dict[bytes, bytes] = {}

    def take(found: re.Match) -> bytes:
        parts[found.group(1)] = found.group(0)
        return VIEWER_PLACEHOLDER % found.group(1)

    return VIEWER_PART.sub(take, content), parts


def _made_parts(request: HttpRequest, content: bytes) -> dict[bytes, bytes]:
    """The parts of a cached page that depend on who is signed in, made for this request."""
    parts = {}
    for name, template_name in VIEWER_TEMPLATES.items():
        key = name.encode()
        if VIEWER_PLACEHOLDER % key in content:
            part = render_to_string(template_name, request=request).encode()
            parts[key] = b"<!--viewer:%s-->%s<!--/viewer:%s-->" % (key, part, key)
    return parts


def _with_parts(content: bytes, parts: dict[bytes, bytes]) -> bytes:
    for name, part in parts.items():
        content = content.replace(VIEWER_PLACEHOLDER % name, part)
    return content


def public_page(stamp_of: Callable[[int], str | None], kwarg: str = "pk") -> Callable:
    """A view decorator: serve a copy made under the same stamp for the same viewer class.

    `stamp_of(view_kwargs[kwarg])` names what the page shows (competition_stamp, match_stamp,
    team_stamp); a missing object (None) is never cached, the view answers (404). One entry per
    page, language and viewer class (viewer_class) holds the stamp it was made under and is
    replaced when the stamp changes. What depends on the signed-in user himself (his name, his
    menu, his CSRF token) is made anew for every answer.
    """

    def decorator(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs):
            if not _cacheable_request(request):
                return view(request, *args, **kwargs)
            stamp = stamp_of(kwargs[kwarg])
            if stamp is None:
                return view(request, *args, **kwargs)
            anonymous = not getattr(getattr(request, "user", None), "is_authenticated", False)
            key = f"{PREFIX}:page:{_digest(request.get_full_path(), get_language(), viewer_class(request))}"
            cached = cache.get(key)
            if cached is not None and cached[0] == stamp:
                _stamp, content, headers, anonymous_parts = cached
                if anonymous and anonymous_parts is not None:
                    parts = anonymous_parts  # the same for every visitor: made once
                else:
                    parts = _made_parts(request, content)
                    if anonymous:
                        cache.set(key, (stamp, content, headers, parts), timeout())
                content = _with_parts(content, parts)
                response = HttpResponse(content.replace(CSRF_PLACEHOLDER.encode(), get_token(request).encode()))
                for name, value in headers:
                    response[name] = value
                return response
            response = view(request, *args, **kwargs)
            if hasattr(response, "render") and callable(response.render):
                response = response.render()
            if response.status_code == 200 and not response.streaming and not response.cookies:
                content, parts = _viewer_parts(_with_token_placeholder(request, response.content))
                headers = [(name, response[name]) for name in KEPT_HEADERS if response.has_header(name)]
                cache.set(key, (stamp, content, headers, parts if anonymous else None), timeout())
            return response

        return wrapped

    return decorator


def _with_token_placeholder(request: HttpRequest, content: bytes) -> bytes:
    """The page with every masked CSRF token of this request replaced by the placeholder."""
    secret = request.META.get("CSRF_COOKIE")
    if not secret:
        return content

    def replace(found: re.Match) -> bytes:
        token = found.group(0).decode()
        try:
            matches = _unmask_cipher_token(token) == secret
        except Exception:  # not a token after all
            matches = False
        return CSRF_PLACEHOLDER.encode() if matches else found.group(0)

    return TOKEN_PATTERN.sub(replace, content)
