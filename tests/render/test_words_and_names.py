"""What the pictures write: every word in the group's language, taken from the
catalogues, and every name drawn, emoji included, never an empty one.

The words are checked where they are drawn: every string handed to Pillow's text
drawing is recorded while whole matches of every game are drawn in English, table and
score sheet, move by move; none may hold a Cyrillic letter. The emoji are checked by
their pixels: a name drawn alone differs from a blank, exactly where the emoji is.
"""

from __future__ import annotations

import ast
import io
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fluent.syntax import ast as fluent_ast
from PIL import Image

from domino.match import Match
from domino.players import GreedyPlayer, RandomPlayer
from domino.rules import KOZEL, GameVariant
from domino.variants import VARIANTS, find_variant
from domino.views import MatchView
from i18n import Lang, catalogue_source, parse_catalogue, t
from render import (
    SCORES_SIZE,
    TABLE_SIZE,
    draw,
    labels,
    render_round_end,
    render_scores,
    render_table,
    text,
)

CYRILLIC = re.compile(r"[\u0400-\u04ff]")
ENGLISH_NAMES = ("Alice", "Bob", "Carol", "Dave")


def whole_match(key: str, players: int, seed: int) -> Iterator[Match]:
    """A seeded match of `key`, yielded after every move (and before the first)."""
    match = Match.new(find_variant(key).ruleset, players, seed=seed)
    rng = random.Random(seed)
    player = RandomPlayer(rng) if seed % 2 else GreedyPlayer()
    yield match
    while not match.over:
        seat = match.turn
        assert seat is not None
        match.apply(player.choose(match.view(seat)), seat)
        yield match


def variants_and_sizes() -> list[tuple[str, int]]:
    cases = []
    for variant in VARIANTS:
        key = variant.key.value
        for players in (2, 3, 4):
            try:
                Match.new(variant.ruleset, players, seed=0)
            except ValueError:
                continue
            cases.append((key, players))
    return cases


@pytest.mark.parametrize(("key", "players"), variants_and_sizes())
def test_an_english_picture_draws_no_russian_word(drawn: list[str], key: str, players: int) -> None:
    """Every picture kind along a whole match: the empty table, turned tiles (S-2),
    moves (every 15th), went out or fish, the eggs, the score sheet of each round and
    its end with the hands laid open, the match's end with its loser or winner."""
    names = ENGLISH_NAMES[:players]
    rounds = 0
    for moves, match in enumerate(whole_match(key, players, seed=players)):
        view = match.view(None)
        start = not view.round.layout.placements
        if start or view.round.outcome is not None or view.over or moves % 15 == 0:
            render_table(view, names, "en")
        if len(view.results) > rounds or view.over:
            rounds = len(view.results)
            render_scores(view, names, None, "en")
            if rounds:  # the round's end, its hands laid open
                render_round_end(view, names, match.ended_round(rounds), view.results[-1], "en")
    render_scores(match.view(None), names, match.view(None).results[0], "en")
    assert drawn, "nothing was recorded: the pictures no longer draw through ImageDraw.text"
    russian = sorted({label for label in drawn if CYRILLIC.search(label)})
    assert not russian, f"Russian drawn on English pictures of {key}: {russian}"


def picture_keys() -> list[str]:
    """The pictures' words in the catalogue, as `labels.word` names them."""
    return sorted(
        entry.id.name.removeprefix("picture-").replace("-", ".")
        for entry in parse_catalogue(catalogue_source(Lang.RU)).body
        if isinstance(entry, fluent_ast.Message) and entry.id.name.startswith("picture-")
    )


@pytest.mark.parametrize("game", [game.key.value for game in VARIANTS])
def test_every_picture_word_has_an_english_form_without_russian_letters(game: str) -> None:
    """The words a picture may draw but a given match may not reach (eggs, a drawn
    round, too few to write), checked in the catalogue itself, as each game says them."""
    values = {
        "n": 3,
        "name": "Bob",
        "names": "Bob",
        "game": game,
        "target": 101,
        "score": 104,
        "verb": labels.word("reaches", "en"),
    }
    keys = picture_keys()
    assert {f"game.{game.key.value}" for game in VARIANTS} <= set(keys)  # every game's name
    for key in keys:
        assert not CYRILLIC.search(labels.word(key, "en", **values)), key


