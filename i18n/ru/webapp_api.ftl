### The Mini App's API (bot.webapp.server): why a request was refused.
api-unauthorized = Откройте стол заново из Telegram: эта ссылка на него устарела.
api-not_allowed = Этот стол видят только участники группы, где идёт партия.
api-no_game = Такой партии нет: возможно, она давно закончилась.
api-bad_request = Не удалось понять запрос. Обновите стол и попробуйте ещё раз.
api-too_many = Слишком много запросов подряд. Подождите секунду и попробуйте снова.
