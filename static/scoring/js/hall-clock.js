/*
 * The hall clock: counts down to the main signal (no new deal after it) and the final signal of a
 * timed round, and gives a visible and an audible signal at each.
 *
 * The server sends its start time and its current time (milliseconds, data attributes on
 * #hall-clock); the countdown runs on the server's time, so a display computer with a wrong clock
 * still shows the right time. htmx replaces #hall-clock now and then (to pick up a start or a
 * restart); the state that must survive a swap (sound on, signals already given) lives here.
 * Browsers allow sound only after a user gesture, hence the "Turn sound on" button.
 *
 * A table's page (templates/scoring/table/_state.html) has the same #hall-clock with one line, the
 * time to the next signal ([data-role=next-left]), and hears each signal given (the event
 * "hall-clock:signal") to ask for its state again.
 */
(function () {
  "use strict";

  var offsetMs = 0; // server time minus this computer's time
  var startedAt = null;
  var mainMs = 0;
  var finalMs = 0;
  var given = {}; // signals already given, per start time: {"<start>:main": true}
  var audio = null; // AudioContext, once the user turned sound on
  var timer = null;

  function clockElement() {
    return document.getElementById("hall-clock");
  }

  function pad(number) {
    return number < 10 ? "0" + number : String(number);
  }

  function format(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    return pad(Math.floor(seconds / 60)) + ":" + pad(seconds % 60);
  }

  // A part of the clock by its role, if this clock has it (the hall's panels, a table's one line).
  function show(element, role, text) {
    var part = element.querySelector("[data-role=" + role + "]");
    if (part) {
      part.textContent = text;
    }
  }

  function done(element, role) {
    var part = element.querySelector("[data-role=" + role + "]");
    if (part) {
      part.classList.add("hall-clock__panel--done");
    }
  }

  function beep(times, length) {
    if (!audio) {
      return;
    }
    var now = audio.currentTime;
    for (var i = 0; i < times; i += 1) {
      var start = now + i * (length + 0.25);
      var oscillator = audio.createOscillator();
      var gain = audio.createGain();
      oscillator.type = "square";
      oscillator.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.4, start + 0.02);
      gain.gain.setValueAtTime(0.4, start + length - 0.05);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(start);
      oscillator.stop(start + length + 0.05);
    }
  }

  function signal(kind, element) {
    var key = startedAt + ":" + kind;
    if (given[key]) {
      return;
    }
    given[key] = true;
    document.body.classList.add("hall--signal-" + kind);
    show(element, "status", element.dataset[kind === "main" ? "textMain" : "textFinal"]);
    element.dispatchEvent(new CustomEvent("hall-clock:signal", { bubbles: true, detail: { kind: kind } }));
    beep(kind === "main" ? 3 : 5, kind === "main" ? 0.5 : 0.8);
    // The banner colour calms down after a while; the words stay.
    window.setTimeout(function () {
      document.body.classList.remove("hall--signal-" + kind);
      document.body.classList.add("hall--after-" + kind);
    }, 15000);
  }

  function tick() {
    var element = clockElement();
    if (!element || startedAt === null) {
      return;
    }
    var now = Date.now() + offsetMs;
    var elapsed = now - startedAt;
    show(element, "main-left", format(mainMs - elapsed));
    show(element, "final-left", format(finalMs - elapsed));
    var toMain = elapsed < mainMs;
    show(element, "next-left", elapsed >= finalMs ? element.dataset.textOver
      : format((toMain ? mainMs : finalMs) - elapsed) + " " + element.dataset[toMain ? "textToMain" : "textToFinal"]);
    var loadedLate = elapsed - mainMs > 60000; // opened long after a signal: no sound for it
    if (elapsed >= mainMs) {
      if (loadedLate && !given[startedAt + ":main"]) {
        given[startedAt + ":main"] = true;
        document.body.classList.add("hall--after-main");
        show(element, "status", element.dataset.textMain);
      }
      signal("main", element);
      done(element, "panel-main");
    }
    if (elapsed >= finalMs) {
      if (elapsed - finalMs > 60000 && !given[startedAt + ":final"]) {
        given[startedAt + ":final"] = true;
        document.body.classList.add("hall--after-final");
      }
      signal("final", element);
      show(element, "status", element.dataset.textFinal);
      done(element, "panel-final");
    }
  }

  function setUp() {
    var element = clockElement();
    if (!element) {
      return;
    }
    offsetMs = Number(element.dataset.serverNow) - Date.now();
    var start = element.dataset.startedAt;
    var newStart = start ? Number(start) : null;
    if (newStart !== startedAt) {
      document.body.classList.remove(
        "hall--signal-main", "hall--signal-final", "hall--after-main", "hall--after-final"
      );
    }
    startedAt = newStart;
    mainMs = Number(element.dataset.mainMinutes) * 60000;
    finalMs = Number(element.dataset.finalMinutes) * 60000;
    tick();
    if (timer === null) {
      timer = window.setInterval(tick, 250);
    }
  }

  function setUpControls() {
    var sound = document.querySelector("[data-role=sound-toggle]");
    if (sound) {
      sound.addEventListener("click", function () {
        var Context = window.AudioContext || window.webkitAudioContext;
        if (!Context) {
          return;
        }
        if (audio) {
          audio.close();
          audio = null;
          sound.setAttribute("aria-pressed", "false");
          sound.textContent = sound.dataset.textOff;
          return;
        }
        audio = new Context();
        sound.setAttribute("aria-pressed", "true");
        sound.textContent = sound.dataset.textOn;
        beep(1, 0.2); // a short test beep: the room hears that sound works
      });
    }
    var full = document.querySelector("[data-role=fullscreen-toggle]");
    if (full && document.documentElement.requestFullscreen) {
      full.hidden = false;
      full.addEventListener("click", function () {
        if (document.fullscreenElement) {
          document.exitFullscreen();
        } else {
          document.documentElement.requestFullscreen();
        }
      });
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    setUpControls();
    setUp();
  });
  // htmx swapped in a fresh #hall-clock (a start, a restart, or just the server's time again), itself
  // or within a part (a table's state).
  document.addEventListener("htmx:load", function (event) {
    var target = event.target;
    if (target && (target.id === "hall-clock" || (target.querySelector && target.querySelector("#hall-clock")))) {
      setUp();
    }
  });
})();
