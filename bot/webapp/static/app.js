// The Mini App's page: the table, the seats and the viewer's own hand, drawn from the
// state the server sends (the protocol in `bot/webapp/__init__.py`), and the presses sent
// back to `/api/act`. Every word comes from the state's `texts` and lines; the few
// fallbacks here cover the moment before the first state arrives, and a label a
// server older than the page does not send yet (`FALLBACK_WORDS`).
//
// Hooks for tests and for the curious (stable; a browser test drives the page by them):
//   body[data-ready="1"]        the first state is drawn
//   body[data-move]             the match's move number of the state drawn
//   body[data-your-turn="1"]    the viewer may move now
//   body[data-busy="1"]         a press waits for its answer
//   body[data-view]             "lobby" | "play" | "spectator" | "away" | "over"
//   #title, #status             the game's title, the status line
//   #seats .seat[data-seat]     a seat's card; .seat.turn whose turn; .seat.you the viewer
//   .countdown                  the turn's time left on the card of the seat to move
//   #table                      the table (SVG; data-layout "wide" or "narrow", a phone's);
//                               .table-tile[data-a][data-b] its tiles,
//                               .table-tile.new just laid, .table-tile.spinner,
//                               .table-tile.closed a double closing its end (O-3)
//   .end[data-end]              an open end's badge (data-end: its index in state.table.ends);
//                               .end.closed a closed end, .end.target an end to tap for the
//                               selected tile
//   #facts, #bazaar             the bazaar's count and the ends' sum; #turned-up Втемную's tile
//   #hand .tile[data-tile="a-b"] a tile of the viewer's hand; .tile.playable it may be
//                               played; .tile.selected its ends are being chosen
//   #stack                      Втемную: the viewer's face-down stack
//   [data-action]               a button that plays that engine action (moves, menu
//                               options, the choice of ends)
//   [data-menu]                 a button that opens a menu (several doubles, closing an end)
//   .menu-option[data-action]   an option in the open menu
//   [data-do="hint"|"draw"|"join"|"start"|"add_computer"|"back"|"sheet"|"round-end"|"close"|"cancel"]
//                               the other buttons (start and add_computer: the lobby's creator)
//   #note                       what the turn asks (the opening tile, the flip, ...)
//   #events li                  the recent moves; #sheet table the score sheet
//   #round-end                  the round that ended, every hand open (.reveal[data-seat])
//   #lobby, #lobby-seats li     the lobby; #lobby-wait who starts it, #lobby-rules li its
//                               options; #spectator the spectator's line
//   #match-end                  the match's end: its final lines (ranking, козёл), also at
//                               the top of #round-end (#round-end-match)
//   #modal, #modal-body         a menu, the sheet on a phone, or an alert
//   #toast                      a short answer to a press (or why a tapped tile does
//                               not go: whose turn it is, or that it does not fit)
//   #bar                        the bar at the foot (hidden while it has no button)

const tg = window.Telegram.WebApp;
const SVG = "http://www.w3.org/2000/svg";
const FALLBACK = { connecting: "…", reconnecting: "…", error: "⚠", close: "✕", sheet: "Σ" };
const FALLBACK_WORDS = {
  ru: {
    menu_back: "↩️ Назад",
    no_fit: "Эта кость сейчас не подходит.",
    lobby_wait: "Игру начнёт в группе тот, кто её создал.",
    match_over: "Партия окончена",
  },
  en: {
    menu_back: "↩️ Back",
    no_fit: "This tile does not fit now.",
    lobby_wait: "The game's creator starts it in the group.",
    match_over: "The match is over",
  },
};
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];
const PIPS = {
  0: [],
  1: [[0.5, 0.5]],
  2: [[0.27, 0.27], [0.73, 0.73]],
  3: [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
  6: [[0.27, 0.25], [0.73, 0.25], [0.27, 0.5], [0.73, 0.5], [0.27, 0.75], [0.73, 0.75]],
};

let state = null;
let selected = null; // the hand's tile ("a-b") whose end is being chosen
let busy = false;
let clockOffset = 0; // the server's clock minus ours, in ms
let dismissedRoundEnd = null; // the round whose end the viewer closed
let wasYourTurn = false;
let modalKind = null;
let shownSelection = null; // the selection when the hand was last drawn
let toastTimer = null;
let toastMove = null; // the move a toast about the turn was shown at: gone when it is not

const $ = (selector) => document.querySelector(selector);

function text(key) {
  const texts = (state && state.texts) || {};
  const words = FALLBACK_WORDS[(state && state.lang) || ""] || FALLBACK_WORDS.ru;
  return texts[key] || words[key] || FALLBACK[key] || "";
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-")) node.setAttribute(key, String(value));
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    node.setAttribute(key, String(value));
  }
  if (parent) parent.append(node);
  return node;
}

