/* Shared helpers for every page: money formatting, JSON API calls with CSRF, plain-words error notices,
   and a WebSocket client that reconnects by itself. No framework, no build step.
   Translations come from Django's JavaScript catalogue (gettext / interpolate are globals from /jsi18n/). */
(function () {
  "use strict";

  var gettext = window.gettext || function (text) { return text; };
  var format = window.interpolate || function (text, values, named) {
    return text.replace(/%\((\w+)\)s/g, function (_, name) { return values[name]; });
  };

  function language() {
    return (document.documentElement.lang || "en").slice(0, 2);
  }

  /* Integer cents as money, exactly like the server's |money filter: "€1,234.56" or "1 234,56 €". */
  function money(cents) {
    if (cents === null || cents === undefined || cents === "" || isNaN(Number(cents))) { return ""; }
    var value = Math.trunc(Number(cents));
    var sign = value < 0 ? "-" : "";
    value = Math.abs(value);
    var whole = Math.floor(value / 100);
    var fraction = String(value % 100).padStart(2, "0");
    if (language() === "et") {
      return sign + String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, "\u00a0") + "," + fraction + "\u00a0€";
    }
    return sign + "€" + String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ",") + "." + fraction;
  }

  /* A whole number of tournament chips with thousands separators and no currency sign: "12,500" or "12 500". */
  function chips(count) {
    if (count === null || count === undefined || count === "" || isNaN(Number(count))) { return ""; }
    var value = Math.trunc(Number(count));
    var sign = value < 0 ? "-" : "";
    return sign + String(Math.abs(value)).replace(/\B(?=(\d{3})+(?!\d))/g, language() === "et" ? "\u00a0" : ",");
  }

  /* The engine names hands in English ("Two Pair, Kings and Sixes", games.engine.evaluation.strength_name); this
     gives the name in the page's language. Names it does not recognise are returned as they are. */
  var RANKS = {
    Ace: gettext("Ace"), King: gettext("King"), Queen: gettext("Queen"), Jack: gettext("Jack"), Ten: gettext("Ten"),
    Nine: gettext("Nine"), Eight: gettext("Eight"), Seven: gettext("Seven"), Six: gettext("Six"), Five: gettext("Five"),
    Four: gettext("Four"), Three: gettext("Three"), Two: gettext("Two")
  };
  var RANKS_PLURAL = {
    Aces: gettext("Aces"), Kings: gettext("Kings"), Queens: gettext("Queens"), Jacks: gettext("Jacks"),
    Tens: gettext("Tens"), Nines: gettext("Nines"), Eights: gettext("Eights"), Sevens: gettext("Sevens"),
    Sixes: gettext("Sixes"), Fives: gettext("Fives"), Fours: gettext("Fours"), Threes: gettext("Threes"),
    Twos: gettext("Twos")
  };
  var HAND_CLASSES = {
    "Royal Flush": gettext("Royal Flush"), "Straight Flush": gettext("Straight Flush"),
    "Four of a Kind": gettext("Four of a Kind"), "Full House": gettext("Full House"), "Flush": gettext("Flush"),
    "Straight": gettext("Straight"), "Three of a Kind": gettext("Three of a Kind"), "Two Pair": gettext("Two Pair"),
    "Pair": gettext("Pair"), "High Card": gettext("High Card")
  };
  var HAND_PATTERNS = [
    [/^Straight Flush, (\w+) High$/, gettext("Straight Flush, %(rank)s High")],
    [/^Four of a Kind, (\w+)$/, gettext("Four of a Kind, %(ranks)s")],
    [/^Full House, (\w+) full of (\w+)$/, gettext("Full House, %(ranks)s full of %(other)s")],
    [/^Flush, (\w+) High$/, gettext("Flush, %(rank)s High")],
    [/^Straight, (\w+) High$/, gettext("Straight, %(rank)s High")],
    [/^Three of a Kind, (\w+)$/, gettext("Three of a Kind, %(ranks)s")],
    [/^Two Pair, (\w+) and (\w+)$/, gettext("Two Pair, %(ranks)s and %(other)s")],
    [/^Pair of (\w+)$/, gettext("Pair of %(ranks)s")],
    [/^High Card, (\w+)$/, gettext("High Card, %(rank)s")]
  ];
  function handName(name) {
    if (!name) { return ""; }
    if (HAND_CLASSES[name]) { return HAND_CLASSES[name]; }
    for (var i = 0; i < HAND_PATTERNS.length; i += 1) {
      var match = HAND_PATTERNS[i][0].exec(name);
      if (match) {
        var first = match[1], second = match[2];
        return format(HAND_PATTERNS[i][1], {
          rank: RANKS[first] || first, ranks: RANKS_PLURAL[first] || first, other: RANKS_PLURAL[second] || second
        }, true);
      }
    }
    return name;
  }

  /* A euro amount typed by a person ("12", "12.5", "12,50", "€ 1 200.00") as integer cents, or null. */
  /* Euros typed by a person → integer cents, or null. A point or a comma is the decimal separator ("50.50" and
     "50,50" are both €50.50; never a thousands separator: "1,000" has three decimals and is refused), at most two
     decimals; a euro sign and spaces are ignored. The server's rule is the same (wallet/services/money_input.py). */
  function parseMoney(text) {
    if (text === null || text === undefined) { return null; }
    var cleaned = String(text).replace(/[€\s\u00a0]/g, "");
    cleaned = cleaned.replace(",", ".");
    if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) { return null; }
    var parts = cleaned.split(".");
    var cents = Number(parts[0]) * 100 + Number(((parts[1] || "") + "00").slice(0, 2));
    return Number.isSafeInteger(cents) ? cents : null;
  }

  function centsToInput(cents) {
    var value = Math.max(0, Math.trunc(Number(cents) || 0));
    return Math.floor(value / 100) + "." + String(value % 100).padStart(2, "0");
  }

  function cookie(name) {
    var match = document.cookie.match(new RegExp("(?:^|; )" + name + "=([^;]*)"));
    return match ? decodeURIComponent(match[1]) : "";
  }

  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return cookie("csrftoken") || (field ? field.value : "");
  }

  /* Plain words for every error code the server sends (sockets and APIs). Unknown codes fall back to the
     server's own sentence, which is written for people too. */
  var ERROR_TEXT = {
    not_authenticated: gettext("Please log in to do that."),
    authentication_failed: gettext("Please log in to do that."),
    permission_denied: gettext("You are not allowed to do that."),
    not_found: gettext("That could not be found. It may have been closed."),
    table_not_found: gettext("This table does not exist or has been closed."),
    bad_json: gettext("Your browser sent something the server could not read. Please reload the page."),
    not_an_object: gettext("Your browser sent something the server could not read. Please reload the page."),
    binary_not_supported: gettext("Your browser sent something the server could not read. Please reload the page."),
    missing_type: gettext("Your browser sent something the server could not read. Please reload the page."),
    unknown_type: gettext("Your browser sent something the server does not understand. Please reload the page."),
    unexpected_field: gettext("Your browser sent something the server does not understand. Please reload the page."),
    missing_field: gettext("Something was missing from your request. Please try again."),
    bad_request_id: gettext("Your browser sent something the server could not read. Please reload the page."),
    repeated_key: gettext("Your browser sent something the server could not read. Please reload the page."),
    duplicate_request: gettext("That request was already sent; it was not applied again."),
    message_too_large: gettext("That message was too large."),
    bad_amount: gettext("Please enter a valid amount in euros and cents."),
    bad_seat: gettext("That seat does not exist at this table."),
    bad_sequence: gettext("The table got out of step. Reloading it."),
    bad_field: gettext("One of the values was not valid. Please try again."),
    bad_action: gettext("That is not a poker action."),
    rate_limited: gettext("You are sending actions too quickly. Please slow down."),
    flood: gettext("Too many messages were sent; the connection was closed. It will reconnect."),
    throttled: gettext("Too many requests. Please wait a moment and try again."),
    server_error: gettext("Something went wrong on our side. Nothing was changed; please try again."),
    insufficient_funds: gettext("Your balance is too low for that."),
    insufficient_balance: gettext("Your balance is too low for that buy-in. Deposit in the cashier or choose a smaller amount."),
    buy_in_refused: gettext("That amount is outside the buy-in limits for this table."),
    seat_unavailable: gettext("That seat is not free. Please choose another."),
    not_allowed_now: gettext("That is not possible right now. Please try again when the hand ends."),
    table_limit_reached: gettext("You already play as many tables of this kind as allowed."),
    banzai_excluded: gettext("You are excluded from Banzai games. Please contact support."),
    invalid: gettext("One of the values was not valid. Please try again."),
    refused: gettext("That request was refused."),
    invalid_amount: gettext("Please enter a valid amount in euros and cents."),
    cashier_limit_exceeded: gettext("That amount is above the cashier limit."),
    not_your_turn: gettext("It is not your turn."),
    illegal_action: gettext("That action is not allowed right now."),
    seat_taken: gettext("That seat has just been taken. Please choose another."),
    already_seated: gettext("You are already seated at this table."),
    not_seated: gettext("You are not seated at this table."),
    table_full: gettext("The table is full. You can join the waiting list."),
    buy_in_out_of_range: gettext("The buy-in is outside the limits for this table."),
    network: gettext("The server could not be reached. Check your connection and try again."),
    csrf: gettext("Your session has expired. Please reload the page and try again."),
    signed_out: gettext("You were signed out. Please log in again."),
    self_excluded: gettext("You have excluded yourself from play for now; see Play responsibly."),
    table_closed: gettext("This table is closed."),
    betting_closed: gettext("Bets are closed for this round."),
    bet_refused: gettext("That bet is not possible."),
    decision_refused: gettext("That decision is not possible now."),
    no_bets: gettext("Place a bet first."),
    round_not_changeable: gettext("This round can no longer be changed."),
    chat_refused: gettext("Your chat message was not sent."),
    registration_closed: gettext("Registration for this tournament is closed."),
    registration_not_open: gettext("Registration for this tournament is not open yet."),
    tournament_full: gettext("This tournament is full."),
    tournament_cancelled: gettext("This tournament was cancelled."),
    tournament_finished: gettext("This tournament has finished."),
    already_registered: gettext("You are already registered for this tournament."),
    not_registered: gettext("You are not registered for this tournament."),
    not_eligible: gettext("You cannot enter this tournament: you do not meet its conditions."),
    invalid_request: gettext("One of the values was not valid. Please try again."),
    payment_provider_error: gettext("The payment provider could not be reached. Nothing was changed; please try again."),
    not_permitted: gettext("You are not allowed to do that."),
    withdrawal_refused: gettext("That withdrawal was refused."),
    deposit_refused: gettext("That deposit was refused."),
    table_unavailable: gettext("The table did not answer in time. Please try again in a moment."),
    table_taken_over: gettext("The table's server changed while your action was on its way. Act again if it is still your turn.")
  };

  /* A sentence for a player from an error code and the server's message. */
  function errorText(code, message) {
    var known = code && ERROR_TEXT[code];
    if (known) {
      // The server's sentence may carry the specifics (limits, amounts); keep it when it adds something.
      if (message && language() === "en" && message.length < 240 && message !== known &&
          ["server_error", "bad_json", "not_an_object", "binary_not_supported", "unknown_type", "unexpected_field",
           "missing_type", "bad_request_id", "repeated_key", "network", "csrf", "flood", "invalid", "throttled", "not_authenticated",
           "authentication_failed", "permission_denied"].indexOf(code) === -1) {
        return capitalise(message);
      }
      return known;
    }
    if (message) { return capitalise(String(message)); }
    return gettext("Something went wrong. Please try again.");
  }

  function capitalise(text) {
    text = String(text).trim();
    if (!text) { return text; }
    text = text.charAt(0).toUpperCase() + text.slice(1);
    return /[.!?]$/.test(text) ? text : text + ".";
  }

  /* Show a notice in `area` (an element with role=alert/status or aria-live). kind: error | ok | info. */
  function notify(area, text, kind) {
    if (!area) { area = document.getElementById("page-notices"); }
    if (!area) { window.alert(text); return null; }
    var notice = document.createElement("div");
    notice.className = "notice notice-" + (kind || "error");
    notice.setAttribute("data-kind", kind || "error");
    var span = document.createElement("span");
    span.textContent = text;
    notice.appendChild(span);
    var dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.className = "dismiss";
    dismiss.setAttribute("aria-label", gettext("Dismiss this message"));
    dismiss.textContent = "×";
    dismiss.addEventListener("click", function () { notice.remove(); });
    notice.appendChild(dismiss);
    // Keep the area short: the newest three notices.
    while (area.children.length >= 3) { area.removeChild(area.firstElementChild); }
    area.appendChild(notice);
    if (kind === "ok" || kind === "info") {
      setTimeout(function () { notice.remove(); }, 6000);
    }
    return notice;
  }

  function clearNotices(area) {
    if (area) { area.innerHTML = ""; }
  }

  /* Pull (code, message) out of any JSON error shape the APIs answer with: DRF's {"detail": ...},
     {"code": ..., "message": ...}, {"error": {"code", "message"}} and field errors {"amount": ["..."]}. */
  function describeErrorBody(body, status) {
    if (!body || typeof body !== "object") {
      if (status === 403) { return { code: "permission_denied", message: "" }; }
      if (status === 404) { return { code: "not_found", message: "" }; }
      if (status === 429) { return { code: "throttled", message: "" }; }
      return { code: status >= 500 ? "server_error" : "", message: "" };
    }
    if (body.error && typeof body.error === "object") { return describeErrorBody(body.error, status); }
    if (typeof body.error === "string") { return { code: body.code || "", message: body.error }; }
    if (body.message || body.code) { return { code: body.code || "", message: body.message || "" }; }
    if (body.detail) {
      var detail = body.detail;
      var code = body.code || (typeof detail === "object" && detail.code) || "";
      if (status === 403 && /csrf/i.test(String(detail))) { code = "csrf"; }
      if (status === 401 || (status === 403 && /credentials|authenticat/i.test(String(detail)))) { code = "not_authenticated"; }
      return { code: code, message: typeof detail === "string" ? detail : JSON.stringify(detail) };
    }
    var messages = [];
    Object.keys(body).forEach(function (field) {
      var value = body[field];
      var text = Array.isArray(value) ? value.join(" ") : (typeof value === "string" ? value : "");
      if (text) { messages.push(field === "non_field_errors" ? text : text); }
    });
    return { code: "", message: messages.join(" ") };
  }

  /* fetch() for the JSON APIs. Resolves with the parsed body; rejects with an Error whose .code/.text are ready to
     show (.text is plain words). */
  function api(url, options) {
    options = options || {};
    var headers = { "Accept": "application/json" };
    var init = { method: options.method || "GET", headers: headers, credentials: "same-origin" };
    if (options.body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(options.body);
    }
    if (init.method !== "GET" && init.method !== "HEAD") {
      headers["X-CSRFToken"] = csrfToken();
    }
    if (options.idempotencyKey) { headers["Idempotency-Key"] = options.idempotencyKey; }
    return fetch(url, init).then(function (response) {
      return response.text().then(function (text) {
        var body = null;
        try { body = text ? JSON.parse(text) : null; } catch (ignored) { body = null; }
        if (response.ok) { return body; }
        var described = describeErrorBody(body, response.status);
        var error = new Error(described.message || response.statusText);
        error.code = described.code;
        error.status = response.status;
        error.body = body;
        error.text = errorText(described.code, described.message);
        throw error;
      });
    }, function () {
      var error = new Error("network");
      error.code = "network";
      error.text = errorText("network");
      throw error;
    });
  }

  function newId(prefix) {
    var random = (window.crypto && window.crypto.randomUUID) ? window.crypto.randomUUID() :
      String(Date.now()) + Math.random().toString(16).slice(2);
    return (prefix || "r") + "-" + random.replace(/[^A-Za-z0-9]/g, "").slice(0, 24);
  }

  /* A WebSocket that reconnects with backoff, answers request ids with promises, and reports its state.
       var socket = new Poker.Socket("/ws/tables/3/", {onMessage, onOpen, onStatus});
       socket.request({type: "act", action: "call"}).then(okMessage, errorMessage); */
  function Socket(path, handlers) {
    this.path = path;
    this.handlers = handlers || {};
    this.pending = {};
    this.attempt = 0;
    this.closedByUs = false;
    this.connect();
    var self = this;
    window.addEventListener("online", function () { if (!self.isOpen()) { self.reconnectNow(); } });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && !self.isOpen()) { self.reconnectNow(); }
    });
  }
  /* How long a handshake may take before it is abandoned and tried again: generous for a slow mobile network. */
  Socket.prototype.handshakeTimeoutMs = 10000;
  Socket.prototype.url = function () {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    return scheme + window.location.host + this.path;
  };
  Socket.prototype.isOpen = function () { return this.ws && this.ws.readyState === WebSocket.OPEN; };
  Socket.prototype.status = function (state) {
    this.state = state;
    if (this.handlers.onStatus) { this.handlers.onStatus(state); }
  };
  Socket.prototype.connect = function () {
    var self = this;
    clearTimeout(this.retryTimer);
    this.status(this.attempt ? "reconnecting" : "connecting");
    var ws;
    try { ws = new WebSocket(this.url()); } catch (error) { this.scheduleReconnect(); return; }
    this.ws = ws;
    // A handshake that neither opens nor fails (its request lost on the way, a server that took the connection and
    // never answered) would leave the page "connecting" for good: it is abandoned after a while, which closes it as a
    // failed connection (onclose below), and the next attempt follows with the usual backoff.
    clearTimeout(this.handshakeTimer);
    this.handshakeTimer = setTimeout(function () {
      if (self.ws === ws && ws.readyState === WebSocket.CONNECTING) { ws.close(); }
    }, this.handshakeTimeoutMs);
    ws.onopen = function () {
      clearTimeout(self.handshakeTimer);
      self.attempt = 0;
      self.status("live");
      if (self.handlers.onOpen) { self.handlers.onOpen(); }
      clearInterval(self.pingTimer);
      // A connection that no longer answers (a server-side consumer gone, a half-open TCP link) is replaced. The server
      // answers one socket's messages in order, so a ping sent behind a slow request waits for it: while a request is
      // pending its own time limit watches the connection, and no ping may drop the connection under it.
      self.pingTimer = setInterval(function () {
        if (!self.isOpen() || Object.keys(self.pending).length > 0) { return; }
        self.request({ type: "ping" }, 10000).catch(function () {
          if (self.ws === ws) { self.reconnectNow(); }
        });
      }, 20000);
    };
    ws.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (ignored) { return; }
      var waiting = message.request_id && self.pending[message.request_id];
      if (waiting) {
        delete self.pending[message.request_id];
        clearTimeout(waiting.timer);
        if (message.type === "error") { waiting.reject(message); } else { waiting.resolve(message); }
        if (message.type === "error") { return; }
      }
      if (self.handlers.onMessage) { self.handlers.onMessage(message); }
    };
    ws.onclose = function (event) {
      clearInterval(self.pingTimer);
      if (self.ws !== ws) { return; }
      clearTimeout(self.handshakeTimer);
      self.failPending();
      if (self.closedByUs) { self.status("closed"); return; }
      if (self.handlers.onClose && self.handlers.onClose(event) === false) { self.status("closed"); return; }
      self.scheduleReconnect();
    };
    ws.onerror = function () { /* onclose follows and reconnects */ };
  };
  Socket.prototype.failPending = function () {
    var pending = this.pending;
    this.pending = {};
    Object.keys(pending).forEach(function (id) {
      clearTimeout(pending[id].timer);
      pending[id].reject({ type: "error", code: "network", message: "" });
    });
  };
  Socket.prototype.scheduleReconnect = function () {
    var self = this;
    this.attempt += 1;
    var delay = Math.min(10000, 400 * Math.pow(1.7, this.attempt - 1)) * (0.8 + Math.random() * 0.4);
    this.status("reconnecting");
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(function () { self.connect(); }, delay);
  };
  Socket.prototype.reconnectNow = function () {
    if (this.ws) {
      var old = this.ws;
      this.ws = null;
      try { old.close(); } catch (ignored) { /* already closed */ }
    }
    this.attempt = Math.max(this.attempt, 1);
    this.connect();
  };
  /* Drop the connection as a network failure would (tests and the "reconnect" button use it). */
  Socket.prototype.drop = function () {
    if (this.ws) { this.ws.close(); }
  };
  Socket.prototype.close = function () {
    this.closedByUs = true;
    clearTimeout(this.retryTimer);
    if (this.ws) { this.ws.close(); }
  };
  Socket.prototype.send = function (message) {
    if (!this.isOpen()) { return false; }
    this.ws.send(JSON.stringify(message));
    return true;
  };
  /* Send a request and answer it with a promise. A request made while the connection is being re-established (a
     press during a reconnect) waits for it, within the same time limit, instead of failing at once: the player's
     click is not lost to a blip. It fails with "network" only if no connection opens or no answer comes in time. */
  Socket.prototype.request = function (message, timeoutMs) {
    var self = this;
    var id = newId("q");
    message.request_id = id;
    var limit = timeoutMs || 15000;
    var deadline = Date.now() + limit;
    return new Promise(function (resolve, reject) {
      function fail() { reject({ type: "error", code: "network", message: "" }); }
      function sendNow() {
        if (!self.send(message)) { fail(); return; }
        var timer = setTimeout(function () {
          if (self.pending[id]) {
            delete self.pending[id];
            fail();
          }
        }, Math.max(1000, deadline - Date.now()));
        self.pending[id] = { resolve: resolve, reject: reject, timer: timer };
      }
      if (self.isOpen()) { sendNow(); return; }
      if (self.closedByUs) { fail(); return; }
      self.whenOpen(deadline).then(sendNow, fail);
    });
  };
  /* Resolves when the connection is open, or rejects at the deadline (milliseconds since the epoch). */
  Socket.prototype.whenOpen = function (deadline) {
    var self = this;
    return new Promise(function (resolve, reject) {
      (function check() {
        if (self.isOpen()) { resolve(); return; }
        if (self.closedByUs || Date.now() >= deadline) { reject(); return; }
        setTimeout(check, 100);
      }());
    });
  };

  function setHeaderBalance(cents) {
    var element = document.getElementById("header-balance");
    if (!element || cents === null || cents === undefined) { return; }
    element.setAttribute("data-cents", String(cents));
    element.textContent = money(cents);
  }

  function refreshHeaderBalance() {
    var url = document.body.getAttribute("data-balance-url");
    if (!url || document.body.getAttribute("data-authenticated") !== "true") { return Promise.resolve(null); }
    return api(url).then(function (body) {
      var cents = body && body.cash_cents;
      if (typeof cents === "number") { setHeaderBalance(cents); }
      return body;
    }, function () { return null; });
  }

  /* Tabs following the WAI-ARIA tabs pattern: arrow keys move between tabs, the URL hash remembers the tab. */
  function initTabs(container) {
    var tabs = Array.prototype.slice.call(container.querySelectorAll("[role=tab]"));
    function select(tab, focus) {
      tabs.forEach(function (other) {
        var selected = other === tab;
        other.setAttribute("aria-selected", selected ? "true" : "false");
        other.tabIndex = selected ? 0 : -1;
        var panel = document.getElementById(other.getAttribute("aria-controls"));
        if (panel) { panel.hidden = !selected; }
      });
      if (focus) { tab.focus(); }
      if (tab.dataset.hash && window.history.replaceState) {
        window.history.replaceState(null, "", "#" + tab.dataset.hash);
      }
    }
    tabs.forEach(function (tab, index) {
      tab.addEventListener("click", function () { select(tab, false); });
      tab.addEventListener("keydown", function (event) {
        var next = null;
        if (event.key === "ArrowRight") { next = tabs[(index + 1) % tabs.length]; }
        if (event.key === "ArrowLeft") { next = tabs[(index - 1 + tabs.length) % tabs.length]; }
        if (event.key === "Home") { next = tabs[0]; }
        if (event.key === "End") { next = tabs[tabs.length - 1]; }
        if (next) { event.preventDefault(); select(next, true); }
      });
    });
    var wanted = window.location.hash.slice(1);
    var initial = tabs.filter(function (tab) { return tab.dataset.hash === wanted; })[0] || tabs[0];
    if (initial) { select(initial, false); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    // The language switch submits on choice; its button stays for keyboards and browsers without scripts.
    var select = document.getElementById("language-select");
    if (select) {
      select.addEventListener("change", function () { select.form.submit(); });
    }
    document.querySelectorAll("[data-tabs]").forEach(initTabs);
    localTimes(document);
  });

  /* Every <time data-local-time datetime="ISO 8601"> shows the moment in the player's own time zone and language
     (the server renders the ISO string, which stays in the datetime attribute and the title). */
  function localTimes(root) {
    root.querySelectorAll("time[data-local-time]").forEach(function (element) {
      var iso = element.getAttribute("datetime");
      var moment = iso ? new Date(iso) : null;
      if (!moment || isNaN(moment.getTime())) { return; }
      var locale = language() === "et" ? "et-EE" : "en-GB";
      element.textContent = moment.toLocaleString(locale, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
      element.setAttribute("title", iso);
    });
  }

  /* Whether this page has sent a form. A form's answer is a page of its own: a navigation started meanwhile (a poll
     that found the player's table, the table call's countdown) would abort it, and the player would never read the
     answer. Listened to on the window, after every handler on the form and the document, so a submission a handler
     cancelled (a confirmation dialog) does not count. */
  var formSentFromPage = false;
  window.addEventListener("submit", function (event) {
    if (!event.defaultPrevented) { formSentFromPage = true; }
  });
  function formSent() { return formSentFromPage; }

  window.Poker = {
    t: gettext,
    format: format,
    money: money,
    chips: chips,
    handName: handName,
    parseMoney: parseMoney,
    centsToInput: centsToInput,
    api: api,
    errorText: errorText,
    notify: notify,
    clearNotices: clearNotices,
    Socket: Socket,
    newId: newId,
    setHeaderBalance: setHeaderBalance,
    refreshHeaderBalance: refreshHeaderBalance,
    initTabs: initTabs,
    localTimes: localTimes,
    language: language,
    formSent: formSent
  };
}());
