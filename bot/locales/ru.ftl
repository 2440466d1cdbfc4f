### Russian texts of the bot (the default language).
### Each message id is the key the code asks for with every "." written as "-":
### t("alert.foreign_game") reads `alert-foreign_game` here. Every language file has the
### same ids and the same variables ({ $name }); tests/bot/test_i18n.py checks it.
### Texts are Telegram HTML: keep the <b> and <i> tags, and write no other < or &
### (the values put in are escaped already).

## The domain's words (RULES.md: they must appear in the Russian UI exactly so).

variant-kozel = Козёл
variant-classic = Классика
variant-sea_kozel = Морской козёл
variant-osel = Осёл
variant-sport = Спортивное
variant-all_fives = Пятёрки
variant-threes_and_fives = Тройки и пятёрки
variant-bergen = Берген
variant-dubli = Дубли
variant-blitz = Блиц
variant-cross = Крест
variant-shesterka = Шестёрка
term-fish = рыба
term-goat = козёл
term-bazaar = базар
term-eggs = яйца
term-knock = стучу
term-fisherman = рыбак
fish-each = на всех
fish-max_takes_all = на одного
fish-fisherman_takes_all = на рыбака

## The lobby.

lobby-title = 🁢 <b>Домино: { $variant }</b>
lobby-options = Игроков: { $seats } · игра до { $target }
lobby-kozel_options = Рыба: { $fish } · открыть счёт: { $threshold }
lobby-off = нет
lobby-teams_on = Пары: 2×2, партнёры напротив
lobby-teams_off = Каждый сам за себя
lobby-pairs = 🤝 Пары: { $first } · { $second }
# S-7: the game's own turn times (domino.timing), in seconds.
lobby-sport_timing = ⏱ Время на ход по правилам спортивного домино: { $one }, { $several } или { $fish } с
lobby-players = <b>Игроки ({ $joined }/{ $wanted }):</b>
lobby-hint = Нажмите «Играю», чтобы сесть за стол. Кости придут вам в личку.
# Nobody seated yet: the creator is seated only once the bot may write to them in private.
lobby-nobody = За столом пока никого. Сесть — кнопка «🙋 Играю», и для создателя игры тоже: сразу за стол попадает только тот, у кого уже открыт личный чат со мной (туда приходят кости).
btn-join = 🙋 Играю
btn-leave = 🚪 Выйти
btn-add_computer = 🤖 Добавить компьютер
btn-opt_game = 🎲 Игра: { $game }
btn-opt_seats = 👥 Игроков: { $n }
btn-opt_target = 🎯 До { $n }
btn-opt_fish = 🐟 Рыба: { $mode }
btn-opt_threshold = 🔓 Открыть с { $n }
btn-opt_teams_on = 🤝 Пары: да
btn-opt_teams_off = 🤝 Пары: нет
btn-start = ▶️ Начать
btn-cancel = ✖️ Отменить
btn-cancel_yes = Да, отменить игру
btn-cancel_no = Нет, играем дальше

## The table in the group.

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
table-end_uncounted = { $pip } (0)
# The last few moves, oldest first, joined by arrows.
table-recent = Последние ходы: { $moves }
# $n: the tiles a player holds, in the table's caption.
table-tiles = { $n } { $n ->
    [one] кость
    [few] кости
    [many] костей
   *[other] кости
}
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
# The same move made $n times in a row: «Боб берёт из базара ×3».
event-repeated = { $move } ×{ $n }
table-cancelled = ✖️ Игра отменена.
lobby-closed_started = 🁢 <b>Игра началась!</b> Игроки: { $names }
lobby-closed_cancelled = ✖️ Набор в игру отменён.

## The hand in the private chat.

hand-cancelled = ✖️ Игра отменена.
btn-table = 🖼 Стол в группе
hand-title = 🁢 <b>{ $variant }</b> в «{ $chat }» · раунд { $n }
hand-your_turn = <b>Ваш ход!</b>
hand-waiting = Ходят соперники, стол — в группе. Нажмите на кость, чтобы узнать, чей ход.
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
hand-scores = Счёт: { $scores }
btn-end = { $tile } на { $end }
# A tile that scores differently on the ends it fits (F-3): the most it can make.
btn-points_up_to = до +{ $points }
btn-back = ↩️ Назад
btn-draw = 🎲 Взять из базара
# $game: the game's key; a knock is «пас» in Спортивное (S-3).
btn-knock = { $game ->
    [sport] 🤚 Пас
   *[other] ✊ Стучу
}
# $n: how many doubles the game lets a player lay at once (M-3: 2, O-2: up to 4).
btn-choose_doubles = { $n ->
    [2] ⏩ Два дубля сразу
   *[other] ⏩ Несколько дублей сразу
}
btn-choose_close = 🔒 Закрыть конец дублем
# Блиц, Крест: ends a turn of several tiles (a tile laid, another may follow).
btn-end_turn = ✔️ Сходить
# $n: the tiles the player laid so far in the turn in progress (Блиц, Крест).
hand-mid_turn = Вы положили { $n } { $n ->
    [one] кость
    [few] кости
    [many] костей
   *[other] кости
} за этот ход. Можно положить ещё кость или нажать «✔️ Сходить».
btn-close_end = 🔒 Закрыть { $end } дублем { $tile }

## Announcements in the group.

