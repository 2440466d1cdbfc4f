"""The docs stay true to the tree: README.md is a front page under 15 KB, and
docs/ holds the rest. Any file map there is checked by a test or not kept: this is the
test.

- Every relative link in README.md and docs/*.md reaches a file of the repository, and
  every `#anchor` a heading of the file it points into, by GitHub's rules for anchors
  (lower case, spaces to hyphens, punctuation dropped, letters of any script kept, a
  repeated heading numbered `-1`, `-2`).
- Every path of this repository the docs name in backticks (`bot/telegram/callbacks.py`,
  `tests/e2e/harness.py`, `i18n/*/*.ftl`) or in a code block exists, and so does
  every module they name by its dotted name (`storage.db.retrying`: `storage/db.py`). A
  file named bare (`tiles.py` in the row of `domino/`, `osel.py` after
  `domino/sea_kozel.py`) must be in a folder named in the same paragraph or table row.
  A file moved or renamed fails here until the docs follow it.
- Every file of docs/ is linked from the front page.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
README_LIMIT = 15_000  # bytes
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]

# A word in code is taken for a path of this repository when it starts with one of its
# own folders and a slash, or is one of its top-level files.
SOURCE_ROOTS = (
    "domino",
    "bot",
    "render",
    "storage",
    "handlers",
    "i18n",
    "tests",
    "bench",
    "deploy",
    "docs",
    ".ci",
)
TOP_FILES = ("tasks.py", "pyproject.toml", "Dockerfile", "README.md", ".gitignore", ".dockerignore")
# Named by the docs, made by whoever deploys (git ignores them): not in the repository.
NOT_IN_REPO = {"deploy/.env", "deploy/certs"}
PACKAGES = ("domino", "bot", "render", "storage", "handlers", "i18n", "tests", "bench")
# A dotted word ending so is a file's name (`domino.dump`), not a module's.
FILE_SUFFIXES = (
    ".py",
    ".md",
    ".toml",
    ".yml",
    ".yaml",
    ".sql",
    ".ftl",
    ".txt",
    ".json",
    ".conf",
    ".example",
    ".ttf",
    ".js",
    ".html",
    ".css",
    ".sqlite3",
    ".dump",
    ".pem",
    ".png",
)

LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
DOTTED = re.compile(rf"^(?:{'|'.join(PACKAGES)})(?:\.[A-Za-z_]\w*)+$")
STRIP = "\"'`()[],;:«»"


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def split_fences(text: str) -> tuple[str, list[tuple[int, str]]]:
    """The text with fenced code blocks blanked (lines kept, so line numbers hold), and
    the lines of those blocks with their numbers."""
    prose: list[str] = []
    code: list[tuple[int, str]] = []
    fence = ""
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.lstrip()
        marker = re.match(r"(`{3,}|~{3,})", stripped)
        if fence:
            if marker and marker.group(1).startswith(fence):
                fence = ""
            else:
                code.append((number, line))
            prose.append("")
        elif marker:
            fence = marker.group(1)
            prose.append("")
        else:
            prose.append(line)
    return "\n".join(prose), code


def line_of(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def slug(heading: str) -> str:
    """GitHub's anchor for a heading (github-slugger): the rendered text in lower case,
    every character but letters, marks, digits, `-`, `_` and spaces dropped (so emoji,
    `·`, `«»`, `(`, `:` and `+` go; Cyrillic stays), then each space a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = text.replace("`", "").replace("*", "").strip().lower()
    kept = "".join(c for c in text if c in "-_ " or unicodedata.category(c)[0] in ("L", "M", "N"))
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    prose, _ = split_fences(path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    found: set[str] = set()
    for line in prose.split("\n"):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path: Path) -> Iterator[tuple[int, str]]:
    """(line, target) of each Markdown link outside code."""
    prose, _ = split_fences(path.read_text(encoding="utf-8"))
    # Blank the code spans, keeping their length, so positions still give lines.
    prose = CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), prose)
    for match in LINK.finditer(prose):
        yield line_of(prose, match.start()), match.group(1)


