"""Services for the photo of a signed paper protocol: where a club still keeps paper, the secretary
or the table (through the match's table link) attaches a photo of it to the match.

The image is checked to be a JPEG or PNG by Pillow and re-encoded, which leaves its location and
other metadata (EXIF, text chunks) behind; it is kept in the database (MatchPhoto), so the backup
holds it. Who sees it is the views' (scoring.views.table_manage.can_see_photos).
"""

from __future__ import annotations

import io

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from scoring import permissions
from scoring.models import Match, MatchPhoto, TableLink

from .audit import audit_log
from .errors import DomainError
from .table import TableSide, lock_match, lock_open_link

PHOTO_MAX_BYTES = 8 * 1024 * 1024
PHOTO_MAX_SIDE = 4000  # pixels; a phone's photo is re-encoded at most this large


def clean_photo(data: bytes) -> tuple[bytes, str, int, int]:
    """The image re-encoded (JPEG or PNG as sent), turned upright and without its metadata
    (location, camera, time): (bytes, content type, width, height). Refused unless Pillow reads it
    as a JPEG or PNG within the size limits."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    if len(data) > PHOTO_MAX_BYTES:
        raise DomainError(_("The photo is larger than 8 MB."))
    try:
        with Image.open(io.BytesIO(data)) as probe:
            kind = probe.format
            if kind not in ("JPEG", "PNG"):
                raise DomainError(_("Send a photo as JPEG or PNG."))
            if probe.width * probe.height > 50_000_000:
                raise DomainError(_("The photo has too many pixels."))
            probe.verify()
        with Image.open(io.BytesIO(data)) as image:
            image = ImageOps.exif_transpose(image)
            image.thumbnail((PHOTO_MAX_SIDE, PHOTO_MAX_SIDE))
            out = io.BytesIO()
            if kind == "JPEG":
                image.convert("RGB").save(out, "JPEG", quality=85)
                content_type = "image/jpeg"
            else:
                # Saved without `pnginfo` or `exif`: the text chunks and metadata stay behind.
                image.save(out, "PNG")
                content_type = "image/png"
            return out.getvalue(), content_type, image.width, image.height
    except DomainError:
        raise
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError, SyntaxError):
        raise DomainError(_("The file is not a photo that can be read (JPEG or PNG).")) from None


@transaction.atomic
def match_photo_add(*, match: Match, data: bytes, user=None, link: TableLink | None = None) -> MatchPhoto:
    """Attach a photo of the signed protocol: by the secretary, or from the table (`link`)."""
    if link is not None:
        link, match = lock_open_link(link)
        actor = TableSide(link)
    else:
        match = lock_match(match)
        if not (permissions.can_enter_protocol(user, match) or permissions.can_manage_competition(user, match.competition)):
            raise PermissionDenied(_("You may not change this match."))
        actor = user
    image, content_type, width, height = clean_photo(data)
    photo = MatchPhoto.objects.create(
        match=match, image=image, content_type=content_type, width=width, height=height,
        uploaded_by=user if link is None and getattr(user, "pk", None) else None, link=link,
    )  # fmt: skip
    audit_log(match=match, user=actor, action="match_photo_add",
              after={"photo": photo.pk, "bytes": len(image), "link": link.code if link else None},
              object_type="match_photo", object_id=photo.pk)  # fmt: skip
    return photo