announce-went_out = 🏁 Раунд { $n }: домино — { $name }!
announce-fish = 🐟 Раунд { $n }: рыба! Рыбак — { $name }.
# F-6: a move brought a side to the match's target; the round is not played on.
announce-reached = 🎯 Раунд { $n }: { $name } набирает { $points } { $points ->
        [one] очко
        [few] очка
       *[other] очков
    } — победа! Раунд дальше не играется.
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
announce-loser-osel = 🫏 Осёл — { $names }
announce-last_tile-sea_kozel = 🐐 Голый козёл! { $name }: домино пустышкой — и партия выиграна сразу.
announce-draw = 🤝 Ничья: очков никто не записывает.
announce-too_few = ✍️ Выигрыш меньше { $points } { $points ->
        [one] очка
       *[other] очков
    } не записывается.
announce-winner = 🏆 Победа — { $names }
# The score sheet's legend under a round's picture while an account is not open (K-7):
# «+N» on the sheet is remembered, not yet written. $threshold: the points that open it.
announce-remembered = <i>«+N» — очки запомнены, но ещё не записаны: счёт открывается с { $threshold } { $threshold ->
        [one] очка
       *[other] очков
    }.</i>

## Answers to presses and commands.

answer-joined = Вы за столом!
answer-left = Вы вышли из-за стола.
answer-cancelled = Игра отменена.
answer-computer_added = Компьютер за столом.
answer-started = Поехали! Кости — в личке.
answer-tile_does_not_fit = Эта кость сейчас не подходит: отмеченные ✅ — подходят.
# Шестёрка: a refused tile; $ends: what each end takes («к 4 — 2, к 0 — 6»).
answer-tile_sum_six = Не подходит: соседние половинки вместе дают 6 — { $ends }. Отмеченные ✅ — подходят.
answer-end_takes = к { $pip } — { $wanted }
# The first round opens with a fixed tile (the game's rules); $tile: that tile («1|1»),
# $kind: double when it is one of the doubles that open, else tile (nobody got one).
answer-opening-lowest_double = { $kind ->
    [double] Первый ход — самым младшим дублем: { $tile }.
   *[tile] Дублей ни у кого нет: первый ход — самой младшей костью, { $tile }.
}
answer-opening-lowest_double_from_one = { $kind ->
    [double] Первый ход — самым младшим дублем (дубль-пусто — последним): { $tile }.
   *[tile] Дублей ни у кого нет: первый ход — самой крупной костью, { $tile }.
}
answer-opening-highest_double = { $kind ->
    [double] Первый ход — самым старшим дублем: { $tile }.
   *[tile] Первый ход — самой крупной костью: { $tile }.
}
answer-choose_end = Куда положить?
answer-choose_doubles = Какие дубли положить?
answer-choose_close = Какой конец закрыть?
alert-option_fixed = В этой игре это не меняется.
answer-drew = Из базара: { $tiles }
computer-name = 🤖 Компьютер { $n }
# A person a computer plays for: the name stays as it is (nominative), marked.
computer-instead = { $name } (🤖)
# Computer levels (issue 14): chosen per computer seat in the lobby.
level-easy = Лёгкий
level-medium = Средний
level-hard = Сильный
lobby-computer = { $name } · { $level }
btn-computer_level = { $name } · { $level }
answer-level_set = { $name }: { $level }
alert-not_a_computer = Эта кнопка устарела: этого компьютера за столом уже нет.
lobby-already_open = В этом чате уже собирается игра: нажмите «🙋 Играю» под ней.
lobby-already_running = В этом чате уже идёт игра. Закончите её или отмените: /cancel
lobby-you_play_elsewhere = Вы уже играете в «{ $chat }». Доиграйте там или выйдите: /leave
start-welcome =
    👋 Привет! Я веду партии в домино в группах: Козёл, Классика, Морской козёл, Осёл, Спортивное, Пятёрки, Тройки и пятёрки, Берген, Дубли, Блиц, Крест и Шестёрка.
    Добавьте меня в группу и напишите там /domino (или сразу с игрой: /domino osel). Ваши кости будут приходить сюда.
    Правила: /rules · помощь: /help
start-joined = ✅ Вы за столом в «{ $chat }». Ждём начала — кости придут сюда.
start-already_joined = Вы уже за столом в «{ $chat }».
start-back_in_game = С возвращением! Ваши кости — ниже.
leave-not_playing = Вы сейчас не играете здесь.
leave-done = Вы покинули игру. Ваше место занял компьютер.
hand-moved = Рука перенесена ниже ⬇️
hand-you_left = Вы покинули эту игру.
hand-no_game = Вы сейчас не играете. Начните игру в группе: /domino
cancel-nothing = Здесь нет игры, которую можно отменить.
cancel-confirm = Отменить текущую игру? Очки не сохранятся.
cancel-kept = Играем дальше.
notice-left = 🚪 { $name } покидает игру, место занимает компьютер.
notice-unreachable = ⚠️ { $name }: не могу написать вам в личку. Откройте чат с @{ $bot } и нажмите «Start» (или разблокируйте бота) — кости придут туда.
notice-bot_removed = Меня удалили из «{ $chat }» — игра там остановлена.
private-group_only = Игра идёт в группе: добавьте меня в группу и напишите там /domino.
private-cancel_in_group = Отменить игру можно в её группе: /cancel
private-unknown_command = Не знаю такой команды. Помощь: /help
private-help_hint =
    👋 Я веду партии в домино в группах. Чтобы сыграть, добавьте меня в группу кнопкой ниже и напишите там /domino — кости будут приходить сюда.
    Правила — кнопкой «📖 Правила», все команды — /help.
