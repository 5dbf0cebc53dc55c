"""One word for each meaning (docs/architecture.md): "table" is the table a match is played at
(Match.table, TableLink), django-tables2's tables are the pages' listings, the club table
(klubbtabell) is club standings; "version" is a match's form concurrency number, a page's counter
of changes is an edition."""

from pathlib import Path

from django.apps import apps

SCORING = Path(__file__).resolve().parents[2] / "scoring"


def test_the_pages_tables_are_listings():
    modules = [path.relative_to(SCORING).as_posix() for path in SCORING.rglob("*.py") if "migrations" not in path.parts]
    assert "listings.py" in modules and "exports/listings.py" in modules
    assert [module for module in modules if Path(module).stem.startswith(("tables", "table_rows", "club_table"))] == []


def test_only_a_match_has_a_version_and_pages_have_editions():
    with_version = sorted(model.__name__ for model in apps.get_app_config("scoring").get_models()
                          if any(field.name == "version" for field in model._meta.get_fields()))  # fmt: skip
    with_edition = sorted(model.__name__ for model in apps.get_app_config("scoring").get_models()
                          if any(field.name == "edition" for field in model._meta.get_fields()))  # fmt: skip
    assert with_version == ["Match"]
    assert with_edition == ["Championship", "Club", "Competition"]
