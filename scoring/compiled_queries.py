"""ORM queries compiled to SQL once per process, then run with new values (issue 7: speed at scale).

Building a queryset and compiling it costs more than running it when the query is small and
frequent (the standings of a 20-team league: about a millisecond of Python per aggregate against a
tenth of one in the database). `run()` compiles a query once per *key* (what its SQL text depends
on) and database, with *sentinels* (values found nowhere else in its parameters) standing where
the values of each run go, and then substitutes the values of the run. A sentinel inside a
one-element list (`team_id__in=[SENTINEL]`) can be given a list of any length. scoring/cache.py
does the same with the cache stamps. `read()` and `get_one()` read model instances
(with their select_related rows) by a query compiled once: the protocol pages read their match and
its deals so. `insert()` and `update()` write one row the same way: saving a deal writes the deal,
the audit entry and the match's totals so.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model, Q, QuerySet, sql
from django.db.models.query import get_related_populators

_compiled: dict[tuple, tuple[tuple[str, ...], tuple]] = {}


# -- model instances with their select_related rows ----------------------------------------------


@dataclass(frozen=True)
class _CompiledRead:
    sql: str
    params: tuple
    places: tuple[tuple[int, int], ...]  # (sentinel, its position in params) for each place
    compiler: Any
    converters: dict
    init_list: list[str]
    fields: slice  # the model's own columns in a row
    populators: list
    annotations: tuple[tuple[str, int], ...]  # name, position in a row
    model: type[Model]


# Per database connection (a compiler keeps the connection it was made for).
_reads: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def get_one(key: tuple, build: Callable[[], QuerySet], values: dict[int, Any]) -> Model | None:
    """The one instance of `build()` (see read()), or None."""
    rows = read(key, build, values)
    return rows[0] if rows else None


def read(key: tuple, build: Callable[[], QuerySet], values: dict[int, Any]) -> list[Model]:
    """The instances of `build()`, with their select_related rows and annotations, where `build`
    makes the queryset with sentinels (the keys of `values`: whole numbers found nowhere else in
    its parameters), each replaced by its value wherever it is.

    The SQL is compiled once per *key* and connection, which is most of the time an ORM read takes
    (0.35 of 0.4 ms on SQLite). The rows become instances as Django's own iteration makes them:
    the database values converted by the fields' converters, Model.from_db, the related rows
    populated, the annotations set as attributes.
    """
    database = connections[DEFAULT_DB_ALIAS]  # this thread's connection (`connection` is a proxy)
    reads = _reads.setdefault(database, {})
    compiled = reads.get(key)
    if compiled is None:
        compiled = reads[key] = _compile_read(build().using(DEFAULT_DB_ALIAS), tuple(values))
    params = list(compiled.params)
    for sentinel, position in compiled.places:
        params[position] = _like(sentinel, values[sentinel])
    with database.cursor() as cursor:
        cursor.execute(compiled.sql, params)
        rows = cursor.fetchall()
    if compiled.converters:
        rows = compiled.compiler.apply_converters(rows, compiled.converters)
    instances = []
    for row in rows:
        instance = compiled.model.from_db(DEFAULT_DB_ALIAS, compiled.init_list, row[compiled.fields])
        for populator in compiled.populators:
            populator.populate(row, instance)
        for name, position in compiled.annotations:
            setattr(instance, name, row[position])
        instances.append(instance)
    return instances


def _compile_read(queryset: QuerySet, sentinels: tuple[int, ...]) -> _CompiledRead:
    compiler = queryset.query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()  # fills compiler.select and klass_info, as iterating would
    places = tuple(
        (param, index) for index, param in enumerate(params) if _is_sentinel(param, dict.fromkeys(sentinels))
    )
    missing = set(sentinels) - {sentinel for sentinel, _index in places}
    if missing:
        raise ValueError(f"sentinels not in the query: {sorted(missing)}")
    select, klass_info = compiler.select, compiler.klass_info
    first, last = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
    return _CompiledRead(
        sql=sql,
        params=tuple(params),
        places=places,
        compiler=compiler,
        converters=compiler.get_converters([column[0] for column in select[: compiler.col_count]]),
        init_list=[column[0].target.attname for column in select[first:last]],
        fields=slice(first, last),
        populators=get_related_populators(klass_info, select, queryset.db),
        annotations=tuple(compiler.annotation_col_map.items()),
        model=klass_info["model"],
    )


# -- writing one row ------------------------------------------------------------------------------

# Per database connection: model -> (INSERT statement, its fields, what the database returns).
_inserts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# Per database connection: (model, names set) -> UPDATE statement.
_updates: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def insert(instance: Model) -> Model:
    """INSERT `instance` (a model with an automatic primary key and no signal receivers) as
    Model.save(force_insert=True) does, by SQL compiled once per model and connection; sets its
    primary key. Saving a deal writes two rows so (issue 7)."""
    model = type(instance)
    meta = model._meta
    database = connections[DEFAULT_DB_ALIAS]
    inserts = _inserts.setdefault(database, {})
    compiled = inserts.get(model)
    if compiled is None:
        fields = [field for field in meta.local_concrete_fields if field is not meta.auto_field]
        query = sql.InsertQuery(model)
        query.insert_values(fields, [instance])
        compiler = query.get_compiler(using=DEFAULT_DB_ALIAS)
        compiler.returning_fields = [meta.pk]
        [(statement, params)] = compiler.as_sql()
        if statement.count("%s") != len(fields):
            raise ValueError(f"cannot compile the INSERT of {model.__name__}: its placeholders are not one per field")
        compiled = inserts[model] = (statement, fields, compiler.returning_params)
    statement, fields, returning = compiled
    values = [field.get_db_prep_save(field.pre_save(instance, True), connection=database) for field in fields]
    with database.cursor() as cursor:
        cursor.execute(statement, values)
        (pk,) = database.ops.fetch_returned_insert_columns(cursor, returning)
    instance.pk = meta.pk.to_python(pk)
    instance._state.adding = False
    instance._state.db = DEFAULT_DB_ALIAS
    return instance


def update(model: type[Model], values: dict[str, Any], where: dict[str, Any]) -> int:
    """`model.objects.filter(**where).update(**values)` for plain field values, by SQL compiled
    once per model, field names and connection; the number of rows changed."""
    database = connections[DEFAULT_DB_ALIAS]
    updates = _updates.setdefault(database, {})
    key = (model, tuple(values), tuple(where))
    compiled = updates.get(key)
    fields = [model._meta.get_field(name) for name in values]
    if compiled is None:
        query = sql.UpdateQuery(model)
        query.add_update_values(values)
        query.add_q(Q(**where))
        statement, params = query.get_compiler(using=DEFAULT_DB_ALIAS).as_sql()
        if statement.count("%s") != len(values) + len(where) or len(params) != len(values) + len(where):
            raise ValueError(f"cannot compile the UPDATE of {model.__name__}: its placeholders are ambiguous")
        compiled = updates[key] = statement
    arguments = [field.get_db_prep_save(value, connection=database) for field, value in zip(fields, values.values())]
    # The WHERE's values in the order Q() gives its keyword arguments: sorted by name.
    arguments += [
        (model._meta.pk if name == "pk" else model._meta.get_field(name)).get_db_prep_value(value, database)
        for name, value in sorted(where.items())
    ]
    with database.cursor() as cursor:
        cursor.execute(compiled, arguments)
        return cursor.rowcount


# -- rows of a query with new values ---------------------------------------------------------------


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
