// The play page (tests/fakegram/play): every chat of the local Telegram, as its people's
// clients would show it, kept live over server-sent events. Plain JS, no build step.
"use strict";

const state = {
  bot: { name: "", username: "" },
  people: [],
  groups: [],
  me: null, // the person who acts in the groups
  // person id -> payload of a t.me/<bot>?start= link they opened; kept in sessionStorage so
  // a reload of the page does not turn «START (from the link)» into a plain /start.
  pendingStart: loadPendingStart(),
};
const panes = new Map(); // chat id -> { el, list, kind }
// "chat:key" -> the message's JSON, as last received (key: its id, or e<ephemeral_id> for an
// ephemeral message; kept also while the person it is for is not the one viewing the groups)
const shown = new Map();

const $ = (selector, root = document) => root.querySelector(selector);

function loadPendingStart() {
  try {
    return new Map(JSON.parse(sessionStorage.getItem("pendingStart") || "[]"));
  } catch {
    return new Map();
  }
}

function savePendingStart() {
  try {
    sessionStorage.setItem("pendingStart", JSON.stringify([...state.pendingStart]));
  } catch {
    // storage unavailable (private mode): the link is remembered until a reload only
  }
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null) node.setAttribute(key, value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function person(id) {
  return state.people.find((p) => p.id === id);
}

// ------------------------------------------------------------------ talking to the fake

async function api(action, body) {
  let response;
  try {
    response = await fetch(`/play/api/${action}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    toast(`The fake is not reachable: ${error}`, { error: true });
    return null;
  }
  const answer = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) {
    toast(answer.error || response.statusText, { error: true });
    return null;
  }
  return answer;
}

function connect() {
  const status = $("#status");
  const events = new EventSource("/play/events");
  events.onopen = () => { status.textContent = "● live"; };
  events.onerror = () => { status.textContent = "reconnecting…"; };
  events.addEventListener("reset", (event) => {
    const data = JSON.parse(event.data);
    for (const pane of panes.values()) pane.el.remove();
    panes.clear();
    shown.clear();
    setPeople(data);
    for (const message of data.messages) upsert(message, { quiet: true });
    for (const pane of panes.values()) pane.list.scrollTop = pane.list.scrollHeight;
    firstRun();
  });
  events.addEventListener("people", (event) => setPeople(JSON.parse(event.data)));
  events.addEventListener("message", (event) => {
    upsert(JSON.parse(event.data));
    firstRun();
  });
}

// The three lines on what to do stay until the first message is in any chat.
function firstRun() {
  $("#first-run").hidden = shown.size > 0;
}

// ------------------------------------------------------------------ people and panes

function setPeople(data) {
  state.bot = data.bot;
  state.people = data.people;
  state.groups = data.groups;
  const before = state.me;
  if (!person(state.me)) state.me = state.people.length ? state.people[0].id : null;
  if (state.me !== before) redrawEphemeral();
  const select = $("#me");
  select.replaceChildren(
    ...state.people.map((p) => el("option", { value: p.id }, p.name)),
  );
  if (state.me !== null) select.value = String(state.me);
  for (const group of state.groups) drawGroupPane(group);
  for (const p of state.people) drawPersonPane(p);
  order();
}

function pane(chatId, kind) {
  let found = panes.get(chatId);
  if (!found) {
    const node = $("#pane").content.firstElementChild.cloneNode(true);
    node.classList.add(kind);
    node.dataset.chat = chatId;
    if (kind === "private") node.dataset.owner = chatId;
    const list = $(".messages", node);
    $(".compose", node).addEventListener("submit", (event) => {
      event.preventDefault();
      const input = event.target.elements.text;
      const actor = kind === "private" ? chatId : state.me;
      if (input.value.trim()) {
        send(actor, chatId, input.value);
        input.value = "";
      }
    });
    $(".start", node).addEventListener("click", () => {
      const payload = state.pendingStart.get(chatId);
      state.pendingStart.delete(chatId);
      savePendingStart();
      send(chatId, chatId, payload ? `/start ${payload}` : "/start");
      drawPersonPane(person(chatId));
    });
    $("#chats").append(node);
    found = { el: node, list, kind };
    panes.set(chatId, found);
  }
  return found;
}

function drawGroupPane(group) {
  const { el: node } = pane(group.id, "group");
  const members = Object.entries(group.members).filter(([, s]) => !["left", "kicked"].includes(s));
  $(".title", node).replaceChildren(
    `👥 ${group.title} `,
    el("small", {}, group.migrated_to ? "(upgraded: read only)" : `· ${members.length} people and the bot`),
  );
  const me = person(state.me);
  $(".compose input", node).placeholder = me ? `Message or /command as ${me.name}` : "Add a person first";
  $(".controls", node).replaceChildren();
  const roster = state.people.map((p) => {
    const status = group.members[p.id] || "left";
    const present = !["left", "kicked"].includes(status);
    const badge = status === "creator" ? " 👑" : status === "administrator" ? " ⭐" : "";
    return el(
      "span",
      { class: "member" },
      present ? `${p.name}${badge}` : el("s", {}, p.name),
      present
        ? el("button", { type: "button", title: `${p.name} leaves the group`, onclick: () => api("leave", { user: p.id, chat: group.id }) }, "leave")
        : el("button", { type: "button", title: `${p.name} joins the group`, onclick: () => api("join", { user: p.id, chat: group.id }) }, "join"),
    );
  });
  $(".members", node).replaceChildren(...roster);
}

function drawPersonPane(p) {
  if (!p) return;
  const { el: node } = pane(p.id, "private");
  node.classList.toggle("mine", p.id === state.me);
  $(".title", node).replaceChildren(
    `💬 ${p.name} `,
    el("small", {}, `· chat with @${state.bot.username}${p.blocked ? " · 🚫 blocked" : ""}`),
  );
  const languages = ["ru", "en"].map((lang) =>
    el("button", {
      type: "button",
      class: p.lang === lang ? "on" : "",
      title: `${p.name}'s app in ${lang}`,
      onclick: () => api("language", { user: p.id, lang }),
    }, lang),
  );
  const block = el("button", {
    type: "button",
    class: p.blocked ? "on" : "",
    onclick: () => api("block", { user: p.id, blocked: !p.blocked }),
  }, p.blocked ? "unblock bot" : "block bot");
  $(".controls", node).replaceChildren(...languages, block);
  const payload = state.pendingStart.get(p.id);
  const bar = $(".start-bar", node);
  bar.hidden = p.started && !p.blocked && payload === undefined;
  // As in a client: a chat the person never started, or blocked, has only its button.
  $(".compose", node).hidden = !p.started || p.blocked;
  $(".start", bar).textContent = payload ? "START (from the link)" : p.blocked ? "RESTART (unblock)" : "START";
}

