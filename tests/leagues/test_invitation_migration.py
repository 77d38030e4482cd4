"""The migrations that hold one unanswered invitation an address (0037, its constraints 0038),
run over invitations sent before them: of two or more alike still unanswered (a second
invitation to an address already waiting, which used to be sent), the one sent last is kept
and the others are withdrawn, so the constraints can be built (on PostgreSQL too); the rest
are left as they were."""

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from leagues.models import Invitation as InvitationNow

BEFORE = [("leagues", "0036_fixture_withdrawal_settles_it")]
AFTER = [("leagues", "0038_invitation_one_unanswered")]


def test_of_invitations_alike_sent_before_the_last_sent_is_kept_and_the_others_withdrawn(
    migrate_to,
):
    apps = migrate_to(BEFORE)
    get = apps.get_model
    league = get("leagues", "League").objects.create(name="Calder", slug="calder")
    other_league = get("leagues", "League").objects.create(name="Spen", slug="spen")
    venue = get("leagues", "Venue").objects.create(league=league, name="Oak", slug="oak")
    Team = get("leagues", "Team")
    bull = Team.objects.create(league=league, name="Bull", slug="bull", home_venue=venue)
    lion = Team.objects.create(league=league, name="Lion", slug="lion", home_venue=venue)
    Player = get("leagues", "Player")
    walter, edna = Player.objects.create(name="Walter"), Player.objects.create(name="Edna")
    Invitation = get("leagues", "Invitation")
    now = timezone.now()

    def sent(email, minutes, *, league=league, team=None, player=None, **answered):
        at = now - datetime.timedelta(minutes=minutes)
        return Invitation.objects.create(
            league=league,
            role="captain" if team else "secretary",
            team=team,
            player=player,
            email=email,
            nonce=f"n{minutes}",
            sent_at=at,
            expires_at=at + datetime.timedelta(days=14),
            **answered,
        )

    jean_first = sent("jean@example.org", 60)
    jean_again = sent("Jean@Example.org", 50)
    jean_last = sent("jean@example.org", 40)
    jean_elsewhere = sent("jean@example.org", 30, league=other_league)
    jean_withdrawn = sent("jean@example.org", 20, withdrawn_at=now)
    walter_first = sent("w@example.org", 60, team=bull, player=walter)
    walter_last = sent("w@example.org", 10, team=bull, player=walter)
    walter_for_lion = sent("w@example.org", 50, team=lion, player=walter)
    edna_at_his = sent("w@example.org", 40, team=bull, player=edna)
    walter_accepted = sent("w@example.org", 5, team=bull, player=walter, accepted_at=now)

    migrate_to(AFTER)

    withdrawn = {i.pk for i in InvitationNow.objects.all() if i.withdrawn_at not in (None, now)}
    assert withdrawn == {jean_first.pk, jean_again.pk, walter_first.pk}
    stored = {i.pk: i for i in InvitationNow.objects.all()}
    for kept in (jean_last, jean_elsewhere, walter_last, walter_for_lion, edna_at_his):
        assert stored[kept.pk].withdrawn_at is None and stored[kept.pk].accepted_at is None
    assert stored[jean_withdrawn.pk].withdrawn_at == now
    assert stored[walter_accepted.pk].accepted_at == now
    with pytest.raises(IntegrityError), transaction.atomic():
        InvitationNow.objects.create(
            league_id=league.pk,
            role="secretary",
            email="JEAN@example.org",
            nonce="again",
            expires_at=now + datetime.timedelta(days=14),
        )