// --- the game's token and the API ------------------------------------------------

function gameToken() {
  const unsafe = tg.initDataUnsafe || {};
  if (unsafe.start_param) return unsafe.start_param;
  const query = new URLSearchParams(window.location.search);
  return query.get("startapp") || query.get("tgWebAppStartParam") || "";
}

const token = gameToken();

function authorised(extra = {}) {
  return { Authorization: "tma " + (tg.initData || ""), ...extra };
}

async function answerError(response) {
  try {
    const body = await response.json();
    if (body && body.error) return body.error;
  } catch (error) {
    // not JSON
  }
  return text("error") + " (" + response.status + ")";
}

async function loadState() {
  const response = await fetch("api/state?g=" + encodeURIComponent(token), { headers: authorised() });
  if (!response.ok) {
    const error = new Error(await answerError(response));
    error.final = response.status !== 429 && response.status < 500;
    throw error;
  }
  draw(await response.json());
}

// Server-sent events read through `fetch` (EventSource cannot send the header); a lost
// stream is opened again after a growing pause, and starts with the current state.
async function follow() {
  let attempt = 0;
  for (;;) {
    let final = false;
    try {
      const response = await fetch("api/events?g=" + encodeURIComponent(token), {
        headers: authorised({ Accept: "text/event-stream" }),
        cache: "no-store",
      });
      if (!response.ok || !response.body) {
        const message = await answerError(response);
        final = response.status !== 429 && response.status < 500;
        throw Object.assign(new Error(message), { final });
      }
      setConnection(null);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut;
        while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
          if (onEvent(block)) attempt = 0;
        }
      }
    } catch (error) {
      if (error.final) {
        setConnection(error.message);
        return;
      }
    }
    setConnection(text("reconnecting"));
    const pause = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
    attempt += 1;
    await new Promise((resolve) => window.setTimeout(resolve, pause));
  }
}

function onEvent(block) {
  let name = "message";
  const data = [];
  for (const line of block.split(/\r?\n/)) {
    if (!line || line.startsWith(":")) continue;
    const at = line.indexOf(":");
    const field = at < 0 ? line : line.slice(0, at);
    const value = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
  }
  if (name !== "state" || !data.length) return false;
  draw(JSON.parse(data.join("\n")));
  return true;
}

function setConnection(message) {
  const banner = $("#connection") || document.body.appendChild(el("div", { id: "connection" }));
  banner.textContent = message || "";
  banner.hidden = !message;
}

async function act(body) {
  if (busy) return;
  busy = true;
  document.body.dataset.busy = "1";
  try {
    const response = await fetch("api/act", {
      method: "POST",
      headers: authorised({ "Content-Type": "application/json" }),
      body: JSON.stringify({ g: token, ...body }),
    });
    if (!response.ok) {
      haptic("error");
      showToast(await answerError(response));
      return;
    }
    const answer = await response.json();
    if (answer.url) {
      openLink(answer.url);
    }
    if (answer.text) {
      if (answer.alert) showModal("alert", [el("p", { class: "alert", text: answer.text })]);
      else showToast(answer.text);
    }
    haptic(answer.ok ? null : "error");
  } catch (error) {
    showToast(text("reconnecting"));
  } finally {
    busy = false;
    delete document.body.dataset.busy;
  }
}

function openLink(url) {
  let host = "";
  try {
    host = new URL(url, window.location.href).hostname;
  } catch (error) {
    return;
  }
  if (host === "t.me") tg.openTelegramLink(url);
  else tg.openLink(url);
}

function play(action) {
  selected = null;
  tg.HapticFeedback.impactOccurred("light");
  act({ do: "play", move: state.game.move, action });
}

function haptic(kind) {
  if (kind) tg.HapticFeedback.notificationOccurred(kind);
}

// --- drawing a tile --------------------------------------------------------------

