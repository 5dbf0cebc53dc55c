"""Photos of the signed paper protocol within bounds (scoring.services.photos): what decoding costs
is decided from the file's header, so a small file standing for a huge image is refused or decoded
reduced, within 100 MB of memory and 2 s of processor time; a cut-off file is never stored, though
WeasyPrint has Pillow fill cut-off images in; nothing of the file's metadata stays (EXIF, JPEG
comment, colour profile, PNG text); a match keeps at most PHOTO_MATCH_MAX_COUNT photos and
PHOTO_MATCH_MAX_BYTES of them, counted with the match row locked."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from django.utils import translation
from PIL import Image, ImageFile

from scoring.models import MatchPhoto
from scoring.services import DomainError, photos, table
from tests import factories as f
from tests.support.photo_bombs import (
    FULL_COLOUR,
    jpeg_bomb,
    jpeg_header_only,
    jpeg_segments,
    phone_photo,
    png_bomb,
    png_16_bit,
    png_chunk,
    png_chunk_kinds,
    png_with_metadata,
)

ROOT = Path(__file__).resolve().parents[2]
MEMORY_LIMIT = 100 * 1000 * 1000  # bytes a worker may grow by for one upload
CPU_LIMIT = 2.0  # seconds of processor time for one upload

UNREADABLE = "not a photo that can be read"
TOO_MANY_PIXELS = "too many pixels"


def rows_cut(png: bytes, keep: int) -> bytes:
    """The PNG with every chunk whole and its end chunk there, but only the first `keep` bytes of
    its compressed rows: a whole picture to Pillow once it fills cut-off images in."""
    start = png.index(b"IDAT") - 4
    length = int.from_bytes(png[start : start + 4], "big")
    return png[:start] + png_chunk(b"IDAT", png[start + 8 : start + 8 + min(keep, length)]) + png_chunk(b"IEND", b"")


def small_jpeg(size=(40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "white").save(out, "JPEG")
    return out.getvalue()


# -- memory and time, each bomb in a process of its own ---------------------------------------------

# Django set up and Pillow's codecs loaded once; then each photo is cleaned in a child forked for
# it, whose peak resident memory (VmHWM, reset through clear_refs; else ru_maxrss) is compared with
# its memory before. Pillow and libjpeg allocate in C, where tracemalloc sees nothing.
MEASURE = textwrap.dedent("""
    import json, os, resource, sys, time
    import django
    django.setup()
    from django.utils import translation
    from scoring.services.errors import DomainError
    from scoring.services.photos import clean_photo
    translation.activate("en")
    for warm_up in sys.argv[1:3]:
        clean_photo(open(warm_up, "rb").read())

    def status(key):
        with open("/proc/self/status") as lines:
            for line in lines:
                if line.startswith(key):
                    return int(line.split()[1]) * 1024

    for path in sys.argv[3:]:
        data = open(path, "rb").read()
        child = os.fork()
        if child == 0:
            before = status("VmRSS:")
            try:
                with open("/proc/self/clear_refs", "w") as refs:
                    refs.write("5")
                reset = True
            except OSError:
                reset = False
            cpu = time.process_time()
            try:
                image, content_type, width, height = clean_photo(data)
                result = [content_type, width, height]
            except DomainError as refusal:
                result = str(refusal.message)
            cpu = time.process_time() - cpu
            peak = status("VmHWM:") if reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
            print(json.dumps({"name": os.path.basename(path), "result": result, "growth": peak - before, "cpu": cpu}), flush=True)
            os._exit(0)
        os.waitpid(child, 0)
