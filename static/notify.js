// Browser notifications for tokwatch's alerts: the same messages its notification channels get,
// shown by this browser while the page is open. Nothing is asked on load: a button asks.
// The words come from the server (snapshot.alerts); this file only decides when to show them.

const ENABLED_KEY = "tokwatch.browserAlerts";

const button = document.getElementById("alerts-button");
const problem = document.getElementById("alerts-problem");

let seen = null; // keys of the messages in the previous snapshot; null before the first one

function stored() {
  try {
    return localStorage.getItem(ENABLED_KEY) === "on";
  } catch {
    return false;
  }
}

function store(on) {
  try {
    if (on) localStorage.setItem(ENABLED_KEY, "on");
    else localStorage.removeItem(ENABLED_KEY);
  } catch {
    // storage refused (private mode): on for this page only
  }
}

let enabled = stored();

function supported() {
  // Browsers offer notifications only to https pages and to this machine (localhost).
  return "Notification" in window && window.isSecureContext;
}

function showButton() {
  if (!button) return;
  button.hidden = false;
  if (!supported()) {
    button.disabled = true;
    button.textContent = "Browser alerts need https or localhost";
  } else if (Notification.permission === "denied") {
    button.disabled = true;
    button.textContent = "Browser alerts blocked in site settings";
  } else {
    button.disabled = false;
    const on = enabled && Notification.permission === "granted";
    button.textContent = on ? "Browser alerts: on" : "Enable browser alerts";
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }
}

async function toggle() {
  if (!supported()) return;
  if (enabled && Notification.permission === "granted") {
    enabled = false;
  } else {
    const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    enabled = answer === "granted";
  }
  store(enabled);
  showButton();
}

function key(message) {
  return `${message.at}|${message.kind}|${message.rule}|${message.id}`;
}

function show(message) {
  try {
    // One notification per rule at a time: a resolution replaces its opening.
    new Notification(message.title, { body: message.text, tag: `tokwatch-${message.rule}` });
  } catch {
    // Some mobile browsers allow notifications only from a service worker: nothing to do here.
  }
}

// Called with every snapshot the page renders.
export function alertsFrom(snapshot) {
  const alerts = snapshot && snapshot.alerts;
  if (!alerts) return;
  if (problem) {
    problem.hidden = !alerts.problem;
    if (problem.textContent !== (alerts.problem || "")) problem.textContent = alerts.problem || "";
  }
  const recent = Array.isArray(alerts.recent) ? alerts.recent : [];
  const keys = new Set(recent.map(key));
  // The first snapshot is the baseline: what was sent before the page opened is not replayed.
  if (seen !== null && enabled && supported() && Notification.permission === "granted") {
    recent.filter((m) => !seen.has(key(m))).reverse().forEach(show); // oldest first
  }
  seen = keys;
}

if (button) {
  button.addEventListener("click", toggle);
  showButton();
}
