### /settings of a group and of a private chat; turn timers.
### In Russian, the default language.

# A group's /settings: every value in force, a line a section (`SettingsSection`); a
# section opened shows its line and what it does (settings-about_*).
settings-title = ⚙️ <b>Настройки «{ $chat }»</b>
settings-game = 🎲 Игра по умолчанию: <b>{ $value }</b>
settings-timer = ⏱ Таймер хода: <b>{ $value }</b>
settings-lang = 🌐 Язык группы: <b>{ $value }</b>
settings-lobby = ⌛ Несыгранная игра закрывается через: <b>{ $value }</b>
settings-hints = 💡 Подсказки: <b>{ $value }</b>
settings-hands = ✋ Кости игроков: <b>{ $value }</b>
settings-admins = Менять могут админы чата: кнопка — раздел настроек.
settings-about_game = Её открывает /domino без названия; другую игру — /domino с её названием, например /domino osel. Новая игра по умолчанию — со следующего набора.
settings-about_timer = Время кончилось — за игрока ходит компьютер; после трёх таких ходов он играет за него, пока тот не вернётся (/hand → «Я снова играю»). Новое время — со следующего хода.
settings-about_lang = На этом языке я пишу в группе всем: игры, ответы на команды и на кнопки. В личке — каждому на его языке. Сначала язык группы — язык того, кто первым обратился здесь ко мне.
settings-about_lobby = Если за это время никто не начал игру, набор закрывается сам. Новое время — со следующего набора.
settings-about_hints = Кнопка «💡 Подсказка» в руке показывает игроку, как сходил бы сильный компьютер (видит только он). Выключенные подсказки пропадут из рук со следующего хода.
# S-7: a game with turn times of its own keeps them whatever timer is chosen, unless it is off.
settings-own_timing = ⏱ { $game }: время на ход по своим правилам — { $one }, { $several } или { $fish } с, если таймер не выключен.

group_lang-ru = русский
group_lang-en = английский

settings-in_group = Настройки — у каждой группы свои: напишите /settings в группе.

timer-off = выключен
timer-30 = 30 с
timer-60 = 60 с
timer-120 = 2 мин
timer-300 = 5 мин
timer-sport = спортивный (5 / 20 / 60 с)

settings-private =
    ⚙️ <b>Ваши настройки</b>
    🔔 Напоминания о ходе: <b>{ $state }</b>
    Если через несколько секунд после начала вашего хода вы ещё не сходили, сюда придёт уведомление «🔔 Ваш ход»; когда ход кончится, оно исчезнет.

turn_notices-on = вкл
turn_notices-off = выкл

# Where hands are shown (`HandsPlace`): a group's default, a person's own choice.
hands-group = в группе
hands-private = в личке
hands-both = в группе и в личке
hands-default = как в группе (решают её админы)
btn-hands-group = В группе
btn-hands-private = В личке
btn-hands-both = Там и там
btn-hands-default = Как в группе
settings-about_hands = «В группе» и «Там и там» — играют прямо здесь (кнопка «✋ Мои кости» под столом), открывать чат со мной не нужно; «В личке» — сначала «Запустить» у меня в личке. Каждый может выбрать своё в /settings у меня в личке.
settings-private_hands =
    ✋ Ваши кости: <b>{ $place }</b>
    Кнопка «✋ Мои кости» под столом в группе работает всегда; «В личке» и «Там и там» держат руку ещё и здесь, и «🔔 Ваш ход» приходит сюда, а при «В группе» — в группу, только вам.
