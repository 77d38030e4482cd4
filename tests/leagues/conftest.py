"""Fixtures shared by the leagues' tests; a module defining its own of a name uses its own."""

from __future__ import annotations

import pytest
from django.test import Client

from leagues.models import League
from tests.factories.scoring import UserFactory


@pytest.fixture
def secretary(league: League) -> Client:
    """A browser signed in as a new secretary of the module's ``league``."""
    user = UserFactory()
    league.secretaries.add(user)
    client = Client()
    client.force_login(user)
    return client
