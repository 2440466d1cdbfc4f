### The words of the pictures: the table, the round's end and the score sheet.
### In Russian, the default language.
### A picture has no room for HTML: plain text only. Spaces at a text's start or end are
### written as { " " }, since Fluent drops them otherwise.

picture-round = Раунд
picture-pairs = пары
picture-pair = пара
picture-bazaar = базар
picture-turn = ход
picture-face_up = открыты
picture-turn_of = ход: { $name }
picture-win = победа
picture-winner = Победа: { $names }
picture-went_out = домино
picture-went_out_of = домино: { $name }
picture-went_out_by = домино — { $name }
# A blocked round (C-8 b): Russian says «рыба» in every game; $game: the game's key.
picture-fisherman = рыбак
picture-fish_of = рыба, рыбак: { $name }
picture-fish_by = рыба, рыбак — { $name }
picture-draw = ничья
# M-1: the round's winner writes only from $n up.
picture-too_few = меньше { $n }: не пишется
picture-empty = стол пуст: первый ход
picture-over = Партия окончена
picture-results = Раунд { $n } · итоги
picture-round_of = Раунд { $n }:{ " " }
picture-score = Счёт · раунд { $n }
# The score sheet's columns: the accounts before the round, its points, after it.
picture-before = было
picture-points = раунд
picture-after = стало
picture-player = игрок
picture-to = { $game } · игра до { $target }
picture-eggs_next = +{ $n } в следующий раунд
picture-eggs_taken = +{ $n } забирает { $name }
# S-2: each player's card shows the tile they turned up.
picture-turned = кто ходит первым: открытые кости
# Joins the two names of a pair: «Маша и Оля».
picture-and = { " и " }
# The letters of the pairs, in order.
picture-teams = АБ
# A name with nothing drawable in it, by its seat.
picture-player_n = Игрок { $n }
picture-no_tiles = костей не осталось
# F-6: the verb of a side that reached the target: one player, a pair.
picture-reaches = набирает
picture-reach = набирают
picture-reached_of = { $name } { $verb } { $score } — партия окончена
picture-reached_by = { $name } { $verb } { $score }
picture-reached = { $verb } { $score }
# F-3: a side's round points, scored by the moves and by the round's end.
picture-in_play = в игре +{ $n }
picture-at_end = в конце +{ $n }
# B-1, B-2: the doubles a hand has left at the round's end.
picture-doubles_left = { $n ->
    [0] без дублей
    [one] { $n } дубль
    [few] { $n } дубля
   *[many] { $n } дублей
}
picture-scored = +{ $n } { $name }
picture-ends = концы: { $n }
# The loser of a match in the game's own word (K-10, O-6), else plainly a loss.
picture-loser = { $game ->
    [kozel] Козёл
    [osel] Осёл
   *[other] Проигрыш
}

# The games' names as the pictures show them.
picture-game-kozel = { variant-kozel }
picture-game-classic = { variant-classic }
picture-game-sea_kozel = { variant-sea_kozel }
picture-game-osel = { variant-osel }
picture-game-sport = { variant-sport }
picture-game-all_fives = { variant-all_fives }
picture-game-threes_and_fives = { variant-threes_and_fives }
picture-game-bergen = { variant-bergen }
picture-game-dubli = { variant-dubli }
picture-game-blitz = { variant-blitz }
picture-game-cross = { variant-cross }
picture-game-shesterka = { variant-shesterka }
picture-game-dark = { variant-dark }

# Tournament standings
# The columns' headings. An entrant is a person, a pair or a
# computer; «побед» counts the first places at a table (a match won).
picture-standings-place = место
picture-standings-entrant = участник
picture-standings-points = очки
picture-standings-played = партий
picture-standings-firsts = побед
