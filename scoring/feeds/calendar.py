"""iCalendar (RFC 5545) text for calendar feeds: a team's fixtures for players' calendars.

Written with the `icalendar` package, which does what the format asks of a writer: CRLF line
ends, lines folded at 75 octets (never inside a UTF-8 character), TEXT values escaped (backslash,
semicolon, comma, every kind of line break), times in UTC with "Z", and an all-day DATE when only
the round's date is known. Pure formatting: no database here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

from icalendar import Calendar, Event, vText


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


def _utc(value: datetime | date) -> datetime | date:
    return value.astimezone(timezone.utc) if isinstance(value, datetime) else value


def calendar(events: Iterable[CalendarEvent], *, name: str, prodid: str, stamp: datetime) -> str:
    """A VCALENDAR with one VEVENT per event."""
    feed = Calendar()
    feed.add("version", "2.0")
    feed.add("prodid", prodid)
    feed.add("calscale", "GREGORIAN")
    feed.add("method", "PUBLISH")
    # As vText: the package gives a plain string here as it is, line breaks and all (icalendar 7.3).
    feed.add("x-wr-calname", vText(name))
    feed.add("name", vText(name))
    # How often a calendar program should fetch the feed again.
    feed.add("refresh-interval", timedelta(hours=6), parameters={"VALUE": "DURATION"})
    for item in events:
        event = Event()
        event.add("uid", item.uid)
        event.add("dtstamp", _utc(stamp))
        event.add("dtstart", _utc(item.start))
        event.add("dtend", _utc(item.end))
        event.add("summary", vText(item.summary))
        if item.description:
            event.add("description", vText(item.description))
        if item.location:
            event.add("location", vText(item.location))
        if item.url:
            event.add("url", item.url)
        if item.last_modified is not None:
            event.add("last-modified", _utc(item.last_modified))
        event.add("status", item.status)
        feed.add_component(event)
    return feed.to_ical().decode("utf-8")
