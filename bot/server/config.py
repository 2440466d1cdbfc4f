"""The bot's settings, read once from the environment (STYLE 10).

Only `bot/server/main.py` builds `Settings()`; everything else receives the values it
needs. Variables (all optional but the token):

| variable | default | meaning |
| --- | --- | --- |
| `BOT_TOKEN` | (required) | the token from @BotFather |
| `DATABASE_PATH` | `data/domino.sqlite3` | the SQLite file; its folder is created |
| `DATABASE_URL` | unset: SQLite | `postgresql://user:pw@host/db`: PostgreSQL (several instances) |
| `INSTANCE_NAME` | unset: one | its own name: acts only while it leads (`bot.server.leadership`) |
| `LEASE_SECONDS` | `15` | with `INSTANCE_NAME`: a dead leader's standby takes over within this |
| `SHARDS` | unset: a leader | `16`: each instance plays its share of the shards (same on all) |
| `TELEGRAM_API_BASE` | unset: real Telegram | another Bot API server (`http://127.0.0.1:8081`) |
| `LOG_LEVEL` | `INFO` | `DEBUG`, `INFO`, `WARNING`, ... |
| `LOG_FORMAT` | `text` | `json`: a JSON object a line, with chat and game ids (`bot.server.logs`) |
| `COMPUTER_DELAY` | `1.5` | seconds a computer player waits before moving, so people can follow |
| `PACING` | `true` | keep within Telegram's flood limits; `false` only for benchmarks |
| `TABLE_INTERVAL` | `3.0` | at least this many seconds between two pictures of one table |
| `VOTE_SECONDS` | `300` | how long a vote to cancel a match stays open |
| `TURN_TIME_SCALE` | `1.0` | tests/demos only: scales turn and lobby times (0.02: 60 s is 1.2 s) |
| `THINKER_WORKERS` | `2` | processes the strong computers search in at once (`bot.app.thinker`) |
| `HARD_BUDGET` | `0.25` | seconds a strong computer may think before a medium decision stands in |
| `TURN_NOTICE_AFTER` | `4` | seconds a person's turn waits before their «🔔 Ваш ход» notice |
| `WEBHOOK_URL` | unset: long polling | the public https URL Telegram posts updates to |
| `WEBHOOK_LISTEN` | `127.0.0.1:8080` | host:port the webhook server listens on, behind the proxy |
| `WEBHOOK_SECRET` | unset: made once | `X-Telegram-Bot-Api-Secret-Token`; a made one is stored |
| `WEBHOOK_REQUEST_SECONDS` | `10` | seconds a client has to send a request; then it is closed |
| `METRICS_LISTEN` | unset | host:port serving `/metrics`, `/healthz` (webhook server: too) |
| `WEBAPP_URL` | unset: no Mini App | the Mini App's public https base URL: the app is on |
| `WEBAPP_SHORT_NAME` | unset | the app's short name (@BotFather's /newapp): its t.me links |
| `WEBAPP_LISTEN` | `127.0.0.1:8081` | host:port of the app's server (a webhook's serves it too) |
| `WEBAPP_AUTH_SECONDS` | `86400` | how old the app's signed launch data (`initData`) may be |
| `PROFILE_TO` | unset | developers: write a cProfile of the whole run to this file at the stop |

A wrong value is told by `explain` in one line that names the variable and never
repeats the value (pydantic's own text does: a mistyped token would be printed; a
webhook's URL or secret is no one's business either).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal, NamedTuple
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from storage.db import is_postgres_url
from storage.urls import display_url

# What Telegram takes as a webhook's secret token.
SECRET_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,256}")
# The only hosts a webhook may be reached at over plain http: this machine (the tests, the
# local Telegram). Telegram itself posts to https only.
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


class Address(NamedTuple):
    """Where a server listens: `WEBHOOK_LISTEN`, `METRICS_LISTEN`."""

    host: str
    port: int

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def parse_address(text: str) -> Address:
    """`host:port` (`[::1]:8080` for IPv6) as an `Address`; ValueError if it is not one."""
    host, colon, port = text.strip().rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError("must be host:port, such as 127.0.0.1:8080")
    return Address(host, int(port))


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: SecretStr
    database_path: Path = Path("data/domino.sqlite3")
    database_url: SecretStr | None = None
    instance_name: str | None = Field(default=None, pattern=r"^[\w.@:-]{1,64}$")
    lease_seconds: float = Field(default=15.0, ge=3, le=600)
    shards: int | None = Field(default=None, ge=1, le=1024)
    telegram_api_base: str | None = None
    log_level: str = "INFO"
    computer_delay: float = Field(default=1.5, ge=0, le=30)
    pacing: bool = True
    table_interval: float = Field(default=3.0, ge=0, le=60)
    vote_seconds: float = Field(default=300.0, gt=0, le=3600)
    turn_time_scale: float = Field(default=1.0, gt=0, le=10)
    thinker_workers: int = Field(default=2, ge=1, le=16)
    hard_budget: float = Field(default=0.25, gt=0, le=5)
    turn_notice_after: float = Field(default=4.0, ge=0, le=3600)
    profile_to: str | None = None
    log_format: Literal["text", "json"] = "text"
    webhook_url: str | None = None
    webhook_listen: str = "127.0.0.1:8080"
    webhook_secret: SecretStr | None = None
    webhook_request_seconds: float = Field(default=10.0, gt=0, le=300)
    metrics_listen: str | None = None
    webapp_url: str | None = None
    webapp_short_name: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_]{3,30}$")
    webapp_listen: str = "127.0.0.1:8081"
    webapp_auth_seconds: float = Field(default=86400.0, ge=60, le=30 * 86400)

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        bot_id, _, secret = value.get_secret_value().partition(":")
        if not bot_id.isdigit() or not secret:
            raise ValueError("must look like 123456:ABC-DEF (the token from @BotFather)")
        return value

    @field_validator("log_level")
    @classmethod
    def _level_name(cls, value: str) -> str:
        level = value.upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError(f"{value!r} is not one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return level

    @field_validator("log_format", mode="before")
    @classmethod
    def _format_name(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not is_postgres_url(value.get_secret_value()):
            raise ValueError("must be a postgresql:// URL (unset for SQLite: DATABASE_PATH)")
        return value

    @field_validator(
        "webhook_url",
        "webapp_url",
        "webapp_short_name",
        "metrics_listen",
        "webhook_secret",
        "database_url",
        "instance_name",
        "shards",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("webhook_url", "webapp_url")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            parts = urlsplit(value)
            host = parts.hostname
        except ValueError:
            host = None
        if host is None:
            raise ValueError("must be a URL such as https://bot.example.org/telegram")
        if parts.scheme != "https" and not (parts.scheme == "http" and host in LOOPBACK_HOSTS):
            raise ValueError("must be an https:// URL (http:// only for 127.0.0.1 or localhost)")
        return value

    @field_validator("webhook_listen", "metrics_listen", "webapp_listen")
    @classmethod
    def _listen_address(cls, value: str | None) -> str | None:
        return None if value is None else str(parse_address(value))

    @field_validator("webhook_secret")
    @classmethod
    def _secret_shape(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not SECRET_SHAPE.fullmatch(value.get_secret_value()):
            raise ValueError("must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -")
        return value

    @model_validator(mode="after")
    def _shards_need_instances(self) -> Settings:
        """Shards are leases in one database that several named instances share."""
        if self.shards is not None and (self.instance_name is None or self.database_url is None):
            raise ValueError(
                "SHARDS needs INSTANCE_NAME and a PostgreSQL DATABASE_URL (several instances "
                "share one database; unset SHARDS for one instance on SQLite)"
            )
        return self

    @property
    def shard_mode(self) -> bool:
        """Whether every instance plays its share of the shards (`bot.server.shard_mode`)."""
        return self.shards is not None

    @model_validator(mode="after")
    def _two_servers_two_addresses(self) -> Settings:
        if self.webhook_url and self.metrics_listen == self.webhook_listen:
            raise ValueError(
                "METRICS_LISTEN must differ from WEBHOOK_LISTEN (the webhook server serves "
                "/metrics and /healthz itself)"
            )
        if self.webapp_url and self.webhook_url and self.webhook_path == "/":
            raise ValueError(
                "WEBHOOK_URL needs a path of its own (such as /telegram) with WEBAPP_URL set: "
                "the Mini App's page is served at /"
            )
        if self.webapp_url and not self.webhook_url and self.webapp_listen == self.metrics_listen:
            raise ValueError("METRICS_LISTEN must differ from WEBAPP_LISTEN")
        return self

    @property
    def webapp_address(self) -> Address:
        return parse_address(self.webapp_listen)

    @property
    def database(self) -> str:
        """Where the data is: the PostgreSQL URL when set, else the SQLite file."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return str(self.database_path)

    @property
    def database_shown(self) -> str:
        """`database` as a log line may show it: a URL without its password."""
        if self.database_url is None:
            return str(self.database_path)
        return display_url(self.database_url.get_secret_value())

    @property
    def webhook_address(self) -> Address:
        return parse_address(self.webhook_listen)

    @property
    def metrics_address(self) -> Address | None:
        return None if self.metrics_listen is None else parse_address(self.metrics_listen)

    @property
    def webhook_path(self) -> str:
        """The path Telegram posts to, which the webhook server serves (the proxy in front
        forwards it unchanged)."""
        return urlsplit(self.webhook_url or "").path or "/"


def explain(error: ValidationError) -> str:
    """One line naming each wrong variable and what is wrong with it, without its value
    (the token is a secret, and so may be anything mistyped into it)."""
    problems = []
    for problem in error.errors(include_url=False, include_context=False, include_input=False):
        variable = "_".join(str(part) for part in problem["loc"]).upper() or "the settings"
        if problem["type"] == "missing":
            reason = "is not set"
        else:
            reason = problem["msg"].removeprefix("Value error, ")
        problems.append(f"{variable}: {reason}")
    return "configuration error: " + "; ".join(problems)
