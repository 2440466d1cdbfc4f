### The table in the group, the hand in the private chat, the announcements.
### In Russian, the default language.

table-title = <b>{ $variant }</b> · раунд { $n }
table-turn = Ход: <b>{ $name }</b>
table-over = Партия окончена.
table-team_score = { "   " }пара { $names }: { $score }
table-bazaar = базар: { $n }
table-ends = концы: { $ends }
# Шестёрка: an end and the half that makes 6 with it (a tile with that half goes there).
table-end_wanted = { $pip } (к нему — { $wanted })
# F-3, in games that score the sum of the open ends: each end as it counts («6+6»: a
# double across an end counts both halves) and their sum, $count.
table-ends_sum = концы: { $ends } = { $count }
# An arm of the spinner with no tile yet: open, but it adds nothing to the sum.
table-end_uncounted = { $pip } — пока пусто (0)
# The last few moves, oldest first, joined by arrows.
table-recent = Последние ходы: { $moves }
# $n: the tiles a player holds, in the table's caption.
table-tiles = { $n } { $n ->
    [one] кость
    [few] кости
    [many] костей
   *[other] кости
}
# Втемную: a player's tiles while they lie face down, in the table's caption.
table-face_down = { $tiles } рубашкой вверх

event-played = { $name } кладёт кость
# A knock by game: «стучу», or «пас» where there is no bazaar to draw from.
event-knocked-kozel = { $name }: стучу
event-knocked-classic = { $name }: стучу
event-knocked-sea_kozel = { $name }: стучу
event-knocked-osel = { $name }: стучу
event-knocked-sport = { $name }: пас
event-knocked-all_fives = { $name }: стучу
event-knocked-threes_and_fives = { $name }: стучу
event-knocked-bergen = { $name }: стучу
event-knocked-dubli = { $name }: стучу
event-knocked-blitz = { $name }: стучу
event-knocked-cross = { $name }: стучу
event-knocked-shesterka = { $name }: стучу
event-knocked-dark = { $name }: стучу
# A play that scored during the game (F-3): the points it made, never the tile.
event-scored = { $name } кладёт кость: +{ $points }
# $n: the doubles laid in one turn (2 to 4).
event-doubles = { $name } кладёт { $n } { $n ->
    [one] дубль
    [few] дубля
   *[other] дублей
}
# $n: the tiles one player laid in one turn (Блиц, Крест: any number a turn; 2 and more).
event-tiles = { $name } кладёт { $n } { $n ->
    [one] кость
    [few] кости
    [many] костей
   *[other] кости
}
# A turn of several tiles ended with «✔️ Сходить», when its tiles are not in the caption.
event-ended = { $name } заканчивает ход
event-closed = { $name } закрывает конец

# $n: the ends closed by a face-down double.
table-closed = 🔒 { $n ->
    [one] закрыт { $n } конец
    [few] закрыто { $n } конца
   *[other] закрыто { $n } концов
}
table-turned = 🎴 Кто ходит первым, решили открытые кости (они на картинке): ходит { $name }.

event-drew = { $name } берёт из базара
# Втемную: the tile turned up from a face-down stack fitted no end and went under the
# stack; _drew: a bazaar tile went face down on top. (A tile that fits is event-played.)
event-flipped = { $name } открывает { $tile }: не подходит, уходит под стопку
event-flipped_drew = { $name } открывает { $tile }: не подходит, уходит под стопку, сверху — кость из базара
# Втемную: the tile turned up fits both ends; its owner chooses the end (the play follows).
event-flip_choice = { $name } открывает { $tile }: подходит к обоим концам — выбирает конец
# The same move made $n times in a row: «Боб берёт из базара ×3».
event-repeated = { $move } ×{ $n }

table-cancelled = ✖️ Игра отменена.

