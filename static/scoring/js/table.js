/*
 * The table's page (/t/<code>/), made live. Without this file every form posts and the page comes
 * back; with it:
 *
 * - the deal being typed is checked by the server as it is typed (…/check/: the engine, the same
 *   messages as the secretary's page); no rule of the game is written here;
 * - everything sent (a deal, an answer, a confirmation) first goes into a queue kept on the device
 *   (localStorage), each with an id made here, and leaves it only when the server has answered, so
 *   a lost connection loses nothing and a deal sent twice is stored once;
 * - what is typed is kept on the device too, so a reload keeps it; a service worker (/t/sw.js)
 *   keeps the page's files so that the reload works without a network;
 * - the changing part of the page (…/state/) is fetched again now and then, and after each answer.
 */
(function () {
  "use strict";

  var main = document.getElementById("table");
  if (!main) {
    return;
  }
  var data = main.dataset;
  var form = document.getElementById("deal-form");
  var stateBox = document.getElementById("table-state");
  var queueBox = document.getElementById("queue");
  var queueList = document.getElementById("queue-list");
  var connection = document.getElementById("connection");
  var keys = {
    queue: "canasta-table:" + data.code + ":queue",
    draft: "canasta-table:" + data.code + ":draft",
    side: "canasta-table:" + data.code + ":side"
  };
  var flushing = false;
  var checkTimer = null;
  var clockOffset = 0;

  // -- storage on the device ------------------------------------------------------------------

  function load(key, fallback) {
    try {
      var text = window.localStorage.getItem(key);
      return text ? JSON.parse(text) : fallback;
    } catch (error) {
      return fallback;
    }
  }

  function store(key, value) {
    try {
      if (value === null) {
        window.localStorage.removeItem(key);
      } else {
        window.localStorage.setItem(key, JSON.stringify(value));
      }
    } catch (error) {
      /* private mode without storage: the page still works online */
    }
  }

  function newId() {
    if (window.crypto && window.crypto.randomUUID) {
      return window.crypto.randomUUID().replace(/-/g, "");
    }
    return String(Date.now()) + Math.random().toString(16).slice(2);
  }

  function queue() {
    return load(keys.queue, []);
  }

  function saveQueue(items) {
    store(keys.queue, items.length ? items : null);
    showQueue();
  }

  // -- the server's state -----------------------------------------------------------------------

  function stateData() {
    var element = document.getElementById("table-state-data");
    return element ? element.dataset : {};
  }

  function queuedDeals() {
    return queue().filter(function (item) { return item.kind === "deal"; });
  }

  function nextNumber() {
    return parseInt(stateData().nextNumber || "1", 10) + queuedDeals().length;
  }

  function unansweredInQueue() {
    return queue().some(function (item) { return item.kind === "deal" && !item.both; });
  }

  function correcting() {
    return form && form.elements.kind.value === "correction";
  }

  function showForm() {
    if (!form) {
      return;
    }
    var state = stateData();
    var open = correcting() || ((state.accepts === "1" || queuedDeals().length > 0) && !unansweredInQueue());
    form.hidden = !open;
    if (!correcting()) {
      var number = nextNumber();
      form.elements.number.value = String(number);
      form.querySelector("[data-role=title]").textContent = data.textDeal + " " + number;
    }
    var clockChoice = form.querySelector("[data-role=clock-choice]");
    if (clockChoice) {
      clockChoice.hidden = state.finalPassed !== "1" && !clockChoice.querySelector("input").checked;
    }
  }

  // A player may be writing why a deal is rejected when the state comes again: the open parts,
  // what is typed and where the cursor is stay as they were.
  function keepingWhatIsTyped(swap) {
    var open = [];
    stateBox.querySelectorAll("details[open]").forEach(function (details) { open.push(details.id); });
    var typed = {};
    stateBox.querySelectorAll("input[type=text]").forEach(function (input) {
      if (input.id && input.value) {
        typed[input.id] = input.value;
      }
    });
    var active = document.activeElement;
    var focused = active && active.id && stateBox.contains(active) ? active.id : "";
    swap();
    open.forEach(function (id) {
      var details = id && document.getElementById(id);
      if (details) {
        details.open = true;
      }
    });
    Object.keys(typed).forEach(function (id) {
      var input = document.getElementById(id);
      if (input) {
        input.value = typed[id];
      }
    });
    if (focused && document.getElementById(focused)) {
      document.getElementById(focused).focus();
    }
  }

  function browserOffline() {
    // The browser knows it has no network: nothing is tried until it says it has one again.
    return navigator.onLine === false;
  }

  function refreshState() {
    if (browserOffline()) {
      setOnline(false);
      return Promise.resolve();
    }
    return fetch(data.stateUrl, { headers: { Accept: "text/html" }, cache: "no-store" })
      .then(function (response) {
        if (response.status === 404 || response.status === 403) {
          setConnection(data.textGone);
          return null;
        }
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (html !== null && html !== undefined) {
          setOnline(true);
          keepingWhatIsTyped(function () { stateBox.innerHTML = html; });
          startClock();
          showForm();
        }
      })
      .catch(function () {
        setOnline(false);
      });
  }

  // -- the connection -----------------------------------------------------------------------------

  function setConnection(text) {
    connection.textContent = text;
    connection.hidden = !text;
  }

  function setOnline(value) {
    setConnection(value ? "" : data.textOffline);
  }

  // -- the queue ----------------------------------------------------------------------------------

  function fieldsOf(formElement, submitter) {
    var fields = [];
    new FormData(formElement).forEach(function (value, name) {
      if (typeof value === "string") {
        fields.push([name, value]);
      }
    });
    if (submitter && submitter.name) {
      fields.push([submitter.name, submitter.value]);
    }
    return fields;
  }

  function field(item, name) {
    for (var i = 0; i < item.fields.length; i += 1) {
      if (item.fields[i][0] === name) {
        return item.fields[i][1];
      }
    }
    return "";
  }

  function setField(item, name, value) {
    item.fields = item.fields.filter(function (pair) { return pair[0] !== name; });
    item.fields.push([name, value]);
  }

  function summary(item) {
    if (item.kind !== "deal") {
      return item.label;
    }
    return data.textDeal + " " + field(item, "number") + ": " + data.homeName + " " + (field(item, "home_cards") || "0") +
      ", " + data.awayName + " " + (field(item, "away_cards") || "0");
  }

  function showQueue() {
    var items = queue();
    queueBox.hidden = items.length === 0;
    queueList.textContent = "";
    items.forEach(function (item) {
      var row = document.createElement("li");
      row.className = "table-queue__item";
      row.dataset.id = item.id;
      var text = document.createElement("span");
      text.textContent = summary(item) + " – " + (item.refused ? data.textRefused + ": " + item.refused : data.textUnsent);
      row.appendChild(text);
      if (item.kind === "deal" && !item.both && !item.refused) {
        // The other team agrees on this device (a button per team: the one that did not enter it).
        var other = field(item, "side") === "home" ? "away" : "home";
        var button = document.createElement("button");
        button.type = "button";
        button.className = "button button--primary table-button";
        button.textContent = (other === "home" ? data.homeName : data.awayName) + " " + data.textAgrees;
        button.addEventListener("click", function () {
          var all = queue();
          all.forEach(function (queued) {
            if (queued.id === item.id) {
              queued.both = true;
              setField(queued, "both", "yes");
            }
          });
          saveQueue(all);
          showForm();
          flush();
        });
        row.appendChild(button);
      }
      queueList.appendChild(row);
    });
  }

  function enqueue(item) {
    var items = queue();
    items.push(item);
    saveQueue(items);
    showForm();
    flush();
  }

  function flush() {
    if (flushing) {
      return;
    }
    if (browserOffline()) {
      setOnline(false);
      return;
    }
    var items = queue().filter(function (item) { return !item.refused; });
    // A deal waits on this device until its other team has said yes here or it is sent for the
    // other device to answer; the first deal in the queue goes, the rest follow in order.
    if (!items.length) {
      refreshState();
      return;
    }
    flushing = true;
    var item = items[0];
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    fetch(item.url, { method: "POST", body: body, headers: { Accept: "application/json" } })
      .then(function (response) {
        return response.json().then(function (answer) { return { status: response.status, answer: answer }; },
          function () { return { status: response.status, answer: {} }; });
      })
      .then(function (result) {
        setOnline(true);
        var all = queue();
        if (result.status >= 200 && result.status < 300) {
          saveQueue(all.filter(function (queued) { return queued.id !== item.id; }));
        } else if (result.status === 404 || result.status === 403) {
          setConnection(data.textGone);
          flushing = false;
          return;
        } else {
          // Refused (the engine's errors, or the match moved on): back into the form when it was
          // a deal, with the messages, never silently dropped.
          saveQueue(all.filter(function (queued) { return queued.id !== item.id; }));
          if (item.kind === "deal") {
            fillForm(item.fields);
          }
          showProblems(result.answer);
        }
        flushing = false;
        if (queue().some(function (queued) { return !queued.refused; })) {
          flush();
        } else {
          refreshState();
        }
      })
      .catch(function () {
        flushing = false;
        setOnline(false);
      });
  }

  // -- the deal form ------------------------------------------------------------------------------

  function formFields() {
    return Array.prototype.filter.call(form.elements, function (element) {
      return element.name && ["client_id", "kind", "number", "correct_number"].indexOf(element.name) === -1;
    });
  }

  function saveDraft() {
    var values = {};
    formFields().forEach(function (element) {
      if (element.type === "radio" || element.type === "checkbox") {
        if (element.checked) {
          values[element.name] = element.value;
        }
      } else if (element.name !== "side") {
        values[element.name] = element.value;
      }
    });
    store(keys.draft, values);
  }

  function fillForm(pairs) {
    var values = {};
    pairs.forEach(function (pair) { values[pair[0]] = pair[1]; });
    formFields().forEach(function (element) {
      if (element.name === "side") {
        return;
      }
      var value = values[element.name];
      if (element.type === "radio") {
        element.checked = value !== undefined ? element.value === value : element.value === "";
      } else if (element.type === "checkbox") {
        element.checked = value === element.value || value === "on";
      } else if (element.tagName !== "BUTTON") {
        element.value = value !== undefined ? value : (element.classList.contains("num") ? "0" : "");
      }
    });
    saveDraft();
    scheduleCheck();
  }

  function showProblems(answer) {
    form.querySelectorAll(".field-problems").forEach(function (slot) { slot.textContent = ""; });
    form.querySelectorAll("[aria-invalid]").forEach(function (input) { input.removeAttribute("aria-invalid"); });
    var general = document.getElementById("problems-general");
    var messages = (answer.general || []).slice();
    if (answer.message && answer.result === "refused") {
      messages.unshift(answer.message);
    }
    Object.keys(answer.fields || {}).forEach(function (name) {
      var slot = document.getElementById("problems-" + name);
      var input = form.elements[name];
      if (input && input.setAttribute) {
        input.setAttribute("aria-invalid", "true");
      }
      (answer.fields[name] || []).forEach(function (message) {
        var line = document.createElement("p");
        line.className = "error";
        line.textContent = message;
        (slot || general).appendChild(line);
      });
    });
    messages.forEach(function (message) {
      var line = document.createElement("p");
      line.className = "error";
      line.textContent = message;
      general.appendChild(line);
    });
    var warnings = document.getElementById("check-warnings");
    warnings.textContent = "";
    (answer.warnings || []).forEach(function (message) {
      var line = document.createElement("li");
      line.textContent = message;
      warnings.appendChild(line);
    });
    var preview = answer.preview || {};
    ["home_score", "home_total", "home_min", "away_score", "away_total", "away_min"].forEach(function (name) {
      var element = document.getElementById("preview-" + name);
      if (element && (preview[name] !== undefined || name.slice(-4) !== "_min")) {
        element.textContent = preview[name] !== undefined ? preview[name] : "–";
      }
    });
  }

  function check() {
    if (browserOffline() || form.hidden) {
      return;
    }
    var body = new URLSearchParams();
    fieldsOf(form).forEach(function (pair) { body.append(pair[0], pair[1]); });
    fetch(data.checkUrl, { method: "POST", body: body, headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) {
        if (answer) {
          showProblems(answer);
        }
      })
      .catch(function () { setOnline(false); });
  }

  function scheduleCheck() {
    window.clearTimeout(checkTimer);
    checkTimer = window.setTimeout(check, 350);
  }

  function chosenSide() {
    var chosen = form.querySelector("input[name=side]:checked");
    return chosen ? chosen.value : "";
  }

  function sendDeal(event) {
    event.preventDefault();
    if (!chosenSide()) {
      form.querySelector("input[name=side]").focus();
      showProblems({ general: [form.querySelector(".table-my-side legend").textContent] });
      return;
    }
    form.elements.client_id.value = newId();
    var kind = form.elements.kind.value;
    var item = {
      id: form.elements.client_id.value,
      url: data.proposeUrl,
      kind: kind === "deal" ? "deal" : "other",
      both: false,
      label: form.querySelector("[data-role=title]").textContent,
      fields: fieldsOf(form)
    };
    store(keys.draft, null);
    fillForm([]);
    endCorrection();
    showProblems({});
    enqueue(item);
  }

  // -- corrections (rule 35: the last deal, before the next is dealt) ------------------------------

  function endCorrection() {
    form.elements.kind.value = "deal";
    form.elements.correct_number.value = "";
    form.querySelector("[data-role=correcting]").hidden = true;
    form.querySelector("[data-role=cancel-correction]").hidden = true;
  }

  // -- forms in the changing part: answers, confirmations, the time running out -------------------

  var lastPressed = [null];

  function sendStateForm(event) {
    var target = event.target;
    if (target.tagName !== "FORM" || (target.method || "").toLowerCase() !== "post") {
      return;
    }
    event.preventDefault();
    // Browsers without event.submitter: the button last pressed in the form.
    var submitter = event.submitter || lastPressed[0];
    var fields = fieldsOf(target, submitter);
    var kind = fields.filter(function (pair) { return pair[0] === "kind"; }).length ? "time_up" : "other";
    if (kind === "time_up") {
      var id = newId();
      fields = fields.filter(function (pair) { return pair[0] !== "client_id"; });
      fields.push(["client_id", id]);
    }
    enqueue({
      id: newId(),
      url: target.action,
      kind: kind,
      both: true,
      label: (submitter && submitter.textContent.trim()) || "",
      fields: fields
    });
  }

  // -- the hall clock -----------------------------------------------------------------------------

  var clockTimer = null;

  function pad(number) {
    return number < 10 ? "0" + number : String(number);
  }

  function startClock() {
    var clock = stateBox.querySelector("[data-role=clock]");
    window.clearInterval(clockTimer);
    if (!clock) {
      return;
    }
    clockOffset = parseInt(clock.dataset.nowMs, 10) - Date.now();
    var started = parseInt(clock.dataset.startedMs, 10);
    var mainAt = started + parseInt(clock.dataset.mainMinutes, 10) * 60000;
    var finalAt = started + parseInt(clock.dataset.finalMinutes, 10) * 60000;
    var left = clock.querySelector("[data-role=left]");
    function tick() {
      var now = Date.now() + clockOffset;
      var until = now < mainAt ? mainAt : finalAt;
      if (now >= finalAt) {
        left.textContent = clock.dataset.textOver;
        window.clearInterval(clockTimer);
        if (stateData().finalPassed !== "1") {
          refreshState();
        }
        return;
      }
      var seconds = Math.ceil((until - now) / 1000);
      left.textContent = pad(Math.floor(seconds / 60)) + ":" + pad(seconds % 60) + " " +
        (now < mainAt ? clock.dataset.textMain : clock.dataset.textFinal);
    }
    tick();
    clockTimer = window.setInterval(tick, 1000);
  }

  // -- start ----------------------------------------------------------------------------------------

  function start() {
    if (form) {
      var side = load(keys.side, "");
      form.querySelectorAll("input[name=side]").forEach(function (input) {
        input.checked = input.value === side;
        input.addEventListener("change", function () { store(keys.side, input.value); });
      });
      var draft = load(keys.draft, null);
      if (draft && form.elements.kind.value === "deal") {
        fillForm(Object.keys(draft).map(function (name) { return [name, draft[name]]; }));
      }
      form.addEventListener("input", function () { saveDraft(); scheduleCheck(); });
      form.addEventListener("change", function () { saveDraft(); scheduleCheck(); });
      form.addEventListener("submit", sendDeal);
      form.querySelector("[data-role=cancel-correction]").addEventListener("click", function () {
        window.location.href = window.location.pathname;
      });
      if (form.elements.kind.value === "correction") {
        form.querySelector("[data-role=cancel-correction]").hidden = false;
      }
    }
    stateBox.addEventListener("submit", sendStateForm);
    stateBox.addEventListener("click", function (event) {
      var button = event.target.closest ? event.target.closest("button[type=submit]") : null;
      lastPressed[0] = button;
    });
    showQueue();
    showForm();
    startClock();
    window.addEventListener("online", flush);
    window.setInterval(function () {
      if (document.visibilityState === "visible") {
        if (queue().length) {
          flush();
        } else {
          refreshState();
        }
      }
    }, parseInt(data.pollSeconds, 10) * 1000);
    flush();
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.register(data.swUrl).then(function () {
        // The page the worker was not there to see: kept now, for a reload without a network.
        if (window.caches) {
          window.caches.open("canasta-table-v1").then(function (cache) { return cache.add(window.location.pathname); })
            .catch(function () { /* offline already: the copy from the last visit stays */ });
        }
      }).catch(function () { /* no service worker: the page works online */ });
    }
  }

  start();
})();
