"""`protocol import` reads the Swedish headings the site's workbooks write, as well as the
interchange columns."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.factories import protocol_setup

pytestmark = pytest.mark.django_db

SWEDISH_CSV = (
    "Giv;Hemma kortpoäng;Hemma rena canastor;Hemma blandade canastor;Borta kortpoäng;Gick ut;Given slutade\n"
    "1;485;2;1;-40;hemma;utgång\n"
    "2;150;1;0;200;;talong\n"
).replace(";", ",")


def test_import_accepts_the_swedish_headings(tmp_path):
    setup = protocol_setup()
    path = tmp_path / "protokoll.csv"
    path.write_text(SWEDISH_CSV, encoding="utf-8")

    call_command("protocol", "import", str(path), "--match", str(setup["match"].pk), "--user", "sekreterare")

    match = setup["match"]
    match.refresh_from_db()
    assert match.deal_count == 2
    assert (match.home_total, match.away_total) == (1885 + 650, -40 + 200)
