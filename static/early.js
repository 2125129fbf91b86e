// The live websocket, opened as soon as this file arrives (an async module first in the head,
// reading where the websocket is from the root element), so its handshake and first snapshot
// overlap the rest of the page's files and their parsing. link.js adopts it with the events it
// has had; only a page that needs no token opens one here (the token is link.js's business).

let early = null;

const root = document.documentElement.dataset;
if (root.tokenRequired === "false" && root.wsPort && window.WebSocket) {
  const ws = new WebSocket(`ws://${location.hostname}:${root.wsPort}/ws`);
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
