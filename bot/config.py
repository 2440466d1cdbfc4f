"""The bot's settings, read once from the environment (STYLE 10).

Only `bot/__main__.py` builds `Settings()`; everything else receives the values it
needs. Variables (all optional but the token):

| variable | default | meaning |
| --- | --- | --- |
| `BOT_TOKEN` | (required) | the token from @BotFather |
| `DATABASE_PATH` | `data/domino.sqlite3` | the SQLite file; its folder is created |
| `TELEGRAM_API_BASE` | unset: real Telegram | another Bot API server (`http://127.0.0.1:8081`) |
| `LOG_LEVEL` | `INFO` | `DEBUG`, `INFO`, `WARNING`, ... |
| `COMPUTER_DELAY` | `1.5` | seconds a computer player waits before moving, so people can follow |
| `PACING` | `true` | keep within Telegram's flood limits; `false` only for benchmarks |
| `TABLE_INTERVAL` | `3.0` | at least this many seconds between two pictures of one table |
| `VOTE_SECONDS` | `300` | how long a vote to cancel a match stays open |
| `TURN_TIME_SCALE` | `1.0` | tests/demos only: scales turn and lobby times (0.02: 60 s is 1.2 s) |
| `THINKER_WORKERS` | `2` | processes searching for the strong computers at once (`bot.thinker`) |
| `HARD_BUDGET` | `0.25` | seconds a strong computer may think before a medium decision stands in |
| `TURN_NOTICE_AFTER` | `4` | seconds a person's turn waits before their «🔔 Ваш ход» notice |
| `PROFILE_TO` | unset | developers: write a cProfile of the whole run to this file at the stop |

A wrong value is told by `explain` in one line that names the variable and never
repeats the value (pydantic's own text does: a mistyped token would be printed).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: SecretStr
    database_path: Path = Path("data/domino.sqlite3")
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


def explain(error: ValidationError) -> str:
    """One line naming each wrong variable and what is wrong with it, without its value
    (issue 11, item 12: the token is a secret, and so may be anything mistyped into it)."""
    problems = []
    for problem in error.errors(include_url=False, include_context=False, include_input=False):
        variable = "_".join(str(part) for part in problem["loc"]).upper() or "the settings"
        if problem["type"] == "missing":
            reason = "is not set"
        else:
            reason = problem["msg"].removeprefix("Value error, ")
        problems.append(f"{variable}: {reason}")
    return "configuration error: " + "; ".join(problems)