btn-add_to_group = ➕ Добавить в группу
btn-rules = 📖 Правила
group-hand_is_private = Ваши кости — в личном чате со мной.
btn-open_private = Открыть личный чат
rules-kozel =
    <b>Козёл</b> — кто первым наберёт { $target } { $target ->
        [one] очко
        [few] очка
       *[other] очков
    }, тот и козёл.
    • 2–4 игрока, по 7 костей; остальное — базар. Вчетвером можно парами.
    • Первым ходит тот, у кого 1|1 (нет — 2|2, … 6|6, 0|0).
    • Кладите кость к концу с тем же числом. Есть что положить — кладите.
    • Нечем ходить — берите из базара, пока не подойдёт; базар пуст — «стучу».
    • Раунд кончается «домино» — у кого-то кончились кости — или «рыбой»: ходить больше некому.
    • Очки — сумма на ваших костях (одинокий 0|0 — 10). Пока счёт не открыт, очки меньше 13 запоминаются (+N).
    • Рыба: все очки получает тот, у кого их больше всех; ничья — «яйца» переходят дальше.
rules-classic =
    <b>Классика</b> — кто первым наберёт { $target } { $target ->
        [one] очко
        [few] очка
       *[other] очков
    }, тот и победил.
    • 2–4 игрока: вдвоём — по 7 костей, втроём и вчетвером — по 5; остальное — базар. Вчетвером можно парами.
    • Первым ходит тот, у кого 6|6 (нет — 5|5, … 0|0; дублей ни у кого нет — самая крупная кость). Следующий раунд начинает победитель прошлого, любой костью.
    • Кладите кость к концу с тем же числом. Есть что положить — кладите.
    • Нечем ходить — берите из базара, пока не подойдёт; базар пуст — «стучу».
    • У кого первым кончились кости («домино»), тот выиграл раунд и записывает себе все очки на костях соперников (одинокий 0|0 у соперника — 25).
    • Рыба — ходить больше некому: раунд выигрывает тот, у кого на костях меньше всех очков, и записывает очки соперников минус свои. Меньше всех поровну у двоих — не записывает никто.
rules-sea_kozel =
    <b>Морской козёл</b> — кто первым наберёт { $target } { $target ->
        [one] очко
        [few] очка
       *[other] очков
    }, тот и победил.
    • Вдвоём или вчетвером (можно парами), по 7 костей; остальное — базар.
    • Первым ходит тот, у кого 1|1 (нет — 2|2, … 6|6, 0|0). Следующий раунд начинает тот, у кого было домино, или рыбак, любой костью.
    • Кладите кость к концу с тем же числом. Есть что положить — кладите. Два дубля, которые подходят к обоим концам, можно положить за один ход.
    • Нечем ходить — берите из базара, пока не подойдёт; базар пуст — «стучу».
    • Очки записывает только победитель раунда — тот, у кого домино, а при рыбе тот, у кого на костях меньше: сумму костей соперников, если она не меньше 25.
    • Одинокий 0|0 на руке — 25 очков, одинокий 6|6 — 50, оба вместе — 75.
    • Домино последней костью 0|0 — «голый козёл»: партия выиграна сразу.
    • Рыба поровну — «яйца»: их забирает победитель следующего раунда.
rules-osel =
    <b>Осёл</b> — кто первым наберёт { $target } { $target ->
        [one] очко
        [few] очка
       *[other] очков
    }, тот и осёл.
    • 2–4 игрока, по 7 костей; остальное — базар. Вчетвером можно парами.
    • Первым ходит тот, у кого 1|1 (нет — 2|2, … 6|6, 0|0). Этот дубль — «спинер»: когда к нему положат слева и справа, кладут и сверху, и снизу.
    • Кладите кость к концу с тем же числом. Есть что положить — кладите.
    • Вместо одной кости можно положить сразу несколько дублей, каждый к своему концу.
    • Дубль можно положить рубашкой вверх: этот конец закрыт до конца раунда. Закрыть конец последней костью — тоже домино.
    • Нечем ходить — берите из базара, пока не подойдёт; базар пуст — «стучу». Следующий раунд начинает тот, у кого было домино, или рыбак, любой костью.
    • Очки — сумма на ваших костях (одинокий 0|0 — 10, но не при рыбе). Пока счёт не открыт, очки меньше 13 запоминаются (+N).
    • Рыба — каждый записывает свои очки (в лобби можно выбрать «на одного» или «на рыбака»).
rules-sport =
    <b>Спортивное</b> — играют две пары; какая первой наберёт { $target } { $target ->
        [one] очко
        [few] очка
       *[other] очков
    }, та и победила.
    • Ровно 4 игрока, партнёры сидят друг напротив друга; по 7 костей, базара нет.
    • Перед первым раундом каждый открывает по кости: у кого старше (по сумме, при равенстве — по большей половине), тот ходит первым, любой костью. Дальше начинает тот, у кого было домино, или рыбак.
    • Кладите кость к концу с тем же числом. Есть что положить — кладите; нечем ходить — «пас».
    • Домино — пара того, у кого кончились кости, записывает сумму всех костей, оставшихся на руках у всех четверых.
    • Рыба — всё записывает пара, у которой на руках меньше очков; поровну — ничья, очков никто не пишет.
    • Время на ход спортивное: 5 с, если ход один, 20 с, если ходов несколько, 60 с, если ход может сделать рыбу.
