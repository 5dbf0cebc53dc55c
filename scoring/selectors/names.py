"""Names sorted the Swedish way (Å, Ä, Ö after Z) in the database or in Python."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import F, QuerySet
from django.db.models.functions import Collate

from scoring.engine.standings import swedish_sort_key

SWEDISH_COLLATION = "sv-SE-x-icu"


# -- names --------------------------------------------------------------------------------------


def order_by_name(queryset: QuerySet, field: str = "name") -> list:
    """The rows of `queryset` sorted by `field` the Swedish way (Å, Ä, Ö after Z), as a list.

    PostgreSQL sorts with the ICU collation; other databases (SQLite) get a Python sort with the
    engine's key. Either way the result is a list, so callers see one type.
    """
    if connection.vendor == "postgresql":
        return list(queryset.order_by(Collate(F(field), SWEDISH_COLLATION), "pk"))

    def key(obj: Any) -> tuple[str, str]:
        value = obj
        for part in field.split("__"):
            value = value[part] if isinstance(value, dict) else getattr(value, part)
        return swedish_sort_key(value or "")

    return sorted(queryset, key=key)