hand-cancelled = ✖️ Игра отменена.
hand-title = 🎲 <b>{ $variant }</b> в «{ $chat }» · раунд { $n }
hand-your_turn = <b>Ваш ход!</b>
# At a table of two: the one opponent named.
hand-waiting_for = Ходит { $name }, стол — в группе.
# The same on the hand shown inside the group (the table is right there).
hand-waiting_for_here = Ходит { $name }.
hand-waiting = Ходят соперники, стол — в группе. Нажмите на кость, чтобы узнать, чей ход.
hand-waiting_here = Ходят соперники. Нажмите на кость, чтобы узнать, чей ход.
# Втемную: the same while the player's tiles lie face down (the one button is the stack).
hand-waiting_face_down = Ходят соперники, стол — в группе. Нажмите на стопку, чтобы узнать, чей ход.
hand-waiting_face_down_here = Ходят соперники. Нажмите на стопку, чтобы узнать, чей ход.
hand-over = Партия окончена.
hand-drew = Из базара: { $tiles }
hand-empty_table = Стол пуст.
# The tiles each other player holds: «Маша — 2»; $n: how many opponents.
hand-partner = Костей у партнёра: { $partner }
hand-others = Костей у { $n ->
    [one] соперника
   *[other] соперников
}: { $others }
hand-your_partner = 🤝 Ваш партнёр — { $name }
hand-partner_turn = Ходит ваш партнёр — { $name }. Стол — в группе.
hand-partner_turn_here = Ходит ваш партнёр — { $name }.
hand-scores = Счёт: { $scores }
# Втемную: $n tiles in the player's face-down stack; $up: how many are left when it turns up.
hand-face_down = ⬛ Ваши кости лежат рубашкой вверх: { $n } { $n ->
    [one] кость
    [few] кости
    [many] костей
   *[other] кости
}. Их не видит никто, даже вы; когда останется { $up }, они откроются.
hand-flip = Нажмите «⬛ Открыть верхнюю»: подойдёт кость — ляжет на стол, не подойдёт — уйдёт под низ стопки.
# The same while the bazaar has tiles: one of them then goes face down on top.
hand-flip_bazaar = Нажмите «⬛ Открыть верхнюю»: подойдёт кость — ляжет на стол, не подойдёт — уйдёт под низ стопки, а сверху ляжет кость из базара.
# Втемную: the tile the player turned up fits both ends (everyone saw it): they choose one.
hand-flip_choice = Открылась кость { $tile }: она подходит к обоим концам. Выберите, к какому её положить.
# Втемную: on the player's turn once their last tiles are turned up.
hand-turned_up = ⬛ Ваши кости открыты: за ход можно положить несколько подряд.
# $n: the tiles the player laid so far in the turn in progress (Блиц, Крест).
hand-mid_turn = Вы положили { $n } { $n ->
    [one] кость
    [few] кости
    [many] костей
   *[other] кости
} за этот ход. Можно положить ещё кость или нажать «✔️ Сходить».

announce-went_out = 🏁 Раунд { $n }: домино — { $name }!
announce-fish = 🐟 Раунд { $n }: рыба! Рыбак — { $name }.
# F-6: a move brought a side to the match's target; the round is not played on.
announce-reached = 🎯 Раунд { $n }: { $name } набирает { $points } { $points ->
        [one] очко
        [few] очка
       *[other] очков
    } — победа! Раунд не доигрывается.
# A side of two in a sentence: «пара Маша + Вика».
announce-pair = пара { $names }
# Games that score during play (F-3): each side's points in the round, play and end together.
announce-round_points = ✍️ Очки за раунд: { $points }
announce-eggs = 🥚 Яйца: { $points } { $points ->
        [one] очко переходит
        [few] очка переходят
       *[other] очков переходят
    } в следующий раунд.
announce-eggs_taken = 🥚 Яйца ({ $points }) забирает { $name }.
announce-loser-kozel = 🐐 Козёл — { $names }
announce-loser-osel = 🐴 Осёл — { $names }
announce-last_tile-sea_kozel = 🐐 Голый козёл! { $name }: домино пустышкой — и партия выиграна сразу.
announce-draw = 🤝 Ничья: очков никто не записывает.
announce-too_few = ✍️ Выигрыш меньше { $points } { $points ->
        [one] очка
       *[other] очков
    } не записывается.
# $n: how many people the winning sides are (Russian says «Победа» whatever it is).
announce-winner = 🏆 { $n ->
       *[other] Победа
    } — { $names }
# The score sheet's legend under a round's picture while an account is not open (K-7):
# «+N» on the sheet is remembered, not yet written. $threshold: the points that open it.
announce-remembered = <i>«+N» — очки запомнены, но ещё не записаны: счёт открывается с { $threshold } { $threshold ->
        [one] очка
       *[other] очков
    }.</i>

hand-moved = Рука перенесена ниже ⬇️
hand-you_left = Вы покинули эту игру. Ваше место занял компьютер.
hand-no_game = Вы сейчас не играете. Начните игру в группе: /domino

table-surrendered = 🏳 { $name } сдаётся.

hand-surrendered = 🏳 { $name } сдаётся.
# The turn's time left, rounded up, so that it stays true until the next edit (no
# countdown: Telegram would need an edit a second); $time: clock-minutes or clock-seconds.
hand-time_left = ⏱ На ход: до { $time }
# After «до» and «не больше»: «до 1 минуты», «до 2 минут», «до 21 минуты».
clock-minutes = { $n } { $n ->
        [one] минуты
       *[other] минут
    }
clock-seconds = { $n } { $n ->
        [one] секунды
       *[other] секунд
    }
# $s: the seconds left at the warning, rounded up (the warning comes at most 15 s before).
hand-time_warning = ⏳ <b>Осталось не больше { $s } { $s ->
        [one] секунды
       *[other] секунд
    }!</b> Потом за вас сходит компьютер.
hand-strikes = ⏰ Время на ход вышло { $n } { $n ->
        [one] раз
        [few] раза
       *[many] раз
    } из { $limit } — за вас ходил компьютер.
hand-away = 🤖 За вас играет компьютер. Хотите снова играть — нажмите «Я снова играю».

table-time_warning = ⏳ { $name }: на ход — не больше { $s } { $s ->
        [one] секунды
       *[other] секунд
    }

# «🔔 Ваш ход» inside the group, to the person alone (their hand is in the group).
notice-turn_in_group = 🔔 Ваш ход