function order() {
  // Groups first, then the chosen person's chat, then everyone else's.
  let rank = 0;
  for (const group of state.groups) panes.get(group.id).el.style.order = rank++;
  const mine = panes.get(state.me);
  if (mine) mine.el.style.order = rank++;
  for (const p of state.people) if (p.id !== state.me) panes.get(p.id).el.style.order = rank++;
}

// ------------------------------------------------------------------ messages

// An ephemeral message (Bot API 10.3) is for one member of a group alone: their client
// shows it, nobody else's. Here that is the person acting in the groups («I am»).
function seen(message) {
  return message.receiver === null || message.receiver === state.me;
}

function redrawEphemeral() {
  for (const message of [...shown.values()]) {
    if (message.receiver !== null) upsert(message, { quiet: true });
  }
}

// Where a message goes in its chat: by id; an ephemeral one (id 0) right after the chat's
// last message before it (`after`), with the others that came after that one.
function rank(message) {
  return message.receiver === null ? 2 * message.id : 2 * message.after + 1;
}

function upsert(message, { quiet = false } = {}) {
  const key = `${message.chat}:${message.key}`;
  const target = panes.get(message.chat);
  if (!target) return;
  let item = target.list.querySelector(`li[data-id="${message.key}"]`);
  if (message.deleted) {
    if (item) item.remove();
    shown.delete(key);
    return;
  }
  shown.set(key, message);
  if (!seen(message)) {
    if (item) item.remove();
    return;
  }
  const list = target.list;
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  const fresh = !item;
  if (fresh) {
    item = el("li", { dataset: { id: message.key, rank: rank(message) } });
    const after = [...list.children].find((li) => Number(li.dataset.rank) > rank(message));
    list.insertBefore(item, after || null);
  }
  draw(item, message);
  if (!quiet) {
    item.classList.remove("flash");
    void item.offsetWidth; // restart the animation on an edit
    item.classList.add("flash");
    // A new message, or an edit that made one taller (a hand, a table's caption), keeps a
    // chat that was scrolled to its end at its end, as a client does.
    if (atBottom) list.scrollTop = list.scrollHeight;
  }
}

