"""Gunicorn's settings for ``make serve``, read from the environment.

``PORT`` (default 8000) and ``HOST`` (default 127.0.0.1: the TLS proxy in front is on the same
machine; ``0.0.0.0`` to listen on every address) say where to listen; ``WEB_CONCURRENCY`` worker
processes (default two per core) of ``GUNICORN_THREADS`` threads each (default 4).
"""

import multiprocessing
import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * multiprocessing.cpu_count())
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# The proxy's X-Forwarded-* headers are trusted only from these addresses.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = "-"
# No control socket: its default path is one per machine account, shared by every server on it.
control_socket_disable = True

# Walkovers given ahead of their night count once their date has come: the master runs
# ``manage.py settle_walkovers`` every SETTLE_EVERY_SECONDS (default 900; 0: never), each run
# a process of its own (the master never opens a database connection the workers would share).
settle_every = int(os.environ.get("SETTLE_EVERY_SECONDS", "900"))


def when_ready(server: object) -> None:
    import subprocess
    import sys
    import threading
    import time

    if settle_every <= 0:
        return

    def settle() -> None:
        while True:
            subprocess.run([sys.executable, "manage.py", "settle_walkovers"], check=False)
            time.sleep(settle_every)

    threading.Thread(target=settle, name="settle-walkovers", daemon=True).start()
