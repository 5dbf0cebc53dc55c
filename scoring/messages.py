"""User text for engine problem codes and protocol-file errors, in Swedish and English.

The engine speaks in codes (scoring.engine.problems; docs/rules.md, "Checks on a deal" and "Warnings"); this module is the one place that
turns a code into a sentence. Every message names where the problem is: the deal (giv), the side
(hemmalaget/bortalaget) and the field, so a secretary copying a paper protocol finds it at once.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy as _, pgettext_lazy

from scoring.engine.problems import Problem
from scoring.files.protocol_file import ProtocolFileError
from scoring.formatting import format_number

SIDE_LABELS = {
    "home": pgettext_lazy("side", "home team"),
    "away": pgettext_lazy("side", "away team"),
}

# Field names are the protocol file's columns without the side prefix.
FIELD_LABELS = {
    "deal": _("deal"),
    "cards": _("card points"),
    "natural": _("natural canastas"),
    "mixed": _("mixed canastas"),
    "canasta_points": _("canasta points"),
    "red3": _("red threes"),
    "penalty": _("penalties"),
    "melded": _("melded"),
    "min": _("opening minimum"),
    "score": _("deal score"),
    "total": _("running total"),
    "out": _("went out"),
    "concealed": _("concealed going out"),
    "end": _("how the deal ended"),
    "dealt": _("minute dealt"),
    "time_up": _("time ran out"),
}

PROBLEM_TEXTS = {
    "not-multiple-of-5": _("%(value)s is not a multiple of 5; every card value is."),
    "negative-count": _("%(value)s is negative; write a count of 0 or more (penalties as a positive number)."),
    "going-out-count": _("exactly one side goes out when the deal ends by going out, and none when it ends by the stock or the clock."),
    "out-without-canasta": _("the side went out with %(canastas)s canastas; the rules require at least %(required)s."),
    "concealed-without-out": _("concealed going out is marked, but no side went out."),
    "canasta-without-meld": _("marked as not melded, but it has canastas, positive card points or went out."),
    "red-threes": _("%(value)s red threes; there are only %(limit)s in the two packs."),
    "canastas-impossible": _("more canastas than two packs allow."),
    "card-points-range": _("%(value)s card points; two packs hold %(limit)s at the most."),
    "opening-minimum": _("the opening minimum is %(computed)s at a total of %(total)s, not %(written)s."),
    "score-mismatch": _("the deal score is %(computed)s, not %(written)s as written."),
    "total-mismatch": _("%(before)s and the deal score %(score)s make %(expected)s, not %(written)s as written."),
    "after-match-end": _("the match ended after deal %(end_deal)s; no further deal is accepted."),
    "clock-not-allowed": _("this match has no clock, so a deal cannot end by the clock and the time cannot run out."),
    "dealt-after-time": _("dealt at minute %(minute)s, after the main time of %(limit)s minutes."),
    "deal-score-high": _("a deal score of %(value)s is unusually high (above %(limit)s); please check it."),
    "many-deals": _("more than %(limit)s deals in a timed match; please check the protocol."),
    "deals-out-of-order": _("this deal was dealt earlier than the one before it."),
    "penalty-unusual": _("a penalty of %(value)s is not a multiple of %(step)s, as penalties usually are; please check it."),
    "red-threes-not-counted": _("red threes are written, though under these rules they count nothing and need not be written: was the protocol kept by home rules?"),
    "melded-assumed": _("the side is taken as not having melded, so its red threes were subtracted; check that it really made no meld."),
}

# canastas-impossible names the limit that was passed (params["reason"]).
CANASTAS_IMPOSSIBLE_TEXTS = {
    "ranks-side": _("%(value)s canastas; one side can have at most %(limit)s, one for each rank from ace to four."),
    "ranks": _("%(natural)s natural and %(mixed)s mixed canastas need more than the %(limit)s ranks from ace to four."),
    "wild-cards": _("%(mixed)s mixed canastas; two packs have only %(limit)s wild cards."),
    "cards": _("these canastas need at least %(needed)s cards; two packs have %(limit)s cards that are not threes."),
    "natural-cards": _("these canastas need at least %(needed)s natural cards; two packs have %(limit)s from ace to four."),
}

FILE_ERROR_TEXTS = {
    "missing-file": _("The file %(path)s does not exist or cannot be opened."),
    "encoding": _("The file is not text in UTF-8 or Windows encoding."),
    "not-text": _("The file is not a CSV text file."),
    "not-xlsx": _("The file is not a readable Excel workbook (xlsx)."),
    "too-large": _("The file is too large for a protocol."),
    "formula": _("The cell holds a formula (%(value)s); write the number itself instead."),
    "no-header": _("The file has no header row."),
    "empty-column-name": _("Column %(position)s of the header has no name."),
    "unknown-column": _("Unknown column."),
    "duplicate-column": _("The column appears twice in the header."),
    "missing-column": _("The required column is missing from the header."),
    "missing-value": _("A value is required."),
    "not-a-number": _("“%(value)s” is not a whole number."),
    "number-too-large": _("%(value)s is far too large for a protocol."),
    "bad-value": _("“%(value)s” is not one of %(expected)s."),
    "deal-sequence": _("Deal number %(value)s; expected %(expected)s (deals are numbered 1, 2, 3 … without gaps)."),
    "too-many-values": _("The row has more values than the header has columns (%(columns)s)."),
    "too-many-rows": _("More than %(limit)s deals; this is not a protocol."),
    "csv-syntax": _("The CSV text is malformed (%(detail)s)."),
}


def field_label(field: str | None) -> str:
    if not field:
        return ""
    name = field.split("_", 1)[1] if field.startswith(("home_", "away_")) else field
    return str(FIELD_LABELS.get(name, name))


def _shown(value):
    """A number in a message looks as in the tables beside it (1 187, −40): the reader compares them."""
    if isinstance(value, int) and not isinstance(value, bool):
        return format_number(value)
    return value


def _format(template, params) -> str:
    try:
        if isinstance(params, dict):
            params = {name: _shown(value) for name, value in params.items()}
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return str(template)


def problem_text(problem: Problem) -> str:
    """The problem itself, without the deal: 'the deal score is 785, not 780 as written.'"""
    template = PROBLEM_TEXTS.get(problem.code)
    if problem.code == "canastas-impossible":
        template = CANASTAS_IMPOSSIBLE_TEXTS.get(problem.params.get("reason"), template)
    if template is None:
        return problem.code
    return _format(template, problem.params)


def location(deal_number: int | None, side: str | None, field: str | None) -> str:
    """'Giv 3, bortalaget, givpoäng': where on the protocol something is."""
    parts = []
    if deal_number is not None:
        parts.append(gettext("Deal %(number)s") % {"number": deal_number})
    if side:
        parts.append(str(SIDE_LABELS[side]))
    label = field_label(field)
    if label and field != "deal":
        parts.append(label)
    return ", ".join(parts)


def field_error_message(field: str, text: str, deal_number: int | None = None) -> str:
    """A form's own error (not a number, far too large …) located like an engine problem:
    'Giv 3, hemmalaget, kortpoäng: skriv ett heltal …'."""
    side = field.split("_", 1)[0] if field.startswith(("home_", "away_")) else None
    where = location(deal_number, side, field)
    if not where:
        return text
    return f"{where}: {text[:1].lower()}{text[1:]}"


def problem_message(problem: Problem, deal_number: int | None = None) -> str:
    """A whole sentence naming deal, side and field: 'Giv 3, bortalaget, givpoäng: …'."""
    where = location(deal_number, problem.side, problem.field)
    text = problem_text(problem)
    if where:
        return f"{where}: {text}"
    return text[:1].upper() + text[1:]


# Messages worded once per language and kept: a season's protocol files repeat the same few
# problems (the same warning on deal 3 of a thousand files), and wording one takes several
# translation look-ups. The catalogues do not change while the process runs. Kept in a plain dict
# under a key made in one expression (a report asks for a message for every fourth deal); when it
# is full, further messages are worded each time.
_KEPT_MESSAGES = 8192
_kept_messages: dict[tuple, str] = {}


def kept_problem_message(problem: Problem, deal_number: int | None, language: str | None) -> str:
    """problem_message, in `language` (the active one, which the caller has asked for), worded
    once and kept."""
    params = problem.params
    # Each value's type is part of the key: 50 and 50.0 are equal but read differently. Every
    # item is a pair and every type is not, so keys of different params cannot meet.
    key = (
        language, deal_number, problem.code, problem.side, problem.field,
        *params.items(), *map(type, params.values()),
    )  # fmt: skip
    try:
        return _kept_messages[key]
    except KeyError:
        pass
    except TypeError:  # a value that cannot be a key (none of the engine's are)
        return problem_message(problem, deal_number)
    message = problem_message(problem, deal_number)
    if len(_kept_messages) < _KEPT_MESSAGES:
        _kept_messages[key] = message
    return message


def file_error_message(error: ProtocolFileError) -> str:
    template = FILE_ERROR_TEXTS.get(error.code)
    text = _format(template, error.params) if template is not None else error.code
    where = []
    if error.line is not None:
        where.append(gettext("line %(line)s") % {"line": error.line})
    if error.column:
        where.append(gettext("column %(column)s") % {"column": error.column})
    if where:
        return f"{', '.join(where).capitalize()}: {text}"
    return text
