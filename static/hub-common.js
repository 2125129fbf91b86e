// Shared by the hub's pages: the token (kept like the dashboard's), the API and small DOM helpers.

import { parsePasted, rememberGood, wasGood } from "./token.js";

const TOKEN_KEY = "tokwatch.token";

function fragmentToken() {
  const match = location.hash.match(/(?:^#|&)token=([^&]+)/);
  if (!match) return null;
  try {
    const value = decodeURIComponent(match[1]);
    return /^[A-Za-z0-9._~-]{8,256}$/.test(value) ? value : null;
  } catch {
    return null;
  }
}

export function takeToken() {
  const fresh = fragmentToken();
  if (fresh) {
    try {
      localStorage.setItem(TOKEN_KEY, fresh);
    } catch {
      // storage refused (private mode): the token lives for this page only
    }
    history.replaceState(null, "", location.pathname + location.search);
    return fresh;
  }
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export const token = { value: takeToken() };

// Why the hub refused this browser: the token it had is wrong, or worked here before (replaced).
const refusal = { refused: false, replaced: false };

// GET a JSON API path with the token; null on 401 (the page asks for the link), throws when unreachable.
export async function getJson(path) {
  const headers = token.value ? { Authorization: `Bearer ${token.value}` } : {};
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 8000);
  try {
    const response = await fetch(path, { headers, cache: "no-store", signal: controller.signal });
    if (response.status === 401) {
      refusal.refused = token.value !== null;
      refusal.replaced = refusal.refused && wasGood(token.value);
      return null;
    }
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    if (token.value) rememberGood(token.value);
    return await response.json();
  } finally {
    clearTimeout(timer);
  }
}

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text); // never innerHTML: agents are not trusted
  return node;
}

export function setText(id, text) {
  const node = document.getElementById(id);
  if (node) node.textContent = text ?? "";
}

export function setConnection(state, words) {
  const node = document.getElementById("connection");
  node.dataset.connection = state;
  node.textContent = words;
}

export function showAuth(needed) {
  document.getElementById("auth").hidden = !needed;
  document.getElementById("auth-missing").hidden = refusal.refused;
  document.getElementById("auth-wrong").hidden = !refusal.refused || refusal.replaced;
  document.getElementById("auth-replaced").hidden = !refusal.replaced;
}

// The paste field: a link or a bare token, kept, then the page starts again with it.
function setupTokenForm() {
  const form = document.getElementById("token-form");
  if (!form) return;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const pasted = parsePasted(document.getElementById("token-input").value);
    const result = document.getElementById("token-result");
    if (pasted.error) {
      result.textContent = result.dataset[pasted.error];
      return;
    }
    location.reload();
  });
}

setupTokenForm();