// A tile at (x, y), w x h, `a` in its top or left half; `kind`: "face" or "back".
function drawTile(parent, x, y, w, h, a, b, { cls = "", closed = false } = {}) {
  const group = svg("g", { class: cls }, parent);
  const radius = Math.min(w, h) * 0.14;
  svg("rect", { x: x + 0.5, y: y + 0.5, width: w - 1, height: h - 1, rx: radius, class: closed ? "face back" : "face" }, group);
  if (closed) {
    const size = Math.min(w, h) * 0.55;
    const t = svg("text", { x: x + w / 2, y: y + h / 2, class: "lock", "font-size": size }, group);
    t.textContent = "🔒";
    return group;
  }
  const vertical = h > w;
  const side = vertical ? w : h;
  if (vertical) svg("line", { x1: x + side * 0.15, y1: y + h / 2, x2: x + w - side * 0.15, y2: y + h / 2, class: "divider" }, group);
  else svg("line", { x1: x + w / 2, y1: y + side * 0.15, x2: x + w / 2, y2: y + h - side * 0.15, class: "divider" }, group);
  const halves = vertical ? [[x, y, a], [x, y + h / 2, b]] : [[x, y, a], [x + w / 2, y, b]];
  for (const [hx, hy, pips] of halves) {
    for (const [px, py] of PIPS[pips] || []) {
      // six pips stand in rows along the tile's length
      const [qx, qy] = vertical || pips !== 6 ? [px, py] : [py, px];
      svg("circle", { cx: hx + qx * side, cy: hy + qy * side, r: side * 0.085, class: "pip" }, group);
    }
  }
  return group;
}

function tileSvg(a, b, { width = 44, height = 88, cls = "" } = {}) {
  const node = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: "tile-face " + cls, "aria-hidden": "true" });
  drawTile(node, 1, 1, width - 2, height - 2, a, b);
  return node;
}

// --- the table -------------------------------------------------------------------

// A phone held upright draws the table laid in the state's square area (`narrow`).
const NARROW_PX = 700;

function drawTable(node, table, { interactive = false } = {}) {
  node.replaceChildren();
  if (!table) return;
  const narrow = window.innerWidth < NARROW_PX && table.narrow;
  const placed = narrow ? table.narrow : table;
  node.dataset.layout = narrow ? "narrow" : "wide";
  const tiles = placed.tiles || [];
  const ends = placed.ends || [];
  const u = placed.unit || 20;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const grow = (ax, ay, bx, by) => {
    x0 = Math.min(x0, ax);
    y0 = Math.min(y0, ay);
    x1 = Math.max(x1, bx);
    y1 = Math.max(y1, by);
  };
  for (const tile of tiles) grow(tile.x, tile.y, tile.x + tile.w, tile.y + tile.h);
  for (const end of ends) grow(end.x - end.r * 1.8, end.y - end.r * 1.8, end.x + end.r * 1.8, end.y + end.r * 1.8);
  const arrows = ends.map((end) => arrowSpot(end, tiles, ends));
  arrows.forEach(([ax, ay], index) => {
    const half = ends[index].r * 0.6;
    grow(ax - half, ay - half, ax + half, ay + half);
  });
  if (!tiles.length) {
    x0 = placed.width / 2 - 5 * u;
    x1 = placed.width / 2 + 5 * u;
    y0 = placed.height / 2 - 3 * u;
    y1 = placed.height / 2 + 3 * u;
  }
  // Cropped to what lies on the table, never smaller than a few tiles.
  const pad = u * 1.2;
  const minW = (narrow ? 14 : 18) * u;
  const minH = (narrow ? 11 : 9) * u;
  let w = Math.max(x1 - x0 + 2 * pad, minW);
  let h = Math.max(y1 - y0 + 2 * pad, minH);
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  w = Math.min(w, placed.width + 2 * pad);
  h = Math.min(h, placed.height + 2 * pad);
  node.setAttribute("viewBox", `${cx - w / 2} ${cy - h / 2} ${w} ${h}`);
  node.setAttribute("preserveAspectRatio", "xMidYMid meet");
  // An end to tap is at least 48 px across on the screen, however small the table.
  const shownWidth = node.getBoundingClientRect().width;
  const perPixel = shownWidth > 0 ? Math.max(w / shownWidth, h / (node.getBoundingClientRect().height || shownWidth)) : 1;
  svg("rect", { x: cx - w / 2, y: cy - h / 2, width: w, height: h, class: "felt", rx: u * 0.6 }, node);
  if (!tiles.length) {
    const empty = svg("text", { x: cx, y: cy, class: "felt-text", "font-size": Math.min(u * 0.9, w / 16) }, node);
    empty.textContent = text("empty_table");
    (table.turned || []).forEach((tile, seat) => {
      const tw = 4 * u;
      const tx = cx - (table.turned.length * (tw + u)) / 2 + seat * (tw + u);
      drawTile(node, tx, cy + u, tw, 2 * u, tile[0], tile[1], { cls: "turned" });
    });
  }
  tiles.forEach((tile) => {
    const classes = ["table-tile"];
    if (tile.new) classes.push("new");
    if (tile.spinner) classes.push("spinner");
    if (tile.closed) classes.push("closed");
    if (tile.new || tile.spinner) {
      svg("rect", { x: tile.x - 3, y: tile.y - 3, width: tile.w + 6, height: tile.h + 6, rx: u * 0.4, class: tile.new ? "ring new-ring" : "ring spinner-ring" }, node);
    }
    const group = drawTile(node, tile.x, tile.y, tile.w, tile.h, tile.a, tile.b, { cls: classes.join(" "), closed: tile.closed });
    group.setAttribute("data-a", tile.a);
    group.setAttribute("data-b", tile.b);
  });
  const targets = interactive ? targetEnds() : new Map();
  ends.forEach((end, index) => {
    const target = targets.get(index);
    const classes = ["end"];
    if (end.closed) classes.push("closed");
    if (end.muted) classes.push("muted");
    if (target) classes.push("target");
    const group = svg("g", { class: classes.join(" "), "data-end": index, "data-arm": end.arm }, node);
    if (target) {
      group.setAttribute("data-action", target.action);
      group.setAttribute("role", "button");
      group.setAttribute("aria-label", target.label);
      svg("circle", { cx: end.x, cy: end.y, r: Math.max(end.r * 1.6, 24 * perPixel), class: "hit" }, group);
    }
    svg("circle", { cx: end.x, cy: end.y, r: end.r, class: "badge" }, group);
    const label = svg("text", { x: end.x, y: end.y, class: "pip-label", "font-size": end.r * 1.15 }, group);
    label.textContent = end.closed ? "🔒" : String(end.pip);
    const [ax, ay] = arrows[index];
    const arrow = svg("text", { x: ax, y: ay, class: "arrow-label", "font-size": end.r * 0.9 }, group);
    arrow.textContent = end.label;
    if (end.count) {
      const count = svg("text", { x: end.x, y: end.y + end.r * 1.9, class: "count-label", "font-size": end.r * 0.9 }, group);
      count.textContent = end.count;
    }
  });
}

