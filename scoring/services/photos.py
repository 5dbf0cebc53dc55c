"""Services for the photo of a signed paper protocol: where a club still keeps paper, the secretary
or the table (through the match's table link) attaches a photo of it to the match.

The image is checked to be a JPEG or PNG and re-encoded at most `PHOTO_MAX_SIDE` pixels on its
long side, which leaves its location and other metadata (EXIF, comments, colour profiles, text
chunks) behind; it is kept in the database (MatchPhoto), so the backup holds it. Who sees it is
scoring.permissions.can_see_photos.

A small file can stand for a huge image (a PNG of one colour compresses a thousandfold, a JPEG
header may claim 65 535 × 65 535 pixels), so what decoding will cost is decided from the file's
header before anything is decoded: a JPEG is decoded already reduced (libjpeg scales by 1/2, 1/4
or 1/8 while decoding), a PNG at most `PHOTO_MAX_PIXELS` pixels of at most 8 bits a sample, and
neither may need more than `PHOTO_MAX_DECODE_BYTES` of memory on the way. One upload then costs a
worker under 100 MB and well under 2 s (docs/operations.md, "Photo uploads", has the figures),
and a worker decodes one photo at a time. A match keeps at most `PHOTO_MATCH_MAX_COUNT` photos and
`PHOTO_MATCH_MAX_BYTES` of them.

A cut-off file is refused by the checks here, not by Pillow: WeasyPrint, which the site imports
for its PDFs (scoring.exports.pdf), sets Pillow's LOAD_TRUNCATED_IMAGES for the whole process,
and Pillow then fills in what is missing instead of failing.
"""

from __future__ import annotations

import io
import struct
import threading
import zlib

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Sum
from django.db.models.functions import Length
from django.utils.translation import gettext as _

from scoring import permissions
from scoring.models import Match, MatchPhoto, TableLink

from .audit import audit_log
from .errors import DomainError
from .locking import lock_match
from .table import TableSide, lock_open_link

MB = 1024 * 1024
# As sent; nginx lets a little more through to the photo addresses (deploy/nginx-proxy.conf).
PHOTO_MAX_BYTES = 8 * MB
# Kept at most this many pixels on the long side: an A4 sheet at about 170 dots an inch, its
# handwriting plain to read. 2000 rather than 2400: a 12-megapixel phone photo (4000 × 3000)
# is then decoded at half its size, which libjpeg does for free, and not at full size first.
PHOTO_MAX_SIDE = 2000
# Pixels decoded at most (a JPEG's after its reduction while decoding): a PNG, or a JPEG too large
# to be reduced enough, beyond this is refused.
PHOTO_MAX_PIXELS = 24_000_000
# A JPEG's own pixels: a 200-megapixel phone's 16 320 × 12 240, with room. However reduced while
# decoding, each of its blocks is still read: one claiming a billion pixels takes over a second.
PHOTO_MAX_JPEG_PIXELS = 256_000_000
# Memory decoding and reducing may take at most at any moment (`_peak_bytes`): the decoded image
# as Pillow holds it (4 bytes a pixel in colour, 1 in grey or with a palette), libjpeg's buffer of
# the whole image's coefficients when a JPEG comes in several scans (progressive), a conversion
# before reducing, and what reducing makes. The rest of an upload (the file's bytes, the result)
# stays within a few MB more, so a worker grows by less than 100 MB.
PHOTO_MAX_DECODE_BYTES = 80 * MB
# A match's photos: a protocol is a page or two, each photographed once or twice.
PHOTO_MATCH_MAX_COUNT = 6
PHOTO_MATCH_MAX_BYTES = 12 * MB