@pytest.mark.parametrize("game", VARIANTS, ids=lambda game: game.key.value)
def test_a_blocked_round_is_a_block_in_english_where_the_game_scores_in_play(
    game: GameVariant,
) -> None:
    """The catalogue chooses by the game's key; the game says whether it scores in play."""
    view = played_view(game)
    said = labels.game_word(view, "fisherman", "en")
    assert said == ("block" if game.scores_in_play else "fisherman")
    assert labels.game_word(view, "fish_of", "en", name="Bob").startswith(said[:4])
    assert labels.game_word(view, "fisherman", "ru") == "рыбак"


@pytest.mark.parametrize("game", VARIANTS, ids=lambda game: game.key.value)
def test_the_pictures_name_a_game_from_the_catalogue(game: GameVariant) -> None:
    """In Russian as the bot's texts name it; in English without the bot's gloss."""
    view = played_view(game)
    assert labels.variant_name(view, "ru") == t(game.name_key, Lang.RU)
    assert labels.variant_name(view, "en") in t(game.name_key, Lang.EN)


def played_view(game: GameVariant) -> MatchView:
    return Match.new(game.ruleset, 4 if game.key.value == "sport" else 2, seed=1).view(None)


def string_literals(path: Path) -> Iterator[tuple[int, str]]:
    """Each string literal of a module with its line, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        is_text = isinstance(node, ast.Constant) and isinstance(node.value, str)
        if is_text and id(node) not in docstrings:
            yield node.lineno, node.value


def test_the_pictures_take_their_words_from_the_catalogues() -> None:
    """No Russian word is written in render/'s code: a picture's words are texts of the
    catalogues (comments and docstrings may quote them; `render.samples` has players'
    names, not words)."""
    root = Path(labels.__file__).resolve().parent
    found = [
        f"{path.name}:{line}: {literal!r}"
        for path in sorted(root.glob("*.py"))
        if path.name != "samples.py"
        for line, literal in string_literals(path)
        if CYRILLIC.search(literal)
    ]
    assert found == []


# ------------------------------------------------------------------ names with emoji


def name_alone(name: str, size: int = 28) -> Image.Image:
    """`name` written by `draw.write` on a blank canvas, as the card's name is."""
    canvas = Image.new("RGB", (900, 60), draw.PANEL)
    draw.write(draw.Pen(canvas), (10, 10), name, size, draw.INK, bold=True, max_width=880)
    return canvas


def blank() -> Image.Image:
    return Image.new("RGB", (900, 60), draw.PANEL)


def changed_columns(image: Image.Image) -> list[int]:
    """The x of every column that differs from the blank canvas."""
    return [
        x
        for x in range(image.width)
        if any(image.getpixel((x, y)) != draw.PANEL for y in range(image.height))
    ]


@pytest.mark.parametrize("name", ["🦊🦊🦊", "🐐", "🎲"])
def test_an_emoji_only_name_draws_coloured_glyphs(name: str) -> None:
    image = name_alone(name)
    assert image.tobytes() != blank().tobytes()
    columns = changed_columns(image)
    width = text.emoji_size(28)[0] * len(name)
    # The drawing spans the emoji's whole width, not a dot: every emoji has ink.
    assert columns[0] <= 10 + width // (2 * len(name)) and columns[-1] >= 10 + width // 2
    colours = {image.getpixel((x, y)) for x in columns for y in range(image.height)}
    greys = {c for c in colours if isinstance(c, tuple) and max(c) - min(c) < 24}
    assert len(colours - greys) > 10, "the emoji are not in colour"


def test_a_name_with_emoji_draws_them_after_the_letters() -> None:
    letters = name_alone("Борис")
    both = name_alone("Борис 🎲🐐")
    letters_end = changed_columns(letters)[-1]
    after = [x for x in changed_columns(both) if x > letters_end + 4]
    assert len(after) >= text.emoji_size(28)[0], "nothing drawn where «🎲🐐» is"
    # The letters themselves are drawn the same with or without the emoji after them.
    box = (0, 0, letters_end + 1, 60)
    assert letters.crop(box).tobytes() == both.crop(box).tobytes()


