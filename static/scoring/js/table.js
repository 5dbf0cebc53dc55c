/*
 * The table's page (/t/<code>/). Without this file every form posts and the page comes back; with
 * it htmx draws what the server draws (page.html: the live check, the state every few seconds) and
 * hall-clock.js counts down. This file keeps what lives on the device only:
 *
 * - the queue: everything sent waits in localStorage, under an id made here, until the server has
 *   answered: a lost connection loses nothing, a deal sent twice is stored once, and a deal the
 *   server refuses keeps its place in the queue while it is put right in the form;
 * - the draft: what is typed survives a reload; a deal this phone sent that the other team rejects,
 *   or whose number was taken meanwhile (a conflict), comes back into the form;
 * - the other team's code on a phone both teams share, sent with everything.
 */
(() => {
  "use strict";
  const data = document.getElementById("table").dataset;
  const form = document.getElementById("deal-form");
  const stateBox = document.getElementById("table-state");
  const connection = document.getElementById("connection");
  // Never stored with a queued item: the token and the other code are the page's at sending.
  const SENT_LATER = ["csrfmiddlewaretoken", "other_code"];
  const NOT_DEAL = ["client_id", "kind", "number", "correct_number", "side", ...SENT_LATER];
  let flushing = false;
  let stateWith = ""; // the other team's code the state was last asked for with
  let lastPressed = null; // the button that sent a form, where the browser does not say (event.submitter)

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
  const otherCode = () => load("other", "");
  const withOther = (url, code) => url + (code ? "?with=" + encodeURIComponent(code) : "");
  const offline = () => navigator.onLine === false; // the browser knows: nothing is tried until it says otherwise
  const stateData = () => document.getElementById("table-state-data").dataset;
  const refresh = () => htmx.trigger(stateBox, "refresh");
  const field = (fields, name) => (fields.find((pair) => pair[0] === name) || ["", ""])[1];

  // The queue's items: { id, url, kind ("deal" or "other"), label, fields (pairs of name and value,
  // as FormData gives them), refused (the server's message), refusal (its problems, drawn) }.
  const queue = () => load("queue", []);
  function saveQueue(items) {
    store("queue", items);
    show();
  }
  const changeItem = (id, change) => saveQueue(queue().map((item) => (item.id === id ? { ...item, ...change } : item)));
  const dropItem = (id) => saveQueue(queue().filter((item) => item.id !== id));
  const agreed = (item) => field(item.fields, "both") === "yes"; // by both teams, on this phone
  const queuedDeals = () => queue().filter((item) => item.kind === "deal");
  // The queue stops at a deal the server refused (those after it would be refused too): the form
  // holds it until it is put right.
  const refusedDeal = () => queuedDeals().find((item) => item.refused);
  // The first item to send, in order; none past a deal the server refused.
  function nextToSend() {
    const item = queue().find((queued) => !queued.refused || queued.kind === "deal");
    return item && !item.refused ? item : null;
  }

  // The line under the codes: no connection, the link gone, the other team's code forgotten, a refusal.
  function say(text) {
    connection.textContent = text;
    connection.hidden = !text;
  }
  const online = (yes) => (yes ? connection.textContent === data.textOffline && say("") : say(data.textOffline));

  // The other team's code the server refused, unless another was kept since: its agreement given on
  // this phone can no longer be sent, and the other team answers on its own.
  function forgetOther(code) {
    if (!code || otherCode() !== code) return;
    store("other", null);
    saveQueue(queue().map((item) => ({ ...item, fields: item.fields.filter(([name]) => name !== "both") })));
    say(data.textOtherForgotten);
  }

  // -- the deal form --------------------------------------------------------------------------------

  // After the latest state seen, and every deal still waiting on this phone to be sent.
  const nextNumber = () => Number(stateData().nextNumber) + queuedDeals().length;
  const correcting = () => form.elements.kind.value === "correction";
  const fieldsOf = (element) => [...new FormData(element)].filter(([name]) => !SENT_LATER.includes(name));
  const typed = () => fieldsOf(form).filter(([name]) => !NOT_DEAL.includes(name));
  // Nothing typed: an empty count is 0, and the conflict the numbers came from (resend_of) no number.
  const blank = () => typed().every(([name, value]) => name === "resend_of" || !value.trim()
    || (value.trim() === "0" && !name.endsWith("_cards")));

  // What is typed is kept (a refused deal in the form is the queue's); emptied, it is no longer the
  // conflict that came back into it.
  function saveDraft() {
    if (refusedDeal()) return;
    if (blank()) form.elements.resend_of.value = "";
    store("draft", Object.fromEntries(typed()));
  }

  // Each item waiting on this device; a conflict's numbers on their way again are not offered again.
  // The form is hidden while a deal of this phone waits for the other team's agreement, or when no
  // deal is taken.
  function show() {
    const items = queue(), state = stateData(), refused = refusedDeal(), deals = queuedDeals();
    document.getElementById("queue").hidden = !items.length;
    document.getElementById("queue-list").replaceChildren(...items.map(queueRow));
    const resent = items.map((item) => field(item.fields, "resend_of"));
    stateBox.querySelectorAll("form.table-resend").forEach((resend) => {
      resend.querySelector("button").disabled = resent.includes(resend.elements.resend_of.value);
    });
    form.hidden = !(correcting() || refused || ((state.accepts === "1" || deals.length) && deals.every(agreed)));
    if (refused || !correcting()) {
      const number = refused ? field(refused.fields, "number") : String(nextNumber());
      form.elements.number.value = number;
      form.querySelector("[data-role=title]").textContent = `${data.textDeal} ${number}`;
    }
    const choice = form.querySelector("[data-role=clock-choice]");
    if (choice) choice.hidden = state.finalPassed !== "1" && !choice.querySelector("input").checked;
  }

  function fillForm(fields, check = true) {
    const values = Object.fromEntries(fields);
    [...form.elements].filter((element) => element.name && !NOT_DEAL.includes(element.name)).forEach((element) => {
      const value = values[element.name];
      if (element.type === "radio") element.checked = element.value === (value ?? "");
      else if (element.type === "checkbox") element.checked = value === element.value || value === "on";
      else element.value = value ?? "";
    });
    saveDraft();
    if (check) htmx.trigger(form, "check");
  }

  // A problem of the form itself, where the live check puts those of no field.
  function showProblem(text) {
    const line = Object.assign(document.createElement("p"), { className: "error", textContent: text });
    document.getElementById("problems-general").replaceChildren(line);
  }

  // The deal the server refused, in the form with the server's problems beside its fields (drawn as
  // the live check draws them); what was being typed waits in the draft meanwhile.
  function showRefused() {
    const item = refusedDeal();
    if (!item) return;
    fillForm(item.fields, false); // the server's refusal of these very values stays in sight
    // Placed after a live check under way, which was of what the form held before.
    const place = () => (item.refusal ? htmx.swap(form, item.refusal, { swapStyle: "none" }) : showProblem(item.refused));
    if (form.classList.contains("htmx-request")) form.addEventListener("htmx:afterRequest", place, { once: true });
    else place();
    form.scrollIntoView({ block: "start" });
  }

  // A deal this phone sent that the state shows rejected, or as a conflict (its number was taken),
  // comes back into the form with what was typed (data-typed), unless another deal is being typed
  // there; a conflict is then settled by sending it again.
  function followSent() {
    stateBox.querySelectorAll("[data-typed]").forEach((shown) => {
      const id = Number(shown.dataset.proposal), sent = load("sent", []);
      if (!sent.includes(id)) return;
      store("sent", sent.filter((known) => known !== id));
      if (correcting() || refusedDeal() || !blank()) return;
      fillForm([...new URLSearchParams(shown.dataset.typed), ["resend_of", shown.dataset.role === "conflict" ? String(id) : ""]]);
    });
  }

  // -- the queue ------------------------------------------------------------------------------------

  // An item of the queue (page.html's template, with the parts that fit it).
  function queueRow(item) {
    const row = document.getElementById("queue-row").content.firstElementChild.cloneNode(true);
    const fields = item.fields, side = field(fields, "side");
    const what = item.kind !== "deal" ? item.label : `${data.textDeal} ${field(fields, "number")}: `
      + `${data.homeName} ${field(fields, "home_cards") || "0"}, ${data.awayName} ${field(fields, "away_cards") || "0"}`;
    row.dataset.id = item.id;
    if (item.refused) row.dataset.refused = "1";
    row.querySelector("[data-role=text]").textContent = `${what} – ${item.refused ? `${data.textRefused}: ${item.refused}` : data.textUnsent}`;
    const unanswered = item.kind === "deal" && !item.refused && !agreed(item);
    const fits = { agree: unanswered && otherCode(), elsewhere: unanswered && !otherCode(), remove: item.refused };
    row.querySelectorAll("[data-action]").forEach((part) => (fits[part.dataset.action] && (part.dataset.side || side) === side) || part.remove());
    return row;
  }

  function post(url, fields) {
    const body = new URLSearchParams(fields);
    if (otherCode()) body.append("other_code", otherCode());
    const token = document.querySelector("input[name=csrfmiddlewaretoken]").value;
    return fetch(url, { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json", "X-CSRFToken": token } });
  }

  // What waits is sent in order, until the queue is empty (then the state is asked for again), the
  // network is lost, the link is gone, or a deal is refused.
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
      if (response.ok) {
        // Not on the protocol yet: followSent watches for the other team's rejection or a conflict.
        const waits = item.kind === "deal" && answer.proposal && answer.result !== "agreed";
        if (waits) store("sent", load("sent", []).concat(answer.proposal).slice(-20));
        dropItem(item.id);
      } else if (status === 404) { say(data.textGone); goOn = false; }
      else if (status === 429 || status >= 500) { online(false); goOn = false; }
      else if (status !== 403) refuse(item, answer);
      else {
        // The other team's code refused, the link gone, or this one item refused (a side this phone
        // holds no code for): the state, asked for with the same code, tells which.
        const state = await fetch(withOther(data.stateUrl, sentWith), { cache: "no-store" }).then((r) => r.status, () => 0);
        if (state === 403 && sentWith) forgetOther(sentWith);
        else if (state !== 200) { say(data.textGone); goOn = false; }
        else refuse(item, answer);
      }
    } catch (error) { online(false); goOn = false; }
    flushing = false;
    if (goOn) flush();
  }

  // Refused by the server (the engine's errors, or the match moved on): the item stays in the queue,
  // marked, and a deal comes into the form to be put right; never silently dropped.
  function refuse(item, answer) {
    const message = answer.message || data.textRefused;
    changeItem(item.id, { refused: message, refusal: answer.problems });
    if (item.kind === "deal") showRefused();
    else say(message);
  }

  // Every form of the page that posts goes through the queue, but the photo's: the deal form, and
  // the state's answers, confirmations, a conflict sent again and the time running out.
  function enqueueForm(event) {
    const target = event.target, dealForm = target === form;
    if (target.method !== "post" || !(dealForm || stateBox.contains(target))) return;
    event.preventDefault();
    if (dealForm && !form.elements.side.value) { // a phone both teams share asks which team sends it
      form.querySelector("input[name=side]").focus();
      return showProblem(form.querySelector(".table-my-side legend").textContent);
    }
    if (dealForm) form.elements.client_id.value = newId();
    const submitter = event.submitter || lastPressed;
    let fields = fieldsOf(target).concat(submitter?.name ? [[submitter.name, submitter.value]] : []);
    const refused = dealForm && refusedDeal();
    if (refused) { // put right: in its place in the queue, with its number; the draft comes back
      changeItem(refused.id, { fields: agreed(refused) ? fields.concat([["both", "yes"]]) : fields, refused: "", refusal: "" });
      fillForm(Object.entries(load("draft", {})));
      return flush();
    }
    const kind = field(fields, "kind") === "deal" ? "deal" : "other";
    // A deal (or a conflict's numbers sent again) follows those waiting on this phone.
    if (kind === "deal") fields = fields.filter(([name]) => name !== "number").concat([["number", String(nextNumber())]]);
    const label = (dealForm ? form.querySelector("[data-role=title]") : submitter)?.textContent.trim() || "";
    // Under the id the server made for what it offered, when it did: sent twice, it is taken once.
    const item = { id: field(fields, "client_id") || newId(), url: target.action, kind, label, fields };
    // The form is free: it was sent, or it held the conflict sent again here. A correction (rule 35)
    // is sent once: the form is the next deal's again.
    if (dealForm || (kind === "deal" && field(fields, "resend_of") === form.elements.resend_of.value)) fillForm([]);
    if (dealForm) {
      form.elements.kind.value = "deal";
      form.elements.correct_number.value = "";
      form.querySelectorAll("[data-role=correcting], [data-role=cancel-correction]").forEach((element) => { element.hidden = true; });
    }
    saveQueue(queue().concat([item]));
    flush();
  }

  // The queue's buttons: the other team agrees to a deal on this phone, which holds its code too, or
  // a refused item is removed (a deal's draft comes back into the form).
  function queueAction(event) {
    const button = event.target.closest("button[data-action]");
    const item = button && queue().find((queued) => queued.id === button.closest("li").dataset.id);
    if (!item) return;
    if (button.dataset.action === "agree") changeItem(item.id, { fields: item.fields.concat([["both", "yes"]]) });
    else {
      dropItem(item.id);
      if (item.kind === "deal") fillForm(Object.entries(load("draft", {})));
    }
    flush();
  }

  // -- htmx: the live check and the state ------------------------------------------------------------

  document.addEventListener("htmx:configRequest", (event) => {
    const detail = event.detail, elt = detail.elt;
    if (offline() || document.visibilityState === "hidden" || (elt === form && form.hidden)) {
      event.preventDefault();
      if (offline()) online(false);
    } else if (elt === stateBox && nextToSend()) { // what waits to be sent goes first; the state follows
      event.preventDefault();
      flush();
    } else if (elt === stateBox) { // with the other team's code kept here, and the validator of the state shown
      stateWith = otherCode();
      detail.path = withOther(data.stateUrl, stateWith);
      detail.headers["If-None-Match"] = `"${stateData().tag}"`;
    } else if (elt === form) detail.formData.delete("other_code"); // the check needs no other code
  });
  // After the state was drawn again (200), or was still the latest (304), or could not be asked for.
  document.addEventListener("htmx:afterRequest", (event) => {
    const status = event.detail.xhr.status;
    if (event.detail.elt !== stateBox) return;
    // The page drawn without the other team's code this phone keeps, which the server has just
    // taken: drawn again with it (both teams' buttons).
    if (status === 200 && stateWith && !data.otherCode && !/[?&]with=/.test(location.search)) {
      location.replace(withOther(location.pathname, stateWith));
    }
    if (status === 403 && stateWith) {
      forgetOther(stateWith);
      window.setTimeout(refresh);
    } else if (status === 403 || status === 404) say(data.textGone);
    else if (!status) online(false);
    else if (status < 400) online(true);
    followPollSeconds();
    followSent();
    show();
  });
  // The hall clock gave a signal: the state (what may be entered) changes with it.
  document.addEventListener("hall-clock:signal", refresh);

  // The state is asked for again after the seconds the one shown names (views.table.poll_seconds:
  // often while something at the table is under way, less often at rest), counted from the answer
  // that changed them.
  let pollTimer = 0;
  let pollSeconds = 0;
  function followPollSeconds() {
    const seconds = Number(stateData().pollSeconds) || 2.5;
    if (seconds === pollSeconds) return;
    pollSeconds = seconds;
    window.clearInterval(pollTimer);
    pollTimer = window.setInterval(refresh, seconds * 1000);
  }

  // -- the page ---------------------------------------------------------------------------------------

  // After htmx has started (its own listener came first). Without a network the page is the service
  // worker's, with the latest state it kept (sw.js).
  document.addEventListener("DOMContentLoaded", () => {
    if (data.otherCode) store("other", data.otherCode);
    // A phone both teams share proposes for the team that proposed last.
    const side = load("side", "");
    form.querySelectorAll("input[type=radio][name=side]").forEach((input) => {
      input.checked = input.checked || input.value === side;
      input.addEventListener("change", () => store("side", input.value));
    });
    const draft = load("draft", null);
    if (draft && !correcting()) fillForm(Object.entries(draft));
    showRefused(); // a deal the server refused before the reload is put right where it was
    ["input", "change"].forEach((type) => form.addEventListener(type, saveDraft));
    document.addEventListener("submit", enqueueForm);
    stateBox.addEventListener("click", (event) => { lastPressed = event.target.closest("button[type=submit]"); });
    document.getElementById("queue-list").addEventListener("click", queueAction);
    followSent();
    show();
    window.addEventListener("online", flush);
    window.addEventListener("offline", () => online(false));
    flush(); // then the state, asked for with the other team's code this phone keeps
    followPollSeconds();
    // The service worker keeps the page for a reload without a network (sw.js).
    if ("serviceWorker" in navigator) navigator.serviceWorker.register(data.swUrl).catch(() => { /* the page works online */ });
  });
})();
