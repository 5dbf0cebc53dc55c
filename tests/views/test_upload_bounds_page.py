"""The upload page refuses a protocol file beyond a protocol's bounds with a message and saves
nothing, and does not repeat what the file holds back to the page (the bounds themselves are
tests/files/test_upload_bounds.py)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests import factories as f
from tests.support.upload_files import one_wide_row, row_number_of_digits


def uploaded(client, data: bytes):
    """(the match, the page's answer) after its secretary uploads `data` as protokoll.xlsx."""
    setup = f.protocol_setup()
    match = setup["match"]
    client.force_login(setup["secretary"])
    response = client.post(
        reverse("scoring:match-protocol-upload", args=[match.pk]),
        {"version": match.version, "file": SimpleUploadedFile("protokoll.xlsx", data)},
        HTTP_ACCEPT_LANGUAGE="sv",
    )
    return match, response


@pytest.mark.django_db
def test_the_upload_page_refuses_a_huge_sheet_with_a_message_and_saves_nothing(client):
    match, response = uploaded(client, one_wide_row())
    assert response.status_code == 200
    page = response.content.decode()
    assert "Filen kunde inte läsas. Inget sparades." in page
    assert "Filen är för stor för ett protokoll." in page
    match.refresh_from_db()
    assert match.deal_count == 0


@pytest.mark.django_db
def test_the_upload_page_does_not_repeat_a_row_number_of_4200_digits(client):
    _match, response = uploaded(client, row_number_of_digits(4200))
    page = response.content.decode()
    assert response.status_code == 200
    assert "givar; det här är inget protokoll." in page
    assert "9" * 20 not in page

