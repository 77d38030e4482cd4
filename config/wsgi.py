"""The WSGI application gunicorn serves (``config/gunicorn.py``), one per worker process.

Once the project is loaded (Django, the apps and their models, the URLconf and every view it
names), what is loaded lives as long as the process: it is frozen out of the garbage
collector's way (``gc.freeze``), so that a full collection, which a busy worker runs every few
hundred requests, walks only what requests made since, not the hundred thousand objects of the
loaded code (measured in a process loaded so, 240 hands and pages: 92–99 ms a full collection
before, 12–18 ms after; the README's Benchmarks).
"""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
get_resolver().url_patterns  # noqa: B018 - the views load now, not at the first request
gc.collect()
gc.freeze()
