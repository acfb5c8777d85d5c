// A dedicated worker: fetches from its origin and posts what it read.
fetch('data.json').then((r) => r.json()).then((data) => postMessage(data.name), (error) => postMessage(String(error)));
