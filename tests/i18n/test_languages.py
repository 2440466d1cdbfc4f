"""The languages are the catalogue folders found: each has every key in the same files,
each parses, and a new folder is a new language with no code."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fluent.syntax import ast as fluent_ast

import i18n
from i18n import DEFAULT_LANG, Lang, catalogue_source, lang_of, languages, parse_catalogue

FOLDER = Path(i18n.__file__).resolve().parent


def keys_by_file(code: str, root: Path = FOLDER) -> dict[str, set[str]]:
    """Each .ftl file of the language's folder, with the ids of its messages and terms."""
    found: dict[str, set[str]] = {}
    for path in sorted((root / code).glob("*.ftl")):
        body = parse_catalogue(path.read_text(encoding="utf-8")).body
        found[path.name] = {
            ("-" if isinstance(entry, fluent_ast.Term) else "") + entry.id.name
            for entry in body
            if isinstance(entry, fluent_ast.Message | fluent_ast.Term)
        }
    return found


def test_the_languages_are_the_folders_found_russian_first() -> None:
    folders = {path.parent.name for path in FOLDER.glob("*/*.ftl")}
    assert set(languages()) == folders
    assert [lang.value for lang in Lang] == list(languages())
    assert languages()[0] == "ru" and DEFAULT_LANG is Lang.RU
    assert {"ru", "en"} <= folders


@pytest.mark.parametrize("lang", list(Lang))
def test_every_catalogue_parses(lang: Lang) -> None:
    assert parse_catalogue(catalogue_source(lang)).body


@pytest.mark.parametrize("lang", [lang for lang in Lang if lang is not DEFAULT_LANG])
def test_every_language_has_every_key_in_the_same_files(lang: Lang) -> None:
    """No language lacks a key of another or has one the others lack, and a key sits in
    the file of the same name everywhere, so a translator finds it where Russian has it."""
    assert keys_by_file(lang.value) == keys_by_file(DEFAULT_LANG.value)


def test_a_folder_with_catalogues_is_a_language(tmp_path: Path) -> None:
    for code in ("ru", "en", "de"):
        (tmp_path / code).mkdir()
        (tmp_path / code / "games.ftl").write_text("variant-kozel = Kozel\n", encoding="utf-8")
    (tmp_path / "drafts").mkdir()  # no catalogue in it: not a language
    (tmp_path / "README.md").write_text("notes\n", encoding="utf-8")
    assert languages(tmp_path) == ("ru", "de", "en")


@pytest.mark.parametrize(
    ("code", "lang"),
    [(None, Lang.RU), ("", Lang.RU), ("uk", Lang.RU), ("en-US", Lang.EN), ("en_GB", Lang.EN)],
)
def test_a_person_gets_the_folder_of_their_code_else_russian(code: str | None, lang: Lang) -> None:
    assert lang_of(code) is lang


def test_a_third_language_is_a_new_folder_and_no_code(tmp_path: Path) -> None:
    """A copy of the package with a German folder (the English files, one text changed):
    the bot's languages, a German person's language and the texts follow it."""
    copy = tmp_path / "i18n"
    shutil.copytree(FOLDER, copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(copy / "en", copy / "de")
    games = copy / "de" / "games.ftl"
    english = games.read_text(encoding="utf-8")
    assert "variant-classic = Classic\n" in english
    games.write_text(english.replace("variant-classic = Classic", "variant-classic = Klassik"))
    script = (
        "from i18n import Lang, lang_of, t; "
        "print([lang.value for lang in Lang], lang_of('de-AT').value, "
        "t('variant.classic', Lang('de')), t('variant.classic', lang_of('en')))"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    shown = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=tmp_path,
    )
    assert shown.stdout.split() == ["['ru',", "'de',", "'en']", "de", "Klassik", "Classic"]
