/* Table chat (issue 22, UTH-33): the chat panel of the cash/tournament table page and of the UTH page.

   window.Chat.create({root, send, userId}) returns a panel object:
     panel.add(event)          show a chat_message event (sequence, user_id, name, text, at); repeats are ignored
     panel.setWritable(bool)   seated players write; watchers read along (the server refuses them anyway)
   `send(text)` sends {"type": "chat", "text": text} on the page's socket and returns a promise: resolved on "ok",
   rejected with the "error" message (code, message, until, retry_after), which is shown next to the input.

   Lines are always drawn with textContent, never as HTML. A player mutes another player in their own browser: the
   muted players are kept in localStorage (key below) and their lines are hidden, now and after a reload. */
(function () {
  "use strict";
  var P = window.Poker;
  var gettext = P.t;
  var f = function (text, values) { return P.format(text, values, true); };
  var STORAGE_KEY = "poker.chat.muted";
  var MAXIMUM_LINES = 100;

  function mutedPlayers() {
    try {
      var stored = JSON.parse(window.localStorage.getItem(STORAGE_KEY) || "{}");
      return stored && typeof stored === "object" && !Array.isArray(stored) ? stored : {};
    } catch (ignored) { return {}; }
  }

  function saveMuted(muted) {
    try { window.localStorage.setItem(STORAGE_KEY, JSON.stringify(muted)); } catch (ignored) { /* private mode */ }
  }

  function refusalText(error) {
    var code = error && error.code;
    if (code === "chat_muted" && error.until) {
      var until = new Date(error.until);
      var when = until.toLocaleString(document.documentElement.lang || undefined,
        { day: "numeric", month: "numeric", hour: "2-digit", minute: "2-digit" });
      return f(gettext("Your chat is muted until %(time)s. If you disagree, contact support."), { time: when });
    }
    if (code === "chat_rate_limited") {
      return f(gettext("You are sending messages too quickly: wait %(seconds)s s."), { seconds: error.retry_after || 1 });
    }
    var known = {
      chat_not_seated: gettext("Only the players seated at this table can chat; you can read along."),
      chat_empty: gettext("Write a message first."),
      chat_too_long: gettext("A chat message may have at most 200 characters."),
      chat_control_characters: gettext("A chat message may contain only printable text on one line."),
      chat_warning: gettext("Your message was not sent: abusing other players or the host and offensive language are not allowed. If you do it again, your chat will be disabled."),
      chat_muted: gettext("Your chat is muted. If you disagree, contact support."),
      not_authenticated: gettext("Log in and take a seat to chat.")
    }[code];
    return known || P.errorText(code, error && error.message);
  }

  function create(options) {
    var root = options.root;
    var lines = root.querySelector("[data-chat-lines]");
    var form = root.querySelector("[data-chat-form]");
    var input = root.querySelector("[data-chat-input]");
    var notices = root.querySelector("[data-chat-notices]");
    var readOnly = root.querySelector("[data-chat-read-only]");
    var mutedBox = root.querySelector("[data-chat-muted]");
    var mutedList = root.querySelector("[data-chat-muted-list]");
    var seen = {};
    var sending = false;

    function isMuted(userId) { return Object.prototype.hasOwnProperty.call(mutedPlayers(), String(userId)); }

    function applyMutes() {
      var muted = mutedPlayers();
      lines.querySelectorAll("li[data-user-id]").forEach(function (item) {
        item.hidden = Object.prototype.hasOwnProperty.call(muted, item.getAttribute("data-user-id"));
      });
      mutedList.textContent = "";
      Object.keys(muted).forEach(function (userId) {
        var item = document.createElement("li");
        var name = document.createElement("span");
        name.textContent = muted[userId];
        var button = document.createElement("button");
        button.type = "button";
        button.className = "secondary small";
        button.setAttribute("data-chat-unmute", userId);
        button.textContent = gettext("Unmute");
        button.setAttribute("aria-label", f(gettext("Show the chat of %(name)s again"), { name: muted[userId] }));
        item.appendChild(name);
        item.appendChild(document.createTextNode(" "));
        item.appendChild(button);
        mutedList.appendChild(item);
      });
      mutedBox.hidden = Object.keys(muted).length === 0;
    }

    function mute(userId, name) {
      var muted = mutedPlayers();
      muted[String(userId)] = name;
      saveMuted(muted);
      applyMutes();
    }

    function unmute(userId) {
      var muted = mutedPlayers();
      delete muted[String(userId)];
      saveMuted(muted);
      applyMutes();
    }

    function add(event) {
      var sequence = Number(event.sequence);
      if (seen[sequence]) { return; }
      seen[sequence] = true;
      var item = document.createElement("li");
      item.setAttribute("data-sequence", String(sequence));
      item.setAttribute("data-user-id", String(event.user_id));
      var name = document.createElement("strong");
      name.className = "chat-name";
      name.textContent = event.name;
      var text = document.createElement("span");
      text.className = "chat-text";
      text.textContent = event.text;
      item.appendChild(name);
      item.appendChild(document.createTextNode(": "));
      item.appendChild(text);
      if (options.userId && Number(event.user_id) !== Number(options.userId)) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "link chat-mute";
        button.setAttribute("data-chat-mute", String(event.user_id));
        button.setAttribute("data-chat-name", event.name);
        button.textContent = gettext("Mute");
        button.setAttribute("aria-label", f(gettext("Hide the chat of %(name)s"), { name: event.name }));
        item.appendChild(document.createTextNode(" "));
        item.appendChild(button);
      }
      item.hidden = isMuted(event.user_id);
      // Keep the lines in sequence order (a resync can bring an older line after a newer one).
      var after = null;
      lines.querySelectorAll("li[data-sequence]").forEach(function (other) {
        if (!after && Number(other.getAttribute("data-sequence")) > sequence) { after = other; }
      });
      lines.insertBefore(item, after);
      while (lines.children.length > MAXIMUM_LINES) { lines.removeChild(lines.firstElementChild); }
      lines.scrollTop = lines.scrollHeight;
    }

    function setWritable(writable) {
      form.hidden = !writable;
      readOnly.hidden = writable;
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (sending) { return; }
      P.clearNotices(notices);
      var text = input.value;
      if (!text.trim()) {
        P.notify(notices, refusalText({ code: "chat_empty" }), "error");
        return;
      }
      sending = true;
      options.send(text).then(function () {
        input.value = "";
      }, function (error) {
        P.notify(notices, refusalText(error), "error");
      }).then(function () { sending = false; });
    });
    root.addEventListener("click", function (event) {
      var muteButton = event.target.closest("[data-chat-mute]");
      if (muteButton) { mute(muteButton.getAttribute("data-chat-mute"), muteButton.getAttribute("data-chat-name")); return; }
      var unmuteButton = event.target.closest("[data-chat-unmute]");
      if (unmuteButton) { unmute(unmuteButton.getAttribute("data-chat-unmute")); }
    });
    window.addEventListener("storage", function (event) { if (event.key === STORAGE_KEY) { applyMutes(); } });
    applyMutes();
    return { add: add, setWritable: setWritable, refusalText: refusalText };
  }

  window.Chat = { create: create, STORAGE_KEY: STORAGE_KEY };
}());
