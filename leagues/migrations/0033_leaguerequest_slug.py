"""Before the database holds one waiting request a name and a web address
(0034_leaguerequest_one_waiting): each request's web address kept beside it (the one typed on
its form, else its name's), and a waiting request alike, case aside, in name or address to one
asked for before it (two asked for at the same instant, which the check alone let through) is
refused with the reason, as approving it would have been: its asker sees it on My fixtures.
"""

from django.db import migrations, models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.text import slugify

SAME_INSTANT = (
    "Asked for at the same moment as another request for this name or web address, which "
    "waits for the site's operator: ask again with another name (its town or district, say)."
)


def asked_address(name, form_data):
    """``leagues.services.league_requests.asked_address`` as it is when this runs."""
    typed = form_data.get("slug") if isinstance(form_data, dict) else None
    return (typed.strip() if isinstance(typed, str) else "") or slugify(name)


def keep_addresses(apps, schema_editor):
    LeagueRequest = apps.get_model("leagues", "LeagueRequest")
    requests = list(LeagueRequest.objects.only("pk", "name", "form_data"))
    for league_request in requests:
        league_request.slug = asked_address(league_request.name, league_request.form_data)[:120]
    LeagueRequest.objects.bulk_update(requests, ["slug"], batch_size=500)


def refuse_the_second(apps, schema_editor):
    """Alike as the constraints compare them: the name by the database's own lower case."""
    LeagueRequest = apps.get_model("leagues", "LeagueRequest")
    waiting = (
        LeagueRequest.objects.filter(status="waiting")
        .annotate(lower_name=Lower("name"))
        .order_by("asked_at", "pk")
    )
    names, addresses = set(), set()
    for league_request in waiting:
        if league_request.lower_name in names or league_request.slug in addresses:
            league_request.status = "refused"
            league_request.reason = SAME_INSTANT
            league_request.decided_at = timezone.now()
            league_request.save(update_fields=["status", "reason", "decided_at"])
            continue
        names.add(league_request.lower_name)
        addresses.add(league_request.slug)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0032_audit_action_choices"),
    ]

    operations = [
        migrations.AddField(
            model_name="leaguerequest",
            name="slug",
            field=models.SlugField(
                db_index=False,
                default="",
                help_text="The web address asked for: the one typed, else the name's.",
                max_length=120,
            ),
            preserve_default=False,
        ),
        migrations.RunPython(keep_addresses, migrations.RunPython.noop),
        migrations.RunPython(refuse_the_second, migrations.RunPython.noop),
    ]
