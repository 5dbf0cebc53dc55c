"""Health check for load balancers and process managers: "ok" when the database answers."""

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from scoring.selectors.health import database_answers


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    if not database_answers():
        return HttpResponse("database unavailable", status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")
