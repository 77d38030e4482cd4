"""A whole league in one file, and back: every season, division, venue, team and entry, the
players and their registrations, fixtures with their tables, games and hands, results and their
agreement, points adjustments, cups, and the audit trail.

The file is Django's own JSON serialization (``django.core.serializers``) of everything the
league owns (what deleting it would delete) and everything that refers to (its players, the
games at its tables with their hands, the scoring links, the accounts of its secretaries,
captains and scorers), wrapped with a format name and version. Accounts go without their
password (they set a new one by password reset) and without any site rights. Invitations, sent
notices and opt-outs stay behind: they belong to the site that sent them.

``league_restore`` reads such a file into a site that has none of its records (a new site, or
one the league never was on), all or nothing, keeping every record's number so every link
between them holds; the standings come out the same because the results and their agreement do.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.contrib.admin.utils import NestedObjects
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import DEFAULT_DB_ALIAS, connection, models, transaction

from config.inputs import one_spaced
from leagues.audit import audit_log
from leagues.fragments import invalidate_league
from leagues.models import AuditEntry, FixtureResult, FixtureTable, League, Player
from leagues.services.standings import rebuild_tables

FORMAT = "allfours-league"
VERSION = 1

#: Records that stay with the site that made them (tokens, mails sent, requests).
LEFT_BEHIND = {"notices.notice", "notices.optout", "leagues.invitation", "leagues.leaguerequest"}


def _label(model: type[models.Model]) -> str:
    return model._meta.label_lower


def _owned(objs: Iterable[models.Model]) -> list[models.Model]:
    collector = NestedObjects(using=DEFAULT_DB_ALIAS)
    collector.collect(list(objs))
    found: list[models.Model] = []
    for model, instances in collector.model_objs.items():
        # A many-to-many's own rows (a league's secretaries) travel in their owner's field:
        # loaded again as rows too they would be written twice.
        if _label(model) not in LEFT_BEHIND and not model._meta.auto_created:
            found += list(instances)
    return found


def league_records(league: League) -> list[models.Model]:
    """Everything the export holds, parents before children."""
    records: dict[tuple[str, Any], models.Model] = {}

    def add(objs: Iterable[models.Model]) -> list[models.Model]:
        new = []
        for obj in objs:
            key = (_label(type(obj)), obj.pk)
            if key not in records:
                records[key] = obj
                new.append(obj)
        return new

    user_model = get_user_model()
    frontier = add(_owned([league]))
    while frontier:
        referred: list[models.Model] = []
        for obj in frontier:
            for field in obj._meta.concrete_fields:
                if not field.is_relation or field.related_model is None:
                    continue
                target = getattr(obj, field.name)
                if target is not None and (_label(type(target)), target.pk) not in records:
                    referred.append(target)
            for field in obj._meta.many_to_many:
                referred += list(getattr(obj, field.name).all())
        referred = add(referred)
        # A game reached from a table brings its sides, hands and awards (what it owns); a
        # player or an account brings nothing more of theirs (their other leagues stay).
        games = [o for o in referred if _label(type(o)) == "scoring.game"]
        frontier = referred + add(o for o in _owned(games) if not isinstance(o, user_model))
    return _ordered(list(records.values()))


def _ordered(objs: list[models.Model]) -> list[models.Model]:
    """Parents first (a model after the models its foreign keys point to), so the file loads
    into a database that checks foreign keys at once."""
    by_model: dict[type[models.Model], list[models.Model]] = defaultdict(list)
    for obj in objs:
        by_model[type(obj)].append(obj)
    order: list[type[models.Model]] = []
    seen: set[type[models.Model]] = set()

    def visit(model: type[models.Model], path: tuple[type[models.Model], ...] = ()) -> None:
        if model in seen or model in path:
            return
        for field in model._meta.concrete_fields:
            target = field.related_model
            if field.is_relation and target in by_model and target is not model:
                visit(target, (*path, model))  # type: ignore[arg-type]
        seen.add(model)
        order.append(model)

    for model in sorted(by_model, key=_label):
        visit(model)
    return [obj for model in order for obj in sorted(by_model[model], key=lambda o: o.pk)]


def league_export(*, league: League) -> str:
    """The whole league as one JSON document."""
    user_model = get_user_model()
    records = league_records(league)
    data = json.loads(serializers.serialize("json", records))
    for item in data:
        if item["model"] == _label(user_model):
            fields = item["fields"]
            item["fields"] = {
                "username": fields["username"],
                "email": fields.get("email", ""),
                "first_name": fields.get("first_name", ""),
                "last_name": fields.get("last_name", ""),
                "is_active": fields.get("is_active", True),
                "password": "!",  # no password leaves the site: a reset sets a new one
                "date_joined": fields.get("date_joined"),
            }
    document = {
        "format": FORMAT,
        "version": VERSION,
        "league": league.slug,
        "name": league.name,
        "records": data,
    }
    return json.dumps(document, ensure_ascii=False, indent=1)


#: A finished game's decision, given back once its hands are in (no hand may be added to a
#: game that is over: ``scoring`` enforces it in the database).
DECISION = ("status", "winner", "decided_hand", "decided_category")


def _hold_decisions(objects: list[Any]) -> list[tuple[type[models.Model], Any, dict[str, Any]]]:
    """Each finished game loads as in progress; its decision is returned to set after."""
    held = []
    for item in objects:
        game = item.object
        if _label(type(game)) == "scoring.game" and game.status != "in_progress":
            held.append((type(game), game.pk, {name: getattr(game, name) for name in DECISION}))
            game.status, game.winner = "in_progress", ""
            game.decided_hand, game.decided_category = None, ""
    return held


def _mark_what_was_recorded(records: list[dict[str, Any]]) -> None:
    """A file written before a result said what of it was recorded (``FixtureResult.imported``
    and ``pegs_recorded``, migration 0058): as that migration marked them, its results imported
    from the league's records (decided, not walkovers, with no tables) are marked imported, and
    those and the results whose every table's score card gave the games without their scores
    (``FixtureTable.has_pegs``) are marked without their pegs, which read as not recorded."""
    older = [
        record["pk"]
        for record in records
        if record.get("model") == "leagues.fixtureresult"
        and "imported" not in record.get("fields", {})
    ]
    if not older:
        return
    results = FixtureResult.objects.filter(pk__in=older)
    results.filter(is_final=True, is_walkover=False, fixture__tables__isnull=True).update(
        imported=True, pegs_recorded=False
    )
    tables = FixtureTable.objects.filter(fixture__result__in=results).only(
        "fixture_id", "source", "card"
    )
    with_pegs, without_pegs = set(), set()
    for table in tables:
        (with_pegs if table.has_pegs else without_pegs).add(table.fixture_id)
    results.filter(fixture__in=without_pegs - with_pegs).update(pegs_recorded=False)


def is_export(data: bytes) -> bool:
    """Whether ``data`` looks like a file ``league_export`` wrote."""
    head = data[:200].lstrip(b"\xef\xbb\xbf \r\n\t")
    return head.startswith(b"{") and FORMAT.encode() in data[:400]


@transaction.atomic
def league_restore(*, data: bytes, slug: str = "") -> League:
    """Load an exported league (as ``slug``, when given) into this site; ``ValidationError``
    listing what stands in the way, and nothing loaded, when it cannot."""
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValidationError(f"The file is not a league export: {exc}.") from exc
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValidationError("The file is not a league export (no “format” of ours).")
    if document.get("version") != VERSION:
        raise ValidationError(f"Export version {document.get('version')} is not one we read.")
    try:
        objects = list(
            serializers.deserialize("json", json.dumps(document["records"]), ignorenonexistent=True)
        )
    except (serializers.base.DeserializationError, KeyError) as exc:
        raise ValidationError(f"The export cannot be read: {exc}.") from exc
    problems = []
    taken: dict[type[models.Model], set[Any]] = defaultdict(set)
    for item in objects:
        taken[type(item.object)].add(item.object.pk)
    for model, pks in taken.items():
        clash = model._default_manager.filter(pk__in=pks).count()
        if clash:
            problems.append(
                f"this site already has {clash} of the export's {model._meta.verbose_name_plural}"
            )
    league_item = next((i for i in objects if isinstance(i.object, League)), None)
    if league_item is None:
        raise ValidationError("The export holds no league.")
    if slug:
        league_item.object.slug = slug
    if League.objects.filter(slug=league_item.object.slug).exists():
        problems.append(f"a league at “{league_item.object.slug}” is here already")
    user_model = get_user_model()
    names = [i.object.get_username() for i in objects if isinstance(i.object, user_model)]
    existing = list(
        user_model.objects.filter(username__in=names).values_list("username", flat=True)
    )
    if existing:
        problems.append(f"accounts called {', '.join(sorted(existing))} are here already")
    if problems:
        raise ValidationError(
            "The export loads into a site without its records: " + "; ".join(problems) + "."
        )
    decided = _hold_decisions(objects)
    for item in objects:
        if isinstance(item.object, Player):  # from a site that stored names as typed
            item.object.name = one_spaced(item.object.name)
        item.save()
    for model, pk, fields in decided:
        model._default_manager.filter(pk=pk).update(**fields)
    _mark_what_was_recorded(document["records"])
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), list(taken)):
            cursor.execute(sql)
    league = League.objects.get(pk=league_item.object.pk)
    # The stored tables are worked out again from the results loaded (``rebuild_standings``).
    rebuild_tables(leagues=[league])
    audit_log(
        league=league,
        action=AuditEntry.Action.LEAGUE_RESTORED,
        subject=f"{league} loaded from an export of {document.get('league', league.slug)}",
        after={"records": len(objects)},
    )
    invalidate_league(league.pk)
    return league
