### Tournaments: the sign-up message, the running tournament's message, its
### announcements (rounds, tables, forfeits, the end), /history's and /stats' marks.
### In Russian, the default language.

tournament-title = 🏆 <b>Турнир: { $game }</b>
tournament-organiser = Организатор: { $name }
tournament-format = Формат: { $format }
tournament-format_rounds = Формат: { $format }, { $rounds } { $rounds ->
    [one] тур
    [few] тура
   *[many] туров
}
tournament-format-round_robin = круговой
tournament-format-swiss = швейцарская система
tournament-tables_of = Столы: по { $n }
tournament-tables_pairs = Столы: пара на пару (партнёры — по порядку записи)
tournament-computers_off = Компьютеры: нет
tournament-computers = Компьютеры: { $level } (добирают последний стол)
tournament-level-easy = новичок
tournament-level-medium = средний
tournament-level-hard = сильный
tournament-show_up = На сбор за столом: { $minutes } мин
tournament-entrants = <b>Участники ({ $n }):</b>
tournament-nobody = пока никого
tournament-entrant = { $n }. { $name }
tournament-pair = { $n }. { $first } + { $second }
tournament-computer = { $name } · { $level }
tournament-signup_hint = Записаться — «✅ Участвую». Начинает организатор или админ группы: кнопка «▶️ Начать».
tournament-settings_hint = ⚙️ Настройки: нажимайте на кнопку, чтобы сменить значение.
tournament-withdrawn = { $name } (вне турнира)

# The running tournament.
tournament-round = <b>Тур { $round } из { $rounds }</b>
tournament-paused = ⏸ Турнир на паузе: новые столы не открываются, начатые партии доигрываются.
tournament-table = Стол { $n } · { $state }: { $names }
tournament-seats = Стол { $n }: { $names }
tournament-seats_decided = Стол { $n }: { $results } — без игры
tournament-table_result = Стол { $n } · итог: { $results }
tournament-state-planned = позже
tournament-state-due = скоро
tournament-state-open = ждём
tournament-state-playing = играют
tournament-vs = { $first } — { $second }
tournament-bye = Без стола в этом туре: { $names }
tournament-standings = <b>Положение:</b>
tournament-standings_final = <b>Итоговое положение:</b>
tournament-standings_more = …и ещё { $n }
tournament-line = { $place }. { $name } — { $points }
tournament-line_withdrawn = — { $name } — { $points }
tournament-finished = 🏁 <b>Турнир окончен!</b>
tournament-cancelled = ✖️ Турнир отменён.
tournament-winner = 🏆 Победитель турнира: { $names }
tournament-winners = 🏆 Победители турнира: { $names }
tournament-no_winner = Победителя нет.

# The standings' picture (render/standings.py): its heading.
tournament-picture_title = 🏆 Турнир · { $game }
tournament-picture_round = Тур { $round } из { $rounds } · { $format }
tournament-picture_final = Итоги
tournament-buchholz = Бухгольц

# Announcements in the group.
tournament-round_title = 🏆 <b>Турнир · тур { $round } из { $rounds }</b>
tournament-round_hint = Каждый за своим столом нажимает «✅ Я на месте»: партия начнётся, когда соберутся все. На сбор — { $minutes } мин, кто не придёт — получит поражение.
tournament-table_done = 🏁 <b>Тур { $round } · стол { $table }</b>: { $results }
tournament-absent_note = Нет на месте: { $names } — поражение без игры.
tournament-forfeit = ⌛ Тур { $round } · стол { $table }: нет на месте — { $names }. Засчитано поражение.
tournament-topic = 🏆 Тур { $round } · стол { $table }

# The lobby of a tournament's table.
tournament-lobby = 🏆 <b>Турнир · тур { $round } · стол { $table }</b> — ждём: { $names }
tournament-lobby_all_here = 🏆 <b>Турнир · тур { $round } · стол { $table }</b> — все на месте

tournament-your_table = 🏆 Ваш стол турнира в группе «{ $chat }» открыт: тур { $round }, стол { $table }. Нажмите там «✅ Я на месте» — на сбор { $minutes } мин, иначе засчитают поражение.
tournament-lobby_hint = Участники этого стола нажимают «✅ Я на месте»: партия начнётся сама, когда соберутся все.
tournament-lobby_closed = ⌛ Стол закрыт без партии.

