"""The websites a league lets show its tables in a frame."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction

from leagues.audit import audit_log
from leagues.embed import parse_sites
from leagues.models import AuditEntry, League
from leagues.permissions import can_manage_league
from scoring.actors import Account


@transaction.atomic
def league_embed_sites_update(*, league: League, sites: str, by: Account) -> League:
    """Set the league's list (one origin a line, normalised); refuses a malformed address with
    a ``ValidationError`` naming it, and anyone but a secretary with ``PermissionDenied``."""
    league = League.objects.select_for_update().get(pk=league.pk)
    if not can_manage_league(by, league):
        raise PermissionDenied(f"Only the secretaries of {league} can do that.")
    origins = parse_sites(sites)
    before = league.embed_origins()
    league.embed_sites = "\n".join(origins)
    league.save(update_fields=["embed_sites"])
    audit_log(
        league=league,
        action=AuditEntry.Action.LEAGUE_EMBED_SITES,
        subject=f"Websites that may show {league}'s tables: {', '.join(origins) or 'none'}",
        before={"embed_sites": before},
        after={"embed_sites": origins},
        by=by,
    )
    return league