function draw(item, message) {
  item.dataset.version = message.version;
  const target = panes.get(message.chat);
  if (message.service) {
    item.className = "msg service";
    item.replaceChildren(message.service);
    return;
  }
  const own = message.from_id !== null;
  const ephemeral = message.receiver !== null;
  item.className = `msg ${own ? "own" : "bot"}${ephemeral ? " ephemeral" : ""}`;
  const parts = [];
  if (message.thread_id !== null) {
    parts.push(el("div", { class: "topic", title: `forum topic ${message.thread_id}` }, `# ${message.topic ?? message.thread_id}`));
  }
  if (target.kind === "group" || message.via_bot) {
    const name = own ? message.from : state.bot.name;
    parts.push(el("div", { class: "from" }, message.via_bot ? `${name} via @${state.bot.username}` : name));
  }
  if (message.reply_to) {
    parts.push(el("div", { class: "quote" }, `${message.reply_to.from}: ${message.reply_to.text}`));
  }
  if (message.photo) {
    parts.push(el("img", {
      src: message.photo.url, width: message.photo.width, height: message.photo.height, alt: "picture",
    }));
  }
  const text = message.text ?? message.caption;
  if (text) {
    const entities = message.text !== null ? message.entities : message.caption_entities;
    parts.push(el("div", { class: "text" }, rich(text, entities, message)));
  }
  if (message.keyboard.length) parts.push(keyboard(message));
  const time = new Date(message.date * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const marks = [message.pinned ? "📌" : "", message.edited ? "edited" : "", time].filter(Boolean);
  if (ephemeral) {
    const name = person(message.receiver)?.name ?? "its receiver";
    parts.push(el("div", { class: "only-you", title: `An ephemeral message: only ${name} sees it` }, "👁 Only you can see this message"));
  }
  parts.push(el("div", { class: "meta" }, marks.join(" · ")));
  item.replaceChildren(...parts);
}

// Entities count UTF-16 code units, as JS strings do: slices line up with the offsets.
function rich(text, entities, message) {
  const sorted = [...(entities || [])].sort((a, b) => a.offset - b.offset || b.length - a.length);
  const root = document.createDocumentFragment();
  build(root, 0, text.length, sorted);
  return root;

  function build(parent, start, end, list) {
    let at = start;
    let i = 0;
    while (i < list.length) {
      const entity = list[i++];
      const from = Math.max(entity.offset, at);
      const to = Math.min(entity.offset + entity.length, end);
      const inner = [];
      while (i < list.length && list[i].offset < to) inner.push(list[i++]);
      if (from >= to) continue;
      if (from > at) parent.append(text.slice(at, from));
      const node = wrap(entity, text.slice(from, to));
      build(node, from, to, inner);
      parent.append(node);
      at = to;
    }
    if (at < end) parent.append(text.slice(at, end));
  }

  function wrap(entity, content) {
    switch (entity.type) {
      case "bold": return el("b");
      case "italic": return el("i");
      case "underline": return el("u");
      case "strikethrough": return el("s");
      case "code": return el("code");
      case "pre": return el("pre");
      case "spoiler": return el("span", { class: "spoiler" });
      case "blockquote":
      case "expandable_blockquote": return el("blockquote");
      case "text_link":
      case "url": {
        const href = entity.type === "url" ? content : entity.url;
        const safe = /^(https?:|tg:)/i.test(href || "") ? href : null;
        return el("a", { href: safe, target: "_blank", rel: "noopener", onclick: (event) => link(event, href, message) });
      }
      case "bot_command":
        return el("span", {
          class: "cmd",
          title: "Send this command",
          onclick: () => send(actorFor(message), message.chat, content),
        });
      default: return el("span", { class: entity.type });
    }
  }
}

function keyboard(message) {
  return el("div", { class: "kb" }, ...message.keyboard.map((row, r) =>
    el("div", { class: "row" }, ...row.map((button, c) =>
      el("button", {
        type: "button",
        class: button.kind,
        title: button.kind === "url" ? button.url : null,
        onclick: (event) => press(message, r, c, event.currentTarget),
      }, button.text),
    )),
  ));
}

// ------------------------------------------------------------------ acting

function actorFor(message) {
  return panes.get(message.chat).kind === "private" ? message.chat : state.me;
}

async function send(actor, chat, text) {
  if (actor === null) return toast("Add a person first", { error: true });
  await api("send", { user: actor, chat, text });
}

async function press(message, row, column, button) {
  const actor = actorFor(message);
  const face = message.keyboard[row][column];
  const opensApp = face.kind === "web_app" || (face.kind === "url" && isAppLink(face.url));
  if (face.kind === "url" && !opensApp) return openLink(face.url, actor);
  if (face.kind !== "callback" && !opensApp) return toast("Inline mode is not modelled on this page");
  if (actor === null) return toast("Add a person first", { error: true });
  if (message.receiver !== null && actor !== message.receiver) {
    return toast("Only the person this message is for can press it", { error: true });
  }
  const which = message.receiver === null ? { message: message.id } : { ephemeral: message.ephemeral_id };
  if (opensApp) {
    return openApp(actor, { chat: message.chat, ...which, version: message.version, row, column });
  }
  button.classList.add("busy");
  const answer = await api("press", {
    user: actor, chat: message.chat, ...which, version: message.version, row, column,
  });
  button.classList.remove("busy");
  if (!answer) return;
  if (answer.url) openLink(answer.url, actor);
  if (answer.text) {
    if (answer.show_alert) showAlert(answer.text, person(actor)?.name);
    else toast(answer.text, { who: person(actor)?.name });
  }
}

function link(event, href, message) {
  if (isAppLink(href)) {
    event.preventDefault();
    openApp(actorFor(message), { chat: message.chat, link: href });
  } else if (isBotLink(href)) {
    event.preventDefault();
    openLink(href, actorFor(message));
  }
}

// A direct link to one of the bot's Mini Apps: t.me/<bot>/<short name>[?startapp=...].
function isAppLink(href) {
  try {
    const url = new URL(href);
    const [bot, app, ...rest] = url.pathname.replace(/^\//, "").split("/");
    return ["t.me", "telegram.me"].includes(url.hostname) && rest.length === 0
      && (bot || "").toLowerCase() === state.bot.username.toLowerCase()
      && (state.bot.apps || []).includes(app);
  } catch {
    return false;
  }
}

function isBotLink(href) {
  try {
    const url = new URL(href);
    return ["t.me", "telegram.me"].includes(url.hostname)
      && url.pathname.replace(/^\//, "").toLowerCase() === state.bot.username.toLowerCase();
  } catch {
    return false;
  }
}

// A t.me link to the bot opens the private chat with its START button, as a client does.
function openLink(href, actor) {
  if (isAppLink(href)) {
    openApp(actor, { link: href });
    return;
  }
  if (!isBotLink(href)) {
    window.open(href, "_blank", "noopener");
    return;
  }
  const params = new URL(href).searchParams;
  if (params.has("startgroup")) {
    toast("Adding the bot to another group is not modelled here");
    return;
  }
  const p = person(actor);
  if (!p) return;
  if (params.has("start")) {
    state.pendingStart.set(actor, params.get("start"));
    savePendingStart();
  }
  drawPersonPane(p);
  panes.get(actor).el.scrollIntoView({ behavior: "smooth", block: "nearest" });
  toast(`${p.name}: the chat with @${state.bot.username} is open, press START`);
}

// ------------------------------------------------------------------ the Mini App panel

// The Mini App open now, as Telegram's web client holds one: a frame beside the chats,
// opened for one person, talking to the client by postMessage ({eventType, eventData} as
// JSON, the protocol of telegram-web-app.js inside a frame).
const app = { frame: null, origin: "*", person: null, theme: {} };

async function openApp(actor, request) {
  if (actor === null) return toast("Add a person first", { error: true });
  const answer = await api("open_app", { user: actor, ...request });
  if (answer) showApp(answer, actor);
}

function showApp(answer, actor) {
  closeApp();
  app.person = actor;
  app.theme = answer.theme || {};
  app.origin = new URL(answer.url).origin;
  // A new frame each time: the same page with another person's fragment must load anew.
  app.frame = el("iframe", {
    src: answer.url,
    title: `${answer.title} · Mini App`,
    sandbox: "allow-scripts allow-same-origin allow-forms allow-popups allow-modals",
    // Loaded: no «Loading…» over it even if the app never says web_app_ready.
    onload: () => { $("#app-loading").hidden = true; },
  });
  $("#app-name").textContent = answer.title;
  $("#app-who").textContent = person(actor) ? `as ${person(actor).name}` : "";
  $("#app-back").hidden = true;
  $("#app-main").hidden = true;
  $("#app-loading").hidden = false;
  $("#app-frame").replaceChildren(app.frame);
  $("#app").hidden = false;
  document.body.classList.add("app-open");
}

function closeApp() {
  if (app.frame) app.frame.remove(); // its page goes, and its event stream with it
  app.frame = null;
  app.person = null;
  $("#app").hidden = true;
  document.body.classList.remove("app-open");
}

function postToApp(eventType, eventData = {}) {
  if (app.frame && app.frame.contentWindow) {
    app.frame.contentWindow.postMessage(JSON.stringify({ eventType, eventData }), app.origin);
  }
}

function appEvent(event) {
  if (!app.frame || event.source !== app.frame.contentWindow) return;
  let message = event.data;
  if (typeof message === "string") {
    try {
      message = JSON.parse(message);
    } catch {
      return;
    }
  }
  if (!message || typeof message.eventType !== "string") return;
  const data = message.eventData || {};
  switch (message.eventType) {
    case "web_app_ready":
      $("#app-loading").hidden = true;
      break;
    case "web_app_close":
      closeApp();
      break;
    case "web_app_setup_back_button":
      $("#app-back").hidden = !data.is_visible;
      break;
    case "web_app_setup_main_button": {
      const main = $("#app-main");
      main.hidden = !data.is_visible || !data.text;
      main.textContent = data.text || "";
      main.disabled = data.is_active === false;
      main.style.background = data.color || "";
      main.style.color = data.text_color || "";
      break;
    }
    case "web_app_request_theme":
      postToApp("theme_changed", { theme_params: app.theme });
      break;
    case "web_app_request_viewport": {
      const box = $("#app-frame");
      postToApp("viewport_changed", {
        height: box.clientHeight, width: box.clientWidth, is_expanded: true, is_state_stable: true,
      });
      break;
    }
    case "web_app_open_popup":
      openPopup(data);
      break;
    case "web_app_open_tg_link": {
      const href = `https://t.me${data.path_full || ""}`;
      if (isAppLink(href) || isBotLink(href)) openLink(href, app.person);
      else toast(`${href}: only the bot's own links are modelled here`);
      break;
    }
    case "web_app_open_link":
      if (/^https?:/i.test(data.url || "")) window.open(data.url, "_blank", "noopener");
      break;
    case "web_app_data_send":
      toast("web_app_data_send: only a keyboard button's app sends data; not modelled here");
      break;
    case "iframe_ready":
    case "web_app_expand": // the panel is full height already
    case "web_app_trigger_haptic_feedback":
    case "web_app_set_header_color":
    case "web_app_set_background_color":
    case "web_app_set_bottom_bar_color":
    case "web_app_setup_closing_behavior":
    case "web_app_setup_swipe_behavior":
      break; // no-ops, as on a client without them
    default:
      break; // an event this client does not know: ignored, as Telegram's clients do
  }
}

// Telegram's popup: a title, a message and up to three buttons; the one pressed (none
// when dismissed) goes back to the app as popup_closed.
function openPopup(data) {
  const dialog = $("#app-popup");
  $("#app-popup-title").textContent = data.title || "";
  $("#app-popup-text").textContent = data.message || "";
  const names = { ok: "OK", close: "Close", cancel: "Cancel" };
  const buttons = (data.buttons && data.buttons.length ? data.buttons : [{ id: "", type: "close" }])
    .map((b) => el("button", { value: b.id ?? "", class: b.type === "destructive" ? "destructive" : "" },
      b.text || names[b.type] || "OK"));
  $("#app-popup-buttons").replaceChildren(...buttons);
  dialog.returnValue = "";
  dialog.onclose = () => {
    const chosen = dialog.returnValue;
    postToApp("popup_closed", chosen ? { button_id: chosen } : {});
  };
  dialog.showModal();
}

function toast(text, { error = false, who = null } = {}) {
  const node = el("div", { class: error ? "toast error" : "toast" }, who ? el("span", { class: "who" }, who) : null, text);
  $("#toasts").append(node);
  setTimeout(() => node.remove(), error ? 6000 : 3500);
}

function showAlert(text, who = null) {
  const dialog = $("#alert");
  $("#alert-who").textContent = who ? `to ${who}` : "";
  $("#alert-text").textContent = text;
  if (!dialog.open) dialog.showModal();
}

// ------------------------------------------------------------------ start

document.addEventListener("DOMContentLoaded", () => {
  $("#me").addEventListener("change", (event) => {
    state.me = Number(event.target.value);
    redrawEphemeral();
    for (const group of state.groups) drawGroupPane(group);
    for (const p of state.people) drawPersonPane(p);
    order();
  });
  $("#add-person").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const added = await api("add_person", { name: form.elements.name.value, lang: form.elements.lang.value });
    if (added) form.reset();
  });
  $("#app-close").addEventListener("click", closeApp);
  $("#app-back").addEventListener("click", () => postToApp("back_button_pressed"));
  $("#app-main").addEventListener("click", () => postToApp("main_button_pressed"));
  window.addEventListener("message", appEvent);
  connect();
});