def code_words(path: Path) -> Iterator[tuple[int, str]]:
    """(line, word) of each word in inline code and in code blocks."""
    text = path.read_text(encoding="utf-8")
    prose, code = split_fences(text)
    for match in CODE_SPAN.finditer(prose):
        start = match.start(2)
        for found in re.finditer(r"\S+", match.group(2)):
            yield line_of(prose, start + found.start()), found.group(0)
    for number, line in code:
        for word in line.split():
            yield number, word


def blocks(path: Path) -> Iterator[tuple[int, str]]:
    """(first line, text) of each paragraph outside code blocks; a table row is one."""
    prose, _ = split_fences(path.read_text(encoding="utf-8"))
    start, lines = 0, list[str]()
    for number, line in enumerate([*prose.split("\n"), ""], start=1):
        row = line.lstrip().startswith("|")
        if lines and (not line.strip() or row):
            yield start, "\n".join(lines)
            start, lines = 0, []
        if row:
            yield number, line
        elif line.strip():
            start = start or number
            lines.append(line)


def bare_file(word: str) -> str | None:
    """A file's name without its folder (`tiles.py`), or None."""
    word = word.strip(STRIP).rstrip(".")
    if word in TOP_FILES or not re.fullmatch(r"[\w-]+\.[a-z]+", word):
        return None
    return word if word.endswith(FILE_SUFFIXES) else None


def repo_path(word: str) -> str | None:
    """The word as a path of this repository, or None if it does not look like one."""
    word = word.strip(STRIP)
    if word.endswith(".") and not word.endswith("/."):
        word = word.rstrip(".")
    if word in TOP_FILES:
        return word
    first, slash, _ = word.partition("/")
    if slash and first in SOURCE_ROOTS and re.fullmatch(r"[\w./*-]+", word):
        return word
    return None


def module_path(word: str) -> str | None:
    """A dotted name of ours (`bot.infra.perf.log_memory`) as the deepest module or package
    of the repository it names (`bot/infra/perf`; its first two parts if none of its
    prefixes is one), or None if the word is not one."""
    word = word.strip(STRIP).rstrip(".")
    if not DOTTED.match(word) or word.endswith(FILE_SUFFIXES):
        return None
    parts = word.split(".")
    for length in range(len(parts), 2, -1):
        path = "/".join(parts[:length])
        if (ROOT / path).is_dir() or (ROOT / f"{path}.py").is_file():
            return path
    return "/".join(parts[:2])


