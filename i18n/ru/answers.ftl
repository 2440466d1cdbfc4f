### Answers to presses and commands, refusals, notices in the group.
### In Russian, the default language.

answer-joined = Вы за столом!
answer-left = Вы вышли из-за стола.
answer-cancelled = Игра отменена.
answer-computer_added = Компьютер за столом.
answer-rematch_opened = Новая партия: те же правила, ждём игроков.
answer-started = Поехали! Кости — в личке.
answer-started_here = Поехали! Ваши кости — под столом, кнопка «✋ Мои кости».
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
# Втемную, after «⬛ Открыть верхнюю» (never the tile: nobody may see a face-down stack).
answer-flip_laid = Кость подошла и легла на стол.
answer-flip_turned_up = Кость подошла и легла на стол. Ваши последние кости открыты — они в руке.
answer-flip_under = Не подошла: кость ушла под низ стопки.
answer-flip_under_drew = Не подошла: кость ушла под низ стопки, а сверху легла кость из базара.
# The tile turned up fits both ends: the player chooses (the hand shows the two ends).
answer-flip_choice = Кость подходит к обоим концам — выберите, к какому её положить.
answer-level_set = { $name }: { $level }

alert-not_a_computer = Эта кнопка устарела: этого компьютера за столом уже нет.

notice-left = 🚪 { $name } покидает игру, место занимает компьютер.
notice-unreachable = ⚠️ { $name }: не могу написать вам в личку. Откройте чат с @{ $bot } и нажмите «Запустить» (или разблокируйте бота) — кости придут туда.
# The group shows hands in the group: the person plays on from there.
notice-unreachable_hand_in_group = ⚠️ { $name }: не могу написать вам в личку. Ваши кости — здесь, кнопка «✋ Мои кости» под столом; /start в чате с @{ $bot } вернёт их и в личку.
notice-bot_removed = Меня удалили из «{ $chat }» — игра там остановлена.
# Said in General of a forum: the topic of a game was closed to the bot, or deleted.
notice-topic_closed = ⏸ Тему с партией закрыли, и писать туда я не могу. Партия не потеряна: ходить можно и сейчас — из лички или с уже открытых «✋ Мои кости», а стол и итоги вернутся в тему, когда её откроют.
notice-topic_deleted = 🗑 Тему с партией удалили, поэтому партия остановлена. Новую можно начать командой /domino.

private-group_only = Игра идёт в группе: добавьте меня в группу и напишите там /domino.
private-cancel_in_group = Отменить игру можно в её группе: /cancel
private-unknown_command = Не знаю такой команды. Помощь: /help
private-help_hint =
    👋 Я веду партии в домино в группах. Чтобы сыграть, добавьте меня в группу кнопкой ниже и напишите там /domino — кости будут приходить сюда.
    Правила — кнопкой «📖 Правила», все команды — /help.


alert-rules_unknown = Таких правил нет: выберите игру кнопкой под сообщением.
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
alert-no_such_page = Такой страницы нет.
alert-no_such_match = Такой партии в записях этой группы нет.
alert-no_such_game = Такой игры в этой статистике нет: пришлите команду заново.

answer-surrendered = Вы сдались. Партия окончена.
answer-playing_on = Играем дальше.

alert-not_your_confirmation = Это подтверждение не для вас.
alert-already_left = Вы уже покинули эту партию.

notice-surrendered =
    🏳 { $name } сдаётся. { $loser }
    Счёт на момент первого ухода из партии · прибавка к рейтингу:
    { $lines }
# $goat: the side that loses the match (the person who left, with the partner in pairs).
notice-left_scoring =
    🚪 { $name } уходит — партия засчитана как проигрыш: { $goat }; доиграет компьютер.
    Счёт на момент ухода: { $points }, рейтинг остальным — за отрыв от него.
notice-cancelled_counted =
    ✖️ Игра отменена, но в зачёт всё равно идёт как проигрыш: первый уход из партии — { $name }. { $loser }
    Счёт на момент ухода · прибавка к рейтингу:
    { $lines }
notice-scored_as_timeout =
    📊 Для рейтинга партия засчитана как проигрыш по тайм-ауту: место доигрывал компьютер. { $loser }
    Счёт на момент ухода · прибавка к рейтингу:
    { $lines }

