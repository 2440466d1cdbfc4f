"""`LOG_FORMAT=json`: one JSON object a line, for a log collector.

Each line has `time` (UTC, ISO 8601 with milliseconds), `level`, `logger` and `message`
(the same text the plain format shows), plus `chat_id` and `game_id` where the code
logging it passed them (`extra={"chat_id": ..., "game_id": ...}`: the game events of
`bot.app.usecases.base`, the outgoing queue's warnings), and `exception` with the traceback
if there is one. What a line may say is what the text format says: never a hand, the
bazaar, a seed or a secret.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

# Record attributes copied into the object when the log call set them.
FIELDS = ("chat_id", "game_id")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, UTC)
        entry: dict[str, object] = {
            "time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def formatter(kind: str) -> logging.Formatter:
    """The formatter `LOG_FORMAT` names: "text" (the default) or "json"."""
    return JsonFormatter() if kind == "json" else logging.Formatter(TEXT_FORMAT)
