"""The deal forms' options (clock, autofocus) and their accessibility attributes: forms made with
different options differ, and no form changes another's fields. Counts left empty are 0; card
points are written always (but in the live check of a deal still being typed)."""

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
    assert "home_cards" not in DealEntryForm().initial and not DealEntryForm().errors


def test_counts_left_empty_are_0_and_card_points_must_be_written():
    form = DealEntryForm({"home_cards": "60", "away_cards": "0", "version": "1"})
    assert form.is_valid()
    assert (form.cleaned_data["home_natural"], form.cleaned_data["away_penalty"]) == (0, 0)
    assert 'placeholder="0"' in str(form["home_natural"]) and "placeholder" not in str(form["home_cards"])
    missing = DealEntryForm({"home_cards": "60", "away_cards": "", "version": "1"})
    assert not missing.is_valid()
    assert missing.errors["away_cards"] == ["Skriv kortpoängen som de står på protokollet, även 0."]
    # The live check of a deal still being typed counts them 0 and marks no field not yet reached.
    checked = DealEntryForm({"home_cards": "60", "away_cards": "", "version": "1", "checking": "1"})
    assert checked.is_valid() and checked.cleaned_data["away_cards"] == 0
