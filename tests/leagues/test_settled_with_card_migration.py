"""The migration that marks a result settled with the score card a secretary entered (0056),
run over results stored before it: the one whose settlement's audit entry says so is marked, a
dispute upheld is not."""

from django.urls import reverse

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import ResultSubmission
from leagues.services import confirmation
from leagues.services.cards import CardTable, fixture_card_enter
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import captained_teams

BEFORE = [("leagues", "0055_imported_results_count_their_games")]
AFTER = [("leagues", "0056_submission_settled_with_card")]


def test_results_settled_with_the_card_before_are_marked_from_their_audit_entry(migrate_to, client):
    league = LeagueFactory(style="yorkshire", match_format=YORKSHIRE_FORMAT.to_spec())
    division = DivisionFactory(season__league=league)
    home, away, users = captained_teams(division, players=8)
    card = [CardTable(board=b, games=((11, 7),)) for b in range(1, 5)]
    by_card = fixture_card_enter(
        fixture=FixtureFactory(division=division, home=home, away=away),
        tables=card,
        by=users["home"],
    )
    confirmation.result_dispute(submission=by_card, reason="Table 4 was 10-11", by=users["away"])
    settled = fixture_card_enter(
        fixture=by_card.fixture,
        tables=[CardTable(board=4, games=((10, 11),))],
        settlement="Card checked",
        by=users["secretary"],
    )
    upheld = fixture_card_enter(
        fixture=FixtureFactory(division=division, home=away, away=home),
        tables=card,
        by=users["home"],
    )
    confirmation.result_dispute(submission=upheld, reason="Wrong", by=users["away"])
    confirmation.result_settle(submission=upheld, uphold=True, note="Right", by=users["secretary"])

    migrate_to(BEFORE)
    migrate_to(AFTER)

    marked = dict(ResultSubmission.objects.values_list("pk", "settled_with_card"))
    assert marked == {by_card.pk: False, settled.pk: True, upheld.pk: False}
    migrate_to()  # the pages read today's models: every later migration applied
    page = client.get(reverse("leagues:fixture_result", kwargs={"pk": settled.fixture_id}))
    said = "The figures are from the score card entered by the secretary on "
    assert said in page.content.decode()
