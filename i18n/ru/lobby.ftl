### The lobby: the game being gathered, its options, the players and computers.
### In Russian, the default language.

lobby-title = 🎲 <b>Домино: { $variant }</b>
lobby-options = Игроков: { $seats } · игра до { $target }
lobby-kozel_options = Рыба: { $fish } · открыть счёт: { $threshold }
lobby-off = нет
lobby-straight = 🌀 Спиннер — только дубль, которым открыт раунд; раунд, открытый не дублем, идёт одной линией
lobby-teams_on = Пары: 2×2, партнёры напротив
lobby-teams_off = Каждый сам за себя
lobby-pairs = 🤝 Пары: { $first } · { $second }
# S-7: the game's own turn times (domino.timing), in seconds.
lobby-sport_timing = ⏱ Время на ход по правилам спортивного домино: { $one }, { $several } или { $fish } с
lobby-players = <b>Игроки ({ $joined }/{ $wanted }):</b>
lobby-hint = Нажмите «Играю», чтобы сесть за стол. Кости придут вам в личку.
# The group shows hands in the group (its /settings): nobody needs the private chat.
lobby-hint_in_group = Нажмите «🙋 Играю», чтобы сесть за стол. Играем прямо здесь: ваши кости — под столом, кнопка «✋ Мои кости»; открывать чат со мной не нужно.
# Nobody seated yet, in a group that keeps hands in private: the creator is seated only once the bot may write to them there.
lobby-nobody = За столом пока никого. Сесть — кнопка «🙋 Играю», и для создателя игры тоже: сразу за стол попадает только тот, у кого уже открыт личный чат со мной (туда приходят кости).
lobby-nobody_in_group = За столом пока никого. Сесть — кнопка «🙋 Играю».
# Every seat is taken: nobody is asked to sit down.
lobby-full = Все места заняты: можно начинать — кнопка «▶️ Начать».
lobby-closed_started = 🎲 <b>Игра началась!</b> Игроки: { $names }
lobby-closed_cancelled = ✖️ Набор в игру отменён.

computer-name = 🤖 Компьютер { $n }
# A person a computer plays for: the name stays as it is (nominative), marked.
computer-instead = { $name } (🤖)

# Computer levels: chosen per computer seat in the lobby.
level-easy = Лёгкий
level-medium = Средний
level-hard = Сильный

lobby-computer = { $name } · { $level }
lobby-already_open = В этом чате уже собирается игра: нажмите «🙋 Играю» под ней.
lobby-already_running = В этом чате уже идёт игра. Закончите её или отмените: /cancel
lobby-you_play_elsewhere = Вы уже играете в «{ $chat }». Доиграйте там или выйдите: /leave

start-welcome =
    👋 Привет! Я веду партии в домино в группах: Козёл, Классика, Морской козёл, Осёл, Спортивное, Пятёрки, Тройки и пятёрки, Берген, Дубли, Блиц, Крест, Шестёрка и Втемную.
    Добавьте меня в группу и напишите там /domino (или сразу с игрой: /domino osel). Ваши кости будут приходить сюда.
    Правила: /rules · помощь: /help
start-joined = ✅ Вы за столом в «{ $chat }». Ждём начала — кости придут сюда.
start-already_joined = Вы уже за столом в «{ $chat }».
start-back_in_game = Вы за столом: ваша рука с кнопками — в этом чате.

leave-not_playing = Вы сейчас не играете здесь.
leave-done = Вы покинули игру. Ваше место занял компьютер.

cancel-nothing = Здесь нет игры, которую можно отменить.
cancel-confirm = Отменить текущую игру? Очки не сохранятся.
cancel-confirm_lobby = Отменить текущую игру? Набор игроков закроется.
cancel-confirm_counted = Отменить текущую игру? В зачёт она всё равно пойдёт: проигрыш — { $name } (первый уход из партии).
cancel-kept = Играем дальше.

start-link_stale = Эта ссылка устарела. Нажмите «Играю» под игрой в группе.
start-not_a_member = За этот стол садятся участники группы «{ $chat }». Вступите в неё, потом нажмите «Играю» под игрой.

lobby-controls = Начать игру, менять правила и убирать игроков могут её создатель и админы чата.
lobby-remove_who = Кого убрать из-за стола?
lobby-removed = 🚫 { $name } больше не за столом.

lobby_timeout-off = никогда
lobby_timeout-min = { $n } мин

lobby-unknown_game =
    Не знаю такой игры. Начать можно так:
    { $games }
