"""Before the database holds one unanswered invitation an address (0038_invitation_one_unanswered):
of two or more alike still unanswered (to one address, case aside, to be a secretary of one
league, or one team's captain, that player), which a second invitation used to make, the one
sent last is kept and the others are withdrawn: their links, which all worked, now say so, and
the newest mail's link is the one that works, as after **Send again**.
"""

from django.db import migrations
from django.db.models.functions import Lower
from django.utils import timezone


def withdraw_all_but_the_last_sent(apps, schema_editor):
    """Alike as the constraints compare them: the address by the database's own lower case."""
    Invitation = apps.get_model("leagues", "Invitation")
    unanswered = (
        Invitation.objects.filter(accepted_at__isnull=True, withdrawn_at__isnull=True)
        .annotate(lower_email=Lower("email"))
        .order_by("-sent_at", "-pk")
    )
    kept = set()
    for invitation in unanswered:
        if invitation.role == "secretary":
            key = ("secretary", invitation.league_id, invitation.lower_email)
        else:
            key = ("captain", invitation.team_id, invitation.player_id, invitation.lower_email)
        if key in kept:
            invitation.withdrawn_at = timezone.now()
            invitation.save(update_fields=["withdrawn_at"])
        kept.add(key)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0036_fixture_withdrawal_settles_it"),
    ]

    operations = [
        migrations.RunPython(withdraw_all_but_the_last_sent, migrations.RunPython.noop),
    ]