rules-all_fives =
    <b>Пятёрки</b> — очки набирают прямо по ходу игры; кто первым наберёт { $target } { $target ->
        [one] очко
        [few] очка
       *[other] очков
    }, тот и победил.
    • 2–4 игрока: вдвоём — по 7 костей, втроём и вчетвером — по 5; остальное — базар. Вчетвером можно парами, очки пары общие.
    • Кто ходит первым, решает жребий; начинать можно любой костью. Следующий раунд начинает победитель прошлого.
    • Кладите кость к концу с тем же числом. Первый положенный дубль — «спинер»: когда к нему приложат с обеих сторон, кладут и сверху, и снизу.
    • После каждого хода сложите числа на открытых концах: дубль поперёк конца — обе половины, спинер — обе, пока к нему не приложили с обеих сторон. Сумма делится на 5 — ход приносит её всю: 5|5 первым ходом — 10 очков, 0|5 к нему справа — снова 10 (5 + 5 + 0).
    • Нечем ходить — берите из базара, пока не подойдёт; базар пуст — «стучу».
    • Домино — у кого кончились кости, тот получает очки на костях соперников, округлённые до 5 (23 → 25).
    • Рыба — ходить больше некому: у кого на костях меньше всех очков, тот получает разницу с каждым соперником, тоже округлённую до 5.
    • Партия кончается, как только кто-то наберёт { $target }, — даже посреди раунда.
rules-threes_and_fives =
    <b>Тройки и пятёрки</b> — очки набирают прямо по ходу игры; кто первым наберёт { $target } { $target ->
        [one] очко
        [few] очка
       *[other] очков
    }, тот и победил.
    • 2–4 игрока: вдвоём — по 7 костей, втроём и вчетвером — по 5; остальное — базар. Вчетвером можно парами, очки пары общие.
    • Кто ходит первым, решает жребий; начинать можно любой костью. Следующий раунд начинает победитель прошлого.
    • Кладите кость к концу с тем же числом. Первый положенный дубль — «спинер»: когда к нему приложат с обеих сторон, кладут и сверху, и снизу.
    • После каждого хода сложите числа на открытых концах: дубль поперёк конца — обе половины, спинер — обе, пока к нему не приложили с обеих сторон. Сумма делится на 3 — ход приносит треть суммы, на 5 — пятую часть; 15 делится на оба и приносит 5 + 3 = 8. Например, 6|3 первым ходом — сумма 9, это 3 очка; 5|5 — сумма 10, 2 очка.
    • Нечем ходить — берите из базара, пока не подойдёт; базар пуст — «стучу».
    • Домино — у кого кончились кости, тот получает очки на костях соперников, округлённые до 5 и делённые на 5 (23 → 25 → 5).
    • Рыба — ходить больше некому: у кого на костях меньше всех очков, тот получает разницу с каждым соперником, так же округлённую до 5 и делённую на 5.
    • Партия кончается, как только кто-то наберёт { $target }, — даже посреди раунда.
rules-bergen =
    <b>Берген</b> — очки набирают прямо по ходу игры; кто первым наберёт { $target } { $target ->
        [one] очко
        [few] очка
       *[other] очков
    }, тот и победил.
    • 2–4 игрока: вдвоём и втроём — по 6 костей, вчетвером — по 5; остальное — базар. Вчетвером можно парами, очки пары общие.
    • Первый раунд начинает тот, у кого 0|0 (нет — 1|1, … 6|6; дублей ни у кого нет — самая младшая кость). Следующий раунд начинает победитель прошлого, любой костью.
    • Кладите кость к концу с тем же числом; дубль ложится поперёк. Нечем ходить — берите из базара, пока не подойдёт; две последние кости базара не берут — тогда «стучу».
    • После хода на обоих концах одно число — 2 очка (начать раунд дублем — тоже 2). На одном конце дубль, на другом то же число — 3 очка: например, 4|4 поперёк одного конца и 4 на другом.
    • Домино — 2 очка. Рыба — ходить больше некому: 2 очка тому, у кого на руке нет дублей; таких несколько — у кого из них меньше очков на костях; дубли у всех — у кого самый младший дубль.
    • Партия кончается, как только кто-то наберёт { $target }, — даже посреди раунда.
rules-dubli =
    <b>Дубли</b> — детская игра, очки набирают прямо по ходу игры; кто первым наберёт { $target } { $target ->
        [one] очко
        [few] очка
       *[other] очков
    }, тот и победил.
    • 2–4 игрока: вдвоём — по 7 костей, втроём — по 6, вчетвером — по 5; остальное — базар. Вчетвером можно парами, очки пары общие.
    • Первый раунд начинает тот, у кого 0|0 (нет — 1|1, … 6|6; дублей ни у кого нет — самая младшая кость). Следующий раунд начинает победитель прошлого, любой костью.
    • Кладите кость к концу с тем же числом; дубль ложится поперёк. Нечем ходить — берите из базара, пока не подойдёт; две последние кости базара не берут — тогда «стучу».
    • Положили дубль — 1 очко. После хода на обоих концах одно число — 1 очко; на одном конце дубль, а на другом то же число — 2. Очки складываются: 5|5 к концу 5, когда на другом конце тоже 5, — 1 + 2 = 3.
    • Домино — 2 очка. В конце раунда каждый, у кого остались кости, но ни одного дубля, получает 1 очко.
    • Партия кончается, как только кто-то наберёт { $target }, — даже посреди раунда.
