"""The migrations that hold one waiting league request a name and a web address (0033, 0034),
run over requests stored before them: each keeps the address it asked for, and the second of
two alike still waiting (asked for at the same instant, which the service's check alone let
through) is refused with the reason, so the constraints can be built (on PostgreSQL too)."""

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from leagues.models import LeagueRequest as LeagueRequestNow

BEFORE = [("leagues", "0032_audit_action_choices")]
AFTER = [("leagues", "0034_leaguerequest_one_waiting")]


def test_requests_stored_before_keep_their_address_and_the_second_alike_is_refused(migrate_to):
    apps = migrate_to(BEFORE)
    User = apps.get_model("auth", "User")
    LeagueRequest = apps.get_model("leagues", "LeagueRequest")
    asker = User.objects.create(username="asker")
    now = timezone.now()

    def asked(name: str, minutes: int, status: str = "waiting", **form: str):
        return LeagueRequest.objects.create(
            name=name,
            form_data={"name": name, **form},
            asked_by=asker,
            asked_at=now - datetime.timedelta(minutes=minutes),
            status=status,
        )

    refused_before = asked("Calder Valley", 60, status="refused")
    first = asked("Calder Valley", 50)
    same_name = asked("calder valley", 40, slug="calder")
    heck = asked("Heckmondwike", 30, slug=" heck ")
    same_address = asked("Heck Town", 20, slug="heck")

    migrate_to(AFTER)

    now_stored = {r.pk: r for r in LeagueRequestNow.objects.all()}
    assert now_stored[first.pk].slug == "calder-valley"
    assert now_stored[heck.pk].slug == "heck"
    assert now_stored[same_name.pk].slug == "calder"
    waiting = LeagueRequestNow.Status.WAITING
    assert now_stored[first.pk].status == now_stored[heck.pk].status == waiting
    for second in (same_name, same_address):
        refused = now_stored[second.pk]
        assert refused.status == LeagueRequestNow.Status.REFUSED
        assert refused.reason.startswith("Asked for at the same moment as another request")
        assert refused.decided_at is not None
    assert now_stored[refused_before.pk].reason == ""
    with pytest.raises(IntegrityError), transaction.atomic():
        LeagueRequestNow.objects.create(
            name="CALDER VALLEY", slug="elsewhere", form_data={}, asked_by_id=asker.pk
        )
