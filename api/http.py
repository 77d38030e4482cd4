"""HTTP under ``/api/`` beyond what the framework does: ``HEAD`` answered as ``GET`` (the
servers send no body with it), and every successful read made conditional (``ETag``,
``Last-Modified``, ``304``: ``config/conditional.py``). CORS is django-cors-headers' (settings);
the rate limit is ``api/throttle.py``'s."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from config.conditional import revalidated


class ApiHttpMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            return self.get_response(request)
        head = request.method == "HEAD"
        if head:
            request.method = "GET"  # the operations are GETs; the body is not sent
        response = self.get_response(request)
        if head:
            request.method = "HEAD"
        return revalidated(request, response)
