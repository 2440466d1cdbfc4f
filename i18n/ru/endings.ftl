### How a match ends early: /surrender, the vote to cancel, a player who left.
### In Russian, the default language.

ending-finished = доиграна
ending-surrender = сдача
ending-timeout = вышло время
ending-left = уход игрока
ending-cancelled = отменена
ending-draw = ничья по согласию

# The end of a match the computers played to its end after someone abandoned it (K-11):
# why it counts as that one's loss ($reason: timeout or left), and each person's rating.
ending-played_out = { $reason ->
        [left] 🚪 { $name } — уход из игры: партию доиграл компьютер, поэтому в зачёт она идёт как проигрыш.
       *[timeout] 🤖 { $name }: время на ход трижды вышло, и партию доиграл компьютер, поэтому в зачёт она идёт как проигрыш.
    }
ending-rating = 📈 Рейтинг за партию: { $lines }

surrender-confirm = 🏳 Сдаться? Партия закончится сразу и пойдёт в зачёт как ваш проигрыш. { $loser } Рейтинга за неё вы не получите, остальные получат его за отрыв от вашего счёта.
surrender-confirm_after = 🏳 Сдаться? Партия закончится сразу. В зачёт она уже идёт как проигрыш: первый уход из партии — { $name }. { $loser } Рейтинга за неё вы не получите, остальные получат его за отрыв от счёта на момент того ухода.
surrender-not_playing = Вы сейчас не играете здесь — сдаваться не в чем.

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
vote-already_open = Голосование об отмене уже идёт — голосуйте кнопками под ним.

draw-title =
    🤝 <b>{ $name } предлагает ничью.</b>
    Если согласятся все игроки, партия закончится вничью: рейтинг никому не прибавится.
draw-count = Согласны: { $yes } из { $voters } · против: { $no }
draw-state_open = Отвечают игроки партии, { $minutes } мин. Ответ можно поменять.
draw-state_passed = 🤝 Все согласны: партия окончена вничью.
draw-state_failed = ▶️ Не все согласны: играем дальше.
draw-state_expired = ⌛ Время на ответ вышло: играем дальше.
draw-state_closed = Предложение закрыто: партия уже закончилась.
