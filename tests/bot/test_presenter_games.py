"""What the group reads of every game, by value: the loser in the game's own
word or the winner, the scores best first, «голый козёл», «пас», several doubles at
once, closed ends, the turned tiles, a drawn fish, /rules paged by game; and every game
having the texts the bot builds from its key."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from bot.telegram import presenter
from bot.telegram.callbacks import RulesCb
from bot.telegram.presenter.common import tile_label
from bot.telegram.presenter.hand import hand_text, opening_tile, tile_refusal
from domino.actions import Event, Knocked, Play, Played
from domino.geometry import End
from domino.layout import new_layout
from domino.match import Match
from domino.players import RandomPlayer
from domino.rules import LayoutKind
from domino.tiles import Tile
from domino.variants import VARIANTS, find_variant
from domino.views import Account, MatchView, OutcomeKind, RoundOutcome, RoundResult
from i18n import Lang, t

NAMES = ("Маша", "Олег <3", "Вика", "Дима")
KEYS = [game.key.value for game in VARIANTS]


def view_of(
    key: str,
    *,
    players: int = 2,
    scores: Sequence[Account] | None = None,
    losers: Sequence[int] = (),
    winners: Sequence[int] = (),
    history: Sequence[Event] = (),
) -> MatchView:
    """The public view of a fresh match of `key`, with scores, an end and moves put in."""
    view = Match.new(find_variant(key).ruleset, players, seed=1).view(None)
    rnd = dataclasses.replace(view.round, history=tuple(history))
    return dataclasses.replace(
        view,
        round=rnd,
        scores=tuple(scores) if scores is not None else view.scores,
        over=bool(losers or winners),
        losers=tuple(losers),
        winners=tuple(winners),
    )


def test_osel_names_its_osel_and_lists_the_scores_lowest_first() -> None:
    view = view_of(
        "osel",
        players=3,
        scores=(Account(40, 0, True), Account(131, 0, True), Account(7)),
        losers=(1,),
    )
    assert presenter.match_end_text(view, NAMES, Lang.RU) == (
        "🐴 Осёл — Олег &lt;3\nВика: 7\nМаша: 40\nОлег &lt;3: 131"
    )
    assert presenter.match_end_text(view, NAMES, Lang.EN).startswith("🐴 The donkey is Олег &lt;3")


def test_sport_names_the_winning_pair_first_and_its_score_first() -> None:
    view = view_of("sport", players=4, scores=(Account(96), Account(214)), winners=(1,))
    assert presenter.match_end_text(view, NAMES, Lang.RU) == (
        "🏆 Победа — Олег &lt;3 + Дима\nОлег &lt;3 + Дима: 214\nМаша + Вика: 96"
    )


def naked_goat() -> Match:
    """A seeded Морской козёл match that its last round's winner won by going out with
    0-0 as the last tile (M-4)."""
    match = Match.new(find_variant("sea_kozel").ruleset, 2, seed=4)
    player = RandomPlayer(random.Random(4))
    while not match.over:
        seat = match.turn
        assert seat is not None
        match.apply(player.choose(match.view(seat)), seat)
    return match


def test_going_out_on_the_blank_double_in_sea_kozel_is_the_naked_goat() -> None:
    match = naked_goat()
    last = match.finished_round
    assert last is not None and isinstance(last.history[-1], Played)
    assert last.history[-1].tile == Tile.parse("0-0")
    assert match.won_by_last_tile()
    view = match.view(None)
    text = presenter.match_end_text(view, NAMES[:2], Lang.RU, last_tile_won=True)
    winner = NAMES[view.results[-1].outcome.seat].replace("<", "&lt;")
    first, second, *_ = text.split("\n")
    assert first == f"🐐 Голый козёл! {winner}: домино пустышкой — и партия выиграна сразу."
    assert second.startswith("🏆 Победа — ")
    assert "0-0" not in text  # no tile is ever written in the group


@pytest.mark.parametrize("key", KEYS)
def test_a_match_won_otherwise_is_no_naked_goat(key: str) -> None:
    players = 4 if key == "sport" else 2
    match = Match.new(find_variant(key).ruleset, players, seed=2)
    player = RandomPlayer(random.Random(2))
    while not match.over:
        seat = match.turn
        assert seat is not None
        match.apply(player.choose(match.view(seat)), seat)
    last = match.finished_round
    assert last is not None
    ended_on_blank = isinstance(last.history[-1], Played) and last.history[-1].tile == Tile.parse(
        "0-0"
    )
    assert match.won_by_last_tile() == (key == "sea_kozel" and ended_on_blank)


def test_sport_caption_shows_who_leads_by_the_turned_tiles_no_bazaar_and_passes() -> None:
    match = Match.new(find_variant("sport").ruleset, 4, seed=3)
    view = match.view(None)
    leader = view.round.turn
    assert leader is not None and view.round.turned
    caption = presenter.table_caption(view, NAMES, Lang.RU)
    lead = NAMES[leader].replace("<", "&lt;")
    assert f"🎴 Кто ходит первым, решили открытые кости (они на картинке): ходит {lead}." in caption
    assert "базар" not in caption
    passed = dataclasses.replace(view.round, history=(Knocked(1),), turned=())
    caption = presenter.table_caption(dataclasses.replace(view, round=passed), NAMES, Lang.RU)
    assert caption.endswith("Олег &lt;3: пас") and "открытые кости" not in caption
    assert "пара Маша + Вика: 0" in caption


def test_several_doubles_at_once_are_one_move_and_closed_ends_are_counted() -> None:
    layout = new_layout(LayoutKind.SPINNER)
    for tile, end, closed in (
        ("3-3", None, False),
        ("3-5", End.LEFT, False),
        ("1-3", End.RIGHT, False),
        ("5-5", End.LEFT, True),
    ):
        layout.place(Tile.parse(tile), end, closed=closed)
    history = (
        Played(0, Tile.parse("3-3"), None),
        Played(1, Tile.parse("3-5"), End.LEFT),
        Played(1, Tile.parse("1-3"), End.RIGHT),
    )
    view = view_of("osel", history=history)
    view = dataclasses.replace(view, round=dataclasses.replace(view.round, layout=layout.view()))
    caption = presenter.table_caption(view, NAMES[:2], Lang.RU)
    assert "🔒 закрыт 1 конец" in caption
    assert caption.endswith("Последние ходы: Маша кладёт кость → Олег &lt;3 кладёт 2 дубля")
    assert "Олег <3 lays 2 doubles".replace("<", "&lt;") in presenter.table_caption(
        view, NAMES[:2], Lang.EN
    )


def test_a_drawn_fish_is_announced_as_a_draw() -> None:
    view = view_of("sport", players=4)
    outcome = RoundOutcome(OutcomeKind.FISH, 2, (10, 5, 3, 8))
    before = (Account(0, 0, True), Account(0, 0, True))
    drawn = RoundResult(1, outcome, before, (0, 0), before, 0, 0, None)
    assert presenter.round_end_text(view, drawn, NAMES, Lang.RU) == (
        "🐟 Раунд 1: рыба! Рыбак — Вика.\n🤝 Ничья: очков никто не записывает."
    )
    scored = dataclasses.replace(drawn, points=(26, 0))
    assert "Ничья" not in presenter.round_end_text(view, scored, NAMES, Lang.RU)


def test_a_sea_kozel_winner_with_too_little_is_told_so_not_a_draw() -> None:
    view = view_of("sea_kozel")
    outcome = RoundOutcome(OutcomeKind.FISH, 0, (10, 6))
    before = (Account(0, 0, True), Account(0, 0, True))
    small = RoundResult(19, outcome, before, (0, 0), before, 0, 0, None)
    assert presenter.round_end_text(view, small, NAMES, Lang.RU) == (
        "🐟 Раунд 19: рыба! Рыбак — Маша.\n✍️ Выигрыш меньше 25 очков не записывается."
    )
    tied = dataclasses.replace(small, eggs_after=16)  # M-5: a tied fish makes eggs
    text = presenter.round_end_text(view, tied, NAMES, Lang.RU)
    assert "Выигрыш" not in text and "Ничья" not in text and "16 очков" in text


@pytest.mark.parametrize("lang", list(Lang))
@pytest.mark.parametrize("key", KEYS)
def test_every_game_has_the_texts_built_from_its_key(key: str, lang: Lang) -> None:
    """A game's name, rules, knock and abandoned-match loser are texts named by its key;
    the match's loser too where points are bad."""
    game = find_variant(key)
    assert t(game.name_key, lang)
    assert str(game.ruleset.target) in t(game.rules_key, lang, target=game.ruleset.target)
    assert "Маша" in t(f"event.knocked.{key}", lang, name="Маша")
    assert "Маша" in t(f"loser.{key}", lang, names="Маша")
    if game.points_are_bad:
        assert "Маша" in t(f"announce.loser.{key}", lang, names="Маша")


