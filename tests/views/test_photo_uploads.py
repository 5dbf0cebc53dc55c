"""Photo uploads through the table link (/t/<code>/photo/, no account) and the secretary's page of
photos: a photo bomb is refused (422 at the table, a message on the secretary's page) before it is
decoded, and nothing is stored; a phone photo is stored reduced and without its metadata; the
match's cap of photos holds at both doors; the secretary's page names the bounds."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from PIL import Image

from scoring.models import MatchPhoto
from scoring.services import table
from tests import factories as f
from tests.support.photo_bombs import jpeg_bomb, jpeg_header_only, jpeg_segments, phone_photo, png_16_bit

pytestmark = pytest.mark.django_db

# As the site says them in Swedish, its first language.
BOMBS = {
    "png-16-bit-7000x7000": (png_16_bit, "image/png", "8 bitar per färg"),
    "png-cut-to-282-bytes": (lambda: png_16_bit()[:282], "image/png", "inte ett foto som kan läsas"),
    "jpeg-65535x65535": (lambda: jpeg_header_only(65535, 65535), "image/jpeg", "för många bildpunkter"),
    "jpeg-progressive-12000x9000": (lambda: jpeg_bomb(12000, 9000, progressive=True), "image/jpeg", "för många bildpunkter"),
    "too-large": (lambda: bytes(8 * 1024 * 1024 + 1), "image/jpeg", "större än 8 MB"),
}


@pytest.fixture
def setup():
    setup = f.protocol_setup()
    setup["link"] = table.table_link_issue(match=setup["match"], user=setup["secretary"])
    return setup


def upload(data: bytes, content_type: str = "image/jpeg") -> dict:
    return {"photo": SimpleUploadedFile("foto." + content_type.split("/")[1], data, content_type)}


def small_jpeg() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), "white").save(out, "JPEG")
    return out.getvalue()


def secretary_client(setup) -> Client:
    client = Client()
    client.force_login(setup["secretary"])
    return client


@pytest.mark.parametrize("bomb", BOMBS)
def test_a_bomb_through_the_table_link_is_refused_and_nothing_stored(setup, bomb):
    build, content_type, words = BOMBS[bomb]
    response = Client().post(reverse("scoring:table-photo", args=[setup["link"].code]), upload(build(), content_type))
    assert response.status_code == 422
    assert words in response.content.decode()
    assert not MatchPhoto.objects.exists()


@pytest.mark.parametrize("bomb", BOMBS)
def test_a_bomb_through_the_secretarys_page_is_refused_and_nothing_stored(setup, bomb):
    build, content_type, words = BOMBS[bomb]
    url = reverse("scoring:match-photos", args=[setup["match"].pk])
    response = secretary_client(setup).post(url, upload(build(), content_type), follow=True)
    assert response.redirect_chain == [(url, 302)]
    assert words in response.content.decode()
    assert not MatchPhoto.objects.exists()


def test_a_phone_photo_from_the_table_is_kept_reduced_and_the_seventh_photo_refused(setup):
    url = reverse("scoring:table-photo", args=[setup["link"].code])
    assert Client().post(url, upload(phone_photo())).status_code == 303
    photo = MatchPhoto.objects.get()
    assert (photo.width, photo.height) == (1500, 2000)
    assert 0xFE not in jpeg_segments(bytes(photo.image)) and b"Kamera AB" not in bytes(photo.image)
    for _photo in range(5):
        assert Client().post(url, upload(small_jpeg())).status_code == 303
    refused = Client().post(url, upload(small_jpeg()))
    assert refused.status_code == 422 and "högst 6 foton" in refused.content.decode()
    assert MatchPhoto.objects.count() == 6
    # The secretary is held to the same cap.
    photos_url = reverse("scoring:match-photos", args=[setup["match"].pk])
    page = secretary_client(setup).post(photos_url, upload(small_jpeg()), follow=True)
    assert "högst 6 foton" in page.content.decode() and MatchPhoto.objects.count() == 6


def test_the_secretarys_page_names_the_bounds_and_keeps_a_phone_photo(setup):
    client = secretary_client(setup)
    url = reverse("scoring:match-photos", args=[setup["match"].pk])
    text = client.get(url).content.decode()
    assert "högst 8 MB" in text and "högst 6 foton (12 MB)" in text and "2000 bildpunkter" in text
    page = client.post(url, upload(phone_photo()), follow=True)
    assert "Fotot är sparat med matchen." in page.content.decode()
    photo = MatchPhoto.objects.get()
    assert (photo.width, photo.height, photo.uploaded_by) == (1500, 2000, setup["secretary"])