# The buttons.
btn-tournament_join = ✅ Участвую
btn-tournament_leave = 🚪 Не участвую
btn-tournament_settings = ⚙️ Настройки
btn-tournament_start = ▶️ Начать
btn-tournament_cancel = ✖️ Отменить
btn-tournament_back = ↩️ Назад
btn-tournament_game = 🎲 Игра: { $game }
btn-tournament_format = 🏆 Формат: { $format }
btn-tournament_tables_of = 👥 Столы: по { $n }
btn-tournament_tables_pairs = 👥 Столы: пары
btn-tournament_rounds = 🔁 Туров: { $n }
btn-tournament_computers = 🤖 Компьютеры: { $level }
btn-tournament_computers_off = 🤖 Компьютеры: нет
btn-tournament_show_up = ⏱ На сбор: { $minutes } мин
btn-tournament_pause = ⏸ Пауза
btn-tournament_resume = ▶️ Продолжить
btn-tournament_remove = 👤 Убрать участника
btn-tournament_remove_who = 👤 { $name }
btn-tournament_remove_yes = Да, убрать: { $name }
btn-tournament_stop = ✖️ Отменить турнир
btn-tournament_stop_yes = Да, отменить
btn-tournament_no = Нет
btn-tournament_here = ✅ Я на месте

# Questions the message asks its organiser.
tournament-ask_remove = 👤 Кого убрать из турнира? Дальше за этого участника засчитываются поражения, сыгранное остаётся.
tournament-ask_remove_one = 👤 Убрать из турнира: { $name }? Дальше — поражения, сыгранное остаётся.
tournament-ask_cancel = ✖️ Отменить турнир? Идущие партии отменятся, победителя не будет.

# The command and its answers.
tournament-private = Турниры проводятся в группах: добавьте меня в группу и напишите там /tournament.
tournament-shown_again = Турнир здесь уже идёт — его сообщение ниже.
tournament-stale = Эта кнопка устарела: сообщение турнира уже другое.

# /history and /stats.
tournament-history_title = 🏆 <b>Турниры</b>
tournament-history_line = { $date } · { $game } · { $winner }
tournament-history_no_winner = без победителя
tournament-stats = 🏆 Турниров: { $played }, побед: { $won }

# core replies
tournament-not_here = Этого турнира здесь нет.
tournament-already_open = В этой теме уже есть турнир: новый можно открыть, когда он закончится.
tournament-organiser_only = Это могут организатор турнира и админы группы.
tournament-signup_closed = Запись на турнир закрыта.
tournament-signed_up = Вы записаны на турнир.
tournament-already_signed_up = Вы уже записаны.
tournament-signed_off = Вы больше не записаны на турнир.
tournament-not_signed_up = Вас нет среди участников.
tournament-full = Мест больше нет: участников уже { $n }.
tournament-withdrawn_now = Вы вышли из турнира: дальше за вас засчитываются поражения, сыгранное остаётся.
tournament-anonymous = Анонимный админ не может играть в турнире: напишите от своего имени.
tournament-bad_option = Такого значения у этой настройки нет.
tournament-pairs_need_four = Парами играют только вчетвером, а эта игра так не играется.
tournament-pairs_fixed = В этой игре пары не выбирают: она всегда играется так.
tournament-table_size_pairs = В парном турнире за столом всегда две пары.
tournament-table_size_not_played = Эту игру не играют за столом на { $n }.
tournament-rounds_swiss_only = Число туров выбирается только в швейцарской системе.
tournament-too_few = Мало участников: { $n }, а нужно не меньше { $min }.
tournament-too_many = Слишком много участников: { $n }, а в этом формате — не больше { $max }.
tournament-too_few_pairs = Мало пар: { $n }, а нужно не меньше { $min }.
tournament-too_many_pairs = Слишком много пар: { $n }, а в этом формате — не больше { $max }.
tournament-odd_pairs = Для пар нужно чётное число участников, а записано { $n }.
tournament-started = Турнир начался!
tournament-started_fewer_rounds = Турнир начался! { $rounds ->
    [one] Будет { $rounds } тур
    [few] Будет { $rounds } тура
   *[many] Будет { $rounds } туров
}: больше при { $n ->
    [one] { $n } участнике
   *[other] { $n } участниках
} не сыграть.
tournament-not_running = Турнир сейчас не идёт.
tournament-paused_now = Турнир на паузе.
tournament-resumed = Турнир продолжается.
tournament-not_paused = Турнир не на паузе.
tournament-cancelled_now = Турнир отменён.
tournament-removed = { $name } — вне турнира.
tournament-no_such_entrant = Такого участника в турнире нет.
tournament-over = Турнир уже закончился.
tournament-not_your_table = Этот стол — для других участников: { $names }.
tournament-finish_other_game = Сначала доиграйте другую партию: стол ждёт вас, пока не выйдет время на сбор.
tournament-table_fixed = Стол турнира собирает бот: менять его нельзя.