// Where an end's arrow goes: beside its badge, on the side away from the tile it ends
// (outward), where it covers no tile, no other badge and no count.
function arrowSpot(end, tiles, ends) {
  const r = end.r;
  const reach = r * 1.7;
  const half = r * 0.5;
  let out = [0.7, -0.7]; // up and right, where no tile says otherwise
  let nearest = Infinity;
  for (const tile of tiles) {
    const dx = end.x - (tile.x + tile.w / 2);
    const dy = end.y - (tile.y + tile.h / 2);
    const d = Math.hypot(dx, dy);
    if (d > 0 && d < nearest) {
      nearest = d;
      out = [dx / d, dy / d];
    }
  }
  const clearance = (x, y) => {
    let room = Infinity;
    for (const tile of tiles) {
      const dx = Math.max(tile.x - x, 0, x - (tile.x + tile.w));
      const dy = Math.max(tile.y - y, 0, y - (tile.y + tile.h));
      room = Math.min(room, Math.hypot(dx, dy) - half);
    }
    for (const other of ends) {
      room = Math.min(room, Math.hypot(other.x - x, other.y - y) - other.r - half);
      if (other.count) room = Math.min(room, Math.hypot(other.x - x, other.y + other.r * 1.9 - y) - other.r);
    }
    return room;
  };
  let best = null;
  for (let k = 0; k < 8; k += 1) {
    const angle = (k * Math.PI) / 4;
    const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
    const x = end.x + ux * reach;
    const y = end.y + uy * reach;
    const room = clearance(x, y);
    // clear of everything first, then the most outward, a little upward
    const score = (room >= r * 0.1 ? 10 : room / r) + ux * out[0] + uy * out[1] - uy * 0.2;
    if (!best || score > best.score) best = { score, x, y };
  }
  return [best.x, best.y];
}

// The ends the selected tile may go on: index in table.ends -> its play.
function targetEnds() {
  const found = new Map();
  if (!selected || !state.hand) return found;
  const tile = state.hand.tiles.find((t) => key(t) === selected);
  if (!tile) return found;
  for (const p of tile.plays) if (p.end !== null && p.end !== undefined) found.set(p.end, p);
  return found;
}

function key(tile) {
  return `${tile.a}-${tile.b}`;
}

// --- the state, drawn ------------------------------------------------------------

