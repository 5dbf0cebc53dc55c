"""`python manage.py export --competition ID --format xlsx|pdf -o FILE` and `protocol export --format pdf`."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from openpyxl import load_workbook

from tests.support.readers import pdf_text

pytestmark = pytest.mark.django_db


def test_export_workbook(played, tmp_path):
    target = tmp_path / "serie.xlsx"

    call_command("export", "--competition", str(played["competition"].pk), "--format", "xlsx", "-o", str(target))

    workbook = load_workbook(target)
    assert workbook.sheetnames == ["Tabell", "Omgång 1", "Statistik", "Rekord", "Givar"]  # the site's language: Swedish
    assert workbook["Givar"].max_row == 1 + 8


def test_export_pdf_has_standings_and_results(played, tmp_path):
    target = tmp_path / "serie.pdf"

    call_command("export", "--competition", str(played["competition"].pk), "--format", "pdf", "-o", str(target))

    text = pdf_text(target.read_bytes())
    assert "Tabell" in text and "Omgång 1" in text and "Hemmalaget" in text


def test_unknown_competition_is_an_error(db, tmp_path):
    with pytest.raises(CommandError, match="999999"):
        call_command("export", "--competition", "999999", "--format", "pdf", "-o", str(tmp_path / "x.pdf"))


def test_protocol_export_as_pdf_uses_the_match_protocol(played, tmp_path):
    target = tmp_path / "protokoll.pdf"

    call_command("protocol", "export", "--match", str(played["match"].pk), "--format", "pdf", "-o", str(target))

    text = pdf_text(target.read_bytes())
    assert "Matchprotokoll" in text and "Underskrift, hemmalagets kapten" in text


def test_export_to_standard_output(played, capsysbinary):
    call_command("export", "--competition", str(played["competition"].pk), "--format", "xlsx", "-o", "-")

    assert capsysbinary.readouterr().out.startswith(b"PK\x03\x04")  # an xlsx is a zip file