def test_no_game_but_kozel_and_osel_calls_anyone_a_goat_or_a_donkey() -> None:
    for game in VARIANTS:
        text = t(f"loser.{game.key.value}", Lang.RU, names="Маша")
        assert ("🐐" in text or "🐴" in text) == game.points_are_bad


def test_rules_page_through_every_game_with_the_shown_one_marked() -> None:
    osel = find_variant("osel").ruleset.with_options(target=101)
    keyboard = presenter.rules_keyboard(osel, Lang.RU)
    buttons = [button for row in keyboard.inline_keyboard for button in row]
    assert [b.text for b in buttons] == [
        "Козёл",
        "Классика",
        "Морской козёл",
        "📖 Осёл",
        "Спортивное",
        "Пятёрки",
        "Тройки и пятёрки",
        "Берген",
        "Дубли",
        "Блиц",
        "Крест",
        "Шестёрка",
        "Втемную",
    ]
    assert [RulesCb.unpack(b.callback_data or "").game for b in buttons] == KEYS
    assert {RulesCb.unpack(b.callback_data or "").lang for b in buttons} == {"ru"}
    assert all(len(row) <= 3 for row in keyboard.inline_keyboard)
    text = presenter.rules_text(osel, Lang.RU)
    assert text.startswith("<b>Осёл</b> — кто первым наберёт 101 очко, тот и осёл.")
    assert "K-" not in text and "O-" not in text  # no rule ids for players


