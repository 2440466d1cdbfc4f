"""`python3 tasks.py run` as the README gives it.

The environment is kept: once `test` has installed the dev extras, `run` uses it as it
is, and neither reinstalls. `run` becomes the bot (exec), so SIGTERM reaches the bot and
leaves nothing behind. A start that cannot succeed (no Telegram at the address, a token
it refuses) says so in one line and exits non-zero; a network failure on the first call
is tried again before that.

The bot runs from an isolated copy of the project root: `tasks.py` and `pyproject.toml`
beside a small virtual environment that sees this one's packages and a stamp saying it
is installed, so these tests never install anything into the shared `.venv`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import uuid
import venv
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import aiohttp
import pytest

from tests.fakegram import FakeTelegram

ROOT = Path(__file__).resolve().parents[1]
# A net for a start that hangs, not a measure: importing aiogram alone has taken minutes
# on a loaded machine; a start that cannot succeed must end by itself long before.
HANG_SECONDS = 240.0
# A net for the bot's helper processes to end once the bot is gone (they read its end
# at once); an orphaned bot never ends and meets it.
EXIT_SECONDS = 60.0


def load_tasks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tasks_under_test", ROOT / "tasks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------ the venv's stamp


@pytest.fixture
def tasks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """tasks.py pointed at a project root in `tmp_path`, with pip recorded, not run."""
    module: Any = load_tasks()
    root = tmp_path / "project"
    root.mkdir()
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    venv_dir = root / ".venv"
    (venv_dir / "bin").mkdir(parents=True)
    python = venv_dir / "bin" / "python"
    python.touch()
    monkeypatch.setattr(module, "ROOT", root)
    monkeypatch.setattr(module, "VENV", venv_dir)
    monkeypatch.setattr(module, "BIN", venv_dir / "bin")
    monkeypatch.setattr(module, "PYTHON", python)
    monkeypatch.setattr(module, "STAMP", venv_dir / ".installed")
    module.installs = []
    module.pip_code = 0

    def fake_run(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        assert cmd[1:4] == ["-m", "pip", "install"], cmd
        module.installs.append(cmd[-1])
        return subprocess.CompletedProcess(cmd, module.pip_code)

    monkeypatch.setattr(module, "subprocess", SimpleNamespace(run=fake_run))
    yield module


def test_the_dev_extras_are_installed_once_and_kept(tasks: Any) -> None:
    tasks.ensure_venv("dev")  # tasks.py test
    assert tasks.installs == [".[dev]"]
    for _ in range(2):
        tasks.ensure_venv()  # tasks.py run after a test: nothing to install
        tasks.ensure_venv("dev")  # and a test after the run: still nothing
    assert tasks.installs == [".[dev]"]


def test_a_run_first_then_a_test_installs_the_dev_extras_once(tasks: Any) -> None:
    tasks.ensure_venv()
    tasks.ensure_venv("dev")
    tasks.ensure_venv()
    tasks.ensure_venv("dev")
    assert tasks.installs == [".", ".[dev]"]


def test_a_changed_pyproject_reinstalls_with_the_extras_kept(tasks: Any) -> None:
    tasks.ensure_venv("dev")
    pyproject = tasks.ROOT / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "\n# changed\n")
    tasks.ensure_venv()  # a run after the change: the dev tools stay installed
    tasks.ensure_venv("dev")
    assert tasks.installs == [".[dev]", ".[dev]"]


def test_the_stamp_of_the_previous_tasks_py_is_understood(tasks: Any) -> None:
    """A stamp of the older kind (a bare hash of pyproject and the extras) is read, so an
    environment stamped that way is not installed again."""
    pyproject = (tasks.ROOT / "pyproject.toml").read_bytes()
    tasks.STAMP.write_text(hashlib.sha256(pyproject + b"dev").hexdigest())
    tasks.ensure_venv()
    tasks.ensure_venv("dev")
    assert tasks.installs == []


def test_a_failed_install_is_one_line_and_no_stamp(
    tasks: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks.pip_code = 1
    monkeypatch.setattr(sys, "argv", ["tasks.py", "run"])
    assert tasks.main() == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("tasks.py: pip could not install ."), err
    assert not tasks.STAMP.exists()


# ------------------------------------------------------------------ tasks.py run


def isolated_root(tmp_path: Path) -> Path:
    """A project root with tasks.py, pyproject.toml and a `.venv` that is stamped as
    installed (with the dev extras) and imports this environment's packages."""
    root = tmp_path / "root"
    root.mkdir()
    shutil.copy(ROOT / "tasks.py", root / "tasks.py")
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    env_dir = root / ".venv"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(env_dir)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site_packages = env_dir / "lib" / version / "site-packages"
    ours = sysconfig.get_paths()["purelib"]
    (site_packages / "domino_project.pth").write_text(
        f"{ROOT}\nimport site; site.addsitedir({ours!r})\n"
    )
    tasks = load_tasks()
    stamp = tasks.write_stamp((root / "pyproject.toml").read_bytes(), frozenset({"dev"}))
    (env_dir / ".installed").write_text(stamp)
    return root


