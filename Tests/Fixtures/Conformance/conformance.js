// Every check is an async function returning {ok, detail}; each is bounded by its own deadline so
// one that hangs fails alone. Results: window.conformance (a promise index.html makes) and document.title.
const api = new URLSearchParams(location.search).get('api');
const apiOrigin = `http://127.0.0.1:${api}`;

const within = (ms, promise) =>
  Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`no result in ${ms} ms`)), ms))]);

const checks = {
  // A cookie the page sets and one the server sets both come back to the server.
  async cookies() {
    document.cookie = 'page=1; path=/';
    await fetch('/dyn/cookie-set', {cache: 'no-store'});
    const echo = await (await fetch('/dyn/cookie-echo', {cache: 'no-store'})).json();
    const seen = document.cookie;
    const ok = seen.includes('page=1') && seen.includes('server=1') &&
      echo.cookie.includes('page=1') && echo.cookie.includes('server=1');
    return {ok, detail: `document.cookie "${seen}", server saw "${echo.cookie}"`};
  },

  async storage() {
    localStorage.setItem('conformance', 'yes');
    sessionStorage.setItem('conformance', 'yes');
    const db = await new Promise((resolve, reject) => {
      const open = indexedDB.open('conformance', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('kv');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    await new Promise((resolve, reject) => {
      const tx = db.transaction('kv', 'readwrite');
      tx.objectStore('kv').put('yes', 'k');
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    const ok = localStorage.getItem('conformance') === 'yes' && sessionStorage.getItem('conformance') === 'yes';
    return {ok, detail: 'localStorage, sessionStorage, IndexedDB'};
  },

  async cacheAPI() {
    const cache = await caches.open('conformance');
    await cache.add('data.json');
    const hit = await cache.match('data.json');
    const body = hit ? await hit.json() : null;
    return {ok: body?.name === 'conformance', detail: JSON.stringify(body)};
  },

  async dedicatedWorker() {
    const worker = new Worker('worker.js');
    const data = await new Promise((resolve, reject) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(event.message || 'worker error'));
    });
    worker.terminate();
    return {ok: data === 'conformance', detail: String(data)};
  },

  async sharedWorker() {
    const worker = new SharedWorker('shared.js');
    const data = await new Promise((resolve, reject) => {
      worker.port.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(event.message || 'shared worker error'));
      worker.port.start();
    });
    return {ok: data === 'conformance', detail: String(data)};
  },

  // A service worker registers, takes control, and answers a request the page makes.
  async serviceWorker() {
    const registration = await navigator.serviceWorker.register('sw.js');
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, {once: true}));
    }
    const text = await (await fetch('sw-echo', {cache: 'no-store'})).text();
    await registration.unregister();
    return {ok: text === 'from the service worker', detail: text};
  },

  async webAssembly() {
    const {instance} = await WebAssembly.instantiateStreaming(fetch('add.wasm'));
    const sum = instance.exports.add(20, 22);
    return {ok: sum === 42, detail: `add(20, 22) = ${sum}`};
  },

  async modules() {
    const module = await import('./module.js');
    return {ok: module.answer() === 42, detail: `answer() = ${module.answer()}`};
  },

  async fonts() {
    await document.fonts.load('16px "Probe"');
    const ok = document.fonts.check('16px "Probe"');
    return {ok, detail: `document.fonts.check: ${ok}`};
  },

  // A video plays from the server: its metadata, then a seek the server answers with a range.
  async mediaSeek() {
    const video = document.createElement('video');
    video.muted = true;
    video.preload = 'auto';
    video.src = 'clip.webm';
    document.body.append(video);
    await new Promise((resolve, reject) => {
      video.onloadedmetadata = resolve;
      video.onerror = () => reject(new Error(`media error ${video.error?.code}`));
    });
    video.currentTime = Math.min(2, video.duration / 2);
    await new Promise((resolve, reject) => {
      video.onseeked = resolve;
      video.onerror = () => reject(new Error(`media error ${video.error?.code}`));
    });
    const detail = `duration ${video.duration}, at ${video.currentTime}, readyState ${video.readyState}`;
    video.remove();
    return {ok: video.currentTime > 0, detail};
  },

  // An open-ended range is answered with every byte from its start.
  async ranges() {
    const response = await fetch('big.bin', {headers: {Range: 'bytes=1000-'}, cache: 'no-store'});
    const length = (await response.arrayBuffer()).byteLength;
    const total = Number((response.headers.get('content-range') || '/0').split('/')[1]);
    return {ok: response.status === 206 && length === total - 1000, detail: `${response.status}, ${length} of ${total}`};
  },

  // 8.5 MiB read as it comes: bytes and the time of the first chunk.
  async streamedRead() {
    const started = performance.now();
    const response = await fetch('big.bin', {cache: 'no-store'});
    const reader = response.body.getReader();
    let first = -1, total = 0;
    for (;;) {
      const {done, value} = await reader.read();
      if (done) break;
      if (first < 0) first = performance.now() - started;
      total += value.length;
    }
    const all = performance.now() - started;
    return {ok: total === 8912896, detail: `${total} bytes, first chunk at ${first.toFixed(0)} ms of ${all.toFixed(0)} ms`};
  },

  // A chunked body the server holds after its first chunk until the page says it has that chunk:
  // the page can only say so if the body streams.
  async pausedBody() {
    const id = Math.random().toString(36).slice(2);
    const response = await fetch(`/dyn/paused?id=${id}`, {cache: 'no-store'});
    const reader = response.body.getReader();
    const first = await reader.read();
    const released = await (await fetch(`/dyn/release?id=${id}`, {cache: 'no-store'})).text();
    let total = first.value ? first.value.length : 0;
    for (;;) {
      const {done, value} = await reader.read();
      if (done) break;
      total += value.length;
    }
    return {ok: released === 'released' && total === 131072, detail: `${released}, ${total} bytes`};
  },

  // Server-sent events through the app's backend, one by one as the server sends them.
  async serverSentEvents() {
    const started = performance.now();
    const source = new EventSource('/dyn/sse');
    const times = [];
    await new Promise((resolve, reject) => {
      source.onmessage = (event) => {
        times.push([event.data, Math.round(performance.now() - started)]);
        if (times.length === 3) resolve();
      };
      source.onerror = () => { if (times.length < 3) reject(new Error(`stream error after ${times.length} events`)); };
    });
    source.close();
    const inOrder = times.map((t) => t[0]).join() === 'one,two,three';
    // Sent 300 ms apart: arriving together means they were held back.
    const apart = times[2][1] - times[0][1] >= 400;
    return {ok: inOrder && apart, detail: JSON.stringify(times)};
  },

  // The app's own backend on 127.0.0.1, called across origins (CORS, with a preflight).
  async localBackend() {
    const response = await fetch(`${apiOrigin}/api/json`, {method: 'PUT', headers: {'Content-Type': 'application/json'}, body: '{}'});
    const body = await response.json();
    return {ok: body.ok === true, detail: `${response.status} ${JSON.stringify(body)}`};
  },

  async localWebSocket() {
    const socket = new WebSocket(`ws://127.0.0.1:${api}/ws`);
    const echoed = await new Promise((resolve, reject) => {
      socket.onopen = () => socket.send('ping');
      socket.onmessage = (event) => resolve(event.data);
      socket.onerror = () => reject(new Error('WebSocket error'));
    });
    socket.close();
    return {ok: echoed === 'ping', detail: String(echoed)};
  },
};

async function run() {
  const results = {};
  for (const [name, check] of Object.entries(checks)) {
    const started = performance.now();
    try {
      const result = await within(15000, check());
      results[name] = {ok: !!result.ok, detail: result.detail, ms: Math.round(performance.now() - started)};
    } catch (error) {
      results[name] = {ok: false, detail: String(error), ms: Math.round(performance.now() - started)};
    }
  }
  const passed = Object.values(results).filter((r) => r.ok).length;
  document.title = `conformance ${passed}/${Object.keys(results).length}`;
  return results;
}

run().then(window.conformanceDone);
