# The UNO Arena site image: web (gunicorn), Celery worker and beat all run from it (docker-compose.yml).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONPATH=/app:/app/platform \
    DJANGO_SETTINGS_MODULE=config.settings \
    UNO_ARENA_VAR=/var/lib/uno-arena

# docker.io: the CLI builds the bot runtime images (sandbox/images/build.sh) and the worker's docker
# runner talks to the host engine through the mounted socket. bubblewrap (with keyutils and libseccomp2,
# for its fresh session keyring and seccomp filter): the fallback sandbox.
RUN apt-get update \
    && apt-get install -y --no-install-recommends docker.io bubblewrap dash keyutils libseccomp2 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY . .
# The guide serves a wheel of arena/, sandbox/ and bots_examples/ (pip install gives `uno-arena`): built
# here once, into the image, so no web server builds it at run time (guide.kits; the same bytes anywhere).
ENV UNO_ARENA_KITS_DIR=/app/var-kits
RUN mkdir -p "$UNO_ARENA_VAR" \
    && SECRET_KEY=collectstatic-only DEBUG=0 python manage.py collectstatic --noinput -v0 \
    && SECRET_KEY=build-only DEBUG=0 python manage.py build_kits

EXPOSE 8000
CMD ["gunicorn", "--chdir", "/app/platform", "config.wsgi", "-b", "0.0.0.0:8000", "-w", "3", "--access-logfile", "-"]
