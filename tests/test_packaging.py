"""What the Dockerfile installs is what the bot needs: the wheel carries every runtime
package with its data files (migrations, fonts, catalogues), and the image copies every
package."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNTIME_PACKAGES = ("domino", "render", "storage", "handlers", "bot", "i18n")


def test_the_wheel_carries_the_migrations_and_the_fonts(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "--wheel-dir",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for migration in (ROOT / "storage" / "migrations").glob("*.sql"):
        assert f"storage/migrations/{migration.name}" in names
    for font in (ROOT / "render" / "fonts").glob("*.ttf"):
        assert f"render/fonts/{font.name}" in names
    for page in (ROOT / "bot" / "webapp" / "static").glob("*"):  # the Mini App's page
        assert f"bot/webapp/static/{page.name}" in names
    catalogues = sorted(path.relative_to(ROOT).as_posix() for path in ROOT.glob("i18n/*/*.ftl"))
    assert catalogues and set(catalogues) <= names
    for package in RUNTIME_PACKAGES:
        assert f"{package}/__init__.py" in names
    assert not any(name.startswith("tests/") for name in names)


def test_the_dockerfile_copies_every_runtime_package() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    copied = set(re.findall(r"^COPY (\w+) \1$", dockerfile, re.MULTILINE))
    assert copied == set(RUNTIME_PACKAGES)
    assert "USER domino" in dockerfile and 'VOLUME ["/data"]' in dockerfile
