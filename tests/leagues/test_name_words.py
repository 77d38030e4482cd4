"""A person's name with a word too long to wrap on a phone (a name of 120 letters and no space
made the night page 1149 px wide and the team's 1482) is refused wherever a name is typed, by
the one check (``config.inputs.check_name_words``), saying why; a long name of real words
("Bartholomew Featherstonehaugh-Worthington") is taken."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from config.inputs import LONGEST_NAME_WORD, check_name_words
from leagues.admin import PlayerForm
from leagues.formats import YORKSHIRE_FORMAT
from leagues.forms import AccountNameForm, PlayerRegisterForm, SquadForm
from leagues.models import Player
from leagues.seating_forms import SquadAddForm
from leagues.services.accounts import account_name
from leagues.services.registrations import (
    player_register,
    squad_add_on_the_night,
    squad_register,
)
from scoring.forms.new_game import NewGameForm
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import captained_teams

pytestmark = pytest.mark.django_db

LONG = "B" * 120
TAKEN = "Bartholomew Featherstonehaugh-Worthington"
SAID = "is one word of 120 characters: a name's words are 30 characters at most"


def test_a_name_of_real_words_is_taken_and_one_past_the_longest_word_is_not() -> None:
    check_name_words(TAKEN)
    check_name_words("A" * LONGEST_NAME_WORD)
    with pytest.raises(ValidationError, match="one word of 31 characters"):
        check_name_words("Ann " + "A" * (LONGEST_NAME_WORD + 1))


@pytest.fixture
def fixture() -> Any:
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.to_spec())
    division = DivisionFactory(season__league=league)
    home, away, users = captained_teams(division, players=2)
    fixture = FixtureFactory(division=division, home=home, away=away)
    fixture.users = users
    return fixture


def _forms(fixture: Any) -> list[tuple[Any, str]]:
    """Every form that takes a person's name, bound with ``LONG`` for it: (form, field)."""
    league, season = fixture.division.season.league, fixture.division.season
    upload = SimpleUploadedFile("squad.csv", f"name\nAnn Dyson\n{LONG}\n".encode())
    return [
        (SquadAddForm({"side": "home", "name": LONG}), "name"),
        (
            PlayerRegisterForm(
                {"name": LONG, "team": fixture.home.pk, "season": season.pk}, league=league
            ),
            "name",
        ),
        (SquadForm({"names": f"Ann Dyson\n{LONG}"}, league=league, season=season), "names"),
        (SquadForm({}, {"csv_file": upload}, league=league, season=season), "csv_file"),
        (
            NewGameForm({"variant": "trinidad", "first_dealer": "A", "side_b_player_2": LONG}),
            "side_b_player_2",
        ),
        (AccountNameForm({"name": f"Ann {LONG}"}), "name"),
        (PlayerForm({"name": LONG}), "name"),
    ]


def test_every_form_that_takes_a_name_refuses_a_word_too_long_by_its_field(fixture) -> None:
    for form, field in _forms(fixture):
        assert not form.is_valid(), type(form).__name__
        assert any(SAID in error for error in form.errors[field]), (form, form.errors)


def test_every_service_that_makes_a_player_refuses_a_word_too_long(fixture) -> None:
    season, users = fixture.division.season, fixture.users
    with pytest.raises(ValidationError, match=SAID):
        squad_add_on_the_night(fixture=fixture, side="home", name=LONG, by=users["home"])
    with pytest.raises(ValidationError, match=SAID):
        player_register(name=LONG, team=fixture.home, season=season, by=users["secretary"])
    with pytest.raises(ValidationError, match=f"{SAID}.*Nothing was registered"):
        squad_register(
            team=fixture.home, season=season, names=["Ann Dyson", LONG], by=users["secretary"]
        )
    with pytest.raises(ValidationError, match=SAID):
        account_name(LONG)
    assert not Player.objects.filter(name__in=[LONG, "Ann Dyson"]).exists()
    registered = squad_add_on_the_night(fixture=fixture, side="home", name=TAKEN, by=users["home"])
    assert registered.player.name == TAKEN
