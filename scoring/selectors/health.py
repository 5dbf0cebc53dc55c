"""Whether the database answers: the health check's one read (views.health)."""

import logging

from django.db import DatabaseError, connection

logger = logging.getLogger(__name__)


def database_answers() -> bool:
    """True when the database runs a trivial query; a failure is logged with its cause."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("Health check: the database did not answer")
        return False
    return True
