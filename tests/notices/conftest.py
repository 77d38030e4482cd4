"""The notices' links are read as a captain's mail client would: on the test server."""

import pytest


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "http://testserver"
