// The live websocket, opened as soon as the page's body is parsed (an async module at its end),
// so its handshake and first snapshot overlap the parsing of the chart library and the other
// modules. link.js adopts it with the events it has had; only a page that needs no token opens
// one here (the token is link.js's business).

let early = null;

const body = document.body;
if (body && body.dataset.tokenRequired === "false" && window.WebSocket) {
  const ws = new WebSocket(`ws://${location.hostname}:${body.dataset.wsPort}/ws`);
  const events = [];
  const keep = (event) => events.push(event);
  for (const type of ["open", "message", "close"]) ws.addEventListener(type, keep);
  early = {
    ws,
    // Hand the socket over: the events so far go to the handlers, in order, and the rest straight to
    // link.js's own listeners (added before this is called; nothing can arrive in between).
    replay(handlers) {
      for (const type of ["open", "message", "close"]) ws.removeEventListener(type, keep);
      for (const event of events.splice(0)) handlers[event.type](event);
    },
  };
}

// The early socket, once, if it is the one link.js would open; else null (and it is closed).
export function takeEarlySocket(url) {
  const taken = early;
  early = null;
  if (!taken) return null;
  if (taken.ws.url !== new URL(url).href) {
    taken.replay({ open() {}, message() {}, close() {} });
    taken.ws.close();
    return null;
  }
  return taken;
}
