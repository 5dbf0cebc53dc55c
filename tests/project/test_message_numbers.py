"""Numbers in messages look as in the tables beside them: 1 187 (thin space), −40 (true minus)."""

from django.utils import translation

from scoring.engine.problems import Problem
from scoring.messages import kept_problem_message, problem_message


def test_a_message_groups_thousands_and_writes_a_true_minus():
    with translation.override("sv"):
        message = problem_message(Problem("score-mismatch", "home", "home_score", {"computed": 1187, "written": -40}), 3)

    assert "1\u202f187" in message and "\u221240" in message
    assert message.startswith("Giv 3, hemmalaget")


def test_messages_worded_for_many_files_are_those_of_each_problem_in_its_language():
    """kept_problem_message keeps what it has worded: by language, and by each number's type (a minute
    of 50 and of 50.0 are equal numbers but not the same text)."""
    problems = [
        Problem("dealt-after-time", None, "dealt", {"minute": 50, "limit": 50}),
        Problem("dealt-after-time", None, "dealt", {"minute": 50.0, "limit": 50}),
        Problem("score-mismatch", "home", "home_score", {"computed": 1187, "written": -40}),
    ]
    for language in ("sv", "en", "sv"):
        with translation.override(language):
            expected = [problem_message(problem, 3) for problem in problems]
            assert [kept_problem_message(problem, 3, language) for problem in problems] == expected
    assert expected[0] != expected[1]