def test_a_cut_name_keeps_its_emoji_within_the_width() -> None:
    name = "🦊" * 60
    shown = text.fit(name, 28, 300, bold=True)
    assert shown.endswith(text.ELLIPSIS) and "🦊" in shown
    assert text.width(shown, 28, bold=True) <= 300


@pytest.mark.parametrize("lang", list(Lang))
@pytest.mark.parametrize("name", ["", "   ", "\u200b\u200d", "\ufe0f", "\x00\x01"])
def test_a_name_with_nothing_to_draw_becomes_player_n(name: str, lang: str) -> None:
    names = ["Alice", name, "Carol"]
    shown = labels.shown_names(names, lang)
    assert shown == ["Alice", labels.word("player_n", lang, n=2), "Carol"]
    assert shown[1] == ("Игрок 2" if lang == "ru" else "Player 2")


def test_an_emoji_only_name_is_kept_as_it_is() -> None:
    assert labels.shown_names(["🦊🦊🦊", "Борис 🎲🐐"]) == ["🦊🦊🦊", "Борис 🎲🐐"]


def test_no_seat_card_turn_line_or_score_row_is_drawn_without_a_name(
    drawn: list[str],
) -> None:
    """A name of nothing drawable, on the seat to move, on the table and the score
    sheet: the card, the status line and the row say «Игрок N»; «🦊🦊🦊» is drawn."""
    match = Match.new(find_variant("kozel").ruleset, 3, seed=5)
    view = match.view(None)
    turn = view.round.turn
    assert turn is not None
    names = ["🦊🦊🦊", "Борис 🎲🐐", "Алиса"]
    names[turn] = "\u200b"
    player = f"Игрок {turn + 1}"
    png = render_table(view, names, "ru")
    assert Image.open(io.BytesIO(png)).size == TABLE_SIZE
    assert f"ход: {player}" in drawn  # the status line
    assert drawn.count(player) == 1  # the seat's card
    assert not [label for label in drawn if label.strip() in ("", "ход:")]
    drawn.clear()
    png = render_scores(view, names, None, "ru")
    assert Image.open(io.BytesIO(png)).size == SCORES_SIZE
    assert player in drawn  # the score row
    assert not [label for label in drawn if not label.strip()]


def test_a_picture_with_emoji_keeps_the_fixed_colours_exact() -> None:
    """The palette gains the emoji's colours in its free entries; the UI's own colours
    stay exact (the structural tests look for them)."""
    match = Match.new(find_variant("kozel").ruleset, 4, seed=1)
    png = render_table(match.view(None), ["🦊🦊🦊", "Борис 🎲🐐", "Alice", "Bob"])
    image = Image.open(io.BytesIO(png)).convert("RGB")
    found = image.getcolors(maxcolors=1 << 16)
    assert found is not None
    present = {colour for _, colour in found}
    for colour in (draw.BACKGROUND, draw.PANEL, draw.FELT, draw.INK):
        assert colour in present


def test_a_long_name_on_a_card_of_four_is_drawn_smaller_before_it_is_cut(
    drawn: list[str],
) -> None:
    """«🤖 Компьютер 1» fits a card of four whole at a smaller size (it was «Компью…»); a
    name too long even at the smallest size is still cut to the card."""
    names = ("Алиса", "Боб", "🤖 Компьютер 1", "Константин Константинопольский")
    render_table(Match.new(KOZEL, 4, seed=3).view(None), names, "ru")
    assert any(label.endswith("Компьютер 1") for label in drawn), drawn
    assert not any("Компью…" in label for label in drawn)
    assert any(label.startswith("Константин") and label.endswith("…") for label in drawn)


def test_names_on_a_card_of_four_stay_whole_beside_the_turned_tiles(drawn: list[str]) -> None:
    """S-2: before the first tile of Спортивное the turned tiles lie on the felt, so four
    computers' names on cards of four are drawn whole, not «🤖 Комп… 1»."""
    names = tuple(f"🤖 Компьютер {n}" for n in range(1, 5))
    view = Match.new(find_variant("sport").ruleset, 4, seed=11).view(None)
    assert view.round.turned and not view.round.layout.placements
    render_table(view, names, "ru")
    for n in range(1, 5):
        assert any(label.endswith(f"Компьютер {n}") for label in drawn), drawn
    assert not any("…" in label for label in drawn), drawn
