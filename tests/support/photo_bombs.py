"""Photos that are small to upload and huge (or slow) to decode: the shapes an attacker sends to
tie up a worker, built here with zlib and by hand-written JPEG headers, since Pillow itself would
need the gigabytes they stand for to write them. Shared by the service and view tests of photo
uploads (scoring.services.photos)."""

from __future__ import annotations

import functools
import io
import struct
import zlib

from PIL import Image

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # by colour type: grey, RGB, palette, grey+alpha, RGBA
SUBSAMPLED = ((2, 2), (1, 1), (1, 1))  # a phone's 4:2:0 colour
FULL_COLOUR = ((1, 1), (1, 1), (1, 1))  # 4:4:4
GREY = ((1, 1),)


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_bomb(width: int, height: int, *, bit_depth: int = 8, colour: int = 2, extra_chunks: bytes = b"") -> bytes:
    """A whole, valid PNG of one black colour: zlib packs its rows a thousandfold."""
    row = b"\x00" + bytes(_ceil(width * PNG_CHANNELS[colour] * bit_depth, 8))
    packer = zlib.compressobj(9)
    pixels = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, colour, 0, 0, 0))
    palette = png_chunk(b"PLTE", bytes(3 * 256)) if colour == 3 else b""
    return PNG_SIGNATURE + header + palette + extra_chunks + png_chunk(b"IDAT", pixels) + png_chunk(b"IEND", b"")


@functools.cache
def png_16_bit() -> bytes:
    """7000 × 7000 grey pixels of 16 bits (98 MB of rows; Pillow's mode I;16) in about 95 kB. In
    colour it is 294 MB in 290 kB, as was sent to the site, and takes three times as long to build:
    the header that refuses it is the same."""
    return png_bomb(7000, 7000, bit_depth=16, colour=0)


def _segment(marker: int, body: bytes) -> bytes:
    return bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + body


def jpeg_bomb(width: int, height: int, sampling=SUBSAMPLED, *, progressive: bool = False, scans: int = 1) -> bytes:
    """A valid JPEG of any size whose every 8 × 8 block is flat grey: its Huffman tables have one
    one-bit code each (no change of the block's mean; end of block), so a block costs a quarter of
    a byte (baseline) or an eighth (progressive, which here sends only the blocks' means, in
    `scans` scans). A 12 000 × 9 000 photo is then 630 kB; one of 65 535 × 65 535 pixels is a
    header of a few hundred bytes with the coded blocks cut off."""
    components = len(sampling)
    tables = _segment(0xDB, b"\x00" + bytes([1] * 64))
    frame = _segment(
        0xC2 if progressive else 0xC0,
        struct.pack(">BHHB", 8, height, width, components)
        + b"".join(bytes([i + 1, (h << 4) | v, 0]) for i, (h, v) in enumerate(sampling)),
    )
    codes = _segment(0xC4, b"\x00" + bytes([1] + [0] * 15) + b"\x00") + _segment(0xC4, b"\x10" + bytes([1] + [0] * 15) + b"\x00")
    if components == 1:
        blocks = _ceil(width, 8) * _ceil(height, 8)
    else:
        h_max, v_max = max(h for h, _v in sampling), max(v for _h, v in sampling)
        blocks = _ceil(width, 8 * h_max) * _ceil(height, 8 * v_max) * sum(h * v for h, v in sampling)
    coded = bytes(_ceil(blocks * (1 if progressive else 2), 8))
    selectors = bytes([components]) + b"".join(bytes([i + 1, 0x00]) for i in range(components))
    scan = _segment(0xDA, selectors + (b"\x00\x00\x00" if progressive else b"\x00\x3f\x00")) + coded
    return b"\xff\xd8" + tables + frame + codes + scan * scans + b"\xff\xd9"


def jpeg_header_only(width: int, height: int) -> bytes:
    """The start of a JPEG claiming `width` × `height` pixels, and its end: the coded blocks left out."""
    whole = jpeg_bomb(64, 64)
    start = whole.index(b"\xff\xda")
    frame = whole.index(b"\xff\xc0")
    scan_length = struct.unpack(">H", whole[start + 2 : start + 4])[0]
    header = whole[: frame + 5] + struct.pack(">HH", height, width) + whole[frame + 9 : start]
    return header + whole[start : start + 2 + scan_length] + b"\xff\xd9"


@functools.cache
def phone_photo(size=(4000, 3000), *, progressive: bool = False, turned: bool = True) -> bytes:
    """A photo as a phone writes it: EXIF with the camera, a GPS position and "turn a quarter"
    (orientation 6), a colour profile, and a comment (a COM segment)."""
    image = Image.linear_gradient("L").resize(size).convert("RGB")
    exif = Image.Exif()
    exif[0x010F] = "Kamera AB"  # Make
    if turned:
        exif[0x0112] = 6  # Orientation: the camera was held upright
    exif[0x8825] = {2: (59.0, 20.0, 0.0)}  # GPS: latitude
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90, exif=exif.tobytes(), comment=b"Kommentar: Bordet 7",
               icc_profile=b"ICC profil " * 40, progressive=progressive)  # fmt: skip
    return out.getvalue()


def png_with_metadata() -> bytes:
    """A small PNG with text, EXIF, a colour profile and a time: none of them may stay."""
    exif = Image.Exif()
    exif[0x010F] = "Kamera AB"
    extra = (
        png_chunk(b"tEXt", b"Comment\x00Bordet 7")
        + png_chunk(b"zTXt", b"Author\x00\x00" + zlib.compress(b"Anna Andersson"))
        + png_chunk(b"iTXt", b"Location\x00\x00\x00\x00\x00Orebro")
        + png_chunk(b"eXIf", exif.tobytes())
        + png_chunk(b"iCCP", b"profil\x00\x00" + zlib.compress(b"ICC profil " * 40))
        + png_chunk(b"tIME", struct.pack(">HBBBBB", 2026, 12, 4, 20, 0, 0))
    )
    return png_bomb(400, 300, extra_chunks=extra)


def jpeg_segments(data: bytes) -> list[int]:
    """The markers of a JPEG's segments up to its first scan."""
    markers, position = [], 2
    while position + 4 <= len(data):
        marker = data[position + 1]
        markers.append(marker)
        if marker == 0xDA:
            break
        position += 2 + struct.unpack(">H", data[position + 2 : position + 4])[0]
    return markers


def png_chunk_kinds(data: bytes) -> list[bytes]:
    kinds, position = [], len(PNG_SIGNATURE)
    while position + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        kinds.append(kind)
        position += 12 + length
    return kinds
