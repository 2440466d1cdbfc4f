// A minimal `window.Telegram.WebApp`, for when Telegram's own script is absent: the
// Mini App's launch parameters read from the page's `location.hash`, and its events
// sent to the Telegram client as its web clients expect them (`postMessage` to the
// parent frame with `{eventType, eventData}` as JSON; on mobile
// `window.TelegramWebviewProxy.postEvent(type, json)`). Events from the client arrive
// as the parent's `message` events (web) or `Telegram.WebView.receiveEvent` (mobile):
// `theme_changed` and `back_button_pressed` are followed.
//
// What it offers: initData, initDataUnsafe (user, start_param, auth_date, hash),
// platform, themeParams, colorScheme, ready(), expand(), close(), onEvent/offEvent,
// BackButton (show, hide, onClick, offClick), HapticFeedback (impactOccurred,
// notificationOccurred, selectionChanged), openTelegramLink(url), openLink(url).
// The theme's colours are set as the CSS variables Telegram's script sets
// (`--tg-theme-bg-color`, ...), and `--tg-color-scheme`.
(function () {
  "use strict";
  if (window.Telegram && window.Telegram.WebApp && window.Telegram.WebApp.initData !== undefined) {
    return; // Telegram's own script is here
  }
  const STORE = "__domino_tg_params";

  function hashParams() {
    const params = {};
    const hash = window.location.hash.replace(/^#/, "");
    for (const part of hash.split("&")) {
      if (!part) continue;
      const at = part.indexOf("=");
      const key = decodeURIComponent(at < 0 ? part : part.slice(0, at));
      params[key] = at < 0 ? "" : decodeURIComponent(part.slice(at + 1).replace(/\+/g, "%20"));
    }
    return params;
  }

  // The launch parameters survive a reload of the page (the client may change the hash).
  let params = hashParams();
  try {
    if (params.tgWebAppData !== undefined) {
      window.sessionStorage.setItem(STORE, JSON.stringify(params));
    } else {
      params = JSON.parse(window.sessionStorage.getItem(STORE) || "{}");
    }
  } catch (error) {
    // storage refused (a private window): the hash is all there is
  }

  function parseJson(text, fallback) {
    try {
      const value = JSON.parse(text);
      return value && typeof value === "object" ? value : fallback;
    } catch (error) {
      return fallback;
    }
  }

  const initData = params.tgWebAppData || "";
  const unsafe = {};
  for (const [key, value] of new URLSearchParams(initData)) {
    unsafe[key] = key === "user" || key === "receiver" || key === "chat" ? parseJson(value, null) : value;
  }
  if (unsafe.auth_date) unsafe.auth_date = Number(unsafe.auth_date);
  if (!unsafe.start_param && params.tgWebAppStartParam) unsafe.start_param = params.tgWebAppStartParam;

  function postEvent(type, data) {
    const eventData = data || {};
    try {
      if (window.TelegramWebviewProxy && window.TelegramWebviewProxy.postEvent) {
        window.TelegramWebviewProxy.postEvent(type, JSON.stringify(eventData));
      } else if (window.parent && window.parent !== window) {
        window.parent.postMessage(JSON.stringify({ eventType: type, eventData }), "*");
      }
    } catch (error) {
      // no client to tell: a plain browser
    }
  }

  const handlers = {};
  function onEvent(type, callback) {
    (handlers[type] = handlers[type] || []).push(callback);
  }
  function offEvent(type, callback) {
    handlers[type] = (handlers[type] || []).filter((f) => f !== callback);
  }
  function receiveEvent(type, data) {
    if (type === "theme_changed" && data && data.theme_params) {
      setTheme(data.theme_params);
    }
    const wanted = type === "theme_changed" ? "themeChanged" : type === "back_button_pressed" ? "backButtonClicked" : type;
    for (const callback of handlers[wanted] || []) {
      try {
        callback.call(webApp, data);
      } catch (error) {
        window.setTimeout(() => {
          throw error;
        });
      }
    }
  }

  function luminance(colour) {
    const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour || "");
    if (!m) return 1;
    const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h, 16) / 255);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }

  const webApp = {
    initData,
    initDataUnsafe: unsafe,
    version: params.tgWebAppVersion || "6.0",
    platform: params.tgWebAppPlatform || "unknown",
    themeParams: {},
    colorScheme: "light",
    isExpanded: false,
    onEvent,
    offEvent,
    ready() {
      postEvent("web_app_ready");
    },
    expand() {
      webApp.isExpanded = true;
      postEvent("web_app_expand");
    },
    close() {
      postEvent("web_app_close");
    },
    openTelegramLink(url) {
      const link = new URL(url, "https://t.me");
      if (link.hostname !== "t.me") {
        webApp.openLink(url);
        return;
      }
      if (window.TelegramWebviewProxy || (window.parent && window.parent !== window)) {
        postEvent("web_app_open_tg_link", { path_full: link.pathname + link.search });
      } else {
        window.open(link.href, "_blank", "noopener");
      }
    },
    openLink(url) {
      if (window.TelegramWebviewProxy || (window.parent && window.parent !== window)) {
        postEvent("web_app_open_link", { url });
      } else {
        window.open(url, "_blank", "noopener");
      }
    },
    BackButton: {
      isVisible: false,
      show() {
        this.isVisible = true;
        postEvent("web_app_setup_back_button", { is_visible: true });
      },
      hide() {
        this.isVisible = false;
        postEvent("web_app_setup_back_button", { is_visible: false });
      },
      onClick(callback) {
        onEvent("backButtonClicked", callback);
      },
      offClick(callback) {
        offEvent("backButtonClicked", callback);
      },
    },
    HapticFeedback: {
      impactOccurred(style) {
        postEvent("web_app_trigger_haptic_feedback", { type: "impact", impact_style: style || "light" });
      },
      notificationOccurred(type) {
        postEvent("web_app_trigger_haptic_feedback", { type: "notification", notification_type: type || "success" });
      },
      selectionChanged() {
        postEvent("web_app_trigger_haptic_feedback", { type: "selection_change" });
      },
    },
  };

  function setTheme(theme) {
    webApp.themeParams = theme || {};
    const root = document.documentElement.style;
    for (const [key, value] of Object.entries(webApp.themeParams)) {
      if (typeof value === "string" && /^#[0-9a-f]{3,8}$/i.test(value)) {
        root.setProperty("--tg-theme-" + key.replace(/_/g, "-"), value);
      }
    }
    webApp.colorScheme = luminance(webApp.themeParams.bg_color) < 0.5 ? "dark" : "light";
    root.setProperty("--tg-color-scheme", webApp.colorScheme);
    document.documentElement.dataset.scheme = webApp.colorScheme;
  }

  setTheme(parseJson(params.tgWebAppThemeParams || "{}", {}));
  if (!params.tgWebAppThemeParams && window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches) {
    webApp.colorScheme = "dark";
    document.documentElement.dataset.scheme = "dark";
  }

  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return;
    const message = typeof event.data === "string" ? parseJson(event.data, null) : event.data;
    if (message && typeof message.eventType === "string") {
      receiveEvent(message.eventType, message.eventData);
    }
  });

  window.Telegram = window.Telegram || {};
  window.Telegram.WebApp = webApp;
  window.Telegram.WebView = window.Telegram.WebView || { receiveEvent, postEvent };
  postEvent("web_app_request_theme");
})();
