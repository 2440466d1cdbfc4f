# The bot in a slim image: non-root, the SQLite database in a private (0700) volume.
#   docker build -t domino-bot .
#   docker run -d --name domino -e BOT_TOKEN=123456:your-token -v domino-data:/data domino-bot
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY domino domino
COPY render render
COPY storage storage
COPY handlers handlers
COPY bot bot
COPY i18n i18n
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/domino.sqlite3
RUN useradd --create-home --uid 10001 domino \
    && install -d -m 0700 -o domino -g domino /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER domino
WORKDIR /home/domino
VOLUME ["/data"]
# SIGTERM lets in-flight moves finish and the outgoing queues flush (bot/server/main.py).
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
