"""The Mini App front end: the table and the viewer's own hand on one screen, in
Telegram's in-app browser, playing through the same use cases as the messages.

Parts (each module says more):

- `auth`: Telegram's `initData`, checked (HMAC-SHA256 with the key HMAC("WebAppData",
  bot token), its `auth_date` age); the person it names.
- `access`: who may see what of a game named by its token (the game's `join_token`,
  unguessable): a seated person their seat's view, a member of the game's group the
  public view, anyone else nothing.
- `views`: a game as the JSON the app draws, for one viewer (a seat, or the public): a
  pure function of the stored game, never holding another hand, the bazaar, a face-down
  stack or the seed.
- `live`: the `FrontEnd` that pushes each committed change to the apps open on that
  game (server-sent events), so the group's table, the private hand and the app stay in
  step.
- `server`: the aiohttp routes (the page at `/`, its files under `/static/`, the API
  under `/api/`), with per-person rate limits.
- `static/`: the page itself, plain HTML, JS and SVG, no build step.

## The protocol (version 1)

Every API request carries the app's raw `initData` in the header
`Authorization: tma <initData>`; a request without valid `initData` is answered 401 and
changes nothing. The game is named by its token (`g` below): the `startapp` parameter
of the group's «🃏 Открыть стол» link (`t.me/<bot>/<app>?startapp=<token>`), or the
`startapp` query parameter of the page's URL when opened from the private hand's
`web_app` button.

- `GET /api/state?g=<token>`: 200 with the viewer's state (below); 403 `{"error": text}`
  when the person may not see the game; 404 for no such game.
- `GET /api/events?g=<token>`: `text/event-stream`; `event: state` with the same JSON at
  once and after every committed change of the game (and of the viewer's seat);
  `: keepalive` comments every 15 s. A reconnect starts again from the current state.
- `POST /api/act` with a JSON body `{"g": token, "do": kind, ...}`; kinds:
  `play` (`"move"`: the state's `move`, `"action"`: one of the actions the state offers,
  the engine's `str(action)`), `hint` (`"move"`), `draw` (`"move"`: the hand's
  `offer_draw`, the round; «🤝 Предложить ничью»), `join` (a lobby: take a seat),
  `start` and `add_computer` (a lobby, by its creator or an admin of its group, as its
  «▶️ Начать» and «🤖 Добавить компьютер»), `back` (a person a computer plays for plays
  again). The answer: 200
  `{"ok": bool, "text": str | null, "alert": bool, "url": str | null}`: what the bot would
  answer the press (`text` plain, in the group's language; `url`: a link to open, e.g.
  the private chat to press Start). The new state comes by the events.
  429 `{"error": text}` past the person's rate limit.

The state (`views.game_view`), every text already in the group's language:

    {
      "v": 1, "lang": "ru" | "en", "now": epoch ms,   # the server's clock, for the countdown
      "game": {"title": str, "chat": str, "status": "lobby" | "playing" | "finished"
               | "cancelled", "move": int, "round": int, "target": int | null},
      "viewer": {"seat": int | null, "spectator": bool, "may_join": bool, "away": bool,
                 "controls": bool},   # controls: the lobby's creator (start, computers)
      "seats": [{"seat": int, "name": str, "computer": bool, "away": bool, "tiles": int,
                 "side": int, "turn": bool, "you": bool, "face_down": int}],
      "sides": [{"seats": [int], "name": str, "score": int, "shown": str}],
      "turn": {"seat": int | null, "deadline": epoch ms | null, "limit": seconds | null},
      "status": str,            # one line: whose turn, «рыба», the round's or match's end,
                                # a game cancelled (and who loses it where it still
                                # counts, K-11); in the lobby how many seats are
                                # taken (never `game.title` again)
      "events": [str],          # the last moves, newest last, plain text
      "table": null | {         # null in the lobby
          "width": int, "height": int, "unit": int,
          "tiles": [{"a": int, "b": int, "x": int, "y": int, "w": int, "h": int,
                     "new": bool, "spinner": bool, "closed": bool}],
                     # a = the half at (x, y)'s top or left; a tile is vertical when
                     # h > w; `closed`: laid face down, closing its end (O-3)
          "ends": [{"x": int, "y": int, "r": int, "pip": int | null, "label": str,
                    "closed": bool, "arm": str, "muted": bool, "count": str | null}],
                    # where a tile goes next: a badge's centre and radius, the pip to
                    # match, `label` the end's arrow as the hand names it (←, →, ↑, ↓),
                    # `arm` left | right | up | down; where the ends are summed (F-3)
                    # `muted` an end that counts nothing and `count` what one counts
                    # other than its pip («=12»); a closed end (O-3): pip null, closed
          "bazaar": int | null,   # null where the deal left no bazaar to draw from
          "turned_up": [a, b] | null,   # Втемную: the tile turned up that fits two ends
          "turned": [[a, b]],     # S-2: each seat's turned tile until the first play
          "sum": int | null,      # F-3: the open ends' sum where the game counts it
          "narrow": {"width", "height", "unit", "tiles", "ends"}},   # the same tiles
                                  # and ends laid in a square, for a phone held upright
      "hand": null | {        # the viewer's own seat only, while a match runs
          "tiles": [{"a": int, "b": int,
                     "plays": [{"action": str, "label": str, "end": int | null}]}],
                     # `end`: the index in `table.ends` the play goes on (a tile that
                     # fits two ends has a play for each: the app asks for the end)
          "face_down": int,   # Втемную: tiles the viewer holds face down
          "face_down_text": str | null,
          "moves": [{"action": str, "label": str}],   # draw, knock, flip, end turn, ...
          "menus": [{"kind": "doubles" | "close", "label": str,
                     "options": [{"action": str, "label": str}]}],
          "your_turn": bool, "hint": bool,
          "offer_draw": int | null,   # the round a draw may be offered in (POST
                                      # {"do": "draw", "move": it}); null: may not
          "note": str | null},   # what the turn asks: the opening tile, the flip, ...
      "sheet": null | {"heads": [str], "rows": [[str]], "totals": [str]},
      "round_end": null | {"round": int, "title": str, "lines": [str],
                           "match_lines": [str],   # at the match's end: its announcement
                                # (who won or lost, why, the rating, the final scores
                                # best first), a line each; [] while the match goes on
                           "table": {...as "table"...},   # as the round's last move left
                                # it, with its `narrow` layout too
                           "hands": [{"seat": int, "name": str, "tiles": [[a, b]],
                                      "total": str}]},
      "lobby": {"rules": [str], "full": bool},
                                # in the lobby only: its options a line each, in the
                                # lobby message's words (players and target, fish and
                                # threshold, the spinner, pairs; the game's name is
                                # `game.title`), and whether every seat is taken
      "texts": {key: str}       # the page's own labels: connecting, reconnecting,
                                # error, lobby, lobby_wait (who starts the game, and
                                # where), spectator, your_turn, choose_end, no_fit (a
                                # tile tapped that has no play), menu_back (dismisses
                                # a menu), sheet, events, round_end, match_over, next,
                                # close, bazaar, face_down, empty_table, away, score,
                                # tiles, round; the buttons' join, hint, back,
                                # back_in_game, offer_draw
    }

`round_end` holds the hands of the round that ended last, laid open as the round-end
picture shows them (public by then), until the next round's first move, and for good
once the match is over; a tile of it may lie in a hand of the round just dealt. A game
that ended before its match did (a surrender) shows it only if it ended between two
rounds, and a cancelled game never: its status says it was cancelled. While
a round runs no other seat's tile is in the state, nor the bazaar's, nor a face-down
stack's (`tests/webapp/test_views_privacy.py` audits every game).
"""
