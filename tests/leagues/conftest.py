"""Fixtures shared by the leagues' tests; a module defining its own of a name uses its own.

Two secretaries of the module's ``league``: ``secretary``, a browser of its own signed in (the
import's tests), and ``signed_in``, the account signed in on the test's ``client`` (the
secretary's pages' tests)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
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


@pytest.fixture
def signed_in(client: Client, league: League) -> AbstractBaseUser:
    """The test's ``client`` signed in as a secretary ("sec") of the module's ``league``: the
    account, for what is recorded as done by them."""
    user = get_user_model().objects.create_user("sec", password="pw-secret-1")
    league.secretaries.add(user)
    client.force_login(user)
    return user
