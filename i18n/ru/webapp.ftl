### The Mini App's own words (bot.webapp): the page's labels and the lines of its state.
### Plain text: the page shows no HTML.

webapp-connecting = Подключаемся…
webapp-reconnecting = Связь прервалась, подключаемся снова…
webapp-error = Не удалось открыть игру.
webapp-lobby = Набор игроков
webapp-spectator = Вы смотрите игру: ходят игроки за столом.
webapp-your_turn = Ваш ход
webapp-choose_end = Кость подходит к двум концам: нажмите конец на столе.
webapp-sheet = Счёт
webapp-events = Последние ходы
webapp-round_end = Конец раунда
webapp-next = К столу
webapp-close = Закрыть
webapp-bazaar = Базар
webapp-face_down = рубашкой вверх
webapp-empty_table = Стол пуст: первый ход
webapp-away = за игрока ходит компьютер
webapp-score = счёт
webapp-tiles = кости
webapp-round = Раунд
webapp-total = Итого
webapp-cancelled = Игра отменена
# The lobby's line: $n seats taken of $wanted.
webapp-lobby_status = Набор игроков: { $n } из { $wanted }
# Dismisses a menu of the hand (several doubles, closing an end): as the messages' «↩️ Назад».
webapp-menu_back = ↩️ Назад
# A tap on a tile of the hand that has no play now.
webapp-no_fit = Эта кость сейчас не подходит.
# Under the lobby's seats: who starts the game, and where (the lobby's «▶️ Начать», btn-start).
webapp-lobby_wait = Игру начнёт её создатель или админ чата кнопкой «▶️ Начать».
# The match has ended: as the group's table says it (table-over).
webapp-match_over = Партия окончена
# The round-end view's last line: each side's score now.
webapp-round_scores = Счёт: { $scores }
# A lobby whose seats are all taken.
webapp-lobby_full = Все места заняты: можно начинать