rules-blitz =
    <b>Блиц</b> — детская игра; кто первым наберёт { $target } { $target ->
        [one] очко
        [few] очка
       *[other] очков
    }, тот и победил.
    • 2–4 игрока, все кости раздаются поровну: вдвоём — по 14, вчетвером — по 7, втроём — по 9, а оставшаяся кость весь раунд лежит рубашкой вверх. Базара нет. Вчетвером можно парами.
    • Первый раунд начинает тот, у кого 0|0 (нет — 1|1, … 6|6). Следующий раунд начинает победитель прошлого, любой костью.
    • Кладите кость к концу с тем же числом. За ход можно положить сколько угодно костей подряд, каждую к любому концу, как стол лежит после прошлой. Хватит — нажмите «✔️ Сходить»; когда класть больше нечего, ход переходит сам.
    • Нечем ходить — «стучу».
    • У кого первым кончились кости («домино»), тот выиграл раунд и записывает себе все очки на костях соперников.
    • Рыба — ходить больше некому: раунд выигрывает тот, у кого на костях меньше всех очков, и записывает очки соперников минус свои. Меньше всех поровну у двоих — не записывает никто.
rules-cross =
    <b>Крест</b> — детская игра; кто первым наберёт { $target } { $target ->
        [one] очко
        [few] очка
       *[other] очков
    }, тот и победил.
    • 2–4 игрока, по 7 костей; остальное — базар (вчетвером его нет). Вчетвером можно парами.
    • Первый раунд начинает тот, у кого 0|0 (нет — 1|1, … 6|6; дублей ни у кого нет — самая младшая кость). Следующий раунд начинает победитель прошлого, любой костью.
    • Первый положенный дубль — центр креста: когда к нему приложат с обеих сторон, кладут и сверху, и снизу.
    • Кладите кость к концу с тем же числом. За ход можно положить сколько угодно костей подряд, каждую к любому открытому концу. Хватит — нажмите «✔️ Сходить»; когда класть больше нечего, ход переходит сам.
    • Нечем ходить — берите из базара, пока не подойдёт; базар пуст — «стучу».
    • У кого первым кончились кости («домино»), тот выиграл раунд и записывает себе все очки на костях соперников.
    • Рыба — ходить больше некому: раунд выигрывает тот, у кого на костях меньше всех очков, и записывает очки соперников минус свои. Меньше всех поровну у двоих — не записывает никто.
rules-shesterka =
    <b>Шестёрка</b> — детская игра; кто первым наберёт { $target } { $target ->
        [one] очко
        [few] очка
       *[other] очков
    }, тот и победил.
    • 2–4 игрока, по 7 костей; остальное — базар (вчетвером его нет). Вчетвером можно парами.
    • Первый раунд начинает тот, у кого 0|0 (нет — 1|1, … 6|6; дублей ни у кого нет — самая младшая кость). Следующий раунд начинает победитель прошлого, любой костью.
    • Соседние половинки вместе дают 6: к концу 2 кладут кость с 4, к 3 — с 3, к 0 — с 6, к 6 — с пустышкой; конец после этого показывает вторую половинку кости. Дубль ложится поперёк.
    • За ход — одна кость. Нечем ходить — берите из базара, пока не подойдёт; базар пуст — «стучу».
    • У кого первым кончились кости («домино»), тот выиграл раунд и записывает себе все очки на костях соперников.
    • Рыба — ходить больше некому: раунд выигрывает тот, у кого на костях меньше всех очков, и записывает очки соперников минус свои. Меньше всех поровну у двоих — не записывает никто.
btn-rules_current = 📖 { $game }
alert-rules_unknown = Таких правил нет: выберите игру кнопкой под сообщением.
help-group =
    /domino — новая игра (лобби с кнопками); /domino osel — сразу «Осёл»
    /rules — правила игры
    /leave — выйти из игры (за вас доиграет компьютер)
    /surrender — сдаться (партия засчитывается вам как проигрыш)
    /cancel — отменить игру (создатель или админ; игроки — голосованием)
    /hand — где мои кости
    /settings — настройки группы: язык, игра по умолчанию, таймер хода, когда закрывать несыгранную игру, подсказки (меняют админы)
    /top — рейтинг группы · /stats — моя статистика · /history — последние партии
help-private =
    Здесь приходят ваши кости: нажимайте ✅ кость, чтобы сходить. В «Блице» и «Кресте» за ход можно положить несколько костей подряд, а закончить ход — кнопкой ✔️ Сходить.
    💡 Подсказка — как сходил бы сильный компьютер (видите только вы, одна на ход).
    /hand — прислать руку заново
    /leave — выйти из игры
    /surrender — сдаться (партия засчитывается вам как проигрыш)
    /rules — правила игр
    /stats — моя статистика по всем группам
    /settings — напоминать ли о вашем ходе
    Начать игру: добавьте меня в группу и напишите там /domino.

## The command menu (setMyCommands).

