"""iCalendar (RFC 5545) text for calendar feeds: a team's fixtures for players' calendars.

Written by hand because the format is small: CRLF line ends, lines folded at 75 octets (never inside
a UTF-8 character), TEXT values escaped (backslash, semicolon, comma, newline), times in UTC with
"Z", and an all-day DATE when only the round's date is known. Pure formatting: no database here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timezone

CRLF = "\r\n"
MAX_OCTETS = 75


def escape_text(value: str) -> str:
    return (
        str(value)
        .replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
    )


def fold(line: str) -> str:
    """Split a content line into lines of at most 75 octets; continuation lines start with a space."""
    parts: list[str] = []
    current = ""
    current_octets = 0
    limit = MAX_OCTETS
    for char in line:
        size = len(char.encode("utf-8"))
        if current_octets + size > limit:
            parts.append(current)
            current, current_octets = "", 0
            limit = MAX_OCTETS - 1  # the leading space of a continuation line counts
        current += char
        current_octets += size
    parts.append(current)
    return (CRLF + " ").join(parts)


def format_utc(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def format_date(day: date) -> str:
    return day.strftime("%Y%m%d")


@dataclass(frozen=True)
class CalendarEvent:
    uid: str
    start: datetime | date
    end: datetime | date
    summary: str
    description: str = ""
    location: str = ""
    url: str = ""
    status: str = "CONFIRMED"  # CONFIRMED, TENTATIVE or CANCELLED
    last_modified: datetime | None = None


def _time_property(name: str, value: datetime | date) -> str:
    if isinstance(value, datetime):
        return f"{name}:{format_utc(value)}"
    return f"{name};VALUE=DATE:{format_date(value)}"


def calendar(events: Iterable[CalendarEvent], *, name: str, prodid: str, stamp: datetime) -> str:
    """A VCALENDAR with one VEVENT per event."""
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{prodid}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape_text(name)}",
        f"NAME:{escape_text(name)}",
        "REFRESH-INTERVAL;VALUE=DURATION:PT6H",
    ]
    for event in events:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{event.uid}",
            f"DTSTAMP:{format_utc(stamp)}",
            _time_property("DTSTART", event.start),
            _time_property("DTEND", event.end),
            f"SUMMARY:{escape_text(event.summary)}",
        ]
        if event.description:
            lines.append(f"DESCRIPTION:{escape_text(event.description)}")
        if event.location:
            lines.append(f"LOCATION:{escape_text(event.location)}")
        if event.url:
            lines.append(f"URL:{event.url}")
        if event.last_modified is not None:
            lines.append(f"LAST-MODIFIED:{format_utc(event.last_modified)}")
        lines += [f"STATUS:{event.status}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + CRLF for line in lines)
