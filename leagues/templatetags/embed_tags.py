"""``{% embed_settings league %}``: the websites allowed to frame the league's tables and a
snippet to copy for each division of the current season (on the league's settings page)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from leagues.models import League
from leagues.selectors.fixtures import league_current_season

register = template.Library()


@register.inclusion_tag("leagues/manage/_embed_settings.html", takes_context=True)
def embed_settings(context: dict[str, Any], league: League) -> dict[str, Any]:
    request = context["request"]
    season = league_current_season(league=league)
    divisions = list(season.divisions.order_by("rank", "name")) if season else []
    snippets = []
    for division in divisions:
        url = request.build_absolute_uri(reverse("leagues:division_embed", args=[division.pk]))
        snippets.append(
            {
                "division": division,
                "url": url,
                "code": f'<iframe src="{url}" title="{division.name} table" width="100%" '
                f'height="640" style="border:0;max-width:40rem" loading="lazy"></iframe>',
            }
        )
    return {
        "league": league,
        "sites": "\n".join(league.embed_origins()),
        "snippets": snippets,
        "csrf_token": context.get("csrf_token"),
    }
