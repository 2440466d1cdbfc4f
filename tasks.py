#!/usr/bin/env python3
"""The project's two entry points for a fresh machine that has only Python 3.11+,
and a third to try the bot without Telegram.

    python3 tasks.py run     # run the bot (SQLite by default; needs BOT_TOKEN)
    python3 tasks.py test    # lint, type-check and run the whole test suite (twice: the
                             # tests of the database on PostgreSQL as well)
    python3 tasks.py demo [--port N]   # play in a browser against a local Telegram

Both create `.venv/` beside this file on first use and install the project into it
(again whenever `pyproject.toml` changes). The extras once installed are kept: after
`test` has installed the dev tools, `run` uses the same environment as it is, and a
later `test` does not install them again (`.venv/.installed` records what is there).

`run` replaces itself with the bot (`os.execv`), so a supervisor's SIGTERM or a
Ctrl-C reaches the bot itself and nothing is left running behind it; the bot says in
one line why it cannot start (an unreachable Telegram, a refused token) and exits
non-zero.

`test` runs pytest twice at once: the whole suite on SQLite and, beside it, the tests
that touch the database (`POSTGRES_TESTS`) on PostgreSQL, whose output is printed after
the first pass's: on the server `DOMINO_TEST_POSTGRES` names, or else on a throwaway one
it starts from the PostgreSQL installed here (initdb and pg_ctl on PATH or in
/usr/lib/postgresql/*/bin) and removes afterwards. With no PostgreSQL installed it says
so in one line and skips that pass.

`demo` starts the local Telegram of the tests (tests/fakegram) with its play page on
127.0.0.1, and the bot against it, and prints the page's address; Ctrl-C stops both
(`tests/e2e/demo.py`). It needs only what `run` installs.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import venv
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed"
KNOWN_EXTRAS = ("dev",)

# What must pass before the tests run; kept here so CI and people run the same thing.
LINT = [["ruff", "check", "."]]
TYPECHECK = [["mypy", "domino", "render", "storage", "bot", "handlers", "i18n"]]
# pytest-xdist: two workers per core, at least four (the end-to-end tests, from 2 s to
# minutes, mostly wait on the bot's pacing: at one a core the machine idles half the
# time), and a worker that runs out of tests takes some of another's queue. `-n 0` among
# the extra arguments runs everything in this process instead. The slowest tests are
# listed at the end, so a CI run that nears its time budget shows where the time went.
WORKERS = max(4, 2 * (os.cpu_count() or 1))
PARALLEL = ["-n", str(WORKERS), "--dist", "worksteal", "--durations=15"]
# The second pass's workers, beside the first pass's (`postgres_pass`).
SECOND_PASS_WORKERS = 2
# The second pass, on PostgreSQL: the tests where a second database can behave otherwise:
# the storage itself, and the bot as a process in its main match, by webhook, over
# restarts; and as two instances, which is `postgres_only` and four minutes long, so it
# runs on the same server in the first pass, beside the rest of it. The use cases and
# handlers over the database (tests/bot, tests/handlers) pass there too but add a minute
# of CI for SQL the storage tests cover: run them so by hand (README, "Tests"). The rest
# (the engine, the pictures, the local Telegram, the play page, the other end-to-end
# files) would only run the same SQL again. An entry not there yet is left out.
POSTGRES_TESTS = [
    "tests/storage",
    "tests/e2e/test_match_e2e.py",
    "tests/e2e/test_webhook_e2e.py",
    "tests/e2e/test_lifecycle_e2e.py",
]
# The variable naming the server the tests run on (tests/databases.py reads it), and the
# one naming it for the first pass's tests marked `postgres_only` alone (tests/conftest.py).
POSTGRES_VARIABLE = "DOMINO_TEST_POSTGRES"
POSTGRES_ONLY_VARIABLE = "DOMINO_TEST_POSTGRES_ONLY"
# Where Debian and Ubuntu install PostgreSQL's server programs (one folder a version).
POSTGRES_INSTALLED = Path("/usr/lib/postgresql")


def _digest(pyproject: bytes) -> str:
    return hashlib.sha256(pyproject).hexdigest()


def read_stamp(stamp: str | None, pyproject: bytes) -> tuple[bool, frozenset[str]]:
    """From the stamp's text: whether it was written for this `pyproject`, and the
    extras installed then. A stamp of the older kind (a bare hash of pyproject + the
    extras) is read too, so an environment stamped that way is not installed again."""
    if not stamp:
        return False, frozenset()
    try:
        data = json.loads(stamp)
    except ValueError:
        data = None
    if isinstance(data, dict):
        extras = frozenset(str(e) for e in data.get("extras", ()) if e in KNOWN_EXTRAS)
        return data.get("pyproject") == _digest(pyproject), extras
    for name in ("", *KNOWN_EXTRAS):
        if stamp.strip() == hashlib.sha256(pyproject + name.encode()).hexdigest():
            return True, frozenset({name} - {""})
    return False, frozenset()


def write_stamp(pyproject: bytes, extras: frozenset[str]) -> str:
    return json.dumps({"pyproject": _digest(pyproject), "extras": sorted(extras)})


def to_install(
    stamp: str | None, pyproject: bytes, wanted: frozenset[str]
) -> frozenset[str] | None:
    """The extras to install (what is wanted plus what is already there, so nothing
    installed is dropped), or None when the environment already has all it needs."""
    current, installed = read_stamp(stamp, pyproject)
    if current and wanted <= installed:
        return None
    return wanted | installed


class InstallFailed(Exception):
    """Creating the environment or installing into it failed; the text is one line."""


def ensure_venv(*extras: str) -> None:
    """Create the virtual environment and install the project when needed."""
    pyproject = (ROOT / "pyproject.toml").read_bytes()
    stamp = STAMP.read_text() if STAMP.exists() else None
    needed = to_install(stamp, pyproject, frozenset(extras))
    if needed is None and PYTHON.exists():
        return
    needed = frozenset(extras) if needed is None else needed
    if not PYTHON.exists():
        print(f"creating {VENV.relative_to(ROOT)} ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    target = f".[{','.join(sorted(needed))}]" if needed else "."
    print(f"installing {target} ...", flush=True)
    result = subprocess.run(
        [
            str(PYTHON),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-e",
            target,
        ],
        cwd=ROOT,
        check=False,
    )
    if result.returncode:
        raise InstallFailed(
            f"pip could not install {target} (exit {result.returncode}): check the network "
            "and the package index (pip's messages above say which package failed)"
        )
    STAMP.write_text(write_stamp(pyproject, needed))


def command(
    cmd: list[str], env: Mapping[str, str | None] | None = None
) -> tuple[list[str], dict[str, str], str]:
    """`cmd` (the venv's tool of that name if it has one), the environment with the
    variables of `env` set or, where None, unset, and the line that shows it (a value
    the environment had already is shown by its name: a password may be in it)."""
    exe = BIN / cmd[0]
    full = [str(exe) if exe.exists() else cmd[0], *cmd[1:]]
    environment = dict(os.environ)
    shown = []
    for name, value in (env or {}).items():
        if value is None:
            environment.pop(name, None)
            continue
        source = next((known for known, had in os.environ.items() if had == value), None)
        shown.append(f"{name}=${source}" if source else f"{name}={value}")
        environment[name] = value
    return full, environment, "$ " + " ".join([*shown, *cmd])


def run(cmd: list[str], env: Mapping[str, str | None] | None = None) -> int:
    """Run `cmd` in the project's root (see `command`), shown first; its exit code."""
    full, environment, shown = command(cmd, env)
    print(shown, flush=True)
    return subprocess.call(full, cwd=ROOT, env=environment)


def cmd_test(args: list[str]) -> int:
    ensure_venv("dev")
    for step in [*LINT, *TYPECHECK]:
        if code := run(step):
            return code
    try:
        with postgres_server() as server:
            # The first pass is on SQLite whatever the environment says, but for the tests
            # marked `postgres_only`; the second pass, on PostgreSQL, runs beside it.
            first = {POSTGRES_VARIABLE: None, POSTGRES_ONLY_VARIABLE: server}
            with postgres_pass(args, server) as second:
                code = run(["pytest", *PARALLEL, *args], first)
                return second() or code
    except PostgresFailed as failed:
        print(f"tasks.py: {failed}", file=sys.stderr, flush=True)
        return 1


@contextlib.contextmanager
def postgres_server() -> Iterator[str | None]:
    """The URL of the PostgreSQL server the tests may use: the one `DOMINO_TEST_POSTGRES`
    names, else a throwaway one started for them (`PostgresFailed` if it cannot be), else
    None (said in one line: the PostgreSQL pass is skipped)."""
    given = os.environ.get(POSTGRES_VARIABLE)
    if given:
        yield given
        return
    programs = find_postgres()
    if programs is None:
        print(
            "tasks.py: no PostgreSQL here (initdb and pg_ctl, on PATH or in "
            f"{POSTGRES_INSTALLED}/*/bin): the PostgreSQL pass is skipped",
            flush=True,
        )
        yield None
        return
    with throwaway_postgres(programs) as cluster:
        yield cluster.url


@contextlib.contextmanager
def postgres_pass(args: list[str], server: str | None) -> Iterator[Callable[[], int]]:
    """pytest on the PostgreSQL `server` (`POSTGRES_TESTS`, or those of them `args`
    choose), started at once in the background with `SECOND_PASS_WORKERS` workers: the
    first pass leaves a core idle now and then (its long tests mostly wait), and these
    tests fill it. Yields the function that waits for it and prints its output (kept
    until then, so that the two passes' lines do not mix): its exit code. Nothing runs
    (0) without a server or without any of its tests chosen; leaving the block early
    stops it."""
    chosen = None if server is None else postgres_arguments(args, ROOT)
    if server is None or chosen is None:
        if server is not None:
            print("tasks.py: none of the tests chosen is in the PostgreSQL pass", flush=True)
        yield lambda: 0
        return
    workers = ["-n", str(SECOND_PASS_WORKERS), *PARALLEL[2:]]
    full, environment, shown = command(["pytest", *workers, *chosen], {POSTGRES_VARIABLE: server})
    print(f"{shown}    # beside the first pass; its output comes after it", flush=True)
    with tempfile.TemporaryFile() as output:
        process = subprocess.Popen(
            full, cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT
        )

        def finish() -> int:
            code = process.wait()
            output.seek(0)
            print("--- the PostgreSQL pass:", flush=True)
            sys.stdout.buffer.write(output.read())
            sys.stdout.flush()
            return code

        try:
            yield finish
        finally:
            if process.poll() is None:
                process.terminate()
                process.wait()


def postgres_arguments(args: Sequence[str], root: Path) -> list[str] | None:
    """The PostgreSQL pass's pytest arguments: the first pass's options, and of its tests
    those in `POSTGRES_TESTS` (all of them when `args` name no test; None when the tests
    they name have none of those).

    A test is named by its file or folder under tests/, with or without `::` and a
    test's name after it (`tests/storage/test_db.py::test_open`); `tests/e2e` names the
    end-to-end files of the pass."""
    tests = (root / "tests").resolve()
    options: list[str] = []
    named: list[str] = []
    for arg in args:
        place = (root / arg.split("::", 1)[0]).resolve()
        if not arg.startswith("-") and place.exists() and place.is_relative_to(tests):
            named.append(arg)
        else:
            options.append(arg)
    entries = [entry for entry in POSTGRES_TESTS if (root / entry).exists()]
    if not named:
        return [*options, *entries]
    chosen: list[str] = []
    for arg in named:
        place = (root / arg.split("::", 1)[0]).resolve()
        for entry in entries:
            where = (root / entry).resolve()
            if place.is_relative_to(where):
                chosen.append(arg)  # inside the pass: as it was named
                break
            if where.is_relative_to(place) and entry not in chosen:
                chosen.append(entry)  # a folder holding some of the pass: those
    return [*options, *chosen] if chosen else None


# ------------------------------------------------------------------ a throwaway PostgreSQL
# Made here from the installed initdb and pg_ctl: pytest-postgresql 10's PostgreSQLExecutor
# does not serve. It runs pg_ctl as the calling user, which pg_ctl refuses for root (as CI
# runs), with no option to run it as another; its start() returns once the port answers,
# before the server takes connections (a server still recovering after a crash refuses
# them); its kill() leaves a postmaster.pid behind that stops the next start; and
# installing it puts its pytest plugin, which imports psycopg and so needs libpq, into
# every pytest run, even where PostgreSQL is not installed.


class PostgresFailed(Exception):
    """The throwaway server could not be made or started; the text is one line."""


def find_postgres(path: str | None = None, installed: Path = POSTGRES_INSTALLED) -> Path | None:
    """The folder of PostgreSQL's server programs, initdb and pg_ctl side by side: pg_ctl's
    on `path` (default: PATH) if initdb is beside it, else the newest version under
    `installed` (Debian's /usr/lib/postgresql/15/bin) that has both; None without one."""

    def version(folder: Path) -> tuple[int, ...]:
        try:
            return tuple(int(part) for part in folder.parent.name.split("."))  # 15, 9.6
        except ValueError:
            return (-1,)

    on_path = shutil.which("pg_ctl", path=path)
    folders = [Path(on_path).parent] if on_path else []
    folders += sorted(installed.glob("*/bin"), key=version, reverse=True)
    both = (f for f in folders if (f / "initdb").is_file() and (f / "pg_ctl").is_file())
    return next(both, None)


# Its settings: TCP on 127.0.0.1 alone, connections for every test worker's bots (each a
# pool of up to 10) to spare, and nothing waiting for the disk: it holds nothing worth
# keeping. A `durable` one leaves `NO_SYNC` out for PostgreSQL's own: a COMMIT is
# acknowledged once it is on disk, so a crash (`stop -m immediate`) keeps every one.
THROWAWAY_SETTINGS = {"listen_addresses": "127.0.0.1", "max_connections": "300"}
NO_SYNC = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
# Who runs the server when tasks.py runs as root (initdb, pg_ctl and postgres refuse root).
SERVER_USER = "postgres"
START_SECONDS = 60  # pg_ctl's wait for the server to take connections


@dataclass(frozen=True)
class Cluster:
    """A throwaway PostgreSQL server: its data in `folder`/data, its unix socket in
    `folder`, TCP on 127.0.0.1:`port`; the user `postgres` without a password. Its
    commands run the programs in `programs`, prefixed with `as_user` (root's runuser)."""

    programs: Path
    folder: Path
    port: int
    as_user: tuple[str, ...] = ()
    durable: bool = False

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def log(self) -> Path:
        return self.folder / "server.log"

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def settings(self) -> str:
        """The lines added to its postgresql.conf (of two lines for a name, the last holds)."""
        settings = {
            "port": str(self.port),
            "unix_socket_directories": str(self.folder),
            **THROWAWAY_SETTINGS,
            **({} if self.durable else NO_SYNC),
        }
        quoted = {name: value.replace("'", "''") for name, value in settings.items()}
        return "".join(f"{name} = '{value}'\n" for name, value in quoted.items())

    def _run(self, program: str, *args: str) -> list[str]:
        return [*self.as_user, str(self.programs / program), *args]

    def initdb(self) -> list[str]:
        return self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync",
            "-E", "UTF8", "--locale=C.UTF-8",
        )  # fmt: skip

    def start(self) -> list[str]:
        """pg_ctl start, returning once the server takes connections."""
        return self._run(
            "pg_ctl", "start", "-D", str(self.data), "-l", str(self.log), "-w",
            "-t", str(START_SECONDS),
        )  # fmt: skip

    def stop(self) -> list[str]:
        """pg_ctl stop as a crash would: every connection cut, nothing written first."""
        return self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w")

    def server_pid(self) -> int | None:
        """The server's main process (the parent of every connection's), while it runs."""
        try:
            return int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            return None


