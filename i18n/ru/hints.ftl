### «💡 Подсказка»: the computer's choice for a turn, to the presser only.
### In Russian, the default language.

# $move: the move as the hand's buttons name it («5|5 на ⬅️ 3»); $reason: one of hint-reason-*.
hint-shown = 💡 { $move } — { $reason }
hint-move_only = 💡 { $move }
hint-reason-only = другого хода нет
hint-reason-go_out = последняя кость, и раунд ваш
hint-reason-double = дубль лучше сбросить пораньше
# Where the pips left in hand are the holder's own points (Козёл, Осёл).
hint-reason-heavy = тяжёлую кость лучше сбросить: очки, оставшиеся на руке, запишут вам
# Where the round's winner writes them (Классика, Морской козёл, Спортивное, Пятёрки…).
hint-reason-heavy_to_winner = тяжёлую кость лучше сбросить: очки с вашей руки запишут тому, кто выиграет раунд
hint-reason-keep_suits = на руке останется чем ответить на концы
hint-reason-block = сопернику будет труднее приставить кость
hint-reason-block_leader = так труднее ходить тому, кто ведёт в счёте
hint-reason-fish_win = рыба, и она в вашу пользу
hint-reason-avoid_fish = стол остаётся открытым: рыба сейчас была бы не в вашу пользу
hint-reason-draw = подходящей кости на руке нет
hint-reason-knock = подходящей кости нет, а брать неоткуда
hint-reason-close = закрытый конец помешает соперникам больше, чем вам
# Games that score during play: $points, what the move scores now.
hint-reason-scores = ход сразу приносит { $points } { $points ->
    [one] очко
    [few] очка
   *[other] очков
}
hint-reason-safe_ends = сопернику будет трудно набрать очки следующим ходом
# The search chose another move than the simple rules would: it did best when the
# others' tiles were dealt at random many times and played out. No figures (issue 33).
hint-reason-search = если разыграть возможные расклады чужих костей, этот ход выходит лучше других
# Only when the play-outs support it well ($game: the game's key; where points are bad, not
# ending up last).
hint-reason-search_likely = { $game ->
    [kozel] с этим ходом козлом, скорее всего, будете не вы
    [osel] с этим ходом ослом, скорее всего, будете не вы
   *[other] с этим ходом партия, скорее всего, ваша
}
# «✔️ Сходить» advised for a reason that speaks of a tile laid: why the turn ends here.
hint-end_turn = остальные кости лучше придержать на следующие ходы

hints-on = вкл
hints-off = выкл
