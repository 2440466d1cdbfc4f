"""What the picture tests share: `drawn`, every text the pictures draw."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PIL import ImageDraw


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string Pillow is asked to draw as text, in order."""
    seen: list[str] = []
    original = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy: object, label: object, *a: object, **k: object):  # type: ignore[no-untyped-def]
        seen.append(str(label))
        return original(self, xy, label, *a, **k)  # type: ignore[arg-type,type-var]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    yield seen