cmd-domino = новая игра в домино
cmd-rules = правила игры
cmd-help = помощь
cmd-hand = прислать мои кости заново
cmd-leave = выйти из игры
cmd-cancel = отменить игру

## Refusals: a press or command that changes nothing.

alert-lobby_closed = Набор в эту игру закрыт.
alert-already_seated = Вы уже за столом.
alert-not_seated = Вы не за столом.
alert-creator_only = Это может только тот, кто создал игру.
alert-creator_or_admin = Отменить игру может её создатель или админ чата.
alert-table_full = Мест за столом больше нет.
alert-not_enough_players = Нужно игроков: { $wanted }, за столом: { $have }. Позовите друзей или добавьте компьютер.
alert-not_enough_players_fewer = Нужно игроков: { $wanted }, за столом: { $have }. Позовите друзей, добавьте компьютер или сыграйте { $have ->
    [2] вдвоём
    [3] втроём
   *[other] меньшим числом
}: кнопка «👥 Игроков» в лобби.
alert-playing_elsewhere = Вы уже играете в другой игре. Доиграйте её или выйдите: /leave
alert-teams_need_four = Пары бывают только вчетвером.
alert-illegal = Так сходить нельзя.
alert-not_in_game = Вы не играете в этой партии.
alert-stale = Эта кнопка устарела: игра ушла дальше.
alert-answered = На этот вопрос уже ответили.
alert-finished = Эта партия уже закончилась.
alert-not_your_turn = Сейчас ходит { $name }.

## /top, /stats, /history and the score sheets (issue 6).

