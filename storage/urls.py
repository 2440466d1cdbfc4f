"""A database URL as a log line or an error may show it."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit


def display_url(url: str) -> str:
    """The URL as it may appear in a log line: without its password, whether it is in
    the address (`user:password@host`) or a parameter (`?password=...`)."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        host = parts.hostname or ""
        if parts.port is not None:
            host = f"{host}:{parts.port}"
        netloc = f"{parts.username}@{host}" if parts.username else host
    query = urlencode(
        [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "password"]
    )
    return urlunsplit(parts._replace(netloc=netloc, query=query))
