// A service worker: takes control at once and answers /sw-echo itself.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  if (new URL(event.request.url).pathname.endsWith('/sw-echo')) {
    event.respondWith(new Response('from the service worker', {headers: {'Content-Type': 'text/plain'}}));
  }
});
