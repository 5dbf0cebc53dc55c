/*
 * The table's page (/t/<code>/). Without this file every form posts and the page comes back. What
 * the server draws comes through htmx (templates/scoring/table/page.html): the live check of the
 * deal as it is typed (…/check/: the engine's messages, as on the secretary's page) and the state,
 * asked for again every few seconds with its validator (…/state/: 304 while nothing changed); the
 * hall clock counts down in hall-clock.js, number fields select their content in number-fields.js.
 * This file keeps what lives on the device only:
 *
 * - everything sent (a deal, an answer, a confirmation) first goes into a queue in localStorage,
 *   with an id made here, and leaves it only when the server has answered: a lost connection loses
 *   nothing, and a deal sent twice is stored once;
 * - a deal the server took but has not put on the protocol (waiting for the other team, or a
 *   conflict: its number was taken meanwhile) is remembered, so that a rejected deal or a conflict
 *   comes back into the form with what was typed: nothing is typed twice;
 * - what is typed (a reload keeps it), and the latest state seen: a service worker (/t/sw.js) keeps
 *   the page for a reload without a network, and the state kept here is shown over its older one;
 * - the other team's code on a phone both teams share, sent with everything.
 */
(() => {
  "use strict";
  const main = document.getElementById("table");
  if (!main) return;
  const data = main.dataset;
  const form = document.getElementById("deal-form");
  const stateBox = document.getElementById("table-state");
  const queueList = document.getElementById("queue-list");
  const connection = document.getElementById("connection");
  const PAGE_CACHE = "canasta-table-v2"; // the service worker's cache (sw.js names the same)
  // Never stored with a queued item: the token and the other code are the page's at sending.
  const SENT_LATER = ["csrfmiddlewaretoken", "other_code"];
  const NOT_DEAL = ["client_id", "kind", "number", "correct_number", "side", ...SENT_LATER];
  let flushing = false;
  let stateWith = "";
  let lastPressed = null;

  // -- on the device ------------------------------------------------------------------------------

  const key = (name) => `canasta-table:${data.code}:${name}`;
  function load(name, fallback) {
    try { return JSON.parse(localStorage.getItem(key(name))) ?? fallback; } catch (error) { return fallback; }
  }
  function store(name, value) {
    try {
      if (value === null || (Array.isArray(value) && !value.length)) localStorage.removeItem(key(name));
      else localStorage.setItem(key(name), JSON.stringify(value));
    } catch (error) { /* no storage (private mode): the page still works online */ }
  }
  const newId = () => (crypto.randomUUID ? crypto.randomUUID().replace(/-/g, "") : Date.now() + Math.random().toString(16).slice(2));
  const queue = () => load("queue", []);
  const saveQueue = (items) => { store("queue", items); showQueue(); };
  const field = (item, name) => (item.fields.find((pair) => pair[0] === name) || ["", ""])[1];
  const setField = (item, name, value) => { item.fields = item.fields.filter((pair) => pair[0] !== name).concat([[name, value]]); };
  const otherCode = () => load("other", "");
  const withOther = (url, code) => url + (code ? "?with=" + encodeURIComponent(code) : "");
  const offline = () => navigator.onLine === false; // the browser knows: nothing is tried until it says otherwise
  const stateData = () => (document.getElementById("table-state-data") || { dataset: {} }).dataset;
  const renderedMs = () => parseInt(stateData().renderedMs, 10) || 0;
  const refresh = () => window.htmx && htmx.trigger(stateBox, "refresh");
  const say = (text) => { connection.textContent = text || ""; connection.hidden = !text; };
  const online = (yes) => (yes ? connection.textContent === data.textOffline && say("") : say(data.textOffline));

  // The other team's code the server refused, unless another was kept since: its agreement given on
  // this phone can no longer be sent, and the other team answers on its own.
  function forgetOther(code) {
    if (!code || otherCode() !== code) return;
    store("other", null);
    saveQueue(queue().map((item) => (item.kind === "deal" && item.both
      ? { ...item, both: false, fields: item.fields.filter((pair) => pair[0] !== "both") } : item)));
    say(data.textOtherForgotten);
  }

  // The state's answer to a code (or to none): 200; 403 when that code is refused; 404 when the
  // link is gone. A state asked for with a code refuses nothing else, so it tells them apart.
  const stateStatus = (code) => fetch(withOther(data.stateUrl, code), { cache: "no-store" }).then((r) => r.status, () => 0);

  function post(url, pairs) {
    const body = new URLSearchParams(pairs.filter((pair) => !SENT_LATER.includes(pair[0])));
    if (otherCode()) body.append("other_code", otherCode());
    const token = document.querySelector("input[name=csrfmiddlewaretoken]");
    return fetch(url, { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json", "X-CSRFToken": token ? token.value : "" } });
  }

  // The latest state seen, for a reload without a network (the page kept may be older).
  function keepState() {
    const kept = load("state", null);
    if (renderedMs() && (!kept || kept.ms <= renderedMs())) store("state", { ms: renderedMs(), html: stateBox.innerHTML });
  }

  // How far the server's clock is from this phone's, taken from a state drawn just now; a state
  // drawn earlier (a reload without a network) counts from the one kept (hall-clock.js reads it).
  function setClock(drawnNow) {
    const clock = document.getElementById("hall-clock");
    const kept = load("clock-offset", null);
    if (clock && drawnNow) store("clock-offset", Number(clock.dataset.serverNow) - Date.now());
    else if (clock && kept !== null) clock.dataset.serverNow = String(Date.now() + kept);
  }

  // -- the deal form --------------------------------------------------------------------------------

  const queuedDeals = () => queue().filter((item) => item.kind === "deal");
  // After the latest state seen, and every deal still waiting on this phone to be sent.
  const nextNumber = () => (parseInt(stateData().nextNumber, 10) || 1) + queuedDeals().length;
  const correcting = () => form && form.elements.kind.value === "correction";
  const editing = () => (form && form.dataset.editing && queue().find((item) => item.id === form.dataset.editing)) || null;
  const dealInputs = () => [...form.elements].filter((element) => element.name && !NOT_DEAL.includes(element.name) && element.tagName !== "BUTTON");

  function showForm() {
    if (!form) return;
    const state = stateData(), edited = editing(), deals = queuedDeals();
    form.hidden = !(correcting() || edited || ((state.accepts === "1" || deals.length) && !deals.some((item) => !item.both)));
    if (edited || !correcting()) {
      const number = edited ? field(edited, "number") : String(nextNumber());
      form.elements.number.value = number;
      form.querySelector("[data-role=title]").textContent = `${data.textDeal} ${number}`;
    }
    const choice = form.querySelector("[data-role=clock-choice]");
    if (choice) choice.hidden = state.finalPassed !== "1" && !choice.querySelector("input").checked;
  }

  function currentValues() {
    const values = {};
    dealInputs().forEach((element) => { if (!/^(radio|checkbox)$/.test(element.type) || element.checked) values[element.name] = element.value; });
    return values;
  }

  // A deal's values in one text, to tell whether the form holds them (an empty count is 0).
  const dealText = (values) => [...new Set(dealInputs().map((element) => element.name))].map((name) => {
    const value = values[name] === undefined ? "" : String(values[name]).trim();
    return `${name}=${value === "0" && !name.endsWith("_cards") ? "" : value}`;
  }).join("&");
  const formIsEmpty = () => dealText(currentValues()) === dealText({});
  const saveDraft = () => form.dataset.editing || store("draft", currentValues()); // a queued deal put right is the queue's

  function fillForm(pairs, check = true) {
    const values = Object.fromEntries(pairs);
    dealInputs().forEach((element) => {
      const value = values[element.name];
      if (element.type === "radio") element.checked = value !== undefined ? element.value === value : element.value === "";
      else if (element.type === "checkbox") element.checked = value === element.value || value === "on";
      else element.value = value ?? "";
    });
    saveDraft();
    if (check && window.htmx) htmx.trigger(form, "check");
  }

  // A deal the server took but did not put on the protocol comes back into the form, unless another
  // deal is being typed there (the form's own draft is never overwritten).
  function backIntoForm(pairs, conflict) {
    if (!form || correcting() || form.dataset.editing || !formIsEmpty()) return;
    fillForm(pairs);
    store("resend-of", conflict || null);
  }

  function clearFormIfItHolds(pairs) {
    if (!form || form.dataset.editing || correcting() || formIsEmpty()) return;
    if (dealText(currentValues()) === dealText(Object.fromEntries(pairs))) { fillForm([]); store("resend-of", null); }
  }

  // The live check marks the fields it placed problems beside; a refusal of the server is placed the same way.
  function markProblems() {
    form.querySelectorAll(".field-problems[id^=problems-]").forEach((slot) => {
      const input = form.elements[slot.id.slice("problems-".length)];
      if (!input || !input.setAttribute) return; // a radio group says it through its fieldset
      if (slot.textContent.trim()) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    });
  }
  function showRefusal(answer) {
    const line = (text) => Object.assign(document.createElement("p"), { className: "error", textContent: text });
    const general = document.getElementById("problems-general");
    form.querySelectorAll(".field-problems").forEach((slot) => slot.replaceChildren());
    Object.entries(answer.fields || {}).forEach(([name, messages]) => (document.getElementById("problems-" + name) || general).append(...messages.map(line)));
    general.append(...[answer.result === "refused" && answer.message, ...(answer.general || [])].filter(Boolean).map(line));
    markProblems();
  }

  // A queued deal the server refused, put right in the form; what was being typed waits meanwhile.
  function editQueued(id) {
    const item = queue().find((queued) => queued.id === id);
    if (!item || !form) return;
    if (!form.dataset.editing) store("stash", currentValues());
    form.dataset.editing = id;
    fillForm(item.fields, false); // the server's refusal of these very values stays in sight
    showForm();
    showRefusal(item.problems || { general: [item.refused] });
    showQueue();
    form.scrollIntoView({ block: "start" });
  }
  function endEditing() {
    if (!form || !form.dataset.editing) return;
    delete form.dataset.editing;
    const stash = load("stash", {});
    store("stash", null);
    fillForm(Object.entries(stash));
  }

  // -- the queue ------------------------------------------------------------------------------------

  function fieldsOf(element, submitter) {
    const fields = [...new FormData(element)].filter(([name, value]) => typeof value === "string" && !SENT_LATER.includes(name));
    if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
    return fields;
  }

  function showQueue() {
    const items = queue();
    document.getElementById("queue").hidden = !items.length;
    queueList.replaceChildren(...items.map((item) => {
      const row = document.getElementById("queue-row").content.firstElementChild.cloneNode(true);
      const other = field(item, "side") === "home" ? data.awayName : data.homeName;
      const deal = item.kind === "deal", unanswered = deal && !item.refused && !item.both;
      const text = deal ? `${data.textDeal} ${field(item, "number")}: ${data.homeName} ${field(item, "home_cards") || "0"}, ${data.awayName} ${field(item, "away_cards") || "0"}` : item.label;
      row.dataset.id = item.id;
      if (item.refused) row.dataset.refused = "1";
      row.querySelector("[data-role=text]").textContent = `${text} – ${item.refused ? `${data.textRefused}: ${item.refused}` : data.textUnsent}`;
      row.querySelector("[data-action=agree]").textContent = `${other} ${data.textAgrees}`; // on this phone, which holds its code
      row.querySelector("[data-action=elsewhere]").textContent = " " + data.textAnswersElsewhere.replace("{team}", other);
      const shown = { agree: unanswered && !!otherCode(), elsewhere: unanswered && !otherCode(), remove: !!item.refused,
        edit: deal && !!item.refused && (!form || form.dataset.editing !== item.id) };
      Object.keys(shown).forEach((action) => shown[action] || row.querySelector(`[data-action=${action}]`).remove());
      return row;
    }));
  }

  function enqueue(item) { saveQueue(queue().concat([item])); showForm(); flush(); }

  // The first item to send, in order; none past a deal the server refused (those after it would be
  // refused too until it is put right).
  function nextToSend() {
    for (const item of queue()) {
      if (!item.refused) return item;
      if (item.kind === "deal") return null;
    }
    return null;
  }

  async function flush() {
    if (flushing) return;
    if (offline()) return online(false);
    const item = nextToSend();
    if (!item) return refresh();
    flushing = true;
    const sentWith = otherCode();
    let goOn = true;
    try {
      const response = await post(item.url, item.fields);
      const answer = await response.json().catch(() => ({}));
      const status = response.status;
      online(true);
      if (status >= 200 && status < 300) {
        // The server's clock at the answer (to the second): a state drawn after it shows what it took.
        took(item, answer, Date.parse(response.headers.get("Date") || "") || 0);
        saveQueue(queue().filter((queued) => queued.id !== item.id));
      } else if (status === 404) { say(data.textGone); goOn = false; }
      else if (status === 429 || status >= 500) { online(false); goOn = false; }
      else if (status !== 403) refuse(item, answer);
      else {
        // The other team's code refused, the link gone, or this one item refused (a side this phone
        // holds no code for): the state, asked for with the same code, tells which.
        const stateAnswer = await stateStatus(sentWith);
        if (stateAnswer === 403 && sentWith) forgetOther(sentWith);
        else if (stateAnswer !== 200) { say(data.textGone); goOn = false; }
        else refuse(item, answer);
      }
    } catch (error) { online(false); goOn = false; }
    flushing = false;
    if (goOn) nextToSend() ? flush() : refresh();
  }

  // The server has the item: a deal it has not put on the protocol yet (waiting for the other team,
  // or a conflict) is remembered with what was typed.
  function took(item, answer, at) {
    if (answer.result === "agreed") return clearFormIfItHolds(item.fields);
    if (item.kind !== "deal" || !answer.proposal) return;
    store("sent", load("sent", []).filter((known) => known.proposal !== answer.proposal)
      .concat([{ proposal: answer.proposal, number: answer.number, status: answer.result, fields: item.fields, at, seen: false }]));
    // A conflict is never dropped: shown with the players' numbers (the state), and back in the
    // form, where sending it settles the conflict as its button would.
    if (answer.result === "conflict") backIntoForm(item.fields, answer.proposal);
  }

  // Refused by the server (the engine's errors, or the match moved on): the item stays in the queue,
  // marked, and a deal comes into the form to be put right; never silently dropped.
  function refuse(item, answer) {
    const message = answer.message || data.textRefused;
    saveQueue(queue().map((queued) => (queued.id === item.id ? { ...queued, refused: message, problems: answer } : queued)));
    if (item.kind !== "deal") say(message);
    else if (form && !form.dataset.editing) editQueued(item.id);
  }

  // What the state shows of the deals the server took: one agreed leaves the form if it is still
  // there; one rejected by the other team comes back into it; a conflict stays until settled.
  function followSent() {
    const dealCount = parseInt(stateData().dealCount, 10) || 0;
    store("sent", load("sent", []).filter((item) => {
      if (stateBox.querySelector(`[data-proposal='${item.proposal}']`)) return (item.seen = true);
      // A state drawn before the server took it cannot show it: a later one judges it.
      if (!item.seen && !(item.at && renderedMs() > item.at + 1000)) return true;
      if (item.status === "waiting" && dealCount < item.number) backIntoForm(item.fields);
      else clearFormIfItHolds(item.fields);
      return false;
    }));
  }

  // A conflict's numbers on their way again (queued here): its button is not offered twice.
  function markResent() {
    const resent = queue().map((item) => field(item, "resend_of")).filter(Boolean);
    stateBox.querySelectorAll("form.table-resend").forEach((resend) => {
      const of = resend.querySelector("input[name=resend_of]");
      resend.querySelectorAll("button").forEach((button) => { button.disabled = !!of && resent.includes(of.value); });
    });
  }

  function sendDeal(event) {
    event.preventDefault();
    if (!form.elements.side.value) { // a phone both teams share asks which team sends it
      form.querySelector("input[name=side]").focus();
      return showRefusal({ general: [form.querySelector(".table-my-side legend").textContent] });
    }
    form.elements.client_id.value = newId();
    const edited = editing();
    if (edited) { // the queued deal put right: in its place in the queue, with its number
      const fields = fieldsOf(form).concat(edited.both ? [["both", "yes"]] : []);
      saveQueue(queue().map((item) => (item.id === edited.id ? { ...item, fields, refused: "", problems: null } : item)));
      endEditing();
      showForm();
      return flush();
    }
    const kind = form.elements.kind.value;
    const item = { id: form.elements.client_id.value, url: data.proposeUrl, kind: kind === "deal" ? "deal" : "other", both: false,
      label: form.querySelector("[data-role=title]").textContent, fields: fieldsOf(form) };
    const resendOf = load("resend-of", null);
    if (resendOf && kind === "deal") setField(item, "resend_of", String(resendOf));
    store("resend-of", null);
    store("draft", null);
    fillForm([]);
    // A correction (rule 35) is sent once: the form is the next deal's again.
    form.elements.kind.value = "deal";
    form.elements.correct_number.value = "";
    form.querySelectorAll("[data-role=correcting], [data-role=cancel-correction]").forEach((element) => { element.hidden = true; });
    enqueue(item);
  }

  // The forms of the state (answers, confirmations, a conflict sent again, the time running out) go
  // through the queue too.
  function sendStateForm(event) {
    const target = event.target;
    if (target.tagName !== "FORM" || target.method !== "post") return;
    event.preventDefault();
    const submitter = event.submitter || lastPressed; // browsers without event.submitter
    const fields = fieldsOf(target, submitter);
    const kinds = fields.filter((pair) => pair[0] === "kind").map((pair) => (pair[1] === "deal" ? "deal" : "time_up"));
    const kind = kinds[0] || "other";
    const item = { id: newId(), url: target.action, kind, both: kind !== "deal", label: submitter ? submitter.textContent.trim() : "", fields };
    // A conflict's numbers sent again: as the next deal, after those waiting on this phone.
    if (kind === "deal") setField(item, "number", String(nextNumber()));
    if (kind !== "other") { item.id = field(item, "client_id") || item.id; setField(item, "client_id", item.id); }
    enqueue(item);
    markResent();
  }

  // -- htmx: the live check and the state ------------------------------------------------------------

  document.addEventListener("htmx:configRequest", (event) => {
    const detail = event.detail;
    if (detail.elt === stateBox) {
      // With the other team's code kept here, and the validator of the state shown.
      stateWith = otherCode();
      detail.path = withOther(data.stateUrl, stateWith);
      if (stateData().tag) detail.headers["If-None-Match"] = `"${stateData().tag}"`;
    } else if (detail.elt === form) {
      if (otherCode()) detail.formData.set("other_code", otherCode());
      else detail.formData.delete("other_code");
    }
  });
  document.addEventListener("htmx:beforeRequest", (event) => {
    const elt = event.detail.elt;
    if (elt !== stateBox && elt !== form) return;
    if (offline() || document.visibilityState === "hidden" || (elt === form && form.hidden)) {
      event.preventDefault();
      if (offline()) online(false);
    } else if (elt === stateBox && nextToSend()) { // what waits to be sent goes first; the state follows
      event.preventDefault();
      flush();
    }
  });
  // An answer overtaken by a later one (two requests under way) does not take the page back.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const drawn = event.detail.elt === stateBox && /data-rendered-ms="(\d+)"/.exec(event.detail.serverResponse || "");
    if (drawn && Number(drawn[1]) < renderedMs()) event.detail.shouldSwap = false;
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.elt !== stateBox) return;
    keepState();
    setClock(true);
    showForm();
    showQueue();
    markResent();
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const status = event.detail.xhr.status;
    if (event.detail.elt === form) return markProblems();
    if (event.detail.elt !== stateBox) return;
    if (status === 403 && stateWith) { forgetOther(stateWith); window.setTimeout(refresh); }
    else if (status === 403 || status === 404) say(data.textGone);
    else if (!status) online(false);
    else if (status < 400) online(true);
    followSent(); // a 304 too: the state shown may now judge what was sent
  });
  // The hall clock gave a signal: the state (what may be entered) changes with it.
  document.addEventListener("hall-clock:signal", refresh);

  // -- the page kept for a reload without a network -------------------------------------------------

  function keepPage() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register(data.swUrl).then(() => {
      // The page the worker was not there to see: kept now, under its address without a query.
      if (!window.caches || offline()) return null;
      return fetch(withOther(location.pathname, otherCode()), { credentials: "same-origin", cache: "no-store" })
        .then((response) => response.ok && caches.open(PAGE_CACHE).then((cache) => cache.put(location.pathname, response)));
    }).catch(() => { /* no service worker, or offline already: the page works online, the copy kept stays */ });
  }

  // The page drawn without the other team's code this phone keeps: drawn again with it (both teams'
  // buttons), once the server has said the code is still this table's.
  function followOther() {
    const code = otherCode();
    if (data.otherCode || !code || offline() || /[?&]with=/.test(location.search)) return;
    stateStatus(code).then((status) => {
      if (status === 200) location.replace(withOther(location.pathname, code));
      else if (status === 403) forgetOther(code);
    });
  }

  // After htmx has started (its own listener came first) and before hall-clock.js reads its clock.
  document.addEventListener("DOMContentLoaded", () => {
    if (data.otherCode) store("other", data.otherCode);
    followOther();
    // Without a network the page is the service worker's copy: the later of it and the state kept is shown.
    const kept = load("state", null);
    const keptIsLater = !!(kept && kept.html && kept.ms > renderedMs());
    if (keptIsLater) stateBox.innerHTML = kept.html;
    setClock(!offline() && !keptIsLater);
    keepState();
    if (form) {
      const side = load("side", "");
      form.querySelectorAll("input[type=radio][name=side]").forEach((input) => {
        input.checked = input.checked || input.value === side;
        input.addEventListener("change", () => store("side", input.value));
      });
      const draft = load("draft", null);
      if (draft && form.elements.kind.value === "deal") fillForm(Object.entries(draft));
      const typed = () => { saveDraft(); if (formIsEmpty()) store("resend-of", null); }; // emptied: the next deal is another
      form.addEventListener("input", typed);
      form.addEventListener("change", typed);
      form.addEventListener("submit", sendDeal);
      const cancel = form.querySelector("[data-role=cancel-correction]");
      cancel.hidden = !correcting();
      cancel.addEventListener("click", () => { location.href = location.pathname; });
      // A deal the server refused before the reload is put right where it was.
      const refused = queue().find((item) => item.refused && item.kind === "deal");
      if (refused) editQueued(refused.id);
    }
    stateBox.addEventListener("submit", sendStateForm);
    stateBox.addEventListener("click", (event) => { lastPressed = event.target.closest("button[type=submit]"); });
    queueList.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-action]");
      const id = button && button.closest("li").dataset.id;
      if (!button) return;
      if (button.dataset.action === "edit") return editQueued(id);
      if (button.dataset.action === "remove") {
        if (form && form.dataset.editing === id) endEditing();
        saveQueue(queue().filter((item) => item.id !== id));
      } else { // the other team agrees on this phone, which holds its code too
        saveQueue(queue().map((item) => (item.id === id ? { ...item, both: true, fields: item.fields.concat([["both", "yes"]]) } : item)));
      }
      showForm();
      flush();
    });
    followSent();
    showQueue();
    showForm();
    markResent();
    window.addEventListener("online", flush);
    window.addEventListener("offline", () => online(false));
    if (offline()) online(false);
    flush();
    keepPage();
  });
})();
