"""Settings come from the environment, are validated, and keep the token secret."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.server.config import Settings, explain


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
    with pytest.raises(ValidationError, match="must look like 123456:ABC-DEF") as refused:
        Settings()
    assert explain(refused.value) == (
        "configuration error: BOT_TOKEN: must look like 123456:ABC-DEF (the token from @BotFather)"
    )


def test_a_missing_token_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BOT_TOKEN", raising=False)
    with pytest.raises(ValidationError, match="bot_token"):
        Settings()


def test_the_explanation_names_every_wrong_variable_and_never_its_value(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    secret = "Xq7-very-secret-part"
    monkeypatch.setenv("BOT_TOKEN", f"bot{secret}")
    monkeypatch.setenv("COMPUTER_DELAY", "-3")
    monkeypatch.setenv("PACING", "sometimes")
    with pytest.raises(ValidationError) as refused:
        Settings()
    assert secret in str(refused.value)  # pydantic's own text repeats the input ...
    line = explain(refused.value)
    assert secret not in line and "sometimes" not in line  # ... the explanation does not
    assert "\n" not in line
    assert line.startswith("configuration error: BOT_TOKEN: must look like 123456:ABC-DEF")
    assert "; COMPUTER_DELAY: Input should be greater than or equal to 0" in line
    assert "; PACING: Input should be a valid boolean" in line


def test_a_missing_token_is_explained_as_not_set(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BOT_TOKEN", raising=False)
    with pytest.raises(ValidationError) as refused:
        Settings()
    assert explain(refused.value) == "configuration error: BOT_TOKEN: is not set"


def test_the_env_file_stays_out_of_git_and_of_the_image() -> None:
    """The README suggests a `.env` beside tasks.py for the token: it must never be
    committed nor copied into a Docker image."""
    root = Path(__file__).resolve().parents[2]
    for name in (".env", ".env.local"):
        ignored = subprocess.run(["git", "check-ignore", "--quiet", name], cwd=root, check=False)
        assert ignored.returncode == 0, f"{name} is not in .gitignore"
    patterns = (root / ".dockerignore").read_text().split()
    assert ".env" in patterns and ".env.*" in patterns


def test_webhook_and_metrics_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOT_TOKEN", "1:x")
    settings = Settings()
    assert settings.webhook_url is None and settings.metrics_address is None
    assert settings.webhook_address == ("127.0.0.1", 8080)
    assert settings.log_format == "text"
    monkeypatch.setenv("WEBHOOK_URL", "https://bot.example.org/tg/hook")
    monkeypatch.setenv("WEBHOOK_LISTEN", "0.0.0.0:8443")
    monkeypatch.setenv("WEBHOOK_SECRET", "Abc_-09")
    monkeypatch.setenv("METRICS_LISTEN", "[::1]:9100")
    monkeypatch.setenv("LOG_FORMAT", "JSON")
    settings = Settings()
    assert settings.webhook_path == "/tg/hook"
    assert settings.webhook_address == ("0.0.0.0", 8443)
    assert settings.metrics_address == ("::1", 9100) and settings.metrics_listen == "[::1]:9100"
    assert settings.webhook_secret is not None and "Abc" not in repr(settings)
    assert settings.log_format == "json"
    monkeypatch.setenv("WEBHOOK_URL", "http://localhost:8080")  # the tests' and demos' own
    assert Settings().webhook_path == "/"


@pytest.mark.parametrize(
    ("variable", "value", "reason"),
    [
        ("WEBHOOK_URL", "http://bot.example.org/hook?k=s3cr3t", "must be an https:// URL"),
        ("WEBHOOK_URL", "s3cr3t", "must be a URL such as"),
        ("WEBHOOK_LISTEN", "s3cr3t", "must be host:port"),
        ("WEBHOOK_LISTEN", "127.0.0.1:99999", "must be host:port"),
        ("METRICS_LISTEN", ":9100", "must be host:port"),
        ("WEBHOOK_SECRET", "s3cr3t with spaces", "must be 1 to 256 characters"),
        ("WEBHOOK_SECRET", "s3cr3t" * 50, "must be 1 to 256 characters"),
        ("LOG_FORMAT", "s3cr3t", "Input should be 'text' or 'json'"),
    ],
)
def test_a_wrong_webhook_setting_is_one_line_without_its_value(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, variable: str, value: str, reason: str
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOT_TOKEN", "1:x")
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValidationError) as refused:
        Settings()
    line = explain(refused.value)
    assert line.startswith(f"configuration error: {variable}: {reason}")
    assert "s3cr3t" not in line and "\n" not in line


def test_metrics_and_the_webhook_cannot_share_an_address(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOT_TOKEN", "1:x")
    monkeypatch.setenv("WEBHOOK_URL", "https://bot.example.org/hook")
    monkeypatch.setenv("METRICS_LISTEN", "127.0.0.1:8080")
    with pytest.raises(ValidationError) as refused:
        Settings()
    assert "METRICS_LISTEN must differ from WEBHOOK_LISTEN" in explain(refused.value)


def test_mini_app_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOT_TOKEN", "1:x")
    settings = Settings()
    assert settings.webapp_url is None and settings.webapp_short_name is None  # off
    assert settings.webapp_address == ("127.0.0.1", 8081)
    assert settings.webapp_auth_seconds == 86400
    monkeypatch.setenv("WEBAPP_URL", "https://bot.example.org/app/")
    monkeypatch.setenv("WEBAPP_SHORT_NAME", "table")
    monkeypatch.setenv("WEBAPP_LISTEN", "0.0.0.0:9000")
    monkeypatch.setenv("WEBAPP_AUTH_SECONDS", "3600")
    settings = Settings()
    assert settings.webapp_url == "https://bot.example.org/app/"
    assert settings.webapp_short_name == "table"
    assert settings.webapp_address == ("0.0.0.0", 9000)
    assert settings.webapp_auth_seconds == 3600
    for variable, value, reason in (
        ("WEBAPP_URL", "http://bot.example.org/s3cr3t", "must be an https:// URL"),
        ("WEBAPP_SHORT_NAME", "s3cr3t with spaces", "String should match pattern"),
        ("WEBAPP_LISTEN", "s3cr3t", "must be host:port"),
        ("WEBAPP_AUTH_SECONDS", "1", "Input should be greater than or equal to 60"),
    ):
        with monkeypatch.context() as patch:
            patch.setenv(variable, value)
            with pytest.raises(ValidationError) as refused:
                Settings()
            line = explain(refused.value)
            assert line.startswith(f"configuration error: {variable}: {reason}"), line
            assert "s3cr3t" not in line
    # The page is served at /: a webhook on the same server needs a path of its own.
    monkeypatch.setenv("WEBHOOK_URL", "https://bot.example.org")
    with pytest.raises(ValidationError) as refused:
        Settings()
    assert "WEBHOOK_URL needs a path of its own" in explain(refused.value)
    monkeypatch.setenv("WEBHOOK_URL", "https://bot.example.org/telegram")
    assert Settings().webhook_path == "/telegram"