JPEG_QUALITY = 85
JPEG_SIGNATURE = b"\xff\xd8\xff"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# The chunks a PNG's picture is made of; every other one (text, EXIF, colour profile, time,
# animation) is left behind before Pillow reads the file, so none is decompressed either.
PNG_PICTURE_CHUNKS = (b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND")
# Programs write the picture in chunks of 8 or 64 KB, so a photo within PHOTO_MAX_BYTES has about
# a thousand at most; a file of empty chunks would have hundreds of thousands to go through.
PNG_MAX_CHUNKS = 10_000
# Baseline, extended and progressive Huffman JPEG: what cameras, phones and image programs write,
# and what libjpeg reduces while decoding (lossless and arithmetic-coded frames are refused).
JPEG_FRAMES = (0xC0, 0xC1, 0xC2)
# A progressive JPEG's every scan goes over the whole image again, however few bytes it takes:
# thousands of them would keep a worker for minutes. Programs write about ten; the count is of
# the file's start-of-scan markers, which the coded data cannot hold (a thumbnail's count too).
JPEG_MAX_SCANS = 32
# Segments (and fill bytes) before the first scan: a phone writes a dozen or two (EXIF, colour
# profile, tables); Pillow reads each in Python, so a file of thousands would take seconds.
JPEG_MAX_SEGMENTS = 1000

# Decoding takes up to the memory above; the threads of one worker take turns, so a worker grows
# by one photo's decoding however many arrive at once.
_decoding = threading.Lock()


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _megabytes(size: int) -> str:
    return f"{size // MB} MB"


def photo_rules() -> str:
    """What a photo may be, for the upload forms' hints (the refusals name the same bounds)."""
    return _(
        "JPEG or PNG, at most %(size)s; a match keeps at most %(count)s photos (%(total)s). Each is kept "
        "at most %(side)s pixels wide or high, without its location and the other data in the file."
    ) % {
        "size": _megabytes(PHOTO_MAX_BYTES), "count": PHOTO_MATCH_MAX_COUNT,
        "total": _megabytes(PHOTO_MATCH_MAX_BYTES), "side": PHOTO_MAX_SIDE,
    }  # fmt: skip


def _refuse_unreadable():
    return DomainError(_("The file is not a photo that can be read (JPEG or PNG)."))


def _refuse_too_many_pixels():
    return DomainError(
        _("The photo has too many pixels to be read; send it smaller (%(side)s pixels on the long side are enough).")
        % {"side": PHOTO_MAX_SIDE}
    )


def _refuse_too_large():
    return DomainError(_("The photo is larger than %(size)s.") % {"size": _megabytes(PHOTO_MAX_BYTES)})


def _upload_bytes(data) -> bytes:
    """The photo's bytes, refused beyond PHOTO_MAX_BYTES: `data` is bytes or an uploaded file, whose
    size is known before it is read."""
    size = len(data) if isinstance(data, bytes | bytearray) else data.size
    if size is None or size > PHOTO_MAX_BYTES:
        raise _refuse_too_large()
    if isinstance(data, bytes | bytearray):
        return bytes(data)
    data.seek(0)
    read = data.read(PHOTO_MAX_BYTES + 1)
    if len(read) > PHOTO_MAX_BYTES:
        raise _refuse_too_large()
    return read


def _kept_size(width: int, height: int) -> tuple[int, int]:
    scale = min(1.0, PHOTO_MAX_SIDE / max(width, height))
    return max(1, round(width * scale)), max(1, round(height * scale))


def _stored_bytes(mode: str) -> int:
    """Bytes a pixel takes in Pillow's memory: one band of 8 bits in one byte, more in four."""
    return 1 if mode in ("1", "L", "P") else 4


def _peak_bytes(size: tuple[int, int], mode: str, kept_mode: str, coefficients: int) -> int:
    """The most memory decoding and reducing the image take at once, as Pillow and libjpeg do them,
    one step after the other: decoding (the image, and a JPEG's coefficients when it comes in
    several scans); a palette's or bilevel image's conversion to colours or grey before reducing
    (its numbers are not to be averaged); reducing (the image, its copy with the alpha multiplied
    in, the intermediate Pillow reduces across into, at the kept width and the full height, and
    the result, twice with alpha)."""
    (width, height), (kept_width, kept_height) = size, _kept_size(*size)
    pixels = width * height
    working = kept_mode if mode in ("1", "P") else mode
    unit = _stored_bytes(working)
    decoding = pixels * _stored_bytes(mode) + coefficients
    converting = pixels * (_stored_bytes(mode) + unit) if working != mode else 0
    copies = 2 if working in ("LA", "RGBA") else 1
    reducing = (pixels * copies + kept_width * height + kept_width * kept_height * copies) * unit
    return max(decoding, converting, reducing)


def _png_picture(data: bytes) -> tuple[bytes, tuple, bytes]:
    """The PNG with only its picture's chunks, its header's fields (width, height, bits per sample,
    colour type, compression, filter, interlace) and its compressed pixels. Refused when a chunk
    runs past the file's end or the end chunk is missing: a cut-off file."""
    chunks, pixels = [PNG_SIGNATURE], []
    position, header = len(PNG_SIGNATURE), None
    for _chunk in range(PNG_MAX_CHUNKS):
        if position + 12 > len(data):
            break
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        end = position + 12 + length
        if end > len(data) or (header is None and (kind != b"IHDR" or length != 13)):
            break
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data[position + 8 : position + 21])
        elif kind == b"IDAT":
            pixels.append(data[position + 8 : end - 4])
        if kind in PNG_PICTURE_CHUNKS:
            chunks.append(data[position:end])
        position = end
        if kind == b"IEND":
            return b"".join(chunks), header, b"".join(pixels)
    raise _refuse_unreadable()


