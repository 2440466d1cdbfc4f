"""The hand's and the caption's text where the newcomer's play-through found them
wanting: a cut name ends a sentence on its «…» alone; the open ends are named as the
picture labels them, a closed end shown closed, an empty spinner arm in words."""

from __future__ import annotations

from bot.app.names import NAME_LIMIT
from bot.telegram.presenter.hand import hand_text
from bot.telegram.presenter.table import table_caption
from domino.match import Match
from domino.variants import find_variant
from i18n import Lang

LONG = "Вильгельмина Константиновна Преображенская"


def test_a_cut_name_ends_a_sentence_on_its_ellipsis_alone() -> None:
    """«Ходит Вильгельмо….» read as a typo: the name's «…» stands for the full stop."""
    assert len(LONG) > NAME_LIMIT
    match = Match.new(find_variant("kozel").ruleset, 2, seed=1)
    turn = match.turn
    assert turn is not None
    names = ["Маша", "Маша"]
    names[turn] = LONG
    waiting = match.view(1 - turn)
    for here in (False, True):
        text = hand_text(waiting, names, "Чат", Lang.RU, here=here)
        assert "…" in text and "…." not in text, text
    sport = Match.new(find_variant("sport").ruleset, 4, seed=11)
    assert sport.turn is not None and sport.view(None).round.turned
    names = ["Маша", "Оля", "Вика", "Боб"]
    names[sport.turn] = LONG
    caption = table_caption(sport.view(None), names, Lang.RU)
    assert "ходит " + LONG[:10] in caption and "…." not in caption, caption