function draw(next) {
  const first = !state;
  if (state && next.game.move !== state.game.move) selected = null;
  state = next;
  if (toastMove !== null && toastMove !== next.game.move) hideToast();
  clockOffset = next.now ? next.now - Date.now() : 0;
  document.documentElement.lang = next.lang;
  document.title = next.game.title;
  const body = document.body.dataset;
  body.move = String(next.game.move);
  const yours = Boolean(next.hand && next.hand.your_turn);
  body.yourTurn = yours ? "1" : "0";
  body.view = viewKind(next);
  if (yours && !wasYourTurn && !first) tg.HapticFeedback.notificationOccurred("success");
  const turnCame = yours && !wasYourTurn;
  wasYourTurn = yours;

  $("#title").textContent = titleLine(next);
  $("#status").textContent = next.status;
  drawSeats(next);
  const lobby = next.game.status === "lobby" || !next.table;
  $("#table-wrap").hidden = lobby;
  $("#lobby").hidden = !lobby;
  if (lobby) drawLobby(next);
  else {
    drawTable($("#table"), next.table, { interactive: true });
    drawFacts(next);
  }
  drawPlay(next);
  drawMatchEnd(next);
  $("#spectator").hidden = !next.viewer.spectator || lobby;
  $("#spectator").textContent = text("spectator");
  drawEvents(next);
  drawSheet($("#sheet"), next.sheet);
  $("#sheet-title").textContent = text("sheet");
  $("#events-title").textContent = text("events");
  drawBar(next);
  drawRoundEnd(next);
  if (modalKind === "menu") closeModal();
  updateBackButton();
  tick();
  fitBar();
  if (turnCame || (yours && selected !== shownSelection)) revealHand();
  shownSelection = selected;
  body.ready = "1";
}

// The page keeps room at its foot for the fixed bar, so that nothing sits under it.
function fitBar() {
  const bar = $("#bar");
  const fixed = !bar.hidden && window.getComputedStyle(bar).position === "fixed";
  const room = fixed ? Math.ceil(bar.getBoundingClientRect().height) + 12 : 12;
  document.documentElement.style.setProperty("--bar-room", `${room}px`);
}

// When the turn comes (or a tile's ends are asked), the hand, its moves and the choices
// are scrolled into sight above the bar, its top (what the turn asks) kept in sight.
function revealHand() {
  const play = $("#play");
  if (play.hidden) return;
  const bar = $("#bar");
  const fixed = !bar.hidden && window.getComputedStyle(bar).position === "fixed";
  const floor = fixed ? bar.getBoundingClientRect().top : window.innerHeight;
  const box = play.getBoundingClientRect();
  const below = box.bottom + 8 - floor;
  if (below <= 0) return;
  const by = Math.min(below, Math.max(0, box.top - 8));
  if (by > 0) window.scrollBy(0, by);
}

function viewKind(s) {
  if (s.game.status === "lobby" || !s.table) return "lobby";
  if (s.viewer.spectator) return "spectator";
  if (!s.hand) return "over";
  if (s.viewer.away) return "away";
  return "play";
}

function titleLine(s) {
  const parts = [s.game.title];
  if (s.game.round) parts.push(`${text("round")} ${s.game.round}`);
  if (s.game.chat) parts.push(s.game.chat);
  return parts.join(" · ");
}

function sideOf(s, seat) {
  return (s.sides || []).find((side) => side.seats.includes(seat.seat));
}

function drawSeats(s) {
  const box = $("#seats");
  box.replaceChildren();
  if (s.game.status === "lobby") return;
  for (const seat of s.seats) {
    const side = sideOf(s, seat);
    const classes = ["seat"];
    if (seat.turn) classes.push("turn");
    if (seat.you) classes.push("you");
    if (seat.away) classes.push("away");
    const name = el("span", { class: "name", text: seat.name });
    const count = el("span", { class: "count", title: text("tiles") });
    count.append(el("span", { class: "back-icon", "aria-hidden": "true" }), document.createTextNode(`× ${seat.tiles}`));
    if (seat.face_down) {
      count.classList.add("face-down");
      count.title = text("face_down");
    }
    const score = el("span", { class: "score", title: text("score"), text: side && side.seats.length === 1 ? side.shown : "" });
    const card = el("div", { class: classes.join(" "), "data-seat": seat.seat, title: seat.away ? text("away") : null }, name, score, count);
    if (side && side.seats.length > 1) card.classList.add("side-" + seat.side);
    if (seat.turn) card.append(el("span", { class: "countdown" }));
    box.append(card);
  }
  for (const side of s.sides || []) {
    if (side.seats.length < 2) continue;
    box.append(el("div", { class: "pair side-" + s.sides.indexOf(side) }, el("span", { class: "name", text: side.name }), el("span", { class: "score", text: side.shown })));
  }
}

