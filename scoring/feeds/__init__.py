"""Feeds other programs read: the iCalendar text of a team's fixtures (`calendar`). The views that
serve them are in scoring.views.public_feeds."""