cmd-top = рейтинг группы
cmd-stats = моя статистика
cmd-history = последние партии группы
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
top-empty = 🏆 { $game }: в этой группе ещё не сыграно ни одной партии. Начните: /domino
top-pairs_empty = 👥 { $game }: партий парами (вчетвером, 2×2) здесь ещё не было.
top-private = Рейтинг ведётся по группам: напишите /top в группе, где играете. Ваша статистика по всем группам: /stats
btn-top_pairs = 👥 Пары
btn-top_players = 👤 Игроки
stats-title_group = 📊 <b>{ $name }</b> в «{ $chat }» · { $game }
stats-title_all = 📊 <b>{ $name }</b> во всех группах · { $game }
stats-matches = Партий: { $n } · рейтинг: { $rating } · Elo: { $elo }
stats-losses-kozel = 🐐 Козлом { $n } { $n ->
    [one] раз
    [few] раза
   *[many] раз
} ({ $share } партий)
stats-losses-osel = 🫏 Ослом { $n } { $n ->
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
stats-streak_bad-osel = 🫏 Ослом { $n } { $n ->
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
stats-mark-osel = 🫏
stats-mark_winner = 🏆
stats-none_group = 📊 { $name }: в этой группе записанных партий пока нет. Сыграть: /domino
stats-none_all = 📊 { $name }: записанных партий пока нет. Добавьте меня в группу и напишите там /domino.
history-title = 📜 <b>Партии в «{ $chat }»</b> · { $game } · стр. { $page }/{ $pages }
history-entry = <b>{ $n }.</b> { $date } · { $ending } · { $rounds } { $rounds ->
    [one] раунд
    [few] раунда
   *[many] раундов
}
history-hint = <i>Кнопка с номером открывает запись партии по раундам.</i>
history-empty = 📜 { $game }: здесь ещё нет сыгранных партий. Начните: /domino
history-private = История партий ведётся по группам: напишите /history в группе.
ending-finished = доиграна
ending-surrender = сдача
ending-timeout = вышло время
ending-left = уход игрока
ending-cancelled = отменена
btn-history_back = ↩️ К списку партий
sheet-title = 📋 <b>Партия №{ $id }</b> · { $variant } до { $target } · { $date } · { $ending }
sheet-player = { $seat }. { $name }{ $goat }: итог { $points }
sheet-col_round = Р
sheet-col_outcome = Исход
sheet-went_out = домино { $seat }
sheet-fish = рыба { $seat }
sheet-reached = цель { $seat }
sheet-eggs = яйца +{ $n } дальше
sheet-cut = Первые раунды ({ $n }) не поместились в сообщение; ниже — последние.
sheet-legend = <i>«домино N» — у игрока N кончились кости; «рыба N» — рыба, рыбак — игрок N. В строке раунда — очки за раунд, под ней — счёт после раунда.</i>
sheet-legend_13 = <i>Очки до открытия счёта только запоминаются и входят в счёт потом.</i>
sheet-legend_in_play = <i>Очки раунда — и за ходы, и за его конец. «цель N» — ход игрока N довёл счёт до цели, и раунд не доигрывался.</i>
alert-no_such_page = Такой страницы нет.
alert-no_such_match = Такой партии в записях этой группы нет.
alert-no_such_game = Такой игры в этой статистике нет: пришлите команду заново.

## Endings (issue 7): /surrender, the vote to cancel, how an abandoned match is scored.

cmd-surrender = сдаться
surrender-confirm = 🏳 Сдаться? Партия закончится сразу и пойдёт в зачёт как при тайм-ауте. { $loser } Рейтинга за неё вы не получите, остальные получат его за отрыв от вашего счёта.
surrender-confirm_after = 🏳 Сдаться? Партия закончится сразу. В зачёт она уже идёт как при тайм-ауте: первый уход из партии — { $name }. { $loser } Рейтинга за неё вы не получите, остальные получат его за отрыв от счёта на момент того ухода.
surrender-not_playing = Вы сейчас не играете здесь — сдаваться не в чем.
btn-surrender_yes = 🏳 Да, сдаюсь
btn-surrender_no = Нет, играю дальше
answer-surrendered = Вы сдались. Партия окончена.
answer-playing_on = Играем дальше.
alert-not_your_confirmation = Это подтверждение не для вас.
alert-already_left = Вы уже покинули эту партию.
notice-surrendered =
    🏳 { $name } сдаётся. { $loser }
    Очки и рейтинг (как при тайм-ауте):
    { $lines }
notice-left_scoring = Партию доиграет компьютер, но в зачёт она пойдёт как при тайм-ауте. { $loser } Счёт на момент ухода: { $points }; остальные получат рейтинг за отрыв от него.
notice-scored_as_timeout =
    В зачёт партия идёт как при тайм-ауте. { $loser }
    Очки и рейтинг:
    { $lines }
table-surrendered = 🏳 { $name } сдаётся.
hand-surrendered = 🏳 { $name } сдаётся.
vote-title =
    🗳 <b>{ $name } предлагает отменить игру.</b>
    Сразу отменить может только создатель или админ чата, поэтому решаем голосованием.
vote-count = За: { $yes } · против: { $no } · чтобы отменить, нужно «за»: { $needed } из { $voters }
vote-who_yes = ✅ { $names }
vote-who_no = ❌ { $names }
vote-state_open = Голосуют игроки партии, { $minutes } мин. Голос можно поменять.
vote-state_passed = ✖️ Решено: игра отменена.
vote-state_failed = ▶️ Голосование не прошло: играем дальше.
vote-state_expired = ⌛ Время голосования вышло: играем дальше.
vote-state_closed = Голосование закрыто: партия уже закончилась.
btn-vote_yes = ✅ За ({ $n })
btn-vote_no = ❌ Против ({ $n })
vote-already_open = Голосование об отмене уже идёт — голосуйте кнопками под ним.
answer-voted_yes = Ваш голос: за отмену.
answer-voted_no = Ваш голос: играем дальше.
alert-voted_same = Вы уже так проголосовали.
alert-vote_over = Это голосование уже закончилось.
alert-vote_not_yours = Голосуют только игроки этой партии.

## Turn timers, strikes, "I'm back", /settings (issue 7).

cmd-settings = настройки группы
settings-title =
    ⚙️ <b>Настройки «{ $chat }»</b>
    Таймер хода: <b>{ $timer }</b>
settings-hint = Время кончилось — за игрока ходит компьютер; после трёх таких ходов он играет за него, пока тот не вернётся (/hand → «Я снова играю»). Менять могут админы чата; новое время — со следующего хода.
settings-lang = Язык сообщений в группе: <b>{ $lang }</b>
# S-7: a game with turn times of its own keeps them whatever timer is chosen, unless it is off.
settings-own_timing = ⏱ { $game }: время на ход по своим правилам — { $one }, { $several } или { $fish } с, если таймер не выключен.
group_lang-auto = как у создателя игры
group_lang-ru = русский
group_lang-en = английский
btn-group_lang-auto = 🌐 Как у создателя
btn-group_lang-ru = 🇷🇺 Русский
btn-group_lang-en = 🇬🇧 English
answer-group_lang_set = Язык группы: { $lang }.
settings-in_group = Настройки — у каждой группы свои: напишите /settings в группе.
timer-off = выключен
timer-30 = 30 с
timer-60 = 60 с
timer-120 = 2 мин
timer-300 = 5 мин
timer-sport = спортивный (5 / 20 / 60 с)
answer-timer_set = Таймер хода: { $timer }. Действует со следующего хода.
alert-admins_only = Менять настройки могут только админы чата.
hand-time_left = ⏱ На ход: { $s } с
hand-time_warning = ⏳ <b>Осталось { $s } с!</b> Потом за вас сходит компьютер.
hand-strikes = ⏰ Время на ход вышло { $n } { $n ->
        [one] раз
        [few] раза
       *[many] раз
    } из { $limit } — за вас ходил компьютер.
hand-away = 🤖 За вас играет компьютер. Хотите снова играть — нажмите «Я снова играю».
btn-back_in_game = 🙋 Я снова играю
table-time_warning = ⏳ { $name }: { $s } с
notice-taken_over = 🤖 { $name }: трижды кончилось время на ход, дальше ходит компьютер.
notice-back = 🙋 { $name } снова в игре.
answer-back = С возвращением! Ваш ход — по кнопкам.
answer-not_away = Вы и так играете сами.
alert-away = Сейчас за вас играет компьютер. Вернуться в игру: /hand → «Я снова играю».

## Issue 11: who may act on a game, joining by link, removing people, lobby timeouts.

alert-foreign_game = Эта кнопка не относится к игре этого чата.
alert-creator_or_admin_only = Это могут создатель игры и админы чата.
alert-start_private_first = Сначала откройте чат с @{ $bot } и нажмите «Старт», потом — «Играю».
start-link_stale = Эта ссылка устарела. Нажмите «Играю» под игрой в группе.
start-not_a_member = За этот стол садятся участники группы «{ $chat }». Вступите в неё, потом нажмите «Играю» под игрой.
lobby-controls = Начать игру, менять правила и убирать игроков могут её создатель и админы чата.
btn-remove_player = 🚫 Убрать игрока
btn-remove_seat = 🚫 { $name }
lobby-remove_who = Кого убрать из-за стола?
lobby-removed = 🚫 { $name } больше не за столом.
answer-removed = { $name } больше не за столом.
alert-nobody_to_remove = За столом пока никого нет.
alert-nobody_else_to_remove = За столом пока только вы. Чтобы выйти, нажмите «🚪 Выйти».
alert-not_seated_any_more = Этого игрока уже нет на этом месте.
notice-lobby_timed_out = ⌛ Игру никто не начал за { $minutes } мин, набор закрыт. Новая игра: /domino
settings-lobby_timeout = Несыгранная игра закрывается через: <b>{ $time }</b>
lobby_timeout-off = никогда
lobby_timeout-min = { $n } мин
btn-lobby_timeout = ⌛ { $time }
answer-lobby_timeout_set = Новые игры закрываются без старта через: { $time }.

## Which game (issue 13): /domino with a game, the group's default game in /settings.

lobby-unknown_game =
    Не знаю такой игры. Начать можно так:
    { $games }
btn-default_game = 🎲 { $game }
answer-default_game_set = Новые игры по /domino: { $game }.

## Command spam in a group (issue 11, item 9; handlers/throttle.py).

spam-cooldown = ⏳ { $name }, слишком много команд подряд: на ваши команды я снова отвечу через минуту.

## The database refused a change for the moment: locked by another process, or a full disk (issue
## 11, items 7 and 8; handlers/errors.py). Nothing was changed.

alert-db_unavailable = ⏳ Секунду… Бот не смог сохранить нажатие, ничего не изменилось. Нажмите ещё раз через несколько секунд.
reply-db_unavailable = ⏳ Секунду… Бот не смог это сохранить, ничего не изменилось. Повторите команду через несколько секунд.

## Who lost an abandoned match, in the game's own word (issue 13; the notices put it in).
## A colon, not the dash of the match's end («🐐 Козёл — …»): the tests wait for that one.

loser-kozel = 🐐 Козёл: { $names }.
loser-osel = 🫏 Осёл: { $names }.
loser-classic = Проигрыш: { $names }.
loser-sea_kozel = Проигрыш: { $names }.
loser-sport = Проигрыш: { $names }.
loser-all_fives = Проигрыш: { $names }.
loser-threes_and_fives = Проигрыш: { $names }.
loser-bergen = Проигрыш: { $names }.
loser-dubli = Проигрыш: { $names }.
loser-blitz = Проигрыш: { $names }.
loser-cross = Проигрыш: { $names }.
loser-shesterka = Проигрыш: { $names }.

## «💡 Подсказка» (issue 14): the computer's choice for the turn, to the presser only;
## the group's switch in /settings; the count in /stats.

btn-hint = 💡 Подсказка
# $move: the move as the hand's buttons name it («5|5 на ⬅️ 3»); $reason: one of hint-reason-*.
hint-shown = 💡 { $move } — { $reason }
hint-move_only = 💡 { $move }
hint-reason-only = другого хода нет
hint-reason-go_out = последняя кость — и раунд ваш
hint-reason-double = дубль лучше сбросить пораньше
hint-reason-heavy = тяжёлую кость лучше сбросить: очки на руке идут в счёт
hint-reason-keep_suits = на руке останется чем ответить на концы
hint-reason-block = на концах останется масть, которой у соперника нет
hint-reason-block_leader = так труднее ходить тому, кто ведёт в счёте
hint-reason-fish_win = рыба — и по очкам она в вашу пользу
hint-reason-avoid_fish = стол остаётся открытым: рыба сейчас была бы не в вашу пользу
hint-reason-draw = подходящей кости нет — берите из базара
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
} — { $chance }%
# «✔️ Сходить» advised for a reason that speaks of a tile laid: why the turn ends here.
hint-end_turn = остальные кости лучше придержать на следующие ходы
alert-hint_stale = Этот ход уже сделан — подсказка к нему больше не нужна.
alert-hints_off = В этой группе подсказки выключены (/settings).
answer-hint_too_fast = Подсказка уже готовится — через мгновение нажмите ещё раз.
settings-hints = Подсказки: <b>{ $state }</b>
hints-on = вкл
hints-off = выкл
btn-hints = 💡 Подсказки: { $state }
answer-hints_set = 💡 Подсказки: { $state }. Кнопка на руках — со следующего хода.
stats-hints = 💡 { $n } { $n ->
    [one] подсказка
    [few] подсказки
   *[many] подсказок
}

## «🔔 Ваш ход» in the private chat, and the private /settings (issue 15, item 7).

notice-turn = 🔔 Ваш ход — { $chat }
settings-private =
    ⚙️ <b>Ваши настройки</b>
    🔔 Напоминания о ходе: <b>{ $state }</b>
    Если через несколько секунд после начала вашего хода вы ещё не сходили, сюда придёт уведомление «🔔 Ваш ход»; когда ход кончится, оно исчезнет.
turn_notices-on = вкл
turn_notices-off = выкл
btn-turn_notices = 🔔 Напоминания о ходе: { $state }
answer-turn_notices_set = 🔔 Напоминания о ходе: { $state }.