function drawFacts(s) {
  const facts = $("#facts");
  facts.replaceChildren();
  const table = s.table;
  if (table.bazaar !== null && table.bazaar !== undefined) {
    facts.append(el("span", { id: "bazaar", class: "fact" }, document.createTextNode(`${text("bazaar")}: ${table.bazaar}`)));
  }
  if (table.sum !== null && table.sum !== undefined) {
    facts.append(el("span", { id: "ends-sum", class: "fact", text: `Σ ${table.sum}` }));
  }
  if (table.turned_up) {
    const shown = el("span", { id: "turned-up", class: "fact" });
    shown.append(tileSvg(table.turned_up[0], table.turned_up[1], { width: 40, height: 20 }));
    facts.append(shown);
  }
}

// The lobby's card: the seats taken (the status above says «Набор игроков: n из m»),
// who starts the game once one is seated, and the game's options.
function drawLobby(s) {
  const list = $("#lobby-seats");
  list.replaceChildren(...s.seats.map((seat) => el("li", { "data-seat": seat.seat, class: seat.computer ? "computer" : "", text: seat.name })));
  const wait = $("#lobby-wait");
  wait.textContent = text("lobby_wait");
  wait.hidden = s.game.status !== "lobby" || s.viewer.may_join || s.viewer.controls || !wait.textContent;
  const rules = (s.lobby && s.lobby.rules) || [];
  $("#lobby-rules").replaceChildren(...rules.map((line) => el("li", { text: line })));
  $("#lobby-rules").hidden = !rules.length || s.game.status !== "lobby";
  const actions = $("#lobby-actions");
  actions.replaceChildren();
  if (s.viewer.may_join) {
    actions.append(el("button", { type: "button", "data-do": "join", class: "primary wide", text: text("join") }));
  }
  if (s.viewer.controls && s.game.status === "lobby") {
    // The lobby's creator starts it and fills it with computers from here too.
    if (!(s.lobby && s.lobby.full)) {
      actions.append(el("button", { type: "button", "data-do": "add_computer", class: "wide", text: text("add_computer") }));
    }
    actions.append(el("button", { type: "button", "data-do": "start", class: "primary wide", text: text("start") }));
  }
}

function drawPlay(s) {
  const section = $("#play");
  const hand = s.hand;
  section.hidden = !hand;
  if (!hand) return;
  const note = $("#note");
  note.textContent = hand.note || (hand.your_turn ? text("your_turn") : "");
  note.classList.toggle("yours", hand.your_turn);
  const tiles = $("#hand");
  tiles.replaceChildren();
  if (hand.face_down) {
    const stack = el("div", { id: "stack", class: "stack" }, el("span", { class: "back-icon big", "aria-hidden": "true" }), el("span", { text: `× ${hand.face_down}` }));
    if (hand.face_down_text) stack.title = hand.face_down_text;
    tiles.append(stack);
  }
  for (const tile of hand.tiles) {
    const classes = ["tile"];
    if (tile.plays.length) classes.push("playable");
    if (key(tile) === selected) classes.push("selected");
    const button = el("button", { type: "button", class: classes.join(" "), "data-tile": key(tile), "aria-label": `${tile.a}|${tile.b}` });
    if (tile.plays.length === 1) button.setAttribute("data-action", tile.plays[0].action);
    button.append(tileSvg(tile.a, tile.b));
    tiles.append(button);
  }
  const choices = $("#choices");
  choices.replaceChildren();
  const chosen = selected && hand.tiles.find((t) => key(t) === selected);
  if (chosen) {
    choices.append(el("p", { class: "hint-line", text: text("choose_end") }));
    for (const p of chosen.plays) choices.append(el("button", { type: "button", class: "choice", "data-action": p.action, text: p.label }));
    choices.append(el("button", { type: "button", "data-do": "cancel", text: text("back") }));
  }
  const moves = $("#moves");
  moves.replaceChildren();
  hand.menus.forEach((menu, index) => {
    moves.append(el("button", { type: "button", class: "menu", "data-menu": index, "data-kind": menu.kind, text: menu.label }));
  });
  for (const move of hand.moves) {
    moves.append(el("button", { type: "button", class: "move primary", "data-action": move.action, text: move.label }));
  }
  if (hand.hint) moves.append(el("button", { type: "button", "data-do": "hint", text: text("hint") }));
  if (hand.offer_draw) moves.append(el("button", { type: "button", "data-do": "draw", text: text("offer_draw") }));
  if (s.viewer.away) moves.append(el("button", { type: "button", "data-do": "back", class: "primary", text: text("back_in_game") }));
}

