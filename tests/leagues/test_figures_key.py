"""The key to a players' table's figures, written by ``{% figures_key %}``, is what the
template's loop over the columns wrote."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from leagues.models import League
from leagues.tables import PlayerStatisticsTable
from leagues.templatetags.figures_key import figures_key

LOOP = Template(
    "{% for column in table.columns %}{% if column.column.export_header %}<div{% if "
    'column.column.wide %} class="wide"{% endif %}><dt><abbr title="{{ column.column.export_header'
    ' }}">{{ column.header }}</abbr></dt><dd>{{ column.column.export_header|lower }}</dd></div>'
    "{% endif %}{% endfor %}"
)


@pytest.mark.parametrize("style", [League.Style.YORKSHIRE, League.Style.TRINIDAD])
@pytest.mark.parametrize("phone", [False, True])
def test_the_key_is_the_templates_loop(style, phone):
    table = PlayerStatisticsTable([], style=style, phone=phone)
    key = figures_key(table)
    assert key == LOOP.render(Context({"table": table}))
    assert key.count("<dt>") > 3 and (' class="wide"' in key) == phone