def runs_as() -> tuple[str, ...]:
    """The prefix for the server's commands: root runs them as `SERVER_USER`."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return ("runuser", "-u", SERVER_USER, "--")
    return ()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _terminated(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # so the server is stopped and removed on the way out


@contextlib.contextmanager
def throwaway_postgres(programs: Path, *, durable: bool = False) -> Iterator[Cluster]:
    """A PostgreSQL server of its own (`find_postgres`'s `programs`) in a temporary
    folder for as long as the block runs. Stopped (`Cluster.stop`: nothing in it is kept)
    and its folder removed however the block ends, SIGTERM included. `durable`: with
    PostgreSQL's own settings for the disk, for a test that crashes the server and
    counts on every acknowledged COMMIT."""
    folder = Path(tempfile.mkdtemp(prefix="domino-pg-"))
    cluster = Cluster(programs, folder, free_port(), runs_as(), durable)
    on_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminated) if on_main else None
    try:
        if cluster.as_user:
            try:
                shutil.chown(folder, SERVER_USER)
            except (LookupError, OSError) as exc:
                raise PostgresFailed(
                    f"as root the server runs as the user {SERVER_USER!r}, which is "
                    f"missing here ({exc}): the PostgreSQL pass cannot run"
                ) from None
        _server_step(cluster, cluster.initdb(), "initdb")
        with (cluster.data / "postgresql.conf").open("a") as conf:
            conf.write(cluster.settings())
        _server_step(cluster, cluster.start(), "pg_ctl start")
        print(
            f"tasks.py: a throwaway PostgreSQL ({programs}) on 127.0.0.1:{cluster.port}, "
            f"in {folder}",
            flush=True,
        )
        yield cluster
    finally:
        try:
            if cluster.server_pid() is not None:  # a server started, or half started
                subprocess.run(cluster.stop(), cwd=folder, capture_output=True, timeout=60)
        finally:
            if on_main:
                signal.signal(signal.SIGTERM, previous)
            shutil.rmtree(folder, ignore_errors=True)


def _server_step(cluster: Cluster, command: list[str], name: str) -> None:
    """Run one of the server's commands, quietly; PostgresFailed with the last lines it
    and the server said if it fails."""
    try:
        done = subprocess.run(command, cwd=cluster.folder, capture_output=True, text=True)
    except OSError as exc:
        raise PostgresFailed(f"the throwaway PostgreSQL: {name} could not run: {exc}") from None
    if done.returncode:
        said = (done.stderr or done.stdout).strip().splitlines()
        if cluster.log.exists():
            said += cluster.log.read_text(errors="replace").strip().splitlines()
        last = " | ".join(said[-3:]) or "nothing said"
        raise PostgresFailed(
            f"the throwaway PostgreSQL: {name} failed (exit {done.returncode}): {last}"
        )


def cmd_run(args: list[str]) -> int:
    ensure_venv()
    return become([str(PYTHON), "-m", "bot", *args])


def cmd_demo(args: list[str]) -> int:
    ensure_venv()
    # The demo parses its own arguments (`--port N`, `--help`) and says what is wrong.
    return become([str(PYTHON), "-m", "tests.e2e.demo", *args])


def become(argv: list[str]) -> int:
    """Replace this process with `argv`, run from the project's root."""
    os.chdir(ROOT)
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "nt":  # no exec there that keeps the console: wait for the child instead
        return subprocess.call(argv)
    os.execv(argv[0], argv)  # it takes this process: its signals, its exit code


def main() -> int:
    commands = {"test": cmd_test, "run": cmd_run, "demo": cmd_demo}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(__doc__)
        return 2
    try:
        return commands[sys.argv[1]](sys.argv[2:])
    except InstallFailed as failed:
        print(f"tasks.py: {failed}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
