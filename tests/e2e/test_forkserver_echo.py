"""A killed bot's forkserver echo (tests/e2e/harness.py `killed_forkserver_lines`) is no
problem of the bot's; any other traceback is."""

from __future__ import annotations

from tests.e2e.harness import killed_forkserver_lines

MP = "/root/.pyenv/versions/3.11.7/lib/python3.11/multiprocessing"

BARE = [
    "Traceback (most recent call last):",
    f'  File "{MP}/forkserver.py", line 274, in main',
    "    code = _serve_one(child_r, fds,",
    f'  File "{MP}/forkserver.py", line 313, in _serve_one',
    "    code = spawn._main(child_r, parent_sentinel)",
    "EOFError",
]
WHILE_SPAWNING = [
    "Traceback (most recent call last):",
    f'  File "{MP}/forkserver.py", line 274, in main',
    "    code = _serve_one(child_r, fds,",
    f'  File "{MP}/spawn.py", line 130, in _main',
    "    preparation_data = reduction.pickle.load(from_parent)",
    "EOFError: Ran out of input",
]
# Killed while the forkserver itself waited for a request: its `python -c` frame first.
WHILE_WAITING = [
    "Traceback (most recent call last):",
    '  File "<string>", line 1, in <module>',
    f'  File "{MP}/forkserver.py", line 258, in main',
    "    fds = reduction.recvfds(s, MAXFDS_TO_SEND + 1)",
    "          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    f'  File "{MP}/reduction.py", line 159, in recvfds',
    "    raise EOFError",
    "EOFError",
]
THE_BOTS = [
    "Traceback (most recent call last):",
    f'  File "{MP}/forkserver.py", line 274, in main',
    '  File "/work/main/bot/telegram/announcements.py", line 10, in _send',
    "EOFError: Ran out of input",
]


def test_the_echoes_of_a_killed_forkserver_are_recognised() -> None:
    lines = ["before", *BARE, "between", *WHILE_SPAWNING, "and", *WHILE_WAITING, "after"]
    found = killed_forkserver_lines(lines)
    assert found == set(range(1, 7)) | set(range(8, 14)) | set(range(15, 23))


def test_a_traceback_through_the_bots_code_is_not_an_echo() -> None:
    assert killed_forkserver_lines(THE_BOTS) == set()
    assert killed_forkserver_lines([*BARE[:-1], "ValueError: no"]) == set()
    # A `python -c` of anything else is not the forkserver's.
    assert killed_forkserver_lines([*WHILE_WAITING[:2], "EOFError"]) == set()
