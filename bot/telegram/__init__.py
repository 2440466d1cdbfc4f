"""The Telegram front end: callback data, presenters, the publisher of tables and hands,
announcements, turn notices, the vote board and the outgoing queue with its flood
budgets. `handlers/` is its input side."""
