"""Small helpers for the fake's own tests: raw HTTP calls and a tiny PNG."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
from PIL import Image

from tests.fakegram import FakeTelegram


async def raw_call(
    fake: FakeTelegram,
    method: str,
    *,
    data: Any = None,
    json: Any = None,
    token: str | None = None,
) -> tuple[int, dict[str, Any]]:
    """POST to ``/bot{token}/{method}`` without aiogram (for bodies aiogram never sends)."""
    url = f"{fake.url}/bot{token or fake.token}/{method}"
    async with aiohttp.ClientSession() as session, session.post(url, data=data, json=json) as r:
        body: dict[str, Any] = await r.json()
        return r.status, body


def png(width: int = 64, height: int = 48, color: str = "green") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buffer, "PNG")
    return buffer.getvalue()
