"""All user-facing text, Russian first and English, through one function: `t()`.

`lang_of(language_code)` picks the language from a Telegram user's settings
(English for `en*`, Russian for everything else: Russian is the default). Texts are
`str.format` templates; the test suite checks that every key has both languages
with the same placeholders. The players' own words stay as they say them: рыба,
козёл, базар, яйца, стучу, вышел, рыбак.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from enum import StrEnum
from typing import Any


class Lang(StrEnum):
    RU = "ru"
    EN = "en"


DEFAULT_LANG = Lang.RU


def lang_of(language_code: str | None) -> Lang:
    """The language to answer a person in, from Telegram's `language_code`."""
    if language_code and language_code.lower().startswith("en"):
        return Lang.EN
    return DEFAULT_LANG


TEXTS: Mapping[str, Mapping[Lang, str]] = {
    # The domain's words (RULES.md: they must appear in the Russian UI exactly so).
    "variant.kozel": {Lang.RU: "Козёл", Lang.EN: "Kozel (Goat)"},
    "variant.classic": {Lang.RU: "Классика", Lang.EN: "Classic"},
    "term.fish": {Lang.RU: "рыба", Lang.EN: "fish (blocked)"},
    "term.goat": {Lang.RU: "козёл", Lang.EN: "goat"},
    "term.bazaar": {Lang.RU: "базар", Lang.EN: "boneyard"},
    "term.eggs": {Lang.RU: "яйца", Lang.EN: "eggs"},
    "term.knock": {Lang.RU: "стучу", Lang.EN: "knock"},
    "term.fisherman": {Lang.RU: "рыбак", Lang.EN: "fisherman"},
    "fish.each": {Lang.RU: "на всех", Lang.EN: "each scores"},
    "fish.max_takes_all": {Lang.RU: "на одного", Lang.EN: "top takes all"},
    "fish.fisherman_takes_all": {Lang.RU: "на рыбака", Lang.EN: "fisherman takes all"},
    # The lobby.
    "lobby.title": {Lang.RU: "🁢 <b>Домино: {variant}</b>", Lang.EN: "🁢 <b>Dominoes: {variant}</b>"},
    "lobby.options": {
        Lang.RU: "Игроков: {seats} · игра до {target}",
        Lang.EN: "Players: {seats} · game to {target}",
    },
    "lobby.kozel_options": {
        Lang.RU: "Рыба: {fish} · открыть счёт: {threshold}",
        Lang.EN: "Fish: {fish} · open the account at: {threshold}",
    },
    "lobby.off": {Lang.RU: "нет", Lang.EN: "off"},
    "lobby.teams_on": {
        Lang.RU: "Пары: 2×2, партнёры напротив",
        Lang.EN: "Teams: 2×2, partners opposite",
    },
    "lobby.teams_off": {Lang.RU: "Каждый сам за себя", Lang.EN: "Every player for themselves"},
    "lobby.players": {
        Lang.RU: "<b>Игроки ({joined}/{wanted}):</b>",
        Lang.EN: "<b>Players ({joined}/{wanted}):</b>",
    },
    "lobby.hint": {
        Lang.RU: "Нажмите «Играю», чтобы сесть за стол. Кости придут вам в личку.",
        Lang.EN: "Press “Join” to take a seat. Your tiles arrive in a private chat.",
    },
    "btn.join": {Lang.RU: "🙋 Играю", Lang.EN: "🙋 Join"},
    "btn.leave": {Lang.RU: "🚪 Выйти", Lang.EN: "🚪 Leave"},
    "btn.add_computer": {Lang.RU: "🤖 Добавить компьютер", Lang.EN: "🤖 Add a computer player"},
    "btn.opt_seats": {Lang.RU: "👥 Игроков: {n}", Lang.EN: "👥 Players: {n}"},
    "btn.opt_target": {Lang.RU: "🎯 До {n}", Lang.EN: "🎯 To {n}"},
    "btn.opt_fish": {Lang.RU: "🐟 Рыба: {mode}", Lang.EN: "🐟 Fish: {mode}"},
    "btn.opt_threshold": {Lang.RU: "🔓 Открыть с {n}", Lang.EN: "🔓 Open at {n}"},
    "btn.opt_teams_on": {Lang.RU: "🤝 Пары: да", Lang.EN: "🤝 Teams: yes"},
    "btn.opt_teams_off": {Lang.RU: "🤝 Пары: нет", Lang.EN: "🤝 Teams: no"},
    "btn.start": {Lang.RU: "▶️ Начать", Lang.EN: "▶️ Start"},
    "btn.cancel": {Lang.RU: "✖️ Отменить", Lang.EN: "✖️ Cancel"},
    "btn.cancel_yes": {Lang.RU: "Да, отменить игру", Lang.EN: "Yes, cancel the game"},
    "btn.cancel_no": {Lang.RU: "Нет, играем дальше", Lang.EN: "No, play on"},
    # The table in the group.
    "table.title": {
        Lang.RU: "<b>{variant}</b> · раунд {n}",
        Lang.EN: "<b>{variant}</b> · round {n}",
    },
    "table.turn": {Lang.RU: "Ход: <b>{name}</b>", Lang.EN: "To move: <b>{name}</b>"},
    "table.over": {Lang.RU: "Партия окончена.", Lang.EN: "The match is over."},
    "table.team_score": {Lang.RU: "   пара {names}: {score}", Lang.EN: "   team {names}: {score}"},
    "table.bazaar": {Lang.RU: "базар: {n}", Lang.EN: "boneyard: {n}"},
    "table.ends": {Lang.RU: "концы: {ends}", Lang.EN: "open ends: {ends}"},
    "event.played": {Lang.RU: "{name} ходит", Lang.EN: "{name} plays"},
    "event.knocked": {Lang.RU: "{name}: стучу", Lang.EN: "{name}: knocks"},
    "event.drew": {Lang.RU: "{name} берёт из базара", Lang.EN: "{name} draws"},
    "table.cancelled": {Lang.RU: "✖️ Игра отменена.", Lang.EN: "✖️ The game was cancelled."},
    "lobby.closed_started": {
        Lang.RU: "🁢 <b>Игра началась!</b> Игроки: {names}",
        Lang.EN: "🁢 <b>The game has started!</b> Players: {names}",
    },
    "lobby.closed_cancelled": {
        Lang.RU: "✖️ Набор в игру отменён.",
        Lang.EN: "✖️ The game was called off.",
    },
    # The hand in the private chat.
    "hand.cancelled": {Lang.RU: "✖️ Игра отменена.", Lang.EN: "✖️ The game was cancelled."},
    "btn.table": {Lang.RU: "🖼 Стол в группе", Lang.EN: "🖼 The table in the group"},
    "hand.title": {
        Lang.RU: "🁢 <b>{variant}</b> в «{chat}» · раунд {n}",
        Lang.EN: "🁢 <b>{variant}</b> in “{chat}” · round {n}",
    },
    "hand.your_turn": {Lang.RU: "<b>Ваш ход!</b>", Lang.EN: "<b>Your turn!</b>"},
    "hand.waiting": {
        Lang.RU: "Ходят соперники, стол — в группе. Нажмите на кость, чтобы узнать, чей ход.",
        Lang.EN: "The others are moving; the table is in the group. "
        "Press a tile to see whose turn it is.",
    },
    "hand.over": {Lang.RU: "Партия окончена.", Lang.EN: "The match is over."},
    "hand.drew": {Lang.RU: "Из базара: {tiles}", Lang.EN: "From the boneyard: {tiles}"},
    "hand.empty_table": {Lang.RU: "Стол пуст.", Lang.EN: "The table is empty."},
    "hand.others": {
        Lang.RU: "У соперников: {others} · базар: {bazaar}",
        Lang.EN: "Others hold: {others} · boneyard: {bazaar}",
    },
    "hand.scores": {Lang.RU: "Счёт: {scores}", Lang.EN: "Score: {scores}"},
    "btn.end": {Lang.RU: "{tile} на {end}", Lang.EN: "{tile} on {end}"},
    "btn.back": {Lang.RU: "↩️ Назад", Lang.EN: "↩️ Back"},
    "btn.draw": {Lang.RU: "🎲 Взять из базара", Lang.EN: "🎲 Draw"},
    "btn.knock": {Lang.RU: "✊ Стучу", Lang.EN: "✊ Knock"},
    # Announcements in the group.
    "announce.went_out": {
        Lang.RU: "🏁 Раунд {n}: вышел — {name}!",
        Lang.EN: "🏁 Round {n}: {name} went out!",
    },
    "announce.fish": {
        Lang.RU: "🐟 Рыба! Рыбак — {name}.",
        Lang.EN: "🐟 Fish! The fisherman is {name}.",
    },
    "announce.eggs": {
        Lang.RU: "🥚 Яйца: {points} очков переходят в следующий раунд.",
        Lang.EN: "🥚 Eggs: {points} points carry over to the next round.",
    },
    "announce.eggs_taken": {
        Lang.RU: "🥚 Яйца ({points}) забирает {name}.",
        Lang.EN: "🥚 {name} takes the eggs ({points}).",
    },
    "announce.goat": {Lang.RU: "🐐 Козёл — {names}", Lang.EN: "🐐 The goat is {names}"},
    "announce.winner": {Lang.RU: "🏆 Победа — {names}", Lang.EN: "🏆 The winner is {names}"},
    # Answers to presses and commands.
    "answer.joined": {Lang.RU: "Вы за столом!", Lang.EN: "You have a seat!"},
    "answer.left": {Lang.RU: "Вы вышли из-за стола.", Lang.EN: "You left the table."},
    "answer.cancelled": {Lang.RU: "Игра отменена.", Lang.EN: "The game is cancelled."},
    "answer.computer_added": {
        Lang.RU: "Компьютер за столом.",
        Lang.EN: "A computer player sits down.",
    },
    "answer.started": {
        Lang.RU: "Поехали! Кости — в личке.",
        Lang.EN: "Off we go! Tiles are in your private chat.",
    },
    "answer.tile_does_not_fit": {
        Lang.RU: "Эта кость сейчас не подходит: отмеченные ✅ — подходят.",
        Lang.EN: "That tile does not fit now: the ones marked ✅ do.",
    },
    "answer.choose_end": {Lang.RU: "Куда положить?", Lang.EN: "Which end?"},
    "answer.drew": {Lang.RU: "Из базара: {tiles}", Lang.EN: "From the boneyard: {tiles}"},
    "computer.name": {Lang.RU: "🤖 Компьютер {n}", Lang.EN: "🤖 Computer {n}"},
    "computer.instead": {Lang.RU: "🤖 вместо {name}", Lang.EN: "🤖 for {name}"},
    "lobby.already_open": {
        Lang.RU: "В этом чате уже собирается игра: нажмите «🙋 Играю» под ней.",
        Lang.EN: "A game is already gathering players in this chat: press “🙋 Join” under it.",
    },
    "lobby.already_running": {
        Lang.RU: "В этом чате уже идёт игра. Закончите её или отмените: /cancel",
        Lang.EN: "A game is already running in this chat. Finish it or /cancel it.",
    },
    "lobby.you_play_elsewhere": {
        Lang.RU: "Вы уже играете в «{chat}». Доиграйте там или выйдите: /leave",
        Lang.EN: "You are already playing in “{chat}”. Finish there or /leave.",
    },
    "start.welcome": {
        Lang.RU: "👋 Привет! Я веду партии в домино («Козёл») в группах.\n"
        "Добавьте меня в группу и напишите там /domino. Ваши кости будут приходить сюда.\n"
        "Правила: /rules · помощь: /help",
        Lang.EN: "👋 Hi! I run domino games («Kozel») in group chats.\n"
        "Add me to a group and send /domino there. Your tiles will arrive here.\n"
        "Rules: /rules · help: /help",
    },
    "start.joined": {
        Lang.RU: "✅ Вы за столом в «{chat}». Ждём начала — кости придут сюда.",
        Lang.EN: "✅ You have a seat in “{chat}”. Your tiles will arrive here once it starts.",
    },
    "start.already_joined": {
        Lang.RU: "Вы уже за столом в «{chat}».",
        Lang.EN: "You already have a seat in “{chat}”.",
    },
    "start.back_in_game": {
        Lang.RU: "С возвращением! Ваши кости — ниже.",
        Lang.EN: "Welcome back! Your tiles are below.",
    },
    "leave.not_playing": {
        Lang.RU: "Вы сейчас не играете здесь.",
        Lang.EN: "You are not playing here right now.",
    },
    "leave.done": {
        Lang.RU: "Вы покинули игру. Ваше место занял компьютер.",
        Lang.EN: "You left the game. A computer player took your seat.",
    },
    "hand.moved": {Lang.RU: "Рука перенесена ниже ⬇️", Lang.EN: "Your hand moved below ⬇️"},
    "hand.you_left": {Lang.RU: "Вы покинули эту игру.", Lang.EN: "You left this game."},
    "hand.no_game": {
        Lang.RU: "Вы сейчас не играете. Начните игру в группе: /domino",
        Lang.EN: "You are not in a game. Start one in a group: /domino",
    },
    "cancel.nothing": {
        Lang.RU: "Здесь нет игры, которую можно отменить.",
        Lang.EN: "There is no game to cancel here.",
    },
    "cancel.confirm": {
        Lang.RU: "Отменить текущую игру? Очки не сохранятся.",
        Lang.EN: "Cancel the current game? Its scores will not be kept.",
    },
    "cancel.kept": {Lang.RU: "Играем дальше.", Lang.EN: "Playing on."},
    "notice.left": {
        Lang.RU: "🚪 {name} покидает игру, место занимает компьютер.",
        Lang.EN: "🚪 {name} left the game; a computer player took the seat.",
    },
    "notice.unreachable": {
        Lang.RU: "⚠️ Не могу написать {name} в личку. Откройте чат с @{bot} и нажмите «Start» "
        "(или разблокируйте бота) — кости придут туда.",
        Lang.EN: "⚠️ I cannot write to {name} privately. Open a chat with @{bot} and press "
        "Start (or unblock the bot) to get your tiles.",
    },
    "notice.bot_removed": {
        Lang.RU: "Меня удалили из «{chat}» — игра там остановлена.",
        Lang.EN: "I was removed from “{chat}”, so the game there has stopped.",
    },
    "private.group_only": {
        Lang.RU: "Игра идёт в группе: добавьте меня в группу и напишите там /domino.",
        Lang.EN: "Games happen in groups: add me to a group and send /domino there.",
    },
    "private.cancel_in_group": {
        Lang.RU: "Отменить игру можно в её группе: /cancel",
        Lang.EN: "Cancel a game in its group: /cancel",
    },
    "private.unknown_command": {
        Lang.RU: "Не знаю такой команды. Помощь: /help",
        Lang.EN: "I do not know that command. Help: /help",
    },
    "group.hand_is_private": {
        Lang.RU: "Ваши кости — в личном чате со мной.",
        Lang.EN: "Your tiles are in your private chat with me.",
    },
    "btn.open_private": {Lang.RU: "Открыть личный чат", Lang.EN: "Open the private chat"},
    "rules.kozel": {
        Lang.RU: "<b>Козёл</b> — кто первым наберёт {target} очков, тот и козёл.\n"
        "• 2–4 игрока, по 7 костей; остальное — базар. Вчетвером можно парами.\n"
        "• Первым ходит тот, у кого 1-1 (нет — 2-2, … 6-6, 0-0).\n"
        "• Кладите кость к концу с тем же числом. Есть что положить — кладите.\n"
        "• Нечем ходить — берите из базара, пока не подойдёт; базар пуст — «стучу».\n"
        "• Раунд кончается, когда кто-то вышел, или «рыбой»: ходить больше некому.\n"
        "• Очки — сумма на ваших костях (одинокий 0-0 — 10). Пока счёт не открыт, очки "
        "меньше 13 запоминаются (+N).\n"
        "• Рыба: все очки получает набравший больше всех; ничья — «яйца» переходят дальше.",
        Lang.EN: "<b>Kozel (Goat)</b>: whoever first reaches {target} points is the goat.\n"
        "• 2–4 players, 7 tiles each; the rest is the boneyard. Four may play in pairs.\n"
        "• The holder of 1-1 leads (else 2-2, … 6-6, 0-0).\n"
        "• Lay a tile on an end with the same number. If you can play, you must.\n"
        "• Cannot play: draw until a tile fits; boneyard empty: knock.\n"
        "• A round ends when someone goes out, or in a fish: nobody can play.\n"
        "• Points are the pips left in your hand (a lone 0-0 counts 10). Until your account "
        "is open, rounds under 13 are remembered (+N).\n"
        "• Fish: the player with the most points takes them all; a tie makes eggs that "
        "carry over.",
    },
    "help.group": {
        Lang.RU: "/domino — новая игра (лобби с кнопками)\n/rules — правила\n"
        "/leave — выйти из игры (за вас доиграет компьютер)\n"
        "/surrender — сдаться (вы — козёл)\n"
        "/cancel — отменить игру (создатель или админ; игроки — голосованием)\n"
        "/hand — где мои кости\n/settings — таймер хода (меняют админы)\n"
        "/top — рейтинг группы · /stats — моя статистика · /history — последние партии",
        Lang.EN: "/domino — a new game (a lobby with buttons)\n/rules — the rules\n"
        "/leave — leave the game (a computer plays on)\n"
        "/surrender — give up (you are the goat)\n"
        "/cancel — cancel the game (creator or admin; players by a vote)\n"
        "/hand — where are my tiles\n/settings — the turn timer (admins change it)\n"
        "/top — the group's leaderboard · /stats — my stats · /history — the last matches",
    },
    "help.private": {
        Lang.RU: "Здесь приходят ваши кости: нажимайте ✅ кость, чтобы сходить.\n"
        "/hand — прислать руку заново\n/leave — выйти из игры\n"
        "/surrender — сдаться (вы — козёл)\n/rules — правила\n"
        "/stats — моя статистика по всем группам\n"
        "Начать игру: добавьте меня в группу и напишите там /domino.",
        Lang.EN: "Your tiles arrive here: press a ✅ tile to play it.\n"
        "/hand — send my hand again\n/leave — leave the game\n"
        "/surrender — give up (you are the goat)\n/rules — the rules\n"
        "/stats — my stats across all groups\n"
        "To start a game, add me to a group and send /domino there.",
    },
    # The command menu (setMyCommands).
    "cmd.domino": {Lang.RU: "новая игра в домино", Lang.EN: "a new game of dominoes"},
    "cmd.rules": {Lang.RU: "правила «Козла»", Lang.EN: "the rules of Kozel"},
    "cmd.help": {Lang.RU: "помощь", Lang.EN: "help"},
    "cmd.hand": {Lang.RU: "прислать мои кости заново", Lang.EN: "send my tiles again"},
    "cmd.leave": {Lang.RU: "выйти из игры", Lang.EN: "leave the game"},
    "cmd.cancel": {Lang.RU: "отменить игру", Lang.EN: "cancel the game"},
    # Refusals: a press or command that changes nothing.
    "alert.lobby_closed": {
        Lang.RU: "Набор в эту игру закрыт.",
        Lang.EN: "This game is no longer taking players.",
    },
    "alert.already_seated": {Lang.RU: "Вы уже за столом.", Lang.EN: "You already have a seat."},
    "alert.not_seated": {Lang.RU: "Вы не за столом.", Lang.EN: "You do not have a seat."},
    "alert.creator_only": {
        Lang.RU: "Это может только тот, кто создал игру.",
        Lang.EN: "Only the game's creator can do that.",
    },
    "alert.creator_or_admin": {
        Lang.RU: "Отменить игру может её создатель или админ чата.",
        Lang.EN: "Only the game's creator or a chat admin can cancel it.",
    },
    "alert.table_full": {Lang.RU: "Мест за столом больше нет.", Lang.EN: "The table is full."},
    "alert.not_enough_players": {
        Lang.RU: "Нужно игроков: {wanted}, за столом: {have}. "
        "Позовите друзей или добавьте компьютер.",
        Lang.EN: "{wanted} players needed, {have} seated. Invite friends or add a computer player.",
    },
    "alert.playing_elsewhere": {
        Lang.RU: "Вы уже играете в другой игре. Доиграйте её или выйдите: /leave",
        Lang.EN: "You are already in another game. Finish it or /leave it.",
    },
    "alert.teams_need_four": {
        Lang.RU: "Пары бывают только вчетвером.",
        Lang.EN: "Teams need four players.",
    },
    "alert.illegal": {
        Lang.RU: "Так сходить нельзя.",
        Lang.EN: "That move is not allowed.",
    },
    "alert.not_in_game": {
        Lang.RU: "Вы не играете в этой партии.",
        Lang.EN: "You are not playing in this game.",
    },
    "alert.stale": {
        Lang.RU: "Эта кнопка устарела: игра ушла дальше.",
        Lang.EN: "This button is out of date: the game has moved on.",
    },
    "alert.finished": {Lang.RU: "Эта партия уже закончилась.", Lang.EN: "This game is over."},
    "alert.not_your_turn": {
        Lang.RU: "Сейчас ходит {name}.",
        Lang.EN: "It is {name}'s turn.",
    },
    # /top, /stats, /history and the score sheets (issue 6).
    "cmd.top": {Lang.RU: "рейтинг группы", Lang.EN: "the group's leaderboard"},
    "cmd.stats": {Lang.RU: "моя статистика", Lang.EN: "my stats"},
    "cmd.history": {Lang.RU: "последние партии группы", Lang.EN: "the group's last matches"},
    "top.title": {
        Lang.RU: "🏆 <b>Рейтинг «{chat}»</b> · стр. {page}/{pages}",
        Lang.EN: "🏆 <b>Leaderboard of “{chat}”</b> · page {page}/{pages}",
    },
    "top.pairs_title": {
        Lang.RU: "🏆 <b>Рейтинг пар «{chat}»</b> · стр. {page}/{pages}",
        Lang.EN: "🏆 <b>Pairs of “{chat}”</b> · page {page}/{pages}",
    },
    "top.col_name": {Lang.RU: "Игрок", Lang.EN: "Player"},
    "top.col_pair": {Lang.RU: "Пара", Lang.EN: "Pair"},
    "top.col_rating": {Lang.RU: "Очки", Lang.EN: "Pts"},
    "top.col_elo": {Lang.RU: "Elo", Lang.EN: "Elo"},
    "top.col_matches": {Lang.RU: "Игр", Lang.EN: "Mat"},
    "top.col_goats": {Lang.RU: "Коз", Lang.EN: "Goat"},
    "top.col_safe": {Lang.RU: "Не коз", Lang.EN: "Safe"},
    "top.col_fish": {Lang.RU: "Рыб", Lang.EN: "Fish"},
    "top.col_avg": {Lang.RU: "Ср", Lang.EN: "Avg"},
    "top.legend": {
        Lang.RU: "<i>Очки — рейтинг за партии (K-11), Elo — по партиям без компьютеров. "
        "Игр — партий, Коз — раз козлом, Не коз — доля партий не козлом, "
        "Рыб — сделано рыб, Ср — средний итог партии.</i>",
        Lang.EN: "<i>Pts — the match rating (K-11); Elo — from matches without computers. "
        "Mat — matches, Goat — times the goat, Safe — share of matches not the goat, "
        "Fish — fish made, Avg — average final points.</i>",
    },
    "top.pairs_legend": {
        Lang.RU: "<i>Пара — те же двое в игре 2×2, где бы ни сидели. Очки — рейтинг (K-11), "
        "Игр — партий, Коз — раз козлом, Не коз — доля партий не козлом, "
        "Ср — средний итог.</i>",
        Lang.EN: "<i>A pair is the same two people in a 2×2 game, whatever their seats. "
        "Pts — rating (K-11), Mat — matches, Goat — times the goat, "
        "Safe — share not the goat, Avg — average final points.</i>",
    },
    "top.empty": {
        Lang.RU: "🏆 В этой группе ещё не сыграно ни одной партии. Начните: /domino",
        Lang.EN: "🏆 No matches played in this group yet. Start one: /domino",
    },
    "top.pairs_empty": {
        Lang.RU: "👥 Партий парами (вчетвером, 2×2) здесь ещё не было.",
        Lang.EN: "👥 No team matches (four players, 2×2) here yet.",
    },
    "top.private": {
        Lang.RU: "Рейтинг ведётся по группам: напишите /top в группе, где играете. "
        "Ваша статистика по всем группам: /stats",
        Lang.EN: "Leaderboards belong to groups: send /top in a group where you play. "
        "Your stats across all groups: /stats",
    },
    "btn.top_pairs": {Lang.RU: "👥 Пары", Lang.EN: "👥 Pairs"},
    "btn.top_players": {Lang.RU: "👤 Игроки", Lang.EN: "👤 Players"},
    "stats.title_group": {
        Lang.RU: "📊 <b>{name}</b> в «{chat}»",
        Lang.EN: "📊 <b>{name}</b> in “{chat}”",
    },
    "stats.title_all": {
        Lang.RU: "📊 <b>{name}</b> во всех группах",
        Lang.EN: "📊 <b>{name}</b> across all groups",
    },
    "stats.matches": {
        Lang.RU: "Партий: {n} · рейтинг: {rating} · Elo: {elo}",
        Lang.EN: "Matches: {n} · rating: {rating} · Elo: {elo}",
    },
    "stats.goats": {
        Lang.RU: "🐐 Козлом: {n} ({share} партий)",
        Lang.EN: "🐐 The goat: {n} ({share} of matches)",
    },
    "stats.went_out": {Lang.RU: "🏁 Вышел в раундах: {n}", Lang.EN: "🏁 Went out: {n} rounds"},
    "stats.fish": {Lang.RU: "🐟 Рыб сделано: {n}", Lang.EN: "🐟 Fish made: {n}"},
    "stats.eggs": {Lang.RU: "🥚 Яиц забрано: {n}", Lang.EN: "🥚 Eggs taken: {n}"},
    "stats.best": {
        Lang.RU: "👍 Лучшая партия: итог {points}, {date} (рейтинг +{gain})",
        Lang.EN: "👍 Best match: {points} points, {date} (rating +{gain})",
    },
    "stats.worst": {
        Lang.RU: "👎 Худшая партия: итог {points}, {date} (рейтинг +{gain})",
        Lang.EN: "👎 Worst match: {points} points, {date} (rating +{gain})",
    },
    "stats.streak_safe": {
        Lang.RU: "🔥 Партий подряд не козлом: {n}",
        Lang.EN: "🔥 Matches in a row not the goat: {n}",
    },
    "stats.streak_goat": {
        Lang.RU: "🐐 Козлом партий подряд: {n}",
        Lang.EN: "🐐 The goat in a row: {n} matches",
    },
    "stats.none_group": {
        Lang.RU: "📊 {name}: в этой группе записанных партий пока нет. Сыграть: /domino",
        Lang.EN: "📊 {name}: no recorded matches in this group yet. Play one: /domino",
    },
    "stats.none_all": {
        Lang.RU: "📊 {name}: записанных партий пока нет. Добавьте меня в группу и "
        "напишите там /domino.",
        Lang.EN: "📊 {name}: no recorded matches yet. Add me to a group and send /domino there.",
    },
    "history.title": {
        Lang.RU: "📜 <b>Партии в «{chat}»</b> · стр. {page}/{pages}",
        Lang.EN: "📜 <b>Matches in “{chat}”</b> · page {page}/{pages}",
    },
    "history.entry": {
        Lang.RU: "<b>{n}.</b> {date} · {variant} · {ending} · раундов: {rounds}",
        Lang.EN: "<b>{n}.</b> {date} · {variant} · {ending} · rounds: {rounds}",
    },
    "history.hint": {
        Lang.RU: "<i>Кнопка с номером открывает запись партии по раундам.</i>",
        Lang.EN: "<i>A numbered button opens that match's round-by-round score sheet.</i>",
    },
    "history.empty": {
        Lang.RU: "📜 Здесь ещё нет сыгранных партий. Начните: /domino",
        Lang.EN: "📜 No matches played here yet. Start one: /domino",
    },
    "history.private": {
        Lang.RU: "История партий ведётся по группам: напишите /history в группе.",
        Lang.EN: "Match history belongs to groups: send /history in a group.",
    },
    "ending.finished": {Lang.RU: "доиграна", Lang.EN: "played out"},
    "ending.surrender": {Lang.RU: "сдача", Lang.EN: "surrender"},
    "ending.timeout": {Lang.RU: "вышло время", Lang.EN: "timeout"},
    "ending.left": {Lang.RU: "игрок ушёл", Lang.EN: "a player left"},
    "ending.cancelled": {Lang.RU: "отменена", Lang.EN: "cancelled"},
    "btn.history_back": {Lang.RU: "↩️ К списку партий", Lang.EN: "↩️ Back to the matches"},
    "sheet.title": {
        Lang.RU: "📋 <b>Партия №{id}</b> · {variant} до {target} · {date} · {ending}",
        Lang.EN: "📋 <b>Match #{id}</b> · {variant} to {target} · {date} · {ending}",
    },
    "sheet.player": {
        Lang.RU: "{seat}. {name}{goat}: итог {points}",
        Lang.EN: "{seat}. {name}{goat}: {points} points",
    },
    "sheet.col_round": {Lang.RU: "Р", Lang.EN: "R"},
    "sheet.col_outcome": {Lang.RU: "Исход", Lang.EN: "Result"},
    "sheet.went_out": {Lang.RU: "вышел {seat}", Lang.EN: "out {seat}"},
    "sheet.fish": {Lang.RU: "рыба {seat}", Lang.EN: "fish {seat}"},
    "sheet.eggs": {Lang.RU: "яйца +{n} дальше", Lang.EN: "eggs +{n} carried"},
    "sheet.cut": {
        Lang.RU: "Первые раунды ({n}) не поместились в сообщение; ниже — последние.",
        Lang.EN: "The first {n} rounds did not fit in one message; the latest follow.",
    },
    "sheet.legend": {
        Lang.RU: "<i>«вышел N» — вышел игрок N; «рыба N» — рыба, рыбак — игрок N. "
        "В строке раунда — очки за раунд, под ней — счёт после раунда. В «Козле» очки "
        "до открытия счёта только запоминаются и входят в счёт потом.</i>",
        Lang.EN: "<i>“out N”: player N went out; “fish N”: a fish, player N the fisherman. "
        "A round's line holds its points, the line below the score after it. In Kozel, "
        "points before the account is open are only remembered and count later.</i>",
    },
    "alert.no_such_page": {
        Lang.RU: "Такой страницы нет.",
        Lang.EN: "There is no such page.",
    },
    "alert.no_such_match": {
        Lang.RU: "Такой партии в записях этой группы нет.",
        Lang.EN: "There is no such match in this group's records.",
    },
    # Endings (issue 7): /surrender, the vote to cancel, how an abandoned match is scored.
    "cmd.surrender": {Lang.RU: "сдаться (вы — козёл)", Lang.EN: "give up (you are the goat)"},
    "surrender.confirm": {
        Lang.RU: "🏳 Сдаться? Партия закончится сразу, козлом будете вы; очки остальных "
        "посчитаем как при тайм-ауте (K-11).",
        Lang.EN: "🏳 Give up? The match ends at once with you as the goat; the others are "
        "scored as for a timeout (K-11).",
    },
    "surrender.not_playing": {
        Lang.RU: "Вы сейчас не играете здесь — сдаваться не в чем.",
        Lang.EN: "You are not playing here, so there is nothing to give up.",
    },
    "btn.surrender_yes": {Lang.RU: "🏳 Да, сдаюсь", Lang.EN: "🏳 Yes, I give up"},
    "btn.surrender_no": {Lang.RU: "Нет, играю дальше", Lang.EN: "No, play on"},
    "answer.surrendered": {
        Lang.RU: "Вы сдались. Партия окончена.",
        Lang.EN: "You gave up. The match is over.",
    },
    "answer.playing_on": {Lang.RU: "Играем дальше.", Lang.EN: "Playing on."},
    "alert.not_your_confirmation": {
        Lang.RU: "Это подтверждение не для вас.",
        Lang.EN: "This confirmation is not yours.",
    },
    "alert.already_left": {
        Lang.RU: "Вы уже покинули эту партию.",
        Lang.EN: "You have already left this match.",
    },
    "notice.surrendered": {
        Lang.RU: "🏳 {name} сдаётся. 🐐 Козёл — {goat}.\n"
        "Очки и рейтинг (как при тайм-ауте, K-11):\n{lines}",
        Lang.EN: "🏳 {name} gives up. 🐐 The goat is {goat}.\n"
        "Points and rating (as for a timeout, K-11):\n{lines}",
    },
    "notice.left_scoring": {
        Lang.RU: "Партию доиграет компьютер, но в зачёт она пойдёт как при тайм-ауте (K-11): "
        "{name} — козёл с {points} очк., остальным — рейтинг за отрыв от {name}.",
        Lang.EN: "A computer plays the match out, but it counts as for a timeout (K-11): "
        "{name} is the goat with {points} points; the others gain rating by their lead "
        "over {name}.",
    },
    "notice.scored_as_timeout": {
        Lang.RU: "В зачёт партия идёт как при тайм-ауте (K-11): 🐐 козёл — {goat}.\n"
        "Очки и рейтинг:\n{lines}",
        Lang.EN: "The match counts as for a timeout (K-11): 🐐 the goat is {goat}.\n"
        "Points and rating:\n{lines}",
    },
    "table.surrendered": {
        Lang.RU: "🏳 {name} сдаётся. Партия окончена.",
        Lang.EN: "🏳 {name} gave up. The match is over.",
    },
    "hand.surrendered": {
        Lang.RU: "🏳 {name} сдаётся. Партия окончена.",
        Lang.EN: "🏳 {name} gave up. The match is over.",
    },
    "vote.title": {
        Lang.RU: "🗳 <b>{name} предлагает отменить игру.</b>\n"
        "Сразу отменить может только создатель или админ чата, поэтому решаем голосованием.",
        Lang.EN: "🗳 <b>{name} proposes to cancel the game.</b>\n"
        "Only the creator or a chat admin can cancel it outright, so the players vote.",
    },
    "vote.count": {
        Lang.RU: "За: {yes} · против: {no} · чтобы отменить, нужно «за»: {needed} из {voters}",
        Lang.EN: "For: {yes} · against: {no} · cancelling needs {needed} of {voters} for",
    },
    "vote.who_yes": {Lang.RU: "✅ {names}", Lang.EN: "✅ {names}"},
    "vote.who_no": {Lang.RU: "❌ {names}", Lang.EN: "❌ {names}"},
    "vote.state_open": {
        Lang.RU: "Голосуют игроки партии, {minutes} мин. Голос можно поменять.",
        Lang.EN: "The match's players vote, for {minutes} min. A vote may be changed.",
    },
    "vote.state_passed": {
        Lang.RU: "✖️ Решено: игра отменена.",
        Lang.EN: "✖️ Decided: the game is cancelled.",
    },
    "vote.state_failed": {
        Lang.RU: "▶️ Голосование не прошло: играем дальше.",
        Lang.EN: "▶️ The vote failed: playing on.",
    },
    "vote.state_expired": {
        Lang.RU: "⌛ Время голосования вышло: играем дальше.",
        Lang.EN: "⌛ The vote ran out of time: playing on.",
    },
    "vote.state_closed": {
        Lang.RU: "Голосование закрыто: партия уже закончилась.",
        Lang.EN: "The vote is closed: the match has ended.",
    },
    "btn.vote_yes": {Lang.RU: "✅ За ({n})", Lang.EN: "✅ For ({n})"},
    "btn.vote_no": {Lang.RU: "❌ Против ({n})", Lang.EN: "❌ Against ({n})"},
    "vote.already_open": {
        Lang.RU: "Голосование об отмене уже идёт — голосуйте кнопками под ним.",
        Lang.EN: "A vote to cancel is already open: use its buttons.",
    },
    "answer.voted_yes": {Lang.RU: "Ваш голос: за отмену.", Lang.EN: "Your vote: cancel."},
    "answer.voted_no": {Lang.RU: "Ваш голос: играем дальше.", Lang.EN: "Your vote: play on."},
    "alert.voted_same": {
        Lang.RU: "Вы уже так проголосовали.",
        Lang.EN: "You have already voted so.",
    },
    "alert.vote_over": {
        Lang.RU: "Это голосование уже закончилось.",
        Lang.EN: "This vote is over.",
    },
    "alert.vote_not_yours": {
        Lang.RU: "Голосуют только игроки этой партии.",
        Lang.EN: "Only this match's players vote.",
    },
    # Turn timers, strikes, "I'm back", /settings (issue 7).
    "cmd.settings": {
        Lang.RU: "настройки группы (таймер хода)",
        Lang.EN: "group settings (turn timer)",
    },
    "settings.title": {
        Lang.RU: "⚙️ <b>Настройки «{chat}»</b>\nТаймер хода: <b>{timer}</b>",
        Lang.EN: "⚙️ <b>Settings of “{chat}”</b>\nTurn timer: <b>{timer}</b>",
    },
    "settings.hint": {
        Lang.RU: "Время кончилось — за игрока ходит компьютер; после трёх таких ходов "
        "он играет за него, пока тот не вернётся (/hand → «Я вернулся»). "
        "Менять могут админы чата; новое время — со следующего хода.",
        Lang.EN: "When the time runs out a computer moves for the player; after three such "
        "moves it plays for them until they come back (/hand → “I'm back”). "
        "Chat admins may change this; a new limit applies from the next turn.",
    },
    "settings.lang": {
        Lang.RU: "Язык сообщений в группе: <b>{lang}</b>",
        Lang.EN: "Language of the group's messages: <b>{lang}</b>",
    },
    "group_lang.auto": {Lang.RU: "как у создателя игры", Lang.EN: "the game creator's"},
    "group_lang.ru": {Lang.RU: "русский", Lang.EN: "Russian"},
    "group_lang.en": {Lang.RU: "английский", Lang.EN: "English"},
    "btn.group_lang.auto": {Lang.RU: "🌐 Как у создателя", Lang.EN: "🌐 Creator's"},
    "btn.group_lang.ru": {Lang.RU: "🇷🇺 Русский", Lang.EN: "🇷🇺 Русский"},
    "btn.group_lang.en": {Lang.RU: "🇬🇧 English", Lang.EN: "🇬🇧 English"},
    "answer.group_lang_set": {
        Lang.RU: "Язык группы: {lang}.",
        Lang.EN: "The group's language: {lang}.",
    },
    "settings.in_group": {
        Lang.RU: "Настройки — у каждой группы свои: напишите /settings в группе.",
        Lang.EN: "Each group has its own settings: send /settings in the group.",
    },
    "timer.off": {Lang.RU: "выключен", Lang.EN: "off"},
    "timer.30": {Lang.RU: "30 с", Lang.EN: "30 s"},
    "timer.60": {Lang.RU: "60 с", Lang.EN: "60 s"},
    "timer.120": {Lang.RU: "2 мин", Lang.EN: "2 min"},
    "timer.300": {Lang.RU: "5 мин", Lang.EN: "5 min"},
    "timer.sport": {
        Lang.RU: "спортивный (5 / 20 / 60 с)",
        Lang.EN: "sport (5 / 20 / 60 s)",
    },
    "answer.timer_set": {
        Lang.RU: "Таймер хода: {timer}. Действует со следующего хода.",
        Lang.EN: "Turn timer: {timer}. It applies from the next turn.",
    },
    "alert.admins_only": {
        Lang.RU: "Менять настройки могут только админы чата.",
        Lang.EN: "Only the chat's admins can change the settings.",
    },
    "hand.time_left": {Lang.RU: "⏱ На ход: {s} с", Lang.EN: "⏱ Time to move: {s} s"},
    "hand.time_warning": {
        Lang.RU: "⏳ <b>Осталось {s} с!</b> Потом за вас сходит компьютер.",
        Lang.EN: "⏳ <b>{s} s left!</b> Then a computer moves for you.",
    },
    "hand.strikes": {
        Lang.RU: "⏰ Время на ход вышло {n} раз из {limit} — за вас ходил компьютер.",
        Lang.EN: "⏰ Your time ran out {n} of {limit} times; a computer moved for you.",
    },
    "hand.away": {
        Lang.RU: "🤖 За вас играет компьютер. Хотите снова играть сами — нажмите «Я вернулся».",
        Lang.EN: "🤖 A computer is playing for you. To play yourself again, press “I'm back”.",
    },
    "btn.back_in_game": {Lang.RU: "🙋 Я вернулся", Lang.EN: "🙋 I'm back"},
    "table.time_warning": {Lang.RU: "⏳ {name}: {s} с", Lang.EN: "⏳ {name}: {s} s"},
    "notice.taken_over": {
        Lang.RU: "🤖 Компьютер играет за {name}: трижды кончилось время на ход.",
        Lang.EN: "🤖 A computer plays for {name}: their time ran out three times.",
    },
    "notice.back": {
        Lang.RU: "🙋 {name} вернулся в игру.",
        Lang.EN: "🙋 {name} is back in the game.",
    },
    "answer.back": {Lang.RU: "С возвращением! Ваш ход — по кнопкам.", Lang.EN: "Welcome back!"},
    "answer.not_away": {
        Lang.RU: "Вы и так играете сами.",
        Lang.EN: "You are playing yourself already.",
    },
    "alert.away": {
        Lang.RU: "Сейчас за вас играет компьютер. Чтобы играть самому: /hand → «Я вернулся».",
        Lang.EN: "A computer is playing for you now. To play yourself: /hand → “I'm back”.",
    },
    # Issue 11: who may act on a game, joining by link, removing people, lobby timeouts.
    "alert.foreign_game": {
        Lang.RU: "Эта кнопка не относится к игре этого чата.",
        Lang.EN: "This button does not belong to this chat's game.",
    },
    "alert.creator_or_admin_only": {
        Lang.RU: "Это могут создатель игры и админы чата.",
        Lang.EN: "Only the game's creator and the chat's admins can do that.",
    },
    "alert.start_private_first": {
        Lang.RU: "Сначала откройте чат с @{bot} и нажмите «Старт», потом — «Играю».",
        Lang.EN: "First open the chat with @{bot} and press Start, then “Join”.",
    },
    "start.link_stale": {
        Lang.RU: "Эта ссылка устарела. Нажмите «Играю» под игрой в группе.",
        Lang.EN: "This link is out of date. Press “Join” under the game in the group.",
    },
    "start.not_a_member": {
        Lang.RU: "За этот стол садятся участники группы «{chat}». Вступите в неё, "
        "потом нажмите «Играю» под игрой.",
        Lang.EN: "This table is for the members of “{chat}”. Join the group, then press "
        "“Join” under the game.",
    },
    "lobby.controls": {
        Lang.RU: "Начать игру, менять правила и убирать игроков могут её создатель и админы чата.",
        Lang.EN: "The game's creator and the chat's admins can start it, change the rules "
        "and remove players.",
    },
    "btn.remove_player": {Lang.RU: "🚫 Убрать игрока", Lang.EN: "🚫 Remove a player"},
    "btn.remove_seat": {Lang.RU: "🚫 {name}", Lang.EN: "🚫 {name}"},
    "lobby.remove_who": {
        Lang.RU: "Кого убрать из-за стола?",
        Lang.EN: "Who should leave the table?",
    },
    "lobby.removed": {
        Lang.RU: "🚫 {name} больше не за столом.",
        Lang.EN: "🚫 {name} no longer has a seat.",
    },
    "answer.removed": {
        Lang.RU: "{name} больше не за столом.",
        Lang.EN: "{name} no longer has a seat.",
    },
    "alert.nobody_to_remove": {
        Lang.RU: "За столом пока никого нет.",
        Lang.EN: "Nobody is seated yet.",
    },
    "alert.not_seated_any_more": {
        Lang.RU: "Этого игрока уже нет на этом месте.",
        Lang.EN: "That player no longer sits there.",
    },
    "notice.lobby_timed_out": {
        Lang.RU: "⌛ Игру никто не начал за {minutes} мин, набор закрыт. Новая игра: /domino",
        Lang.EN: "⌛ Nobody started the game in {minutes} min, so it is closed. "
        "A new game: /domino",
    },
    "settings.lobby_timeout": {
        Lang.RU: "Несыгранная игра закрывается через: <b>{time}</b>",
        Lang.EN: "A game nobody starts closes after: <b>{time}</b>",
    },
    "lobby_timeout.off": {Lang.RU: "никогда", Lang.EN: "never"},
    "lobby_timeout.min": {Lang.RU: "{n} мин", Lang.EN: "{n} min"},
    "btn.lobby_timeout": {Lang.RU: "⌛ {time}", Lang.EN: "⌛ {time}"},
    "answer.lobby_timeout_set": {
        Lang.RU: "Новые игры закрываются без старта через: {time}.",
        Lang.EN: "New games close unstarted after: {time}.",
    },
    # Command spam in a group (issue 11, item 9; handlers/throttle.py).
    "spam.cooldown": {
        Lang.RU: "⏳ {name}, слишком много команд подряд: на ваши команды я снова отвечу "
        "через минуту.",
        Lang.EN: "⏳ {name}, that is too many commands in a row: I will answer your commands "
        "again in a minute.",
    },
    # The database refused a change for the moment: locked by another process, or a full
    # disk (issue 11, items 7 and 8; handlers/errors.py). Nothing was changed.
    "alert.db_unavailable": {
        Lang.RU: "⏳ Секунду… Бот не смог сохранить нажатие, ничего не изменилось. "
        "Нажмите ещё раз через несколько секунд.",
        Lang.EN: "⏳ One moment… The bot could not save that press; nothing has changed. "
        "Please press again in a few seconds.",
    },
    "reply.db_unavailable": {
        Lang.RU: "⏳ Секунду… Бот не смог это сохранить, ничего не изменилось. "
        "Повторите команду через несколько секунд.",
        Lang.EN: "⏳ One moment… The bot could not save that; nothing has changed. "
        "Please send the command again in a few seconds.",
    },
}


def t(key: str, lang: Lang = DEFAULT_LANG, /, **values: Any) -> str:
    """The text `key` in `lang`, with `values` filled in."""
    try:
        template = TEXTS[key][lang]
    except KeyError:
        raise KeyError(f"no text {key!r} in {lang.value}") from None
    return template.format(**values)


def placeholders(template: str) -> frozenset[str]:
    return frozenset(
        name for _, name, _, _ in string.Formatter().parse(template) if name is not None
    )