""")

BOMBS = {
    # name: (bytes, what must come of it: a refusal's words or the kept photo)
    "png-16-bit-7000x7000": (png_16_bit, "8 bits per colour"),
    "png-16-bit-cut-to-282-bytes": (lambda: png_16_bit()[:282], UNREADABLE),
    "png-8-bit-rows-cut-to-200-bytes": (lambda: rows_cut(png_bomb(3200, 3200), 200), UNREADABLE),
    "png-8-bit-7000x7000": (lambda: png_bomb(7000, 7000, colour=0), TOO_MANY_PIXELS),
    "png-rgb-3200x3200": (lambda: png_bomb(3200, 3200), ["image/png", 2000, 2000]),
    "png-palette-3200x3200": (lambda: png_bomb(3200, 3200, colour=3), ["image/png", 2000, 2000]),
    "jpeg-12000x9000": (lambda: jpeg_bomb(12000, 9000), ["image/jpeg", 2000, 1500]),
    "jpeg-16000x16000-full-colour": (lambda: jpeg_bomb(16000, 16000, FULL_COLOUR), ["image/jpeg", 2000, 2000]),
    "jpeg-65535x65535-header": (lambda: jpeg_header_only(65535, 65535), TOO_MANY_PIXELS),
    "jpeg-progressive-12000x9000": (lambda: jpeg_bomb(12000, 9000, progressive=True), TOO_MANY_PIXELS),
    "jpeg-progressive-4576x4576": (lambda: jpeg_bomb(4576, 4576, progressive=True), ["image/jpeg", 2000, 2000]),
    "jpeg-progressive-40-scans": (lambda: jpeg_bomb(2000, 1500, progressive=True, scans=40), UNREADABLE),
    "phone-4000x3000": (phone_photo, ["image/jpeg", 1500, 2000]),
    "phone-cut-in-half": (lambda: phone_photo()[: len(phone_photo()) // 2], UNREADABLE),
}


def test_each_bomb_is_refused_or_reduced_within_100_mb_and_2_s(tmp_path):
    paths = []
    for name, (build, _expected) in BOMBS.items():
        paths.append(tmp_path / name)
        paths[-1].write_bytes(build())
    warm_up = [tmp_path / "warm-up.jpg", tmp_path / "warm-up.png"]
    warm_up[0].write_bytes(small_jpeg())
    warm_up[1].write_bytes(png_bomb(40, 30))
    run = subprocess.run(
        [sys.executable, "-c", MEASURE, *map(str, warm_up), *map(str, paths)],
        cwd=ROOT, env={**os.environ, "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "canastaclub.settings")},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    measured = {line["name"]: line for line in map(json.loads, run.stdout.splitlines())}
    assert set(measured) == set(BOMBS)
    for name, (_build, expected) in BOMBS.items():
        found = measured[name]
        if isinstance(expected, str):
            assert isinstance(found["result"], str) and expected in found["result"], (name, found)
        else:
            assert found["result"] == expected, (name, found)
        assert found["growth"] <= MEMORY_LIMIT, (name, f"{found['growth'] / 1e6:.1f} MB")
        assert found["cpu"] <= CPU_LIMIT, (name, f"{found['cpu']:.2f} s")


# -- what is kept -------------------------------------------------------------------------------------


def test_a_phone_photo_is_kept_reduced_upright_and_without_its_metadata():
    sent = phone_photo()
    # Pillow writes a JPEG's comment back on its own when an image that came with one is saved:
    # re-encoding alone would keep it.
    with Image.open(io.BytesIO(sent)) as opened:
        again = io.BytesIO()
        opened.save(again, "JPEG")
    assert 0xFE in jpeg_segments(again.getvalue())

    image, content_type, width, height = photos.clean_photo(sent)
    assert (content_type, width, height) == ("image/jpeg", 1500, 2000)  # 4000 × 3000, turned upright
    assert len(image) < len(sent)
    markers = jpeg_segments(image)
    assert 0xFE not in markers  # no comment
    assert 0xE1 not in markers and 0xE2 not in markers  # no EXIF or XMP, no colour profile
    for secret in (b"Kamera AB", b"Bordet 7", b"ICC profil"):
        assert secret not in image
    with Image.open(io.BytesIO(image)) as kept:
        assert kept.size == (1500, 2000) and not kept.getexif()
        assert not {"comment", "icc_profile", "exif"} & set(kept.info)


def test_a_small_photo_keeps_its_size_and_a_png_none_of_its_chunks_of_text_exif_profile_or_time():
    assert photos.clean_photo(small_jpeg())[1:] == ("image/jpeg", 40, 30)
    image, content_type, width, height = photos.clean_photo(png_with_metadata())
    assert (content_type, width, height) == ("image/png", 400, 300)
    assert png_chunk_kinds(image) == [b"IHDR", b"IDAT", b"IEND"]
    assert b"Bordet 7" not in image and b"Kamera AB" not in image


@pytest.mark.parametrize("filled_in", [True, False])
def test_a_cut_off_photo_is_never_stored_though_pillow_would_fill_it_in(monkeypatch, filled_in):
    # The site's processes import WeasyPrint for their PDFs (scoring.exports.pdf), which has Pillow
    # fill in cut-off images: the service's own checks refuse them either way.
    import weasyprint  # noqa: F401

    assert ImageFile.LOAD_TRUNCATED_IMAGES
    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", filled_in)
    whole_png = png_bomb(400, 300)
    short_rows = rows_cut(whole_png, 60)
    phone = phone_photo((800, 600))
    for cut in (png_16_bit()[:282], whole_png[:-12], short_rows, phone[: len(phone) // 2], phone[:-2]):
        with translation.override("en"), pytest.raises(DomainError) as refused:
            photos.clean_photo(cut)
        assert UNREADABLE in str(refused.value.message)
    assert photos.clean_photo(whole_png)[2:] == (400, 300)


def test_a_file_too_large_is_refused_before_it_is_read():
    class Upload:
        size = photos.PHOTO_MAX_BYTES + 1

        def read(self, *args):
            raise AssertionError("read")

    with translation.override("en"), pytest.raises(DomainError) as refused:
        photos.clean_photo(Upload())
    assert str(refused.value.message) == "The photo is larger than 8 MB."


def test_the_hint_and_the_refusals_name_the_same_bounds():
    with translation.override("en"):
        rules = photos.photo_rules()
    assert "at most 8 MB" in rules and "at most 6 photos (12 MB)" in rules and "2000 pixels" in rules
    with translation.override("sv"):
        rules = photos.photo_rules()
    assert "8 MB" in rules and "6 foton" in rules and "12 MB" in rules and "2000 bildpunkter" in rules


# -- the match's photos ---------------------------------------------------------------------------------


@pytest.fixture
def setup(db):
    setup = f.protocol_setup()
    setup["link"] = table.table_link_issue(match=setup["match"], user=setup["secretary"])
    return setup


@pytest.mark.parametrize("through", ["link", "secretary"])
def test_a_match_keeps_at_most_six_photos(setup, through):
    who = {"link": setup["link"]} if through == "link" else {"user": setup["secretary"]}
    for _photo in range(photos.PHOTO_MATCH_MAX_COUNT):
        photos.match_photo_add(match=setup["match"], data=small_jpeg(), **who)
    with translation.override("en"), pytest.raises(DomainError) as refused:
        photos.match_photo_add(match=setup["match"], data=small_jpeg(), **who)
    assert "at most 6 photos" in str(refused.value.message)
    assert MatchPhoto.objects.filter(match=setup["match"]).count() == photos.PHOTO_MATCH_MAX_COUNT


def test_a_match_keeps_at_most_its_bytes_of_photos(setup, monkeypatch):
    first = photos.match_photo_add(match=setup["match"], data=phone_photo((800, 600)), link=setup["link"])
    size = len(bytes(first.image))
    monkeypatch.setattr(photos, "PHOTO_MATCH_MAX_BYTES", 2 * size + size // 2)
    photos.match_photo_add(match=setup["match"], data=phone_photo((800, 600)), link=setup["link"])
    with pytest.raises(DomainError):
        photos.match_photo_add(match=setup["match"], data=phone_photo((800, 600)), link=setup["link"])
    assert MatchPhoto.objects.count() == 2


def test_two_photos_sent_at_once_cannot_both_take_the_last_place(setup, monkeypatch):
    """The place is counted again with the match row locked, after the decoding: here another
    photo is stored while this one is decoded."""
    match = setup["match"]
    for _photo in range(photos.PHOTO_MATCH_MAX_COUNT - 1):
        photos.match_photo_add(match=match, data=small_jpeg(), user=setup["secretary"])
    decode = photos.clean_photo

    def meanwhile(data):
        cleaned = decode(data)
        MatchPhoto.objects.create(match=match, image=cleaned[0], content_type=cleaned[1], width=cleaned[2], height=cleaned[3])
        return cleaned

    monkeypatch.setattr(photos, "clean_photo", meanwhile)
    with pytest.raises(DomainError):
        photos.match_photo_add(match=match, data=small_jpeg(), link=setup["link"])
    assert MatchPhoto.objects.filter(match=match).count() == photos.PHOTO_MATCH_MAX_COUNT
