"""The read-only JSON API under ``/api/`` (django-ninja): schema at ``/api/openapi.json``,
browsable docs at ``/api/docs``."""
