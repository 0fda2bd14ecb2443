# Zoom Zoom Vroom online: production image.
#   docker build -t zoom-zoom-vroom .
#   docker run --rm -p 8000:8000 zoom-zoom-vroom
# Configuration is by ZZV_* environment variables (see README.md). The server answers only
# to the host names in ZZV_ALLOWED_HOSTS (loopback here): serving it under another name,
# pass that name too, e.g. -e ZZV_ALLOWED_HOSTS=vroom.example, or set ZZV_PUBLIC_URL.

ARG PYTHON_IMAGE=python:3.11-slim

# ---- builder: turns pyproject.toml and the source into wheels ------------------------------
FROM ${PYTHON_IMAGE} AS builder
# 1 (the default) compiles the engine's rules modules with mypyc (hatch_build.py): the
# server's moves and the bots' search run faster. 0 builds pure Python, like `pip install .`.
ARG ZZV_MYPYC=1
ENV PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src

# Dependencies first, from pyproject.toml alone, so this layer (and the matching install
# layer below) is reused until the dependency list changes.
COPY pyproject.toml ./
RUN python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies'], sep='\n')" > requirements.txt \
    && pip wheel --no-cache-dir --wheel-dir /wheels/deps -r requirements.txt \
    && cp requirements.txt /wheels/deps/requirements.txt

# A C compiler only for the compiled build; the runtime stage below gets none (nor this
# stage's package lists).
# hadolint ignore=DL3008,DL3009
RUN if [ "$ZZV_MYPYC" = "1" ]; then \
        apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev; \
    fi

# The project wheel carries templates/ and static/ inside the app package (pyproject.toml).
COPY README.md hatch_build.py ./
COPY engine ./engine
COPY app ./app
COPY templates ./templates
COPY static ./static
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels/project .

# ---- runtime: no compilers, no wheel cache, no root ----------------------------------------
FROM ${PYTHON_IMAGE}
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    ZZV_HOST=0.0.0.0 \
    ZZV_PORT=8000 \
    ZZV_DATA_DIR=/var/lib/zzv \
    ZZV_ALLOWED_HOSTS=localhost,127.0.0.1,[::1]

RUN groupadd --system --gid 10001 zzv \
    && useradd --system --uid 10001 --gid zzv --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin zzv \
    && mkdir -p /var/lib/zzv && chown zzv:zzv /var/lib/zzv

# The default store writes every change of every race to races.sqlite3 here before it
# answers, and loads the file at start; players, ratings and finished races go to
# results.sqlite3 beside it (unless ZZV_DATABASE_URL names a database). Mount a volume on
# it so the races and the results survive a new container too.
VOLUME ["/var/lib/zzv"]

# Wheels are bind-mounted from the builder rather than copied, so they never become a layer.
RUN --mount=type=bind,from=builder,source=/wheels/deps,target=/wheels \
    pip install --no-cache-dir --no-index --find-links=/wheels -r /wheels/requirements.txt
RUN --mount=type=bind,from=builder,source=/wheels/project,target=/wheels \
    pip install --no-cache-dir --no-index --no-deps /wheels/*.whl

# No source tree: the installed wheel holds the code, the templates and the static files,
# root-owned and read-only for the zzv user. The working directory is an empty folder.
WORKDIR /srv/zzv

USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('ZZV_PORT', '8000') + '/healthz', timeout=4)"]

# `zzv serve` runs uvicorn with the settings: ZZV_HOST/ZZV_PORT, ZZV_WORKERS (more than one
# only with ZZV_REDIS_URL, docs/operations.md), the request bounds (header time and
# bytes, body time), proxy headers from FORWARDED_ALLOW_IPS and a 10 s graceful stop. The
# exec form makes it PID 1, so `docker stop` (SIGTERM) reaches it: requests in flight get
# up to 10 s (the default store has written every answered move already; a memory-only
# store, ZZV_DURABLE=false, saves its races at once). Stop with `docker stop -t 30` so
# Docker's SIGKILL never comes before that window ends (README.md "Docker").
STOPSIGNAL SIGTERM
CMD ["zzv", "serve"]
