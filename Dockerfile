# The UNO Arena site image: web (gunicorn), Celery worker and beat all run from it (docker-compose.yml).

# The compiled engine (arena/engine/_accel.py): mypyc builds the hot modules here, with the same Python as
# the image below, so the C compiler and mypy stay out of the image. mypy is pinned as in requirements-dev.txt.
FROM python:3.11-slim-bookworm AS engine
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir mypy==2.4.1
WORKDIR /src
COPY arena arena
COPY scripts/build-engine scripts/build-engine
RUN PYTHON=python scripts/build-engine

FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONPATH=/app:/app/platform \
    DJANGO_SETTINGS_MODULE=config.settings \
    UNO_ARENA_VAR=/var/lib/uno-arena

# docker.io: the CLI imports the bot runtimes as images (sandbox/images/build.sh) and the worker's docker
# runner talks to the host engine through the mounted socket. bubblewrap (with keyutils and libseccomp2,
# for its fresh session keyring and seccomp filter): the fallback sandbox. python3 python3-numpy
# python3-pip nodejs: what the bot runtimes are made of (Debian's, not this image's /usr/local Python).
RUN apt-get update \
    && apt-get install -y --no-install-recommends docker.io bubblewrap dash keyutils libseccomp2 \
        python3 python3-numpy python3-pip nodejs \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY . .
COPY --from=engine /src/build/mypyc build/mypyc
# The image runs the compiled engine, or it is not built (tests/platform/test_image.py runs this check).
RUN python -c "import sys, arena.engine as e; sys.exit(0 if e.COMPILED else 'the engine is not compiled')"
# The guide serves a wheel of arena/, sandbox/ and bots_examples/ (pip install gives `uno-arena`): built
# here once, into the image, so no web server builds it at run time (guide.kits; the same bytes anywhere).
ENV UNO_ARENA_KITS_DIR=/app/var-kits
# The bot runtimes (sandbox.runtimes), built into the image: a worker runs bwrap bots on them, compares the
# docker images with them, and the web server's guide shows their manifests. The `runtime-images` service
# imports these same folders into the host's engine (docker-compose.yml).
ENV UNO_ARENA_RUNTIMES=/opt/uno-arena/runtimes
RUN sandbox/images/build.sh --no-image
RUN mkdir -p "$UNO_ARENA_VAR" \
    && SECRET_KEY=collectstatic-only DEBUG=0 python manage.py collectstatic --noinput -v0 \
    && SECRET_KEY=build-only DEBUG=0 python manage.py build_kits

EXPOSE 8000
CMD ["gunicorn", "--chdir", "/app/platform", "config.wsgi", "-b", "0.0.0.0:8000", "-w", "3", "--access-logfile", "-"]
