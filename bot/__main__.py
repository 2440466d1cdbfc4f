"""`python -m bot`: the bot's one entry point (the composition root is `bot.server.main`)."""

import sys

from bot.server.main import main

if __name__ == "__main__":
    sys.exit(main())
