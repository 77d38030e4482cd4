"""The operator's admin lists and forms for every leagues model open without error."""

import pytest
from django.contrib import admin
from django.urls import reverse

from leagues import models
from leagues.audit import audit_log
from tests.factories.leagues import (
    FixtureResultFactory,
    PointAdjustmentFactory,
    RegistrationFactory,
)

pytestmark = pytest.mark.django_db


def test_admin_pages_for_every_leagues_model(admin_client):
    result = FixtureResultFactory(home_win=True)  # with its confirmed submission
    PointAdjustmentFactory()
    RegistrationFactory()
    audit_log(league=result.fixture.division.season.league, action="void", subject="an entry")
    registered = [m for m in admin.site._registry if m._meta.app_label == "leagues"]
    assert len(registered) == 13
    for model in registered:
        name = f"admin:leagues_{model._meta.model_name}"
        assert admin_client.get(reverse(f"{name}_changelist")).status_code == 200
        obj = model.objects.first()
        assert admin_client.get(reverse(f"{name}_change", args=[obj.pk])).status_code == 200
    add = admin_client.get(reverse("admin:leagues_fixtureresult_add"))
    assert add.status_code == 403, "results are derived, never typed in"
    assert models.FixtureResult.objects.count() == 1
