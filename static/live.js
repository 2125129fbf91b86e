// Websocket first, polling while it is down: the one live channel of the dashboard (link.js) and
// the fleet page (fleet.js). The page says where to connect and what a message, a poll and each
// change of state mean; this keeps the socket, its backoff, its watchdog and the polling timer.

const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 30000;
// No websocket open this soon after a try: poll meanwhile (a firewall may drop the port silently).
const OPEN_TIMEOUT_MS = 4000;

// options: url() → the websocket's address; open(url) → { ws, replay } (an early socket, else a
// new one); onOpen(); onHeard() for every message, keepalives too; onMessage(data) for each one
// that is not a keepalive; onClose(opened): the socket went (opened: it had opened); poll() one
// poll; pollMs; silenceMs: an open socket this quiet is dead (the keepalives stopped);
// onPolling() / onPollingStopped() as polling starts and stops.
export function liveChannel(options) {
  const open = options.open || ((url) => ({ ws: new WebSocket(url), replay: null }));
  let socket = null;
  let socketOpenedAt = 0;
  let lastMessageAt = 0;
  let attempts = 0;
  let reconnectTimer = 0;
  let pollTimer = 0;
  let stopped = false;

  function connect() {
    clearTimeout(reconnectTimer);
    if (stopped) return;
    let opened = false;
    let heard = false;
    const { ws, replay } = open(options.url());
    socket = ws;
    socketOpenedAt = Date.now();
    const onOpen = () => {
      opened = true;
      lastMessageAt = Date.now();
      stopPolling(); // and drop the poll in flight: the websocket's first message is newer
      options.onOpen();
    };
    const onMessage = (event) => {
      lastMessageAt = Date.now();
      // Only a socket that delivers resets the backoff: one closed right after opening must not
      // bring the next try back within a second, forever.
      if (!heard) attempts = 0;
      heard = true;
      if (options.onHeard) options.onHeard();
      const message = JSON.parse(event.data);
      if (!message.keepalive) options.onMessage(message);
    };
    const onClose = () => {
      if (socket !== ws) return;
      socket = null;
      options.onClose(opened);
      startPolling();
      scheduleReconnect();
    };
    ws.addEventListener("open", onOpen);
    ws.addEventListener("message", onMessage);
    ws.addEventListener("close", onClose);
    if (replay) replay({ open: onOpen, message: onMessage, close: onClose });
  }

  function scheduleReconnect() {
    if (stopped) return;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** attempts);
    attempts += 1;
    // Jitter, so phones and tabs woken together do not all knock at once.
    reconnectTimer = setTimeout(connect, delay * (0.5 + Math.random() / 2));
  }

  function watchdog() {
    if (!socket) return;
    const now = Date.now();
    if (socket.readyState === WebSocket.CONNECTING && now - socketOpenedAt > OPEN_TIMEOUT_MS) {
      startPolling(); // keep the figures moving while the handshake hangs
    }
    if (socket.readyState === WebSocket.CONNECTING && now - socketOpenedAt > 3 * OPEN_TIMEOUT_MS) {
      socket.close(); // a silently dropped port: give up this try, back off, try again
    }
    if (socket.readyState === WebSocket.OPEN && now - lastMessageAt > options.silenceMs) {
      socket.close();
    }
  }

  function startPolling() {
    if (pollTimer) return;
    if (options.onPolling) options.onPolling();
    options.poll();
    pollTimer = setInterval(options.poll, options.pollMs);
  }

  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = 0;
    if (options.onPollingStopped) options.onPollingStopped();
  }

  // Close the socket without a reconnect of its own (the caller connects again, or never).
  function drop() {
    const old = socket;
    socket = null; // its close handler must not schedule a second connection
    if (old) old.close();
  }

  return {
    connect,
    drop,
    // Try again at once, the backoff forgotten (a new token).
    retry() {
      attempts = 0;
      drop();
      connect();
    },
    // Never connect again (the server's websocket moved where this page may not knock).
    stop() {
      stopped = true;
      clearTimeout(reconnectTimer);
      drop();
    },
    get polling() {
      return pollTimer !== 0;
    },
    get open() {
      return socket !== null && socket.readyState === WebSocket.OPEN;
    },
    start() {
      connect();
      setInterval(watchdog, 1000);
    },
  };
}
