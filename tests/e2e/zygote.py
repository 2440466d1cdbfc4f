"""Bot processes for the end-to-end tests without importing aiogram each time.

Most end-to-end tests start the bot several times (a restart, a kill, two instances), and
each `python -m bot` spends about three seconds of CPU importing aiogram, pydantic and
the project before it does anything: over a third of the suite's CPU. A zygote is one
process per pytest worker that has imported `bot.__main__` once and forks a bot for
each start; the fork runs `python -m bot` as it would run from a fresh interpreter (the
module executed as `__main__` through runpy, in the environment, working folder and log
given), so everything from the settings on is the real start. What differs is only what
an interpreter reads of its environment before any code runs (`PYTHON*` variables such
as PYTHONHASHSEED or PYTHONTRACEMALLOC): a test that needs those, or the start itself
measured (tests/e2e/test_startup_e2e.py, bench/startup.py), or the bot a person tries
(`tasks.py demo`), spawns `python -m bot`.

The protocol on the zygote's stdin and stdout is one JSON object a line. The harness
sends `{"cwd", "env", "log"}` and gets `{"started": pid}`; when a bot exits the zygote
sends `{"exited": pid, "code": code}` (a signal as its negative number, as asyncio has
it). The zygote is single-threaded (a fork copies only the calling thread), ends when its
stdin closes, and gets SIGKILL with its test process, as each bot does with the zygote
(Linux `PR_SET_PDEATHSIG`).

`DOMINO_TEST_SPAWN=exec` in the environment makes the harness spawn every bot instead.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import runpy
import selectors
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SPAWN_VARIABLE = "DOMINO_TEST_SPAWN"  # "exec": every bot a fresh interpreter
PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """SIGKILL this process when its parent ends (Linux prctl; elsewhere nothing)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


# ---------------------------------------------------------------------- the zygote itself


def _send(message: dict[str, Any]) -> None:
    os.write(1, (json.dumps(message) + "\n").encode())


def _reap() -> None:
    """Report every child that has exited."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _send({"exited": pid, "code": os.waitstatus_to_exitcode(status)})


def serve() -> dict[str, Any] | None:
    """Fork a bot for each request until stdin closes (None, in the zygote); in a fork,
    its request."""
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    selector = selectors.DefaultSelector()
    selector.register(0, selectors.EVENT_READ, "request")
    selector.register(wake_read, selectors.EVENT_READ, "child")
    pending = b""
    while True:
        for key, _ in selector.select():
            if key.data == "child":
                os.read(wake_read, 4096)
                _reap()
                continue
            chunk = os.read(0, 65536)
            if not chunk:
                return None
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                request = json.loads(line)
                pid = os.fork()
                if pid == 0:
                    selector.close()
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    signal.signal(signal.SIGINT, signal.default_int_handler)
                    os.close(wake_read)
                    os.close(wake_write)
                    return dict(request)
                _send({"started": pid})


def become_the_bot(request: dict[str, Any]) -> None:
    """In a fork: the process `python -m bot` would be, from the module's first line."""
    die_with_parent()
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = [str(ROOT / "bot" / "__main__.py")]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


def main() -> None:
    die_with_parent()
    # Ctrl-C in a terminal reaches the whole group: the test process ends this zygote
    # (its stdin closes), and each bot takes SIGINT as a fresh interpreter would.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import bot.__main__  # noqa: F401  - what every bot's start would import

    # What it imported stays; the module itself runs afresh in each fork, as `__main__`
    # (runpy warns of a `bot.__main__` imported already).
    del sys.modules["bot.__main__"]
    request = serve()
    if request is not None:
        become_the_bot(request)


# ------------------------------------------------------------------ the harness's side


class ZygoteProcess:
    """A bot forked by the zygote, as the harness uses an `asyncio.subprocess.Process`:
    `pid`, `returncode`, `wait()`, `send_signal()`, `terminate()`, `kill()`."""

    def __init__(self, zygote: Zygote, pid: int) -> None:
        self._zygote = zygote
        self.pid = pid

    @property
    def returncode(self) -> int | None:
        return self._zygote.codes.get(self.pid)

    async def wait(self) -> int:
        while (code := self.returncode) is None:
            await asyncio.sleep(0.02)
        return code

    def send_signal(self, signum: int) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Zygote:
    """The harness's handle on this test process's zygote (started at its first use)."""

    def __init__(self) -> None:
        self.codes: dict[int, int] = {}  # exit codes of the bots forked, by pid
        self._started: list[int] = []
        self._news = threading.Condition()
        self._lock = threading.Lock()  # one request at a time
        self._process = subprocess.Popen(
            [sys.executable, "-u", "-m", "tests.e2e.zygote"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self._reader = threading.Thread(target=self._read, name="zygote", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            message = json.loads(line)
            with self._news:
                if "started" in message:
                    pid = int(message["started"])
                    self.codes.pop(pid, None)  # a pid of an earlier bot, used again
                    self._started.append(pid)
                else:
                    self.codes[int(message["exited"])] = int(message["code"])
                self._news.notify_all()
        with self._news:
            self._news.notify_all()

    def alive(self) -> bool:
        return self._process.poll() is None

    def fork(self, *, cwd: Path, env: dict[str, str], log: Path) -> int:
        """A new bot's pid (blocking: a few milliseconds)."""
        request = json.dumps({"cwd": str(cwd), "env": env, "log": str(log)}) + "\n"
        with self._lock:
            assert self._process.stdin is not None
            self._process.stdin.write(request.encode())
            self._process.stdin.flush()
            with self._news:
                while not self._started:
                    if not self.alive():
                        raise RuntimeError("the zygote is gone")
                    self._news.wait(1.0)
                return self._started.pop(0)

    def close(self) -> None:
        if self._process.stdin is not None:
            with contextlib.suppress(OSError):
                self._process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(5)


_ZYGOTE: Zygote | None = None


def zygote() -> Zygote:
    """This test process's zygote, started (again, if it died) at need."""
    global _ZYGOTE
    if _ZYGOTE is None or not _ZYGOTE.alive():
        _ZYGOTE = Zygote()
        atexit.register(_ZYGOTE.close)
    return _ZYGOTE


def forking() -> bool:
    """Whether bots are forked from the zygote (not `SPAWN_VARIABLE=exec`; Linux only)."""
    return os.environ.get(SPAWN_VARIABLE, "fork") != "exec" and hasattr(os, "fork")


async def start_bot(*, cwd: Path, env: dict[str, str], log: Path) -> ZygoteProcess:
    """`python -m bot` forked from the zygote, its output appended to `log`."""
    process = zygote()
    pid = await asyncio.to_thread(process.fork, cwd=cwd, env=env, log=log)
    return ZygoteProcess(process, pid)


if __name__ == "__main__":
    main()