@dataclass
class Exited:
    code: int
    out: list[str]
    err: list[str]


def run_env(mark: str, **env: str) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "DATABASE_"))}
    keep.pop("TELEGRAM_API_BASE", None)
    return {**keep, "PYTHONUNBUFFERED": "1", "DOMINO_TEST_MARK": mark, **env}


async def tasks_run(root: Path, **env: str) -> Exited:
    """`python3 tasks.py run` in `root` until it exits by itself."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "tasks.py",
        "run",
        cwd=root,
        env=run_env(uuid.uuid4().hex, **env),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        async with asyncio.timeout(HANG_SECONDS):
            out, err = await process.communicate()
    except TimeoutError:
        process.kill()
        await process.wait()
        raise AssertionError(f"tasks.py run was still running after {HANG_SECONDS} s") from None
    assert process.returncode is not None

    def lines(data: bytes) -> list[str]:
        return [line for line in data.decode(errors="replace").splitlines() if line.strip()]

    return Exited(process.returncode, lines(out), lines(err))


def closed_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.slow
async def test_run_against_no_telegram_is_one_clear_line_and_exit_1(tmp_path: Path) -> None:
    root = isolated_root(tmp_path)
    url = f"http://127.0.0.1:{closed_port()}"
    exited = await tasks_run(
        root,
        BOT_TOKEN="123456:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQr",
        TELEGRAM_API_BASE=url,
        DATABASE_PATH=str(tmp_path / "domino.sqlite3"),
    )
    assert exited.code == 1
    assert exited.out == []  # nothing installed, nothing else said
    assert len(exited.err) == 1, "\n".join(exited.err)
    line = exited.err[0]
    assert f"cannot start: cannot reach Telegram at {url}: " in line, line
    assert "3 tries; check TELEGRAM_API_BASE and the network" in line, line


@pytest.mark.slow
async def test_run_with_a_refused_token_is_one_clear_line_and_exit_1(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    root = isolated_root(tmp_path)
    exited = await tasks_run(
        root,
        BOT_TOKEN=f"{fakegram.bot_id}:not-the-bots-token",  # the fake answers 401
        TELEGRAM_API_BASE=fakegram.url,
        DATABASE_PATH=str(tmp_path / "domino.sqlite3"),
    )
    assert exited.code == 1
    assert len(exited.err) == 1, "\n".join(exited.err)
    assert "cannot start: Telegram refused BOT_TOKEN (Unauthorized)" in exited.err[0]
    assert "not-the-bots-token" not in exited.err[0]
    assert len(fakegram.transcript.calls()) == 0  # refused at the door: no retries


def marked(mark: str) -> set[int]:
    """The processes whose environment carries `mark` (what this test started)."""
    found = set()
    needle = f"DOMINO_TEST_MARK={mark}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                found.add(int(entry.name))
    return found


async def ended(pid: int) -> None:
    """Return when process `pid` (not necessarily a child) has ended (a Linux pidfd
    becomes readable then)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def readable() -> None:
        if not done.done():
            done.set_result(None)

    loop.add_reader(fd, readable)
    try:
        await done
    finally:
        loop.remove_reader(fd)
        os.close(fd)


async def all_ended(mark: str, after: str) -> None:
    """Every process that carries `mark` ends: the bot's helpers (a forkserver, say) end
    when it is gone; wait for each to end."""
    try:
        async with asyncio.timeout(EXIT_SECONDS):
            await asyncio.gather(*(ended(pid) for pid in marked(mark)))
    except TimeoutError:
        raise AssertionError(f"still running after {after}: {marked(mark)}") from None


