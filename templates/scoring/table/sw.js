{% load static %}/*
 * The service worker of the table pages (/t/…): keeps the page's own files and the page itself, so
 * that a table's page reloads without a network in the hall. The page is fetched from the network
 * when there is one, and each copy that comes is kept (the latest replaces the one before), as is
 * the page that installed the worker, loaded before it; the copy kept is used only when there is
 * no network. It is kept under the page's address without its query: with the other team's code
 * (`?with=`) or without, it is the same table's page, and a reload finds it either way. A
 * correction's page (`?correct=`) is never kept: a reload without a network must not open a
 * correction. Posts are never touched (deals typed without a connection wait on the device, in
 * table.js, and are sent by the page); the latest state the page saw is kept by table.js, which
 * shows it over the older one of the kept page. A new version of this worker removes, when it
 * takes over, what earlier ones kept but the pages (activate).
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

// A table's page as it came from the network, under its address without its query; never a
// correction's.
function keep(url, response) {
  if (!response.ok || !isPage(url.pathname) || url.searchParams.has("correct")) {
    return Promise.resolve();
  }
  return caches.open(CACHE).then(function (cache) { return cache.put(url.pathname, response); });
}

// The caches of earlier workers go, and with them, in this one, the files of an earlier version
// (their stored names change with their content): only the pages and today's files stay.
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
            return FILES.indexOf(path) === -1 && !isPage(path);
          }).map(function (request) { return cache.delete(request); }));
        });
      });
    }).then(function () { return self.clients.claim(); })
  );
});

function isPage(path) {
  return /^\/t\/[^/]+\/$/.test(path);
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
      }).catch(function () {
        return caches.match(url.pathname, { ignoreVary: true, ignoreSearch: true }).then(function (kept) { return kept || Response.error(); });
      })
    );
    return;
  }
  if (FILES.indexOf(url.pathname) !== -1) {
    event.respondWith(caches.match(request, { ignoreVary: true }).then(function (kept) { return kept || fetch(request); }));
  }
});
