"""`python -m bot`: the bot's one entry point (the composition root is `bot.server.main`)."""

import gc
import sys

if __name__ == "__main__":
    # No collection while the imports below build aiogram's thousands of models, which
    # all live as long as the process; `main` freezes what they made and lets the
    # collector run again.
    gc.disable()

from bot.server.main import main

if __name__ == "__main__":
    sys.exit(main())