@contextlib.asynccontextmanager
async def tasks_running(
    fake: FakeTelegram, tmp_path: Path
) -> AsyncIterator[tuple[asyncio.subprocess.Process, str]]:
    """`tasks.py run` against the fake, returned once the bot long-polls."""
    root = isolated_root(tmp_path)
    mark = uuid.uuid4().hex
    log = (tmp_path / "bot.log").open("wb")
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "tasks.py",
        "run",
        cwd=root,
        env=run_env(
            mark,
            BOT_TOKEN=fake.token,
            TELEGRAM_API_BASE=fake.url,
            DATABASE_PATH=str(tmp_path / "domino.sqlite3"),
            COMPUTER_DELAY="0",
        ),
        stdout=log,
        stderr=log,
    )
    log.close()
    try:
        await fake.wait_for(
            lambda: fake.long_polling or process.returncode is not None, timeout=HANG_SECONDS
        )
        assert process.returncode is None, (tmp_path / "bot.log").read_text()
        yield process, mark
    finally:
        for pid in marked(mark):  # whatever is left: ours, found by our mark
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if process.returncode is None:
            await process.wait()


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="needs Linux /proc and pidfd")
async def test_sigterm_to_tasks_py_run_stops_the_bot_and_leaves_nothing(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    async with tasks_running(fakegram, tmp_path) as (process, mark):
        # The bot is tasks.py's own process (it may have children of its own).
        command = Path(f"/proc/{process.pid}/cmdline").read_bytes().split(b"\0")
        assert command[1:3] == [b"-m", b"bot"], command
        assert process.pid in marked(mark)
        process.send_signal(signal.SIGTERM)
        async with asyncio.timeout(HANG_SECONDS):
            code = await process.wait()
        await all_ended(mark, "SIGTERM to tasks.py run")
    assert code == 0, (tmp_path / "bot.log").read_text()[-3000:]


@pytest.mark.slow
async def test_a_network_failure_on_the_first_call_is_tried_again(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    fakegram.faults.drop_next("getMe")
    fakegram.faults.drop_next("getMe")  # two lost connections; the third getMe answers
    async with tasks_running(fakegram, tmp_path) as (process, _):
        process.send_signal(signal.SIGTERM)
        async with asyncio.timeout(HANG_SECONDS):
            assert await process.wait() == 0
    # Two lost, the third answered (aiogram asks once more when polling starts).
    tries = [call.dropped for call in fakegram.transcript.calls("getMe")]
    assert tries[:3] == [True, True, False], tries


# ------------------------------------------------------------------ tasks.py demo


def test_demo_installs_what_run_does_and_hands_its_arguments_on(
    tasks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    became: list[list[str]] = []
    monkeypatch.setattr(tasks, "become", lambda argv: became.append(argv) or 0)
    monkeypatch.setattr(sys, "argv", ["tasks.py", "demo", "--port", "9000"])
    assert tasks.main() == 0
    assert tasks.installs == ["."]  # the page needs nothing beyond what the bot does
    assert became == [[str(tasks.PYTHON), "-m", "tests.e2e.demo", "--port", "9000"]]


@pytest.mark.parametrize(
    ("argv", "port"), [([], 8080), (["--port", "9000"], 9000), (["--port=0"], 0)]
)
def test_demo_reads_its_port(argv: list[str], port: int) -> None:
    from tests.e2e.demo import parse

    assert parse(argv).port == port


@pytest.mark.parametrize("argv", [["--port", "http"], ["--port", "70000"], ["--host", "0.0.0.0"]])
def test_demo_refuses_a_wrong_argument_in_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.e2e.demo import parse

    with pytest.raises(SystemExit) as exited:
        parse(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("tasks.py demo: error: "), err


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="needs Linux /proc and pidfd")
async def test_ctrl_c_to_tasks_py_demo_stops_the_bot_and_leaves_nothing(tmp_path: Path) -> None:
    """The page is served on 127.0.0.1 with the bot behind it; Ctrl-C (SIGINT to the whole
    foreground group, as a terminal sends it) ends the demo, the bot and its helpers."""
    root = isolated_root(tmp_path)
    mark = uuid.uuid4().hex
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "tasks.py",
        "demo",
        "--port",
        "0",
        cwd=root,
        env=run_env(mark),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        start_new_session=True,  # a group of its own, as a terminal's foreground job
    )
    assert process.stdout is not None
    try:
        async with asyncio.timeout(HANG_SECONDS):
            said = b""
            while b"Play: " not in said:
                line = await process.stdout.readline()
                assert line, f"the demo ended before serving:\n{said.decode()}"
                said += line
        url = said.decode().split("Play: ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/play/"), url
        async with aiohttp.ClientSession() as http, http.get(url) as page:
            assert page.status == 200 and "app.js" in await page.text()
        os.killpg(process.pid, signal.SIGINT)
        async with asyncio.timeout(HANG_SECONDS):
            rest = await process.stdout.read()
            code = await process.wait()
        await all_ended(mark, "Ctrl-C to tasks.py demo")
    finally:
        for pid in marked(mark):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if process.returncode is None:
            await process.wait()
    assert code == 0, (said + rest).decode()
    assert b"stopping" in rest


# ------------------------------------------------------------------ tasks.py test on PostgreSQL


def programs_in(folder: Path, *names: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        program = folder / name
        program.write_text("#!/bin/sh\n")
        program.chmod(0o755)
    return folder


def test_postgres_is_found_on_path_first(tmp_path: Path) -> None:
    tasks: Any = load_tasks()
    on_path = programs_in(tmp_path / "path", "initdb", "pg_ctl")
    installed = tmp_path / "lib"
    programs_in(installed / "16" / "bin", "initdb", "pg_ctl")
    assert tasks.find_postgres(path=str(on_path), installed=installed) == on_path


def test_postgres_is_found_in_the_newest_complete_version(tmp_path: Path) -> None:
    """Debian's layout (/usr/lib/postgresql/<version>/bin): the newest version that has
    both programs; one with initdb alone (a client-only package) is passed over, and so
    is a folder on PATH without both."""
    tasks: Any = load_tasks()
    installed = tmp_path / "lib"
    programs_in(installed / "9.6" / "bin", "initdb", "pg_ctl")
    programs_in(installed / "13" / "bin", "initdb", "pg_ctl")
    programs_in(installed / "17" / "bin", "initdb")
    programs_in(installed / "extra" / "bin", "initdb", "pg_ctl")  # not a version: last
    empty_path = str(programs_in(tmp_path / "path"))
    found = tasks.find_postgres(path=empty_path, installed=installed)
    assert found == installed / "13" / "bin"
    for alone in ("initdb", "pg_ctl"):  # the other is not beside it
        half_on_path = str(programs_in(tmp_path / f"half-{alone}", alone))
        assert tasks.find_postgres(path=half_on_path, installed=installed) == found
    assert tasks.find_postgres(path=empty_path, installed=tmp_path / "none") is None


def cluster(tasks: Any, as_user: tuple[str, ...] = (), durable: bool = False) -> Any:
    return tasks.Cluster(Path("/pg/bin"), Path("/tmp/domino-pg-x"), 54321, as_user, durable)


def settings_of(server: Any) -> dict[str, str]:
    """The settings the server's postgresql.conf gets, as PostgreSQL reads those lines."""
    pairs = [line.split(" = ", 1) for line in server.settings().splitlines()]
    assert all(value[0] == value[-1] == "'" for _, value in pairs)
    return {name: value[1:-1].replace("''", "'") for name, value in pairs}


def test_the_throwaway_servers_commands() -> None:
    tasks: Any = load_tasks()
    server = cluster(tasks)
    assert server.url == "postgresql://postgres@127.0.0.1:54321/postgres"
    init = server.initdb()
    assert init[:3] == ["/pg/bin/initdb", "-D", "/tmp/domino-pg-x/data"]
    assert {"--no-sync", "-U", "postgres"} <= set(init)
    assert init[init.index("-A") + 1] == "trust"
    start = server.start()
    assert start[:4] == ["/pg/bin/pg_ctl", "start", "-D", "/tmp/domino-pg-x/data"]
    assert "-w" in start  # pg_ctl returns once the server takes connections
    assert start[start.index("-l") + 1] == "/tmp/domino-pg-x/server.log"
    settings = settings_of(server)
    assert settings["listen_addresses"] == "127.0.0.1"
    assert settings["port"] == "54321"
    assert settings["unix_socket_directories"] == "/tmp/domino-pg-x"
    assert settings["max_connections"] == "300"
    no_sync = ("fsync", "synchronous_commit", "full_page_writes")
    for name in no_sync:
        assert settings[name] == "off"
    # A durable one keeps PostgreSQL's own for the disk, and the rest.
    durable = settings_of(cluster(tasks, durable=True))
    assert durable == {name: value for name, value in settings.items() if name not in no_sync}
    # A folder's name as it is, quoted for postgresql.conf.
    odd = tasks.Cluster(Path("/pg/bin"), Path("/tmp/o'hare x"), 54321)
    assert settings_of(odd)["unix_socket_directories"] == "/tmp/o'hare x"
    assert "'/tmp/o''hare x'" in odd.settings()
    stop = server.stop()
    assert stop[:2] == ["/pg/bin/pg_ctl", "stop"]
    assert stop[stop.index("-m") + 1] == "immediate"


def test_as_root_the_server_runs_as_postgres(monkeypatch: pytest.MonkeyPatch) -> None:
    tasks: Any = load_tasks()
    monkeypatch.setattr(tasks.os, "geteuid", lambda: 0)
    assert tasks.runs_as() == ("runuser", "-u", "postgres", "--")
    server = cluster(tasks, tasks.runs_as())
    for command in (server.initdb(), server.start(), server.stop()):
        assert command[:4] == ["runuser", "-u", "postgres", "--"]
        assert command[4].startswith("/pg/bin/")
    monkeypatch.setattr(tasks.os, "geteuid", lambda: 1000)
    assert tasks.runs_as() == ()


def project_with(tmp_path: Path, *entries: str) -> Path:
    """A project root holding these test files and folders (and tests/domino)."""
    for entry in (*entries, "tests/domino/test_tiles.py"):
        place = tmp_path / entry
        if place.suffix == ".py":
            place.parent.mkdir(parents=True, exist_ok=True)
            place.touch()
        else:
            place.mkdir(parents=True, exist_ok=True)
    return tmp_path


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([], ["tests/storage", "tests/e2e/test_match_e2e.py"]),
        (["-k", "fish", "-x"], ["-k", "fish", "-x", "tests/storage",
                                "tests/e2e/test_match_e2e.py"]),
        (["tests/domino"], None),
        (["tests/domino", "-x"], None),
        (["tests/storage/test_db.py::test_open", "-x"],
         ["-x", "tests/storage/test_db.py::test_open"]),
        (["tests/e2e"], ["tests/e2e/test_match_e2e.py"]),
        (["tests"], ["tests/storage", "tests/e2e/test_match_e2e.py"]),
        (["tests/bot", "tests/domino"], None),  # tests/bot: not in the pass
        (["tests/storage", "tests/bot"], ["tests/storage"]),
    ],
)  # fmt: skip
def test_the_postgres_pass_runs_what_was_chosen_of_its_tests(
    tmp_path: Path, args: list[str], expected: list[str] | None
) -> None:
    """The first pass's options are kept; of the tests named, those in the pass; with
    none named, all of `POSTGRES_TESTS` there is (the webhook's file is not, here)."""
    tasks: Any = load_tasks()
    root = project_with(
        tmp_path,
        "tests/storage/test_db.py",
        "tests/bot",
        "tests/e2e/test_match_e2e.py",
        "tests/e2e/test_junk_e2e.py",
    )
    assert tasks.postgres_arguments(args, root) == expected


def test_every_entry_of_the_postgres_pass_is_there() -> None:
    """The list names real tests."""
    tasks: Any = load_tasks()
    missing = [e for e in tasks.POSTGRES_TESTS if not (ROOT / e).exists()]
    assert missing == [], missing


@pytest.fixture
def test_command(monkeypatch: pytest.MonkeyPatch) -> Any:
    """tasks.py test with nothing installed and every command recorded (with the value
    of DOMINO_TEST_POSTGRES it would see), not run."""
    module: Any = load_tasks()
    module.ran = []
    module.codes = {}  # the exit code of a command, by its first word (pytest: 0)
    monkeypatch.setattr(module, "ensure_venv", lambda *extras: None)
    monkeypatch.delenv(module.POSTGRES_VARIABLE, raising=False)

    def call(cmd: list[str], **kwargs: Any) -> int:
        module.ran.append((Path(cmd[0]).name, cmd[1:], kwargs["env"].get(module.POSTGRES_VARIABLE)))
        return int(module.codes.get(Path(cmd[0]).name, 0))

    class Popen:
        """A command started in the background (the second pass): recorded, and its
        output one line."""

        def __init__(self, cmd: list[str], **kwargs: Any) -> None:
            self.code = call(cmd, **kwargs)
            kwargs["stdout"].write(b"second pass output\n")

        def wait(self) -> int:
            return self.code

        def poll(self) -> int:
            return self.code

    monkeypatch.setattr(
        module, "subprocess", SimpleNamespace(call=call, Popen=Popen, STDOUT=subprocess.STDOUT)
    )
    monkeypatch.setattr(sys, "argv", ["tasks.py", "test", "-x"])
    return module


def pytest_runs(tasks: Any) -> list[tuple[list[str], str | None]]:
    return [(args, server) for name, args, server in tasks.ran if name == "pytest"]


def test_the_second_pass_uses_the_server_given(
    test_command: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tasks = test_command
    monkeypatch.setenv(tasks.POSTGRES_VARIABLE, "postgresql://u:pw@db.example/t")
    monkeypatch.setattr(tasks, "find_postgres", lambda: pytest.fail("none to be started"))
    assert tasks.main() == 0
    # The second pass starts first, in the background, and runs beside the first.
    (second, on_postgres), (first, on_sqlite) = pytest_runs(tasks)
    assert on_sqlite is None  # the first pass is on SQLite even so
    assert first == [*tasks.PARALLEL, "-x"]
    assert on_postgres == "postgresql://u:pw@db.example/t"
    workers = ["-n", str(tasks.SECOND_PASS_WORKERS), *tasks.PARALLEL[2:]]
    assert second[: len(workers) + 1] == [*workers, "-x"]
    assert second[len(workers) + 1 :] == [e for e in tasks.POSTGRES_TESTS if (ROOT / e).exists()]
    shown = capsys.readouterr().out
    assert "$ DOMINO_TEST_POSTGRES=$DOMINO_TEST_POSTGRES pytest" in shown  # not its password
    assert "pw@" not in shown
    # Its output comes after the first pass's.
    first_pass = shown.index("$ DOMINO_TEST_POSTGRES_ONLY=$DOMINO_TEST_POSTGRES pytest -n")
    assert shown.index("--- the PostgreSQL pass:\nsecond pass output") > first_pass


def test_the_second_pass_starts_a_throwaway_server(
    test_command: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tasks = test_command
    programs = Path("/pg/bin")
    monkeypatch.setattr(tasks, "find_postgres", lambda: programs)
    servers: list[Any] = []

    @contextlib.contextmanager
    def throwaway(found: Any) -> Iterator[Any]:
        servers.append(found)
        yield SimpleNamespace(url="postgresql://postgres@127.0.0.1:5999/postgres")
        servers.append("stopped")

    monkeypatch.setattr(tasks, "throwaway_postgres", throwaway)
    tasks.codes["pytest"] = 0
    assert tasks.main() == 0
    assert servers == [programs, "stopped"]
    assert [server for _, server in pytest_runs(tasks)] == [
        "postgresql://postgres@127.0.0.1:5999/postgres",
        None,
    ]
    shown = capsys.readouterr().out
    assert "$ DOMINO_TEST_POSTGRES=postgresql://postgres@127.0.0.1:5999/postgres pytest" in shown


def test_without_postgres_the_second_pass_is_skipped_in_one_line(
    test_command: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tasks = test_command
    monkeypatch.setattr(tasks, "find_postgres", lambda: None)
    assert tasks.main() == 0
    assert len(pytest_runs(tasks)) == 1
    said = [line for line in capsys.readouterr().out.splitlines() if "PostgreSQL" in line]
    assert len(said) == 1 and said[0].endswith("the PostgreSQL pass is skipped"), said


def test_a_failed_pass_fails_the_test_command(
    test_command: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = test_command
    tasks.codes["pytest"] = 1
    monkeypatch.setenv(tasks.POSTGRES_VARIABLE, "postgresql://postgres@db.example/t")
    assert tasks.main() == 1
    assert len(pytest_runs(tasks)) == 2  # both ran to their end, and said so


def test_a_server_that_does_not_start_is_one_line_and_exit_1(
    test_command: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tasks = test_command

    def broken(found: Any) -> Any:
        raise tasks.PostgresFailed("the throwaway PostgreSQL: initdb failed (exit 1): no")

    monkeypatch.setattr(tasks, "find_postgres", lambda: object())
    monkeypatch.setattr(tasks, "throwaway_postgres", broken)
    assert tasks.main() == 1
    assert pytest_runs(tasks) == []  # the server is started before the first pass
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["tasks.py: the throwaway PostgreSQL: initdb failed (exit 1): no"]


def port_open(port: int) -> bool:
    import socket

    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.skipif(load_tasks().find_postgres() is None, reason="no PostgreSQL installed")
def test_a_throwaway_server_takes_connections_and_is_gone_after() -> None:
    """The real thing (about a second): initdb, start, a query, stop and removal, also
    when the block fails."""
    import asyncpg

    tasks: Any = load_tasks()
    programs = tasks.find_postgres()

    async def ask(url: str) -> tuple[str, ...]:
        conn = await asyncpg.connect(url)
        try:
            names = ("fsync", "server_encoding", "max_connections", "listen_addresses")
            return tuple([await conn.fetchval(f"SHOW {name}") for name in names])
        finally:
            await conn.close()

    with tasks.throwaway_postgres(programs) as server:
        assert asyncio.run(ask(server.url)) == ("off", "UTF8", "300", "127.0.0.1")
        assert server.server_pid() is not None
    assert not port_open(server.port)
    assert not server.folder.exists()
    with pytest.raises(RuntimeError), tasks.throwaway_postgres(programs) as server:
        assert port_open(server.port)
        raise RuntimeError("a failed pass")
    assert not port_open(server.port)
    assert not server.folder.exists()


@pytest.mark.skipif(load_tasks().find_postgres() is None, reason="no PostgreSQL installed")
def test_a_durable_throwaway_server_keeps_a_commit_through_a_crash() -> None:
    """What the instances' test does with its own server (`own_postgres`, a few seconds):
    a COMMIT, the server crashed by its `stop` command and started again by its `start`,
    and the row is there; fsync as PostgreSQL has it."""
    import asyncpg

    tasks: Any = load_tasks()

    async def query(url: str, sql: str) -> Any:
        conn = await asyncpg.connect(url)
        try:
            return await conn.fetchval(sql)
        finally:
            await conn.close()

    with tasks.throwaway_postgres(tasks.find_postgres(), durable=True) as server:
        assert asyncio.run(query(server.url, "SHOW fsync")) == "on"
        asyncio.run(query(server.url, "CREATE TABLE kept AS SELECT 42 AS answer"))
        pid = server.server_pid()
        subprocess.run(server.stop(), cwd=server.folder, check=True, capture_output=True)
        assert server.server_pid() is None and not port_open(server.port)
        subprocess.run(server.start(), cwd=server.folder, check=True, capture_output=True)
        assert server.server_pid() not in (None, pid)
        assert asyncio.run(query(server.url, "SELECT answer FROM kept")) == 42
        log = server.log.read_text()
        assert "database system was interrupted" in log  # a crash, recovered from
    assert not port_open(server.port)
    assert not server.folder.exists()


@pytest.mark.skipif(load_tasks().find_postgres() is None, reason="no PostgreSQL installed")
def test_a_throwaway_server_that_cannot_start_says_why_and_leaves_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A setting the server refuses: one line with the end of what it said, no folder."""
    tasks: Any = load_tasks()
    monkeypatch.setitem(tasks.THROWAWAY_SETTINGS, "max_connections", "many")
    made: list[Path] = []
    mkdtemp = tempfile.mkdtemp

    def recorded(**kwargs: Any) -> str:
        made.append(Path(mkdtemp(**kwargs)))
        return str(made[-1])

    monkeypatch.setattr(tasks.tempfile, "mkdtemp", recorded)
    with (
        pytest.raises(tasks.PostgresFailed) as failed,
        tasks.throwaway_postgres(tasks.find_postgres()),
    ):
        pytest.fail("started")
    said = str(failed.value)
    assert said.startswith("the throwaway PostgreSQL: pg_ctl start failed (exit 1): ")
    assert '"max_connections": "many"' in said and "\n" not in said
    assert len(made) == 1 and not made[0].exists()
