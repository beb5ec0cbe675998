"""gunicorn settings for production: `gunicorn -c config/gunicorn.py config.wsgi`."""
import multiprocessing
import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
max_requests = 50000  # recycling every few thousand requests costs reconnects and p99 spikes
max_requests_jitter = 5000
accesslog = os.environ.get("GUNICORN_ACCESSLOG", None)
errorlog = "-"
