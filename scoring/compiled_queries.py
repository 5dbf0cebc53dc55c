"""ORM queries compiled to SQL once per process, then run with new values (issue 7: speed at scale).

Building a queryset and compiling it costs more than running it when the query is small and
frequent (the standings of a 20-team league: about a millisecond of Python per aggregate against a
tenth of one in the database). `run()` compiles a query once per *key* (what its SQL text depends
on) and database, with *sentinels* (values found nowhere else in its parameters) standing where
the values of each run go, and then substitutes the values of the run. A sentinel inside a
one-element list (`team_id__in=[SENTINEL]`) can be given a list of any length. scoring/cache.py
does the same with the cache stamps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection
from django.db.models import QuerySet

_compiled: dict[tuple, tuple[tuple[str, ...], tuple]] = {}


def run(
    key: tuple,
    build: Callable[[], QuerySet],
    values: dict[Any, Any],
    lists: dict[Any, Sequence] | None = None,
) -> tuple[list[str], list[tuple]]:
    """The column names and rows of `build()` with each sentinel of `values` replaced by its value
    (and each of `lists` by its values, as many placeholders as there are values)."""
    lists = lists or {}
    full_key = (connection.vendor, *key)
    compiled = _compiled.get(full_key)
    if compiled is None:
        sql, params = build().query.sql_with_params()
        pieces = tuple(sql.split("%s"))
        if len(pieces) != len(params) + 1:  # a literal "%s" in the SQL would make this ambiguous
            raise ValueError(f"cannot compile {key!r}: its placeholders are ambiguous")
        compiled = _compiled[full_key] = (pieces, tuple(params))
    pieces, params = compiled
    sql, arguments = [pieces[0]], []
    for piece, param in zip(pieces[1:], params):
        if _is_sentinel(param, lists):
            items = [_like(param, item) for item in lists[param]]
            sql.append(", ".join(["%s"] * len(items)))
            arguments.extend(items)
        else:
            sql.append("%s")
            arguments.append(_like(param, values[param]) if _is_sentinel(param, values) else param)
        sql.append(piece)
    with connection.cursor() as cursor:
        cursor.execute("".join(sql), arguments)
        return [column[0] for column in cursor.description], cursor.fetchall()


def _is_sentinel(param, sentinels: dict) -> bool:
    # Sentinels are whole numbers (psycopg's Int2, Int4... are ints); a boolean is never one.
    return isinstance(param, int) and not isinstance(param, bool) and param in sentinels


def _like(sentinel, value):
    """The value in the sentinel's type (psycopg binds an Int2 as a smallint, an int as a bigint)."""
    if value is None or type(sentinel) is int:
        return value
    return type(sentinel)(value)