function matchOver(s) {
  const ended = s.round_end;
  return Boolean(ended && ((ended.match_lines && ended.match_lines.length) || s.game.status === "finished"));
}

function matchLines(s) {
  const ended = s.round_end;
  return (ended && ended.match_lines) || [];
}

// The match's end, above the seats: «Партия окончена» and its final lines.
function drawMatchEnd(s) {
  const box = $("#match-end");
  box.hidden = !matchOver(s);
  if (box.hidden) return;
  $("#match-end-title").textContent = text("match_over");
  $("#match-end-lines").replaceChildren(...matchLines(s).map((line) => el("p", { text: line })));
}

function drawEvents(s) {
  $("#events").replaceChildren(...(s.events || []).map((line) => el("li", { text: line })));
  $("#log").hidden = !(s.events || []).length;
}

function drawSheet(box, sheet) {
  box.replaceChildren();
  if (!sheet) return;
  const table = el("table", { class: "sheet" });
  const head = el("tr");
  for (const cell of sheet.heads) head.append(el("th", { text: cell }));
  table.append(el("thead", {}, head));
  const rows = el("tbody");
  for (const row of sheet.rows) {
    const tr = el("tr");
    for (const cell of row) tr.append(el("td", { text: cell }));
    rows.append(tr);
  }
  table.append(rows);
  const total = el("tr", { class: "total" });
  for (const cell of sheet.totals) total.append(el("td", { text: cell }));
  table.append(el("tfoot", {}, total));
  // a sheet wider than its box scrolls sideways inside it, the rounds' column kept
  box.append(el("div", { class: "sheet-scroll" }, table));
}

function drawBar(s) {
  const bar = $("#bar");
  $("#sheet-button").textContent = text("sheet");
  $("#sheet-button").hidden = !s.sheet;
  let again = bar.querySelector('[data-do="round-end"]');
  if (s.round_end && text("round_end")) {
    if (!again) {
      again = el("button", { type: "button", "data-do": "round-end" });
      bar.append(again);
    }
    again.textContent = text("round_end");
  } else if (again) {
    again.remove();
  }
  // no bar with nothing in it
  bar.hidden = ![...bar.querySelectorAll("button")].some((button) => !button.hidden && button.textContent.trim());
}

function drawRoundEnd(s) {
  const overlay = $("#round-end");
  const ended = s.round_end;
  if (!ended) {
    dismissedRoundEnd = null;
    overlay.hidden = true;
    return;
  }
  $("#round-end-title").textContent = ended.title;
  const over = matchOver(s);
  $("#round-end-match").hidden = !over;
  if (over) {
    $("#round-end-match-title").textContent = text("match_over");
    $("#round-end-match-lines").replaceChildren(...matchLines(s).map((line) => el("p", { text: line })));
  }
  overlay.hidden = dismissedRoundEnd === ended.round;
  drawTable($("#round-end-table"), ended.table);
  const hands = $("#round-end-hands");
  hands.replaceChildren();
  for (const shown of ended.hands) {
    const tiles = el("span", { class: "tiles" });
    for (const [a, b] of shown.tiles) tiles.append(tileSvg(a, b, { width: 24, height: 48 }));
    hands.append(el("li", { class: "reveal", "data-seat": shown.seat }, el("span", { class: "name", text: shown.name }), tiles, el("span", { class: "total", text: shown.total })));
  }
  $("#round-end-lines").replaceChildren(...ended.lines.map((line) => el("p", { text: line })));
  overlay.querySelector('[data-do="close"]').textContent = text("next") || text("close");
}

// --- the turn's clock ------------------------------------------------------------

