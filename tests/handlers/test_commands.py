"""/cancel's question as the game stands (`bot.app.usecases.endings.cancel_question`), as
the handler writes it."""

from __future__ import annotations

import dataclasses

from bot.app.usecases.endings import cancel_question
from bot.telegram.presenter.replies import reply_text
from domino.match import Match
from domino.rules import KOZEL
from i18n import Lang
from storage.records import Ending, GameRecord, GameStatus, SeatRecord

LOBBY = GameRecord(
    id=1,
    chat_id=-100,
    status=GameStatus.LOBBY,
    creator_id=1,
    ruleset=KOZEL,
    seats_wanted=2,
    seats=(SeatRecord(0, 1, "Маша"), SeatRecord(1, 2, "Олег")),
)


def asked(game: GameRecord, lang: Lang) -> str:
    return reply_text(cancel_question(game), lang)


def test_a_lobby_a_match_and_a_match_someone_left_are_asked_differently() -> None:
    assert asked(LOBBY, Lang.RU) == "Отменить текущую игру? Набор игроков закроется."
    playing = dataclasses.replace(LOBBY, status=GameStatus.PLAYING, match=Match.new(KOZEL, 2, 1))
    assert asked(playing, Lang.RU) == "Отменить текущую игру? Очки не сохранятся."
    left = playing.left_by(1).abandoned_by(1, Ending.LEFT)
    assert asked(left, Lang.RU).endswith("проигрыш — Олег (первый уход из партии).")
    assert asked(left, Lang.EN).endswith("as a loss for Олег, the first to leave the match.")
