### «💡 Подсказка»: the computer's choice for a turn, to the presser only.
### In Russian, the default language.

# $move: the move as the hand's buttons name it («5|5 на ⬅️ 3»); $reason: one of hint-reason-*.
hint-shown = 💡 { $move } — { $reason }
hint-move_only = 💡 { $move }
hint-reason-only = другого хода нет
hint-reason-go_out = последняя кость, и раунд ваш
hint-reason-double = дубль лучше сбросить пораньше
hint-reason-heavy = тяжёлую кость лучше сбросить: очки на руке идут в счёт
hint-reason-keep_suits = на руке останется чем ответить на концы
hint-reason-block = на концах останется масть, которой у соперника нет
hint-reason-block_leader = так труднее ходить тому, кто ведёт в счёте
hint-reason-fish_win = рыба, и по очкам она в вашу пользу
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
hint-reason-safe_ends = на концах останется сумма, с которой сопернику трудно набрать очки
# $worlds: the deals of the unseen tiles played out; $chance: in %, the chance to end the match
# last where points are bad (козёл, осёл), else to win it; $game: the game's key.
hint-reason-search = лучший ход по { $worlds } { $worlds ->
    [one] разыгранному раскладу
   *[other] разыгранным раскладам
} чужих костей; { $game ->
    [kozel] шанс остаться козлом
    [osel] шанс остаться ослом
   *[other] шанс выиграть партию
}: { $chance }%
# «✔️ Сходить» advised for a reason that speaks of a tile laid: why the turn ends here.
hint-end_turn = остальные кости лучше придержать на следующие ходы

hints-on = вкл
hints-off = выкл
