"""Callback data and /start payloads are parsed once, with bounds.

A payload that does not parse matches no button's filter (aiogram's filter treats
`TypeError` and `ValueError`, pydantic's `ValidationError` among them, as "not this
button"), so it reaches the polite fallback and never a service or SQLite.
"""

from __future__ import annotations

import pytest
from aiogram.filters.callback_data import CallbackData

from bot.app.usecases import Lobby
from bot.telegram.callbacks import (
    MOVE_NUMBER_MAX,
    SQLITE_MAX,
    BackCb,
    CancelCb,
    HandCb,
    HandKind,
    HistoryCb,
    LobbyAction,
    LobbyCb,
    LobbyTimeCb,
    MoveCb,
    RemoveCb,
    SettingsCb,
    SettingsSection,
    StartKind,
    StatsCb,
    SurrenderCb,
    TopCb,
    TopScope,
    VoteCb,
    is_join_token,
    join_payload,
    parse_start,
)

# One layout per prefix, `{n}` where a number goes.
LAYOUTS: dict[type[CallbackData], list[str]] = {
    MoveCb: ["m2:{n}:0:k", "m2:1:{n}:k"],
    HandCb: ["hb1:{n}:0:i:", "hb1:1:{n}:b:"],
    LobbyCb: ["l1:{n}:j:-"],
    CancelCb: ["x1:{n}:1"],
    BackCb: ["r1:{n}"],
    SurrenderCb: ["s2:{n}:0:5:1", "s2:1:{n}:5:1", "s2:1:0:{n}:1"],
    VoteCb: ["v1:{n}:1"],
    HistoryCb: ["h2:kozel:{n}:0", "h2:kozel:1:{n}"],
    TopCb: ["t2:kozel:g:{n}"],
    StatsCb: ["st1:kozel:{n}"],
    RemoveCb: ["k1:{n}:0:5", "k1:1:{n}:5", "k1:1:0:{n}"],
    LobbyTimeCb: ["lt1:{n}"],
}


@pytest.mark.parametrize("number", [2**63, 2**64, -(2**63) - 1, "²", "٣", "1e3", "0x10"])
@pytest.mark.parametrize(("kind", "layout"), [(k, x) for k, xs in LAYOUTS.items() for x in xs])
def test_numbers_out_of_range_or_not_ascii_do_not_parse(
    kind: type[CallbackData], layout: str, number: object
) -> None:
    with pytest.raises((TypeError, ValueError)):
        kind.unpack(layout.format(n=number))


@pytest.mark.parametrize(
    "layout", ["m2:{n}:0:k", "hb1:{n}:0:i:", "l1:{n}:j:-", "x1:{n}:1", "r1:{n}", "v1:{n}:1"]
)
def test_ids_are_not_negative(layout: str) -> None:
    kind = next(k for k, xs in LAYOUTS.items() if layout in xs)
    with pytest.raises((TypeError, ValueError)):
        kind.unpack(layout.format(n=-1))


def test_the_largest_sqlite_integer_still_parses_and_round_trips() -> None:
    cases: list[CallbackData] = [
        MoveCb(game=SQLITE_MAX, move=MOVE_NUMBER_MAX, action="k"),
        HandCb(game=SQLITE_MAX, move=MOVE_NUMBER_MAX, kind=HandKind.ENDS, tile="6-6"),
        LobbyCb(game=SQLITE_MAX, action=LobbyAction.REMOVE),
        CancelCb(game=SQLITE_MAX, confirm=True),
        SurrenderCb(game=SQLITE_MAX, first=4, user=SQLITE_MAX, confirm=False),
        VoteCb(vote=SQLITE_MAX, in_favour=True),
        BackCb(game=SQLITE_MAX),
        RemoveCb(game=SQLITE_MAX, seat=3, user=SQLITE_MAX),
        HistoryCb(game="sea_kozel", page=1, match=SQLITE_MAX),
        TopCb(game="sea_kozel", scope=TopScope.PAIRS, page=1_000_000),
        StatsCb(game="sea_kozel", user=SQLITE_MAX),
        LobbyTimeCb(minutes=30),
    ]
    for data in cases:
        packed = data.pack()
        assert len(packed.encode()) <= 64, packed
        assert type(data).unpack(packed) == data


@pytest.mark.parametrize(
    ("payload", "kind"),
    [
        (None, StartKind.PLAIN),
        ("", StartKind.PLAIN),
        ("hand", StartKind.PLAIN),
        ("j", StartKind.STALE_JOIN),
        ("j1", StartKind.STALE_JOIN),
        ("j²", StartKind.STALE_JOIN),
        ("j٣", StartKind.STALE_JOIN),
        ("j99999999999999999999", StartKind.STALE_JOIN),
        ("j1234567890123456", StartKind.STALE_JOIN),  # 16 digits: an old id, never a token
        ("jAbCdEfGh_-123456", StartKind.JOIN),
        ("jAbCdEfGh_-1234567", StartKind.STALE_JOIN),  # 17 characters
        ("jAbCdEfGh+/123456", StartKind.STALE_JOIN),  # not URL-safe
    ],
)
def test_start_payloads(payload: str | None, kind: StartKind) -> None:
    parsed = parse_start(payload)
    assert parsed.kind is kind
    assert parsed.token == (payload[1:] if kind is StartKind.JOIN and payload else "")


def test_join_tokens_are_secret_short_and_read_back() -> None:
    tokens = {Lobby.new_join_token() for _ in range(200)}
    assert len(tokens) == 200
    for token in tokens:
        assert is_join_token(token)
        payload = join_payload(token)
        assert len(payload) <= 64
        assert parse_start(payload).token == token


def test_a_settings_section_round_trips_and_one_of_no_version_does_not_parse() -> None:
    for section in SettingsSection:
        data = SettingsCb(section=section)
        assert SettingsCb.unpack(data.pack()) == data
    for forged in ("se1:z", "se1:", "se1:mm", "se1:M"):
        with pytest.raises((TypeError, ValueError)):
            SettingsCb.unpack(forged)
