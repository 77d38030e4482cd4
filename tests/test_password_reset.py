"""Password reset mails the link, and says so plainly when the mail cannot be sent."""

import re
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


def test_the_log_in_page_links_to_a_reset_that_works_end_to_end(client):
    """From the log-in page's link to a new password that logs in, following the sent mail."""
    UserFactory(username="cap12", email="cap12@example.org", password="old-pass-word-9")
    login_page = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}"' in login_page
    client.post(reverse("password_reset"), {"email": "cap12@example.org"})
    link = re.search(r"https?://\S+(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200 and "new_password1" in form_page.content.decode()
    new = "heckmondwike-pitch-12"
    done = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}
    )
    assert done.status_code == 302
    client.logout()
    assert client.login(username="cap12", password=new)
    assert not client.login(username="cap12", password="old-pass-word-9")
    # The link works once.
    assert "new_password1" not in client.get(link, follow=True).content.decode()