def _png_pixels_whole(compressed: bytes, width: int, height: int, bit_depth: int, colour: int, interlaced: int) -> bool:
    """Whether the compressed pixels hold every row of the picture (Pillow would fill in missing
    ones): inflated a MB at a time and counted, not kept."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(colour)
    if channels is None:
        return False
    passes = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))
    expected = 0
    for x0, y0, dx, dy in passes if interlaced else ((0, 0, 1, 1),):
        columns, rows = _ceil(max(width - x0, 0), dx), _ceil(max(height - y0, 0), dy)
        if columns and rows:
            expected += rows * (1 + _ceil(columns * channels * bit_depth, 8))
    stream, inflated = zlib.decompressobj(), 0
    while inflated < expected and not stream.eof:
        try:
            piece = stream.decompress(compressed, MB)
        except zlib.error:
            return False
        compressed = stream.unconsumed_tail
        if not piece and not compressed:
            break
        inflated += len(piece)
    return inflated >= expected


def _jpeg_frame(data: bytes) -> tuple[int, list[tuple[int, int]], int, int]:
    """From a JPEG's header: its frame's kind (the SOF marker), each component's sampling factors
    (horizontal, vertical), how many components the first scan holds, and where that scan begins.
    Read as libjpeg reads it, segment by segment up to the first scan."""
    position, frame, sampling = 2, None, []
    for _segment in range(JPEG_MAX_SEGMENTS):
        if position + 4 > len(data) or data[position] != 0xFF:
            break
        marker = data[position + 1]
        if marker == 0xFF:  # fill byte
            position += 1
            continue
        if marker == 0xD8 or 0xD0 <= marker <= 0xD7 or marker == 0x01:  # no length follows
            position += 2
            continue
        length = int.from_bytes(data[position + 2 : position + 4], "big")
        segment = data[position + 4 : position + 2 + length]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if len(segment) < 6 or len(segment) < 6 + 3 * segment[5]:
                break
            frame = marker
            sampling = [(segment[7 + 3 * i] >> 4, segment[7 + 3 * i] & 15) for i in range(segment[5])]
        elif marker == 0xDA:
            if frame is None or not segment or not sampling or min(min(s) for s in sampling) < 1:
                break
            return frame, sampling, segment[0], position
        position += 2 + length
    raise _refuse_unreadable()


def _coefficient_bytes(width: int, height: int, sampling: list[tuple[int, int]]) -> int:
    """libjpeg's buffer of the whole image's DCT coefficients (2 bytes each, 64 a block; each
    component's blocks rounded up to whole units), which a JPEG in several scans needs whatever
    the scale it is decoded at."""
    h_max, v_max = max(h for h, _v in sampling), max(v for _h, v in sampling)
    total = 0
    for h, v in sampling:
        blocks_wide = _ceil(_ceil(width * h, h_max), 8)
        blocks_high = _ceil(_ceil(height * v, v_max), 8)
        total += _ceil(blocks_wide, h) * h * _ceil(blocks_high, v) * v * 128
    return total


def _kept_mode(mode: str, transparent: bool) -> str:
    if mode in ("1", "L"):
        return "LA" if transparent else "L"
    if mode in ("LA", "RGBA", "PA") or transparent:
        return "LA" if mode == "LA" else "RGBA"
    return "RGB"


def _open_within_bounds(data: bytes):
    """The image opened (not decoded) with what decoding it will take checked: a JPEG set to be
    decoded reduced to about the size kept. Returns (image, format, mode kept)."""
    from PIL import JpegImagePlugin, PngImagePlugin

    if data.startswith(JPEG_SIGNATURE):
        frame, sampling, scan_components, scan = _jpeg_frame(data)
        if frame not in JPEG_FRAMES or data.count(b"\xff\xda") > JPEG_MAX_SCANS:
            raise _refuse_unreadable()
        image = JpegImagePlugin.JpegImageFile(io.BytesIO(data))
        width, height = image.size
        if width * height > PHOTO_MAX_JPEG_PIXELS:
            image.close()
            raise _refuse_too_many_pixels()
        if data.find(b"\xff\xd9", scan) < 0:
            # Cut off: no end marker after the coded picture (whose bytes cannot hold one), the rest
            # of which Pillow would fill in.
            image.close()
            raise _refuse_unreadable()
        image.draft("RGB", _kept_size(width, height))
        several_scans = frame == 0xC2 or scan_components < len(sampling)
        coefficients = _coefficient_bytes(width, height, sampling) if several_scans else 0
        kind = "JPEG"
    elif data.startswith(PNG_SIGNATURE):
        picture, header, compressed = _png_picture(data)
        width, height, bit_depth, colour, _compression, _filter, interlaced = header
        if bit_depth > 8:
            raise DomainError(_("Send the photo with 8 bits per colour: a PNG of 16 bits takes too much to read."))
        image = PngImagePlugin.PngImageFile(io.BytesIO(picture))
        coefficients = 0
        kind = "PNG"
    else:
        raise DomainError(_("Send a photo as JPEG or PNG."))
    try:
        kept_mode = _kept_mode(image.mode, "transparency" in image.info)
        too_many = image.width * image.height > PHOTO_MAX_PIXELS
        if too_many or _peak_bytes(image.size, image.mode, kept_mode, coefficients) > PHOTO_MAX_DECODE_BYTES:
            raise _refuse_too_many_pixels()
        if kind == "PNG" and not _png_pixels_whole(compressed, width, height, bit_depth, colour, interlaced):
            raise _refuse_unreadable()
    except BaseException:
        image.close()
        raise
    return image, kind, kept_mode


def clean_photo(data: bytes) -> tuple[bytes, str, int, int]:
    """The image re-encoded (JPEG or PNG as sent), turned upright, at most PHOTO_MAX_SIDE pixels on
    its long side and without its metadata (location, camera, time, comments): (bytes, content
    type, width, height). Refused unless it is a JPEG or PNG within the bounds above, whole."""
    from PIL import Image, ImageOps

    data = _upload_bytes(data)
    try:
        with _decoding:
            image, kind, kept_mode = _open_within_bounds(data)
            try:
                kept_size = _kept_size(*image.size)
                image.load()
                if image.mode in ("1", "P"):  # a palette's numbers are not averaged: colours first
                    converted = image.convert(kept_mode)
                    image.close()
                    image = converted
                reduced = image.resize(kept_size, Image.Resampling.LANCZOS)
            finally:
                image.close()  # the decoded image's memory goes now, not when it is collected
            ImageOps.exif_transpose(reduced, in_place=True)
            if reduced.mode != kept_mode:
                reduced = reduced.convert(kept_mode)
            # A fresh image: nothing of the file's (EXIF, comment, colour profile, text) comes
            # along, not even what Pillow writes back on its own (a JPEG's comment).
            clean = Image.new(kept_mode, reduced.size)
            clean.paste(reduced)
            reduced.close()
            out = io.BytesIO()
            if kind == "JPEG":
                clean.save(out, "JPEG", quality=JPEG_QUALITY)
                content_type = "image/jpeg"
            else:
                clean.save(out, "PNG")
                content_type = "image/png"
            return out.getvalue(), content_type, clean.width, clean.height
    except DomainError:
        raise
    except (OSError, ValueError, SyntaxError, struct.error, EOFError):
        # A file cut off, or not what its header says.
        raise _refuse_unreadable() from None


def _admit(match: Match, user, link: TableLink | None, *, adding: int):
    """The match (and link) locked, with who adds the photo, once they may and the match has room
    for `adding` more bytes. Within the caller's transaction."""
    if link is not None:
        link, match = lock_open_link(link)
        actor = TableSide(link)
    else:
        # A photo is on no public page: no edition moves.
        match = lock_match(match, shown=False)
        if not permissions.can_enter_or_manage(user, match):
            raise PermissionDenied(_("You may not change this match."))
        actor = user
    kept = MatchPhoto.objects.filter(match=match).aggregate(count=Count("id"), size=Sum(Length("image")))
    if kept["count"] >= PHOTO_MATCH_MAX_COUNT:
        raise DomainError(
            _("A match keeps at most %(count)s photos, and this one has them.") % {"count": PHOTO_MATCH_MAX_COUNT}
        )
    if (kept["size"] or 0) + adding > PHOTO_MATCH_MAX_BYTES:
        raise DomainError(
            _("A match's photos take at most %(size)s together, and this one would take more.")
            % {"size": _megabytes(PHOTO_MATCH_MAX_BYTES)}
        )
    return match, link, actor


def match_photo_add(*, match: Match, data, user=None, link: TableLink | None = None) -> MatchPhoto:
    """Attach a photo of the signed protocol: by the secretary, or from the table (`link`). `data`
    is the file's bytes or the uploaded file (its size is checked before it is read).

    Who may, and whether the match has room, is checked before the photo is decoded (no work for
    a refusal) and again, with the match row locked, when it is stored: two photos sent at once
    cannot both take the match's last place. The decoding itself holds no lock."""
    data = _upload_bytes(data)
    with transaction.atomic():
        _admit(match, user, link, adding=0)
    image, content_type, width, height = clean_photo(data)
    with transaction.atomic():
        match, link, actor = _admit(match, user, link, adding=len(image))
        photo = MatchPhoto.objects.create(
            match=match, image=image, content_type=content_type, width=width, height=height,
            uploaded_by=user if link is None and getattr(user, "pk", None) else None, link=link,
        )  # fmt: skip
        audit_log(match=match, user=actor, action="match_photo_add",
                  after={"photo": photo.pk, "bytes": len(image), "link": link.code if link else None},
                  object_type="match_photo", object_id=photo.pk)  # fmt: skip
    return photo
