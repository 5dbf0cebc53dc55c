{% load static %}/*
 * The service worker of the table pages (/t/…): keeps the page's own files, so that a table's
 * page reloads without a network in the hall. The page itself is fetched from the network when
 * there is one, and the copy kept is used only when there is none; posts are never touched (deals
 * typed without a connection wait on the device, in table.js, and are sent by the page).
 */
"use strict";

var CACHE = "canasta-table-v1";
var FILES = [
  "{% static 'scoring/js/table.js' %}",
  "{% static 'scoring/css/site.css' %}",
  "{% static 'scoring/css/table.css' %}",
  "{% static 'scoring/img/favicon.svg' %}"
];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(FILES); }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

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
        if (response.ok) {
          var copy = response.clone();
          caches.open(CACHE).then(function (cache) { cache.put(url.pathname, copy); });
        }
        return response;
      }).catch(function () {
        return caches.match(url.pathname, { ignoreVary: true }).then(function (kept) { return kept || Response.error(); });
      })
    );
    return;
  }
  if (FILES.indexOf(url.pathname) !== -1) {
    event.respondWith(caches.match(request, { ignoreVary: true }).then(function (kept) { return kept || fetch(request); }));
  }
});
