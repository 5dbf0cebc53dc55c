"""Numbers in messages look as in the tables beside them: 1 187 (thin space), −40 (true minus)."""

from django.utils import translation

from scoring.engine.problems import Problem
from scoring.messages import problem_message


def test_a_message_groups_thousands_and_writes_a_true_minus():
    with translation.override("sv"):
        message = problem_message(Problem("score-mismatch", "home", "home_score", {"computed": 1187, "written": -40}), 3)

    assert "1\u202f187" in message and "\u221240" in message
    assert message.startswith("Giv 3, hemmalaget")
