// A shared worker: fetches from its origin for each page that connects.
onconnect = async (event) => {
  const port = event.ports[0];
  try {
    const data = await (await fetch('data.json')).json();
    port.postMessage(data.name);
  } catch (error) {
    port.postMessage(String(error));
  }
};