def exists(path: str) -> bool:
    if "*" in path:
        return any(ROOT.glob(path))
    return (ROOT / path).exists()


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        (
            "Set-up (a fresh machine with Python 3.11+, nothing else)",
            "set-up-a-fresh-machine-with-python-311-nothing-else",
        ),
        (
            "Домино-бот · Domino bot for Telegram groups",
            "домино-бот--domino-bot-for-telegram-groups",
        ),
        ("Для игроков (how to play)", "для-игроков-how-to-play"),
        ("The ladder: measuring computer players", "the-ladder-measuring-computer-players"),
        ("Groups' own settings and computer levels", "groups-own-settings-and-computer-levels"),
        ("K. Козёл (Goat): the default variant", "k-козёл-goat-the-default-variant"),
        ("`tasks.py` and 🐟 fish", "taskspy-and--fish"),
    ],
)
def test_anchors_are_githubs(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor


def test_a_repeated_heading_is_numbered(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# A\n\n## Notes\n\n```sh\n# not a heading\n```\n\n## Notes\n", encoding="utf-8"
    )
    assert anchors(page) == {"a", "notes", "notes-1"}


def test_what_counts_as_a_path_of_the_repository() -> None:
    assert repo_path("bot/telegram/callbacks.py") == "bot/telegram/callbacks.py"
    assert repo_path("(`tests/e2e/harness.py`),") == "tests/e2e/harness.py"
    assert repo_path("tasks.py") == "tasks.py"
    for word in (
        "osel.py",
        "seeds/002",
        "data/domino.sqlite3",
        ".venv/bin/python",
        "../shared/seeds/",
        "/data",
        "https://bot.example.org/telegram",
    ):
        assert repo_path(word) is None, word
    assert module_path("storage.db.retrying") == "storage/db"
    assert module_path("bot.app.thinker") == "bot/app/thinker"
    for word in ("Match.view(seat)", "bot.py", "domino_bot", "domino.dump"):
        assert module_path(word) is None, word


def test_the_front_page_is_small() -> None:
    size = len(README.read_bytes())
    assert size < README_LIMIT, (
        f"README.md is {size:,} bytes; the front page says what the bot is and how to "
        f"start it, under {README_LIMIT:,}: move the rest into docs/"
    )


def test_every_doc_is_linked_from_the_front_page() -> None:
    linked = {
        (README.parent / target.partition("#")[0]).resolve()
        for _, target in links(README)
        if not SCHEME.match(target)
    }
    missing = [rel(doc) for doc in DOCS[1:] if doc.resolve() not in linked]
    assert not missing, f"README.md links none of {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=rel)
def test_links_reach_a_file_and_a_heading(doc: Path) -> None:
    broken: list[str] = []
    for number, target in links(doc):
        if SCHEME.match(target) or target.startswith("//"):
            continue  # a web address: not ours to check here
        file_part, _, anchor = target.partition("#")
        goal = (doc.parent / file_part).resolve() if file_part else doc
        where = f"{rel(doc)}:{number}: ({target})"
        if not goal.exists() or not goal.is_relative_to(ROOT):
            broken.append(f"{where}: no file {file_part}")
        elif anchor and (goal.suffix != ".md" or anchor not in anchors(goal)):
            broken.append(f"{where}: {rel(goal)} has no heading #{anchor}")
    assert not broken, "links that go nowhere:\n" + "\n".join(broken)


@pytest.mark.parametrize("doc", DOCS, ids=rel)
def test_the_paths_named_exist(doc: Path) -> None:
    missing: list[str] = []
    for number, word in code_words(doc):
        path = repo_path(word)
        if path is not None:
            if path.rstrip("/") not in NOT_IN_REPO and not exists(path):
                missing.append(f"{rel(doc)}:{number}: {path}")
            continue
        module = module_path(word)
        if module is not None and not (exists(f"{module}.py") or exists(module)):
            missing.append(f"{rel(doc)}:{number}: {word} (no {module}.py)")
    assert not missing, "the docs name what the tree does not hold:\n" + "\n".join(missing)


@pytest.mark.parametrize("doc", DOCS, ids=rel)
def test_files_named_bare_are_in_a_folder_named_beside_them(doc: Path) -> None:
    missing: list[str] = []
    for number, block in blocks(doc):
        words = [m.group(2) for m in CODE_SPAN.finditer(block)]
        folders: set[str] = set()
        for word in " ".join(words).split():
            path = repo_path(word)
            if path is not None:
                whole = "*" not in path and (ROOT / path).is_dir()
                folders.add(path.rstrip("/") if whole else Path(path).parent.as_posix())
        for word in words:
            name = bare_file(word)
            if name and folders and not any((ROOT / f / name).exists() for f in folders):
                missing.append(f"{rel(doc)}:{number}: {name} (in none of {sorted(folders)})")
    assert not missing, "files named bare that no folder beside them holds:\n" + "\n".join(missing)


def packages_to_map() -> list[str]:
    """The packages the developers' layout must have a row for: the top-level ones of
    the code (bot itself by its parts) and the engine's own."""
    top = ("domino", "render", "i18n", "storage", "handlers")
    parts = [
        f"{parent}/{folder.name}"
        for parent in ("bot", "domino")
        for folder in sorted((ROOT / parent).iterdir())
        if (folder / "__init__.py").is_file()
    ]
    return [*top, *parts]


def test_the_layout_has_a_row_for_every_package() -> None:
    text = (ROOT / "docs" / "developers.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([\w/]+)/` \|", text, re.MULTILINE))
    assert {"bot/app", "bot/telegram", "domino/ai"} <= set(packages_to_map())
    assert sorted(set(packages_to_map()) - rows) == []
