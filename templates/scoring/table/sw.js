{% load static %}/*
 * The service worker of the table pages (/t/…): keeps the page's own files, the page itself and the
 * latest state the page was shown (/t/<code>/state/), so that a table's page reloads without a
 * network in the hall as it was last seen. The page and its state are fetched from the network when
 * there is one, and each copy that comes is kept (the latest replaces the one before), as is the
 * page that installed the worker, loaded before it; the copies kept are used only when there is no
 * network: the page, with the state in it if that came later, on the server's time as this phone's
 * clock reckons it now (hall-clock.js counts down from it). They are kept under the page's address
 * without its query: with the other team's code (`?with=`) or without, it is the same table's page,
 * and a reload finds it either way. A correction's page (`?correct=`) is never kept: a reload
 * without a network must not open a correction. Posts are never touched (deals typed without a
 * connection wait on the device, in table.js, and are sent by the page). A new version of this
 * worker removes, when it takes over, what earlier ones kept but the pages (activate).
 */
"use strict";

var CACHE = "canasta-table-v2";
var FILES = [
  "{% static 'scoring/js/htmx.min.js' %}",
  "{% static 'scoring/js/table.js' %}",
  "{% static 'scoring/js/hall-clock.js' %}",
  "{% static 'scoring/js/number-fields.js' %}",
  "{% static 'scoring/js/field-problems.js' %}",
  "{% static 'scoring/css/site.css' %}",
  "{% static 'scoring/css/table.css' %}",
  "{% static 'scoring/img/favicon.svg' %}"
];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(FILES); })
    .then(keepOpenPages).then(function () { return self.skipWaiting(); }));
});

// The table pages open when the worker is installed were loaded before it: fetched again and kept.
function keepOpenPages() {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    return Promise.all(windows.map(function (page) {
      var url = new URL(page.url);
      return isPage(url.pathname) && fetch(url, { cache: "no-store" }).then(function (response) { return keep(url, response); }, function () {});
    }));
  });
}

// A table's page or its state as it came from the network, under its address without its query,
// with this phone's time it came at (X-Kept-At); never a correction's page.
function keep(url, response) {
  if (!response.ok || !(isPage(url.pathname) || isState(url.pathname)) || url.searchParams.has("correct")) {
    return Promise.resolve();
  }
  var headers = new Headers(response.headers);
  ["Content-Length", "Content-Encoding"].forEach(function (name) { headers.delete(name); }); // the text is kept as read
  headers.set("X-Kept-At", String(Date.now()));
  return response.text().then(function (text) {
    return caches.open(CACHE).then(function (cache) { return cache.put(url.pathname, new Response(text, { headers: headers })); });
  });
}

// The page kept, without a network: with the state kept in it (between page.html's markers) when
// that came later, and the server's time moved on by what this phone's clock counted since.
function keptPage(url) {
  return caches.open(CACHE).then(function (cache) {
    return Promise.all([cache.match(url.pathname), cache.match(url.pathname + "state/")]);
  }).then(function (kept) {
    var page = kept[0], state = kept[1];
    if (!page) {
      return Response.error();
    }
    var keptAt = function (response) { return Number(response.headers.get("X-Kept-At")) || 0; };
    return Promise.all([page.text(), state ? state.text() : ""]).then(function (texts) {
      var html = texts[0], at = keptAt(page);
      if (state && keptAt(state) > at) {
        html = html.replace(/(<!--state-->)[\s\S]*(<!--\/state-->)/, function (whole, start, end) { return start + texts[1] + end; });
        at = keptAt(state);
      }
      var drawn = /data-rendered-ms="(\d+)"/.exec(html);
      if (drawn) {
        html = html.replace(/data-server-now="\d+"/, 'data-server-now="' + (Number(drawn[1]) + Date.now() - at) + '"');
      }
      return new Response(html, { headers: page.headers });
    });
  });
}

// The caches of earlier workers go, and with them, in this one, the files of an earlier version
// (their stored names change with their content): only the pages, their states and today's files stay.
self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name.indexOf("canasta-table-") === 0 && name !== CACHE; })
        .map(function (name) { return caches.delete(name); }));
    }).then(function () {
      return caches.open(CACHE).then(function (cache) {
        return cache.keys().then(function (requests) {
          return Promise.all(requests.filter(function (request) {
            var path = new URL(request.url).pathname;
            return FILES.indexOf(path) === -1 && !isPage(path) && !isState(path);
          }).map(function (request) { return cache.delete(request); }));
        });
      });
    }).then(function () { return self.clients.claim(); })
  );
});

function isPage(path) {
  return /^\/t\/[^/]+\/$/.test(path);
}

function isState(path) {
  return /^\/t\/[^/]+\/state\/$/.test(path);
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") {
    return;
  }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request).then(function (response) {
        event.waitUntil(keep(url, response.clone()));
        return response;
      }).catch(function () { return keptPage(url); })
    );
    return;
  }
  if (isState(url.pathname)) {
    event.respondWith(fetch(request).then(function (response) {
      if (response.status === 200) {
        event.waitUntil(keep(url, response.clone()));
      }
      return response;
    }));
    return;
  }
  if (FILES.indexOf(url.pathname) !== -1) {
    event.respondWith(caches.match(request, { ignoreVary: true }).then(function (kept) { return kept || fetch(request); }));
  }
});
