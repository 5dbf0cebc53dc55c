/*
 * The table's page (/t/<code>/), made live. Without this file every form posts and the page comes
 * back; with it:
 *
 * - the deal being typed is checked by the server as it is typed (…/check/: the engine, the same
 *   messages as the secretary's page); no rule of the game is written here;
 * - everything sent (a deal, an answer, a confirmation) first goes into a queue kept on the device
 *   (localStorage), each with an id made here, and leaves it only when the server has answered, so
 *   a lost connection loses nothing and a deal sent twice is stored once;
 * - what the server took but has not yet put on the protocol (a deal waiting for the other team, a
 *   deal whose number was taken meanwhile) is remembered too, so that a rejected deal or a
 *   conflict comes back into the form with what was typed: nothing is typed twice;
 * - what is typed is kept on the device, so a reload keeps it; a service worker (/t/sw.js) keeps
 *   the page and its files so that the reload works without a network, and the latest state the
 *   page saw is kept here, so the reload shows that state, not the one of the page kept;
 * - the changing part of the page (…/state/) is fetched again now and then, and after each answer;
 * - a phone both teams share keeps the other team's code too, and sends it with everything.
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
  var prefix = "canasta-table:" + data.code + ":";
  var keys = {
    queue: prefix + "queue",
    draft: prefix + "draft",
    side: prefix + "side",
    other: prefix + "other",
    state: prefix + "state",
    sent: prefix + "sent",
    stash: prefix + "stash",
    resendOf: prefix + "resend-of",
    offset: prefix + "clock-offset"
  };
  // The service worker's cache (templates/scoring/table/sw.js names the same).
  var PAGE_CACHE = "canasta-table-v2";
  // Never sent from the queue as stored: the token and the other code are the page's at sending.
  var SENT_LATER = ["csrfmiddlewaretoken", "other_code"];
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

  // What the server took and has not put on the protocol yet: {proposal, number, status, fields}.
  function sent() {
    return load(keys.sent, []);
  }

  function saveSent(items) {
    store(keys.sent, items.length ? items : null);
  }

  // -- the other team's code, on a phone both teams share -----------------------------------------

  function otherCode() {
    return load(keys.other, "");
  }

  // The code the server refused, unless another has been kept here since.
  function forgetOther(code) {
    if (!code || otherCode() !== code) {
      return;
    }
    store(keys.other, null);
    // Its agreement given on this phone can no longer be sent: the other team answers on its own.
    var items = queue();
    items.forEach(function (item) {
      if (item.both && item.kind === "deal") {
        item.both = false;
        item.fields = item.fields.filter(function (pair) { return pair[0] !== "both"; });
      }
    });
    saveQueue(items);
    setConnection(data.textOtherForgotten);
  }

  // The state's address, with the other team's code kept (withOther: true or a code; false: none).
  function stateUrl(withOther) {
    var other = withOther === false ? "" : (typeof withOther === "string" ? withOther : otherCode());
    return data.stateUrl + (other ? "?with=" + encodeURIComponent(other) : "");
  }

  function csrfToken() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function post(url, pairs) {
    var body = new URLSearchParams();
    pairs.forEach(function (pair) {
      if (SENT_LATER.indexOf(pair[0]) === -1) {
        body.append(pair[0], pair[1]);
      }
    });
    if (otherCode()) {
      body.append("other_code", otherCode());
    }
    return fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrfToken() }
    });
  }

  // The state's answer to the other team's code kept here (or to none): 200, 403 when the server
  // refuses that code (a code of another table, or mistyped), 404 when the table link is gone. A
  // state asked for with a code refuses nothing else, so it tells a refused code from the rest.
  function stateStatus(code) {
    return fetch(stateUrl(code || false), { headers: { Accept: "text/html" }, cache: "no-store" })
      .then(function (response) { return response.status; }, function () { return 0; });
  }

  // -- the server's state -----------------------------------------------------------------------

  function stateData() {
    var element = document.getElementById("table-state-data");
    return element ? element.dataset : {};
  }

  function renderedMs(dataset) {
    return parseInt((dataset || stateData()).renderedMs || "0", 10) || 0;
  }

  // The latest state seen, for a reload without a network (the page kept may be older).
  function keepState() {
    var shown = renderedMs();
    var kept = load(keys.state, null);
    if (shown && (!kept || kept.ms <= shown)) {
      store(keys.state, { ms: shown, html: stateBox.innerHTML });
    }
  }

  function showKeptState() {
    var kept = load(keys.state, null);
    if (kept && kept.html && kept.ms > renderedMs()) {
      stateBox.innerHTML = kept.html;
      return true;
    }
    return false;
  }

  function queuedDeals() {
    return queue().filter(function (item) { return item.kind === "deal"; });
  }

  function nextNumber() {
    // The latest state the phone saw, and every deal still waiting on this phone to be sent.
    return parseInt(stateData().nextNumber || "1", 10) + queuedDeals().length;
  }

  function unansweredInQueue() {
    return queue().some(function (item) { return item.kind === "deal" && !item.both; });
  }

  function correcting() {
    return form && form.elements.kind.value === "correction";
  }

  function editing() {
    var id = form ? form.dataset.editing : "";
    if (!id) {
      return null;
    }
    return queue().filter(function (item) { return item.id === id; })[0] || null;
  }

  function showForm() {
    if (!form) {
      return;
    }
    var state = stateData();
    var edited = editing();
    var open = correcting() || !!edited || ((state.accepts === "1" || queuedDeals().length > 0) && !unansweredInQueue());
    form.hidden = !open;
    if (edited) {
      form.elements.number.value = field(edited, "number");
      form.querySelector("[data-role=title]").textContent = data.textDeal + " " + field(edited, "number");
    } else if (!correcting()) {
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

  // The state as last fetched: the server answers 304 while nothing has changed, and the browser
  // gives the same text again, which is not drawn again.
  var lastStateText = null;

  function showState(html) {
    if (html === lastStateText) {
      followSent();
      return;
    }
    lastStateText = html;
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#table-state-data");
    // An answer overtaken by a later one (two requests under way) does not take the page back.
    if (fresh && renderedMs(fresh.dataset) < renderedMs()) {
      return;
    }
    var drawnNow = !fresh || renderedMs(fresh.dataset) > renderedMs();
    keepingWhatIsTyped(function () { stateBox.innerHTML = html; });
    keepState();
    startClock(drawnNow);
    followSent();
    showForm();
    showQueue();
    markResent();
  }

  function refreshState() {
    if (browserOffline()) {
      setOnline(false);
      return Promise.resolve();
    }
    var sentWith = otherCode();
    // "no-cache": asked each time with the copy's validator (a 304 costs the server one query).
    return fetch(stateUrl(sentWith), { headers: { Accept: "text/html" }, cache: "no-cache" })
      .then(function (response) {
        if (response.status === 403 && sentWith) {
          forgetOther(sentWith);
          return refreshState().then(function () { return null; });
        }
        if (response.status === 404 || response.status === 403) {
          setConnection(data.textGone);
          return null;
        }
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (html !== null && html !== undefined) {
          if (connection.textContent === data.textOffline) {
            setOnline(true);
          }
          showState(html);
        }
      })
      .catch(function () {
        setOnline(false);
      });
  }

  // -- the connection -----------------------------------------------------------------------------

  function setConnection(text) {
    connection.textContent = text || "";
    connection.hidden = !text;
  }

  function setOnline(value) {
    if (value) {
      if (connection.textContent === data.textOffline) {
        setConnection("");
      }
    } else {
      setConnection(data.textOffline);
    }
  }

  // -- the queue ----------------------------------------------------------------------------------

  function fieldsOf(formElement, submitter) {
    var fields = [];
    new FormData(formElement).forEach(function (value, name) {
      if (typeof value === "string" && SENT_LATER.indexOf(name) === -1) {
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

  function teamName(side) {
    return side === "home" ? data.homeName : data.awayName;
  }

  function summary(item) {
    if (item.kind !== "deal") {
      return item.label;
    }
    return data.textDeal + " " + field(item, "number") + ": " + data.homeName + " " + (field(item, "home_cards") || "0") +
      ", " + data.awayName + " " + (field(item, "away_cards") || "0");
  }

  function queueButton(text, primary, action) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button table-button" + (primary ? " button--primary" : "");
    button.textContent = text;
    button.addEventListener("click", action);
    return button;
  }

  function showQueue() {
    var items = queue();
    queueBox.hidden = items.length === 0;
    queueList.textContent = "";
    items.forEach(function (item) {
      var row = document.createElement("li");
      row.className = "table-queue__item";
      row.dataset.id = item.id;
      if (item.refused) {
        row.dataset.refused = "1";
      }
      var text = document.createElement("span");
      text.textContent = summary(item) + " – " + (item.refused ? data.textRefused + ": " + item.refused : data.textUnsent);
      row.appendChild(text);
      var other = field(item, "side") === "home" ? "away" : "home";
      if (item.refused && item.kind === "deal") {
        if (!form || form.dataset.editing !== item.id) {
          row.appendChild(queueButton(data.textCorrectQueued, true, function () { editQueued(item.id); }));
        }
        row.appendChild(queueButton(data.textRemove, false, function () { removeQueued(item.id); }));
      } else if (item.refused) {
        row.appendChild(queueButton(data.textRemove, false, function () { removeQueued(item.id); }));
      } else if (item.kind === "deal" && !item.both && otherCode()) {
        // The other team agrees on this phone, which holds its code too.
        row.appendChild(queueButton(teamName(other) + " " + data.textAgrees, true, function () {
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
        }));
      } else if (item.kind === "deal" && !item.both) {
        var hint = document.createElement("span");
        hint.className = "hint table-queue__hint";
        hint.textContent = " " + data.textAnswersElsewhere.replace("{team}", teamName(other));
        row.appendChild(hint);
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

  function removeQueued(id) {
    if (form && form.dataset.editing === id) {
      endEditing();
    }
    saveQueue(queue().filter(function (item) { return item.id !== id; }));
    showForm();
    flush();
  }

  // The first item to send: in order, and none past a deal the server refused (the deals after it
  // would be refused too until it is put right).
  function nextToSend() {
    var items = queue();
    for (var i = 0; i < items.length; i += 1) {
      if (!items[i].refused) {
        return items[i];
      }
      if (items[i].kind === "deal") {
        return null;
      }
    }
    return null;
  }

  function answerOf(response) {
    // The server's clock at the answer (to the second): a state drawn after it shows what it took.
    var at = Date.parse(response.headers.get("Date") || "") || 0;
    return response.json().then(function (answer) { return { status: response.status, answer: answer, at: at }; },
      function () { return { status: response.status, answer: {}, at: at }; });
  }

  function flush() {
    if (flushing) {
      return;
    }
    if (browserOffline()) {
      setOnline(false);
      return;
    }
    var item = nextToSend();
    if (!item) {
      refreshState();
      return;
    }
    flushing = true;
    var sentWith = otherCode();
    post(item.url, item.fields)
      .then(answerOf)
      .then(function (result) {
        setOnline(true);
        if (result.status >= 200 && result.status < 300) {
          took(item, result.answer, result.at);
          saveQueue(queue().filter(function (queued) { return queued.id !== item.id; }));
          return true;
        }
        if (result.status === 404) {
          setConnection(data.textGone);
          return false;
        }
        if (result.status === 403) {
          // The other team's code refused, the link gone, or this one item refused (a side this
          // phone holds no code for): the state, asked for with the same code, tells which.
          return stateStatus(sentWith).then(function (status) {
            if (status === 403 && sentWith) {
              forgetOther(sentWith);
              return true;
            }
            if (status !== 200) {
              setConnection(data.textGone);
              return false;
            }
            refuse(item, result.answer);
            return true;
          });
        }
        if (result.status === 429 || result.status >= 500) {
          setOnline(false);
          return false;
        }
        refuse(item, result.answer);
        return true;
      })
      .then(function (goOn) {
        flushing = false;
        if (goOn) {
          if (nextToSend()) {
            flush();
          } else {
            refreshState();
          }
        }
      })
      .catch(function () {
        flushing = false;
        setOnline(false);
      });
  }

  // The server has the item: a deal it has not put on the protocol yet (waiting for the other team,
  // or a conflict: its number was taken meanwhile) is remembered with what was typed.
  function took(item, answer, at) {
    if (item.kind !== "deal" || !answer || !answer.proposal || answer.result === "agreed") {
      if (answer && answer.result === "agreed") {
        clearFormIfItHolds(item.fields);
      }
      return;
    }
    var items = sent().filter(function (known) { return known.proposal !== answer.proposal; });
    items.push({ proposal: answer.proposal, number: answer.number, status: answer.result, fields: item.fields, at: at, seen: false });
    saveSent(items);
    if (answer.result === "conflict") {
      // Never dropped: shown with the players' numbers (the state), and back in the form, where
      // sending it settles the conflict as its button would.
      backIntoForm(item.fields, answer.proposal);
    }
  }

  // Refused by the server (the engine's errors, or the match moved on): the deal stays in the
  // queue, marked, and comes into the form to be put right; never silently dropped.
  function refuse(item, answer) {
    var message = (answer && answer.message) || data.textRefused;
    var items = queue();
    items.forEach(function (queued) {
      if (queued.id === item.id) {
        queued.refused = message;
        queued.problems = answer || {};
      }
    });
    saveQueue(items);
    if (item.kind === "deal" && form && !form.dataset.editing) {
      editQueued(item.id);
    } else if (item.kind !== "deal") {
      setConnection(message);
    }
  }

  // What the state shows of the deals the server took: one agreed leaves the form if it is still
  // there; one rejected by the other team comes back into the form; a conflict stays until settled.
  function followSent() {
    var items = sent();
    if (!items.length) {
      return;
    }
    var dealCount = parseInt(stateData().dealCount || "0", 10);
    var drawn = renderedMs();
    var kept = items.filter(function (item) {
      if (stateBox.querySelector("[data-proposal='" + item.proposal + "']")) {
        item.seen = true;
        return true;
      }
      // A state drawn before the server took it cannot show it: it is judged by a later one.
      if (!item.seen && !(item.at && drawn > item.at + 1000)) {
        return true;
      }
      if (item.status === "waiting" && dealCount < item.number) {
        backIntoForm(item.fields);
      } else {
        clearFormIfItHolds(item.fields);
      }
      return false;
    });
    saveSent(kept);
  }

  // -- the deal form ------------------------------------------------------------------------------

  function formFields() {
    return Array.prototype.filter.call(form.elements, function (element) {
      return element.name && ["client_id", "kind", "number", "correct_number", "side"].concat(SENT_LATER)
        .indexOf(element.name) === -1;
    });
  }

  function currentValues() {
    var values = {};
    formFields().forEach(function (element) {
      if (element.type === "radio" || element.type === "checkbox") {
        if (element.checked) {
          values[element.name] = element.value;
        }
      } else if (element.tagName !== "BUTTON") {
        values[element.name] = element.value;
      }
    });
    return values;
  }

  // A deal's values in one text, to tell whether the form holds them (an empty count is 0).
  function dealText(values) {
    return formFields().filter(function (element) { return element.tagName !== "BUTTON"; })
      .map(function (element) { return element.name; })
      .filter(function (name, index, names) { return names.indexOf(name) === index; })
      .map(function (name) {
        var value = values[name] === undefined ? "" : String(values[name]).trim();
        if (value === "0" && name !== "home_cards" && name !== "away_cards") {
          value = "";
        }
        return name + "=" + value;
      }).join("&");
  }

  function pairsToValues(pairs) {
    var values = {};
    pairs.forEach(function (pair) { values[pair[0]] = pair[1]; });
    return values;
  }

  function formIsEmpty() {
    return dealText(currentValues()) === dealText({});
  }

  function typed() {
    saveDraft();
    if (formIsEmpty()) {
      store(keys.resendOf, null); // emptied: what is typed next is another deal, not the conflict's
    }
    scheduleCheck();
  }

  function saveDraft() {
    if (form.dataset.editing) {
      return; // a queued deal being put right: its values are the queue's
    }
    store(keys.draft, currentValues());
  }

  function fillForm(pairs) {
    var values = pairsToValues(pairs);
    formFields().forEach(function (element) {
      var value = values[element.name];
      if (element.type === "radio") {
        element.checked = value !== undefined ? element.value === value : element.value === "";
      } else if (element.type === "checkbox") {
        element.checked = value === element.value || value === "on";
      } else if (element.tagName !== "BUTTON") {
        element.value = value !== undefined ? value : "";
      }
    });
    saveDraft();
    scheduleCheck();
  }

  // A deal the server took but did not put on the protocol: its values come back into the form,
  // unless the player is typing another deal there already (then they stay in the state's conflict
  // or are lost to nothing: the form's own draft is never overwritten).
  function backIntoForm(pairs, conflict) {
    if (!form || correcting() || form.dataset.editing || !formIsEmpty()) {
      return;
    }
    fillForm(pairs);
    store(keys.resendOf, conflict || null);
  }

  function clearFormIfItHolds(pairs) {
    if (!form || form.dataset.editing || correcting()) {
      return;
    }
    if (!formIsEmpty() && dealText(currentValues()) === dealText(pairsToValues(pairs))) {
      fillForm([]);
      store(keys.resendOf, null);
      showProblems({});
    }
  }

  // A conflict's numbers on their way again (queued on this phone): its button is not offered twice.
  function markResent() {
    var resent = queue().map(function (item) { return field(item, "resend_of"); }).filter(Boolean);
    stateBox.querySelectorAll("form.table-resend").forEach(function (resend) {
      var of = resend.querySelector("input[name=resend_of]");
      var queued = of && resent.indexOf(of.value) !== -1;
      resend.querySelectorAll("button").forEach(function (button) { button.disabled = queued; });
    });
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
    // The deal as typed so far: card points not yet written count as 0 in the check (forms.protocol
    // CHECKING); sending refuses them.
    post(data.checkUrl, fieldsOf(form).concat([["checking", "1"]]))
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
    // One radio per team the phone holds a code for, or the code's own side (hidden).
    var side = form.elements.side;
    return side ? side.value || "" : "";
  }

  function sendDeal(event) {
    event.preventDefault();
    if (!chosenSide()) {
      var choice = form.querySelector("input[name=side]");
      choice.focus();
      var legend = form.querySelector(".table-my-side legend");
      showProblems({ general: [legend ? legend.textContent : ""] });
      return;
    }
    form.elements.client_id.value = newId();
    var edited = editing();
    if (edited) {
      // The queued deal put right: in its place in the queue, with its number.
      var items = queue();
      items.forEach(function (item) {
        if (item.id === edited.id) {
          var both = item.both;
          item.fields = fieldsOf(form);
          if (both) {
            setField(item, "both", "yes");
          }
          item.refused = "";
          item.problems = null;
        }
      });
      endEditing();
      showProblems({});
      saveQueue(items);
      showForm();
      flush();
      return;
    }
    var kind = form.elements.kind.value;
    var item = {
      id: form.elements.client_id.value,
      url: data.proposeUrl,
      kind: kind === "deal" ? "deal" : "other",
      both: false,
      label: form.querySelector("[data-role=title]").textContent,
      fields: fieldsOf(form)
    };
    var resendOf = load(keys.resendOf, null);
    if (resendOf && kind === "deal") {
      setField(item, "resend_of", String(resendOf));
    }
    store(keys.resendOf, null);
    store(keys.draft, null);
    fillForm([]);
    endCorrection();
    showProblems({});
    enqueue(item);
  }

  // -- a queued deal the server refused, put right in the form -----------------------------------

  function editQueued(id) {
    var item = queue().filter(function (queued) { return queued.id === id; })[0];
    if (!item || !form) {
      return;
    }
    if (!form.dataset.editing) {
      // What the player was typing for the next deal waits meanwhile.
      store(keys.stash, currentValues());
    }
    form.dataset.editing = id;
    fillForm(item.fields);
    showForm();
    showProblems(item.problems || { general: [item.refused] });
    showQueue();
    form.scrollIntoView({ block: "start" });
  }

  function endEditing() {
    if (!form || !form.dataset.editing) {
      return;
    }
    delete form.dataset.editing;
    var stash = load(keys.stash, null);
    store(keys.stash, null);
    fillForm(stash ? Object.keys(stash).map(function (name) { return [name, stash[name]]; }) : []);
  }

  // -- corrections (rule 35: the last deal, before the next is dealt) ------------------------------

  function endCorrection() {
    form.elements.kind.value = "deal";
    form.elements.correct_number.value = "";
    form.querySelector("[data-role=correcting]").hidden = true;
    form.querySelector("[data-role=cancel-correction]").hidden = true;
  }

  // -- forms in the changing part: answers, confirmations, conflicts sent again, the time running out

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
    var kinds = fields.filter(function (pair) { return pair[0] === "kind"; });
    var kind = kinds.length ? (kinds[0][1] === "deal" ? "deal" : "time_up") : "other";
    var item = {
      id: newId(),
      url: target.action,
      kind: kind,
      both: kind !== "deal",
      label: (submitter && submitter.textContent.trim()) || "",
      fields: fields
    };
    if (kind === "deal") {
      // A conflict's numbers sent again: as the next deal, after those waiting on this phone.
      setField(item, "number", String(nextNumber()));
    }
    if (kind === "time_up" || kind === "deal") {
      var id = field(item, "client_id") || newId();
      item.fields = item.fields.filter(function (pair) { return pair[0] !== "client_id"; });
      item.fields.push(["client_id", id]);
      item.id = id;
    }
    enqueue(item);
    markResent();
  }

  // -- the hall clock -----------------------------------------------------------------------------

  var clockTimer = null;

  function pad(number) {
    return number < 10 ? "0" + number : String(number);
  }

  // How far the server's clock is from this phone's. Taken from a state drawn just now; a state
  // kept from earlier (a reload without a network) has an old "now" and uses the one kept.
  function startClock(drawnNow) {
    var clock = stateBox.querySelector("[data-role=clock]");
    window.clearInterval(clockTimer);
    if (!clock) {
      return;
    }
    var kept = load(keys.offset, null);
    if (drawnNow || kept === null) {
      clockOffset = parseInt(clock.dataset.nowMs, 10) - Date.now();
      if (drawnNow) {
        store(keys.offset, clockOffset);
      }
    } else {
      clockOffset = kept;
    }
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

  // -- number fields --------------------------------------------------------------------------------

  // A tap puts the cursor where the finger was: the field's content is selected instead, so what
  // is typed replaces it (45, never 450 or 045). The selection is made after the tap has placed
  // the caret (or it would be lost again), and once more at the first key typed before the player
  // moved the caret: a quick thumb, or a browser that put the caret back, still replaces it.
  var NUMBER_FIELD = "input.num, input[type=number]";
  var freshlyFocused = null;

  function selectAll(input) {
    try {
      input.select();
    } catch (error) {
      /* an input type without selection */
    }
  }

  function selectOnFocus(event) {
    var input = event.target;
    if (!input || !input.matches || !input.matches(NUMBER_FIELD)) {
      return;
    }
    freshlyFocused = input;
    window.setTimeout(function () {
      if (document.activeElement === input && freshlyFocused === input) {
        selectAll(input); // only if still focused: select() would pull the focus back
      }
    }, 0);
  }

  function selectOnFirstKey(event) {
    var input = event.target;
    if (input !== freshlyFocused) {
      return;
    }
    freshlyFocused = null;
    // A character (or a phone keyboard's key, which says no more): it replaces the content.
    if ((event.key && event.key.length === 1 || event.key === "Unidentified") && !event.ctrlKey && !event.metaKey && !event.altKey) {
      selectAll(input);
    }
  }

  function caretMoved(event) {
    // A second tap in the focused field: the player puts the caret where it is wanted.
    if (event.target === freshlyFocused && document.activeElement === event.target) {
      freshlyFocused = null;
    }
  }

  // -- the page kept for a reload without a network ------------------------------------------------

  function keepPage() {
    if (!("serviceWorker" in navigator)) {
      return;
    }
    navigator.serviceWorker.register(data.swUrl).then(function () {
      // The page the worker was not there to see: kept now, under its address without a query.
      if (window.caches && !browserOffline()) {
        var address = window.location.pathname + (otherCode() ? "?with=" + encodeURIComponent(otherCode()) : "");
        fetch(address, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
          if (response.ok) {
            return window.caches.open(PAGE_CACHE).then(function (cache) { return cache.put(window.location.pathname, response); });
          }
          return null;
        }).catch(function () { /* offline already: the copy from the last visit stays */ });
      }
    }).catch(function () { /* no service worker: the page works online */ });
  }

  // The page drawn without the other team's code this phone keeps: drawn again with it (both
  // teams' buttons), once the server has said the code is still this table's.
  function followOther() {
    if (data.otherCode || !otherCode() || browserOffline() || /[?&]with=/.test(window.location.search)) {
      return;
    }
    var code = otherCode();
    stateStatus(code).then(function (status) {
      if (status === 200) {
        window.location.replace(window.location.pathname + "?with=" + encodeURIComponent(code));
      } else if (status === 403) {
        forgetOther(code);
      }
    });
  }

  // -- start ----------------------------------------------------------------------------------------

  function start() {
    if (data.otherCode) {
      store(keys.other, data.otherCode);
    }
    followOther();
    // Without a network the page is the service worker's copy, and its state may be older than the
    // one kept here: the later of the two is shown.
    var keptIsLater = showKeptState();
    var pageIsFresh = !browserOffline() && !keptIsLater;
    keepState();
    if (form) {
      var side = load(keys.side, "");
      form.querySelectorAll("input[type=radio][name=side]").forEach(function (input) {
        if (side && input.value === side) {
          input.checked = true;
        }
        input.addEventListener("change", function () { store(keys.side, input.value); });
      });
      var draft = load(keys.draft, null);
      if (draft && form.elements.kind.value === "deal") {
        fillForm(Object.keys(draft).map(function (name) { return [name, draft[name]]; }));
      }
      form.addEventListener("input", typed);
      form.addEventListener("change", typed);
      form.addEventListener("submit", sendDeal);
      form.addEventListener("focusin", selectOnFocus);
      form.addEventListener("keydown", selectOnFirstKey, true);
      form.addEventListener("mousedown", caretMoved, true);
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
    // A deal the server refused before the reload is put right where it was.
    var refused = queue().filter(function (item) { return item.refused && item.kind === "deal"; })[0];
    if (refused && form) {
      editQueued(refused.id);
    }
    followSent();
    showQueue();
    showForm();
    startClock(pageIsFresh);
    markResent();
    window.addEventListener("online", flush);
    window.addEventListener("offline", function () { setOnline(false); });
    window.setInterval(function () {
      if (document.visibilityState === "visible") {
        if (nextToSend()) {
          flush();
        } else {
          refreshState();
        }
      }
    }, parseInt(data.pollSeconds, 10) * 1000);
    if (browserOffline()) {
      setOnline(false);
    }
    flush();
    keepPage();
  }

  start();
})();
