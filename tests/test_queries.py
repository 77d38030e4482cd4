"""Query pieces (``config.queries``): words written into the SQL, and rows looked up among a few."""

from __future__ import annotations

import pytest

from config.queries import Written, written
from leagues.models import Fixture


def test_the_apps_own_words_are_written_into_the_sql_not_sent_beside_it():
    """A partial index's statuses in the SQL itself, where PostgreSQL's one plan for a prepared
    statement can see them (a parameter it cannot)."""
    query = Fixture.objects.filter(status__in=written(Fixture.TO_PLAY), kind="league").query
    sql, params = query.get_compiler(using="default").as_sql()
    assert "IN ('scheduled', 'postponed')" in sql
    assert list(params) == ["league"]


@pytest.mark.parametrize("value", ["it's", "a b", "x;--", ""])
def test_anything_but_a_word_is_refused(value):
    with pytest.raises(ValueError, match="is not a word to write into SQL"):
        Written(value)
