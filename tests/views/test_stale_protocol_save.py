"""Two secretaries save the same match at once through the protocol page: the first wins, and the
second is told of the change with what they typed kept (the services' side of it is
tests/services/test_no_lost_data.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories as f
from tests.services.test_no_lost_data import in_progress


@pytest.mark.django_db
def test_the_second_secretary_sees_the_conflict_with_their_input_kept(client):
    """Through the protocol page: both load version v; the first save wins; the second gets 409, the
    conflict message, their typed deal still in the form, and the form now carries the new version
    so that saving again is a deliberate act."""
    s = f.protocol_setup()
    second = f.make_user("sekreterare2")
    s["home"].club.secretaries.add(second)
    match = in_progress(s)
    url = reverse("scoring:match-protocol", args=[match.pk])
    first_client, second_client = Client(), Client()
    first_client.force_login(s["secretary"])
    second_client.force_login(second)
    loaded = str(match.version)

    saved = first_client.post(url, {"version": loaded, "home_cards": "100", "away_cards": "5", "end": "stock"})
    assert saved.status_code == 302
    refused = second_client.post(url, {"version": loaded, "home_cards": "215", "away_cards": "35", "end": "stock"})

    assert refused.status_code == 409
    page = refused.content.decode()
    assert "Någon annan ändrade matchen efter att du öppnade den." in page
    assert 'name="home_cards" value="215"' in page and 'name="away_cards" value="35"' in page
    match.refresh_from_db()
    assert f'name="version" value="{match.version}"' in page and match.version == int(loaded) + 1
    assert list(match.deals.order_by("number").values_list("home_cards", flat=True)) == [485, 485, 100]