# --- the first round's fixed opening (K-3, T-2, B-1) ---------------------------------------


def opening_view(key: str) -> tuple[MatchView, Tile]:
    """The first leader's view of a seeded first round of `key` that opens with a double,
    and that double: the only tile the leader may lay."""
    for seed in range(20):
        match = Match.new(find_variant(key).ruleset, 2, seed=seed)
        leader = match.turn
        assert leader is not None
        view = match.view(leader)
        plays = [action for action in view.round.legal if isinstance(action, Play)]
        if len(plays) == 1 and plays[0].tile.is_double:
            return view, plays[0].tile
    raise AssertionError(f"no {key} round of 20 opened by a double")


@pytest.mark.parametrize(
    ("key", "ru", "en"),
    [
        (
            "bergen",
            "Первый ход — самым младшим дублем: {}.",
            "The first move is the lowest double: {}.",
        ),
        (
            "dubli",
            "Первый ход — самым младшим дублем: {}.",
            "The first move is the lowest double: {}.",
        ),
        (
            "classic",
            "Первый ход — самым старшим дублем: {}.",
            "The first move is the highest double: {}.",
        ),
        (
            "kozel",
            "Первый ход — самым младшим дублем (дубль-пусто — последним): {}.",
            "The first move is the lowest double (the double blank comes last): {}.",
        ),
    ],
)
def test_a_tile_pressed_before_the_opening_double_is_told_which_opens_and_why(
    key: str, ru: str, en: str
) -> None:
    """The first round opens with a given double (B-1: the lowest, from 0|0): another
    tile pressed is refused with the reason in the players' words, which the hand also
    says over an empty table, not only «this tile does not fit»."""
    view, tile = opening_view(key)
    label = tile_label(tile)
    assert tile_refusal(view, Lang.RU) == ru.format(label)
    assert tile_refusal(view, Lang.EN) == en.format(label)
    assert f"\nСтол пуст. {ru.format(label)}\n" in hand_text(view, NAMES, "Двор", Lang.RU)


def test_with_no_double_dealt_bergen_opens_with_the_lowest_tile() -> None:
    view, _ = opening_view("bergen")
    low, other = Tile.parse("1-2"), Tile.parse("3-4")
    rnd = dataclasses.replace(view.round, hand=(low, other), legal=(Play(low),))
    no_doubles = dataclasses.replace(view, round=rnd)
    assert tile_refusal(no_doubles, Lang.RU) == (
        "Дублей ни у кого нет: первый ход — самой младшей костью, 1|2."
    )
    assert tile_refusal(no_doubles, Lang.EN) == (
        "Nobody has a double: the first move is the lowest tile, 1|2."
    )


def test_where_any_tile_may_be_played_a_pressed_tile_just_does_not_fit() -> None:
    """All Fives' first leader (by lot) opens with any tile, later rounds' leaders too,
    and on a laid table only the ends decide: no opening is named."""
    fives = Match.new(find_variant("all_fives").ruleset, 2, seed=1)
    assert fives.turn is not None
    view = fives.view(fives.turn)
    assert opening_tile(view) is None
    assert tile_refusal(view, Lang.RU) == "Эта кость сейчас не подходит: отмеченные ✅ — подходят."
    assert hand_text(view, NAMES, "Двор", Lang.RU).count("\nСтол пуст.\n") == 1
    bergen = Match.new(find_variant("bergen").ruleset, 2, seed=1)
    leader = bergen.turn
    assert leader is not None
    bergen.apply(bergen.legal_actions()[0], leader)
    later = bergen.view(bergen.turn) if bergen.turn is not None else bergen.view(0)
    assert opening_tile(later) is None
    assert tile_refusal(later, Lang.EN) == "That tile does not fit now: the ones marked ✅ do."
    assert opening_tile(bergen.view(leader)) is None  # not the leader's turn any more
