"""The migration that marks a result counted from the score card both captains signed (0041),
run over results stored before it: the one whose confirmation's audit entry says so is marked,
a result a secretary confirmed otherwise is not."""

from django.urls import reverse

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import ResultSubmission
from leagues.services import confirmation
from leagues.services.cards import CardTable, fixture_card_enter
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import captained_teams

BEFORE = [("leagues", "0040_fixture_division_list_order")]
AFTER = [("leagues", "0041_submission_signed_card")]


def test_results_confirmed_from_a_signed_card_before_are_marked_from_their_audit_entry(
    migrate_to, client
):
    league = LeagueFactory(style="yorkshire", match_format=YORKSHIRE_FORMAT.to_spec())
    division = DivisionFactory(season__league=league)
    home, away, users = captained_teams(division, players=8)
    card = [CardTable(board=b, games=((11, 7),)) for b in range(1, 5)]
    signed = fixture_card_enter(
        fixture=FixtureFactory(division=division, home=home, away=away),
        tables=card,
        signed=True,
        by=users["secretary"],
    )
    waited = fixture_card_enter(
        fixture=FixtureFactory(division=division, home=away, away=home),
        tables=card,
        by=users["home"],
    )
    confirmation.result_confirm(submission=waited, by=users["secretary"])

    migrate_to(BEFORE)
    migrate_to(AFTER)

    marked = dict(ResultSubmission.objects.values_list("pk", "signed_card"))
    assert marked == {signed.pk: True, waited.pk: False}
    migrate_to()  # the pages read today's models: every later migration applied
    page = client.get(reverse("leagues:fixture_result", kwargs={"pk": signed.fixture_id}))
    assert "Confirmed from the score card both captains signed, entered by the secretary" in (
        page.content.decode()
    )