answer-voted_yes = Ваш голос: за отмену.
answer-voted_no = Ваш голос: играем дальше.

answer-draw_offered = 🤝 Ничья предложена: ждём ответа остальных.
answer-draw_yes = Ваш ответ: согласие на ничью.
answer-draw_no = Ваш ответ: играем дальше.
alert-draw_offered = В этом раунде ничью уже предлагали.
alert-draw_vote_open = Сейчас идёт голосование — дождитесь, пока оно закончится.
alert-draw_after_abandonment = Ничью уже не предложить: партия идёт в зачёт из-за ухода игрока.
# $kind: the game's key; the game's own word for the loser who is not there.
notice-drawn =
    🤝 Ничья: все игроки согласились, партия окончена. { $kind ->
        [kozel] Козла нет
        [osel] Осла нет
       *[other] Проигравших нет
    }, рейтинг никому не прибавляется.
notice-draw_declined = 🤝 { $name } против ничьей: играем дальше.

alert-voted_same = Вы уже так проголосовали.
alert-vote_over = Это голосование уже закончилось.
alert-vote_not_yours = Голосуют только игроки этой партии.

answer-group_lang_set = Язык группы: { $lang }.
answer-timer_set = Таймер хода: { $timer }. Действует со следующего хода.

alert-admins_only = Менять настройки могут только админы чата.

notice-taken_over = 🤖 { $name }: трижды кончилось время на ход, дальше ходит компьютер.
# The same, when it is the match's first abandonment (K-11); $goat: the side that loses,
# $points: the seat's points now.
notice-taken_over_counted =
    🤖 { $name }: трижды кончилось время на ход, дальше ходит компьютер.
    Если не вернуться в игру кнопкой «🙋 Я снова играю», партия пойдёт в зачёт как проигрыш: { $goat }; рейтинг остальным — за отрыв от счёта { $points }.
notice-back = 🙋 { $name } снова в игре.

answer-back = С возвращением! Ваш ход — по кнопкам.
answer-not_away = Вы и так играете сами.

alert-away = Сейчас за вас играет компьютер. Вернуться в игру: /hand → «Я снова играю».
alert-foreign_game = Эта кнопка не относится к игре этого чата.
alert-creator_or_admin_only = Это могут создатель игры и админы чата.
alert-start_private_first = Сначала откройте чат с @{ $bot } и нажмите «Старт», потом — «Играю».

answer-removed = { $name } больше не за столом.

alert-nobody_to_remove = За столом пока никого нет.
alert-nobody_else_to_remove = За столом пока только вы. Чтобы выйти, нажмите «🚪 Выйти».
alert-not_seated_any_more = Этого игрока уже нет на этом месте.

notice-lobby_timed_out = ⌛ Игру никто не начал за { $minutes } мин, набор закрыт. Новая игра: /domino

answer-lobby_timeout_set = Новые игры закрываются без старта через: { $time }.
answer-default_game_set = Новые игры по /domino: { $game }.

spam-cooldown = ⏳ { $name }, слишком много команд подряд: на ваши команды я снова отвечу через минуту.

alert-db_unavailable = ⏳ Секунду… Бот не смог сохранить нажатие, ничего не изменилось. Нажмите ещё раз через несколько секунд.

reply-db_unavailable = ⏳ Секунду… Бот не смог это сохранить, ничего не изменилось. Повторите команду через несколько секунд.

alert-hint_stale = Этот ход уже сделан — подсказка к нему больше не нужна.
alert-hints_off = В этой группе подсказки выключены (/settings).
# Втемную: a hint pressed while the presser's tiles lie face down (the one move is the flip).
alert-hint_face_down = Подсказывать нечего: кости лежат рубашкой вверх, и ход один — «⬛ Открыть верхнюю».

answer-hint_too_fast = Подсказка уже готовится — через мгновение нажмите ещё раз.
answer-hints_set = 💡 Подсказки: { $state }. Кнопка на руках — со следующего хода.

notice-turn = 🔔 Ваш ход — { $chat }

answer-turn_notices_set = 🔔 Напоминания о ходе: { $state }.
answer-hands_set = ✋ Ваши кости: { $place }.
answer-group_hands_set = ✋ Кости игроков: { $place }.
