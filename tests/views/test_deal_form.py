"""The deal forms' options (clock, autofocus) and their accessibility attributes: forms made with
different options differ, and no form changes another's fields."""

from scoring.forms.protocol import DealCorrectForm, DealEntryForm


def end_choices(form):
    return [value for value, _label in form.fields["end"].choices]


def test_the_clock_choice_is_there_only_in_a_timed_match():
    assert "clock" in end_choices(DealEntryForm(has_clock=True))
    assert "clock" not in end_choices(DealEntryForm(has_clock=False))
    assert "clock" in end_choices(DealEntryForm(has_clock=True))


def test_autofocus_is_on_the_first_input_only_when_asked():
    assert "autofocus" in str(DealEntryForm(autofocus=True)["home_cards"])
    assert "autofocus" not in str(DealEntryForm(autofocus=False)["home_cards"])
    assert "autofocus" in str(DealEntryForm(autofocus=True)["home_cards"])


def test_every_input_points_at_its_problems_and_hint():
    form = DealCorrectForm(has_clock=True)
    assert 'aria-describedby="problems-home_cards"' in str(form["home_cards"])
    assert 'aria-describedby="hint-dealt problems-dealt"' in str(form["dealt"])
    assert 'aria-describedby="hint-reason problems-reason"' in str(form["reason"])


def test_one_forms_errors_and_values_are_its_own():
    refused = DealEntryForm({"home_cards": "x", "version": "1"})
    accepted = DealEntryForm({"home_cards": "60", "away_cards": "-20", "version": "1"})
    assert not refused.is_valid() and accepted.is_valid()
    assert 'aria-invalid' not in str(accepted["home_cards"]) and 'value="60"' in str(accepted["home_cards"])
    assert 'value="x"' in str(refused["home_cards"])
    assert refused.fields is not accepted.fields
    assert DealEntryForm().initial["home_cards"] == 0 and not DealEntryForm().errors