function tick() {
  const shown = document.querySelector(".countdown");
  if (!shown || !state) return;
  const deadline = state.turn && state.turn.deadline;
  if (!deadline) {
    shown.textContent = "";
    return;
  }
  const left = Math.max(0, Math.ceil((deadline - (Date.now() + clockOffset)) / 1000));
  shown.textContent = `⏳ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  shown.classList.toggle("urgent", left <= 10);
}

// --- modal, toast and the back button ----------------------------------------------

function showModal(kind, children, dismiss = null) {
  modalKind = kind;
  $("#modal-body").replaceChildren(...children);
  $("#modal").querySelector('[data-do="close"]').textContent = dismiss || text("close");
  $("#modal").hidden = false;
  updateBackButton();
}

function closeModal() {
  modalKind = null;
  $("#modal").hidden = true;
  updateBackButton();
}

// `move`: the toast speaks of that move's turn, and goes when the game moves on.
function showToast(message, move = null) {
  if (!message) return;
  const toast = $("#toast");
  toast.textContent = message;
  toast.hidden = false;
  toastMove = move;
  window.clearTimeout(toastTimer);
  toastTimer = window.setTimeout(hideToast, 3500);
}

function hideToast() {
  window.clearTimeout(toastTimer);
  toastMove = null;
  $("#toast").hidden = true;
}

function updateBackButton() {
  const open = !$("#modal").hidden || !$("#round-end").hidden || Boolean(selected);
  if (open) tg.BackButton.show();
  else tg.BackButton.hide();
}

function goBack() {
  if (!$("#modal").hidden) closeModal();
  else if (!$("#round-end").hidden) closeRoundEnd();
  else if (selected) {
    selected = null;
    draw(state);
  }
}

function closeRoundEnd() {
  if (state && state.round_end) dismissedRoundEnd = state.round_end.round;
  $("#round-end").hidden = true;
  updateBackButton();
}

// --- presses -----------------------------------------------------------------------

function onClick(event) {
  if (!state) return;
  const target = event.target.closest("[data-action], [data-menu], [data-do], [data-tile], #modal, #round-end");
  if (!target) return;
  if (target.id === "modal" || target.id === "round-end") {
    // a tap on the dimmed backdrop closes it
    if (event.target === target) goBack();
    return;
  }
  const todo = target.getAttribute("data-do");
  if (todo === "close") {
    if (target.closest("#round-end")) closeRoundEnd();
    else closeModal();
    return;
  }
  if (todo === "cancel") {
    selected = null;
    draw(state);
    return;
  }
  if (todo === "sheet") {
    const box = el("div", { class: "sheet-box" });
    drawSheet(box, state.sheet);
    showModal("sheet", [el("h2", { text: text("sheet") }), box]);
    return;
  }
  if (todo === "round-end") {
    dismissedRoundEnd = null;
    drawRoundEnd(state);
    updateBackButton();
    return;
  }
  if (busy) return;
  if (todo === "join") return act({ do: "join" });
  if (todo === "start") return act({ do: "start" });
  if (todo === "add_computer") return act({ do: "add_computer" });
  if (todo === "back") return act({ do: "back" });
  if (todo === "hint") return act({ do: "hint", move: state.game.move });
  if (todo === "draw" && state.hand && state.hand.offer_draw) return act({ do: "draw", move: state.hand.offer_draw });
  const menu = target.getAttribute("data-menu");
  if (menu !== null) {
    const shown = state.hand && state.hand.menus[Number(menu)];
    if (!shown) return;
    tg.HapticFeedback.selectionChanged();
    showModal("menu", [
      el("h2", { text: shown.label }),
      ...shown.options.map((option) => el("button", { type: "button", class: "menu-option wide", "data-action": option.action, text: option.label })),
    ], text("menu_back") || text("back"));
    return;
  }
  const action = target.getAttribute("data-action");
  if (action !== null) {
    if (target.classList.contains("menu-option")) closeModal();
    play(action);
    return;
  }
  const tile = target.getAttribute("data-tile");
  if (tile !== null && state.hand) {
    const held = state.hand.tiles.find((t) => key(t) === tile);
    if (!held || !held.plays.length) {
      // why it does not go: whose turn it is, or what the turn asks
      if (state.hand.your_turn) {
        haptic("warning");
        showToast(state.hand.note || text("no_fit"), state.game.move);
      } else {
        // the status line as shown (its first letter raised, as #status's CSS does)
        showToast(state.status.charAt(0).toUpperCase() + state.status.slice(1), state.game.move);
      }
      return;
    }
    tg.HapticFeedback.selectionChanged();
    selected = selected === tile ? null : tile;
    draw(state);
  }
}

let resizing = false;
function onResize() {
  if (resizing || !state) return;
  resizing = true;
  window.requestAnimationFrame(() => {
    resizing = false;
    draw(state);
  });
}

async function start() {
  tg.ready();
  tg.expand();
  tg.BackButton.onClick(goBack);
  document.addEventListener("click", onClick);
  window.addEventListener("resize", onResize);
  window.setInterval(tick, 250);
  setConnection(text("connecting"));
  if (!token) {
    setConnection(text("error"));
    return;
  }
  try {
    await loadState();
    setConnection(null);
  } catch (error) {
    if (error.final) {
      setConnection(error.message);
      return;
    }
  }
  follow();
}

start();
