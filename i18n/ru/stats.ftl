### /top, /stats, /history and the score sheets.
### In Russian, the default language.

top-title = 🏆 <b>Рейтинг «{ $chat }»</b> · { $game } · стр. { $page }/{ $pages }
top-pairs_title = 🏆 <b>Рейтинг пар «{ $chat }»</b> · { $game } · стр. { $page }/{ $pages }
top-col_name = Игрок
top-col_pair = Пара
top-col_rating = Рейт
top-col_elo = Elo
top-col_matches = Игр
top-col_losses-kozel = Коз
top-col_safe-kozel = Не коз
top-col_losses-osel = Осл
top-col_safe-osel = Не осл
top-col_wins = Поб
top-col_win_share = % поб
top-col_fish = Рыб
top-col_avg = Ср
top-legend = <i>Рейт — рейтинг за партии (не очки партии), Elo — по партиям без компьютеров. Игр — партий, { $outcome }, Рыб — сделано рыб, Ср — средний итог партии.</i>
top-legend_losses-kozel = Коз — раз козлом, Не коз — доля партий не козлом
top-legend_losses-osel = Осл — раз ослом, Не осл — доля партий не ослом
top-legend_wins = Поб — побед (первое место), % поб — доля партий с победой
top-pairs_legend = <i>Пара — те же двое в игре парами, где бы ни сидели. Рейт — рейтинг за партии, Игр — партий, { $outcome }, Ср — средний итог.</i>
top-empty = 🏆 { $game }: в рейтинге этой группы пока никого нет. Сыграйте партию — /domino — и все её игроки появятся здесь.
top-pairs_empty = 👥 { $game }: партий парами (вчетвером, 2×2) здесь ещё не было.
top-private = Рейтинг ведётся по группам: напишите /top в группе, где играете. Ваша статистика по всем группам: /stats

# A day: $dd, $mm two digits each, $year; also $day and $month as numbers.
stats-date = { NUMBER($day, minimumIntegerDigits: 2) }.{ NUMBER($month, minimumIntegerDigits: 2) }.{ $year }
stats-title_group = 📊 <b>{ $name }</b> в «{ $chat }» · { $game }
stats-title_all = 📊 <b>{ $name }</b> во всех группах · { $game }
stats-matches = Партий: { $n } · рейтинг: { $rating } · Elo: { $elo }
stats-losses-kozel = 🐐 Козлом { $n } { $n ->
    [one] раз
    [few] раза
   *[many] раз
} ({ $share } партий)
stats-losses-osel = 🐴 Ослом { $n } { $n ->
    [one] раз
    [few] раза
   *[many] раз
} ({ $share } партий)
stats-wins = 🏆 { $n } { $n ->
    [one] победа
    [few] победы
   *[many] побед
} ({ $share } партий)
stats-went_out = 🏁 Домино: { $n } { $n ->
    [one] раз
    [few] раза
   *[many] раз
}
stats-draws = 🤝 Ничьих: { $n }
stats-fish = 🐟 Рыб сделано: { $n }
# Only to a player who has taken eggs: most games have none.
stats-eggs = 🥚 Яиц забрано: { $n }
stats-best = 👍 Лучшая партия: итог { $points }, { $date } (рейтинг +{ $gain })
stats-worst = 👎 Худшая партия: итог { $points }, { $date } (рейтинг +{ $gain })
stats-only_match = 📋 Единственная партия: итог { $points }, { $date } (рейтинг +{ $gain })
stats-best_and_worst = 👍👎 Все партии с рейтингом +{ $gain }; последняя: итог { $points }, { $date }
stats-streak_good-kozel = 🔥 Не козлом { $n } { $n ->
    [one] партию
    [few] партии
   *[many] партий
} подряд
stats-streak_bad-kozel = 🐐 Козлом { $n } { $n ->
    [one] партию
    [few] партии
   *[many] партий
} подряд
stats-streak_good-osel = 🔥 Не ослом { $n } { $n ->
    [one] партию
    [few] партии
   *[many] партий
} подряд
stats-streak_bad-osel = 🐴 Ослом { $n } { $n ->
    [one] партию
    [few] партии
   *[many] партий
} подряд
stats-streak_wins = 🔥 { $n } { $n ->
    [one] победа
    [few] победы
   *[many] побед
} подряд
stats-streak_no_wins = Без побед { $n } { $n ->
    [one] партию
    [few] партии
   *[many] партий
} подряд
stats-mark-kozel = 🐐
stats-mark-osel = 🐴
stats-mark_winner = 🏆
stats-none_group = 📊 { $name }: в этой группе записанных партий пока нет. Сыграть: /domino
stats-none_all = 📊 { $name }: записанных партий пока нет. Добавьте меня в группу и напишите там /domino.

history-title = 📜 <b>Партии в «{ $chat }»</b> · { $game } · стр. { $page }/{ $pages }
history-entry = <b>№{ $n }</b> · { $date } · { $ending } · { $rounds } { $rounds ->
    [one] раунд
    [few] раунда
   *[many] раундов
}
history-hint = <i>Кнопка 📋 с номером партии открывает её запись по раундам.</i>
history-empty = 📜 { $game }: записанных партий здесь пока нет. Сыграйте партию — /domino — и она появится в истории.
history-private = История партий ведётся по группам: напишите /history в группе.

sheet-title = 📋 <b>Партия №{ $n }</b> · { $variant } до { $target } · { $date } · { $ending }
sheet-player = { $name }{ $goat }: итог { $points }, рейтинг { $gain }
# A computer player: it has no rating.
sheet-computer = { $name }{ $goat }: итог { $points }
# The labels of a round's two rows: its points, and each side's score after it.
sheet-row_points = очки
sheet-row_totals = счёт
# A round's line: its number and how it ended ($outcome: one of the next texts).
sheet-round = Раунд { $n } · { $outcome }
sheet-went_out = домино: { $name }
sheet-fish = рыба, рыбак: { $name }
# F-6: a move took the score to the target, and the round stopped there.
sheet-reached = цель набрана: { $name }
# M-4: the last round's last tile, 0-0, decided the match.
sheet-last_tile-sea_kozel = голый козёл: { $name }, домино пустышкой
# A round nobody scored in, said instead of its points: a draw; M-1: too few to write.
sheet-draw = ничья, никто не пишет
sheet-too_few = меньше { $n } — не пишется
sheet-eggs = яйца +{ $n } — в следующий раунд
sheet-cut = Первые раунды ({ $n }) не поместились в сообщение; ниже — последние.
sheet-legend_13 = <i>Очки до открытия счёта только запоминаются и входят в счёт потом.</i>
sheet-legend_in_play = <i>Очки раунда — и за ходы, и за его конец; «цель набрана» — ход довёл счёт до цели, и раунд не доигрывался.</i>

stats-hints = 💡 { $n } { $n ->
    [one] подсказка
    [few] подсказки
   *[many] подсказок
}
