// raspis app: the service worker. Every file of the app is kept at install and served
// from the cache first, so the app starts and works with no network; a new build has a
// new cache name, and the caches of older builds are removed when it takes over.
"use strict";
var CACHE = "@CACHE@";
var FILES = "@FILES@";

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE)
    .then(function (cache) { return cache.addAll(FILES); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys()
    .then(function (keys) {
      return Promise.all(keys.filter(function (key) { return key.indexOf("raspis-app-") === 0 && key !== CACHE; })
        .map(function (key) { return caches.delete(key); }));
    })
    .then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  if (event.request.method !== "GET") { return; }
  event.respondWith(caches.open(CACHE)
    .then(function (cache) { return cache.match(event.request, {ignoreSearch: true}); })
    .then(function (hit) { return hit || fetch(event.request); }));
});
