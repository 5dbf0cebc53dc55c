"""Path converters for the numbers in URLs, bounded to the database columns they are looked up in.

Django's `int` converter takes any run of digits, and a number beyond a column's range reaches the
database and ends in a server error (SQLite cannot bind an integer above 2**63 - 1). These refuse
such a number while resolving the URL, which answers 404 like any other address that is not there.
"""

from __future__ import annotations

# Primary keys are 64-bit (DEFAULT_AUTO_FIELD is BigAutoField).
LARGEST_ID = 2**63 - 1
# Round and deal numbers are PositiveSmallIntegerField.
LARGEST_NUMBER = 32767


class _BoundedInt:
    regex = "[0-9]{1,19}"
    largest = LARGEST_ID

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > self.largest:
            raise ValueError(value)  # Django: no match, so 404
        return number

    def to_url(self, value) -> str:
        return str(int(value))


class IdConverter(_BoundedInt):
    """`<id:pk>`: a primary key."""


class NumberConverter(_BoundedInt):
    """`<number:number>`: a round's or a deal's number."""

    regex = "[0-9]{1,5}"
    largest = LARGEST_NUMBER
