"""Settings come from the environment, are validated, and keep the token secret."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.config import Settings


def test_defaults_need_only_the_token(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no stray .env
    monkeypatch.setenv("BOT_TOKEN", "123456:secret-part")
    settings = Settings()
    assert settings.database_path == Path("data/domino.sqlite3")
    assert settings.telegram_api_base is None
    assert settings.log_level == "INFO"
    assert settings.pacing is True
    assert settings.table_interval == 3.0
    assert "secret-part" not in repr(settings)
    assert settings.bot_token.get_secret_value() == "123456:secret-part"


def test_every_variable_is_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOT_TOKEN", "1:x")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "db.sqlite3"))
    monkeypatch.setenv("TELEGRAM_API_BASE", "http://127.0.0.1:8081")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("COMPUTER_DELAY", "0")
    monkeypatch.setenv("PACING", "false")
    settings = Settings()
    assert settings.database_path == tmp_path / "db.sqlite3"
    assert settings.telegram_api_base == "http://127.0.0.1:8081"
    assert settings.log_level == "DEBUG"
    assert settings.computer_delay == 0
    assert settings.pacing is False


@pytest.mark.parametrize("token", ["", "nocolon", "abc:def", "123:"])
def test_a_malformed_token_is_refused_with_a_clear_message(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, token: str
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOT_TOKEN", token)
    with pytest.raises(ValidationError, match="BOT_TOKEN must look like"):
        Settings()


def test_a_missing_token_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BOT_TOKEN", raising=False)
    with pytest.raises(ValidationError, match="bot_token"):
        Settings()
