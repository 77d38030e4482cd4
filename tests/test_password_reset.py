"""Password reset mails the link, and says so plainly when the mail cannot be sent."""

import smtplib

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.urls import reverse

from tests.factories.scoring import UserFactory

pytestmark = pytest.mark.django_db


class BrokenBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("mail server went away")


def test_a_reset_link_is_mailed_to_the_account(client):
    UserFactory(username="cap11", email="cap11@example.org")
    response = client.post(reverse("password_reset"), {"email": "cap11@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert "/accounts/reset/" in mail.outbox[0].body
    sent = mail.outbox[0].message()
    assert sent["Auto-Submitted"] == "auto-generated"
    assert not sent["Message-ID"].endswith("@localhost>")


def test_a_mail_server_that_is_down_is_reported_not_a_server_error(client, settings):
    settings.EMAIL_BACKEND = "tests.test_password_reset.BrokenBackend"
    UserFactory(username="cap11", email="cap11@example.org")
    response = client.post(reverse("password_reset"), {"email": "cap11@example.org"})
    assert response.status_code == 503
    assert "could not be sent just now" in response.content.decode()
