### The Mini App's API (bot.webapp.server): why a request was refused.
api-unauthorized = Open the table again from Telegram: this link to it is out of date.
api-not_allowed = Only members of the group where this game is played can see its table.
api-no_game = There is no such game: perhaps it ended long ago.
api-bad_request = Could not understand the request. Refresh the table and try again.
api-too_many = Too many requests in a row. Wait a second and try again.
