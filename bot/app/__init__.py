"""The application core: use cases, the effects of a commit, the reactor, timers, alarms,
computer players, people, group settings and the standings. It speaks no Telegram: it
imports no aiogram or aiohttp and nothing of the front ends or the composition root."""
