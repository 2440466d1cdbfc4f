### The buttons.
### In Russian, the default language.

btn-join = 🙋 Играю
btn-leave = 🚪 Выйти
btn-add_computer = 🤖 Добавить компьютер
btn-opt_game = 🎲 Игра: { $game }
btn-opt_seats = 👥 Игроков: { $n }
btn-opt_target = 🎯 До { $n }
btn-opt_fish = 🐟 Рыба: { $mode }
btn-opt_threshold = 🔓 Открыть с { $n }
btn-opt_spinner = 🌀 Спиннер: { $layout }
btn-opt_teams_on = 🤝 Пары: да
btn-opt_teams_off = 🤝 Пары: нет
btn-start = ▶️ Начать
btn-cancel = ✖️ Отменить
btn-cancel_yes = Да, отменить игру
btn-cancel_no = Нет, играем дальше
btn-my_hand = ✋ Мои кости
btn-table = 🖼 Стол в группе
# The Mini App (bot.webapp): the group's direct link, and the private hand's button.
btn-open_table = 🃏 Открыть стол
btn-app_table = 🃏 Стол в приложении
btn-rematch = 🔁 Ещё партию
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
# Втемную: the one move of a player whose tiles lie face down.
btn-flip = ⬛ Открыть верхнюю
# Втемную: the face-down stack in the hand, off turn (press: whose turn it is).
btn-face_down = ⬛ × { $n }
btn-close_end = 🔒 Закрыть { $end } дублем { $tile }
btn-computer_level = { $name } · { $level }
btn-add_to_group = ➕ Добавить в группу
btn-rules = 📖 Правила
btn-open_private = Открыть личный чат
btn-rules_current = 📖 { $game }
btn-top_pairs = 👥 Пары
btn-top_players = 👤 Игроки
btn-history_back = ↩️ К списку партий
btn-surrender_yes = 🏳 Да, сдаюсь
btn-surrender_no = Нет, играю дальше
btn-vote_yes = ✅ За ({ $n })
btn-vote_no = ❌ Против ({ $n })
btn-group_lang-ru = 🇷🇺 Русский
btn-group_lang-en = 🇬🇧 English
btn-back_in_game = 🙋 Я снова играю
btn-remove_player = 🚫 Убрать игрока
btn-remove_seat = 🚫 { $name }
btn-hint = 💡 Подсказка
# The sections of a group's /settings (two a row: short enough for a phone).
btn-settings-game = 🎲 Игра
btn-settings-timer = ⏱ Таймер
btn-settings-lang = 🌐 Язык
btn-settings-lobby = ⌛ Набор
btn-settings-hints = 💡 Подсказки
btn-settings-hands = ✋ Кости
btn-turn_notices = 🔔 Напоминания о ходе: { $state }
btn-offer_draw = 🤝 Предложить ничью
btn-draw_yes = ✅ За ничью ({ $n })
btn-draw_no = ❌ Против ({ $n })
