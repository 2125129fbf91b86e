// The LAN token: from the printed link's fragment, pasted into the token screen, or kept from before.
// It is never shown on the page and never sent anywhere but this dashboard.

const TOKEN_KEY = "tokwatch.token";
// A hash of the last token the dashboard accepted here: a refused token that matches it was good
// once, so the dashboard's token was replaced; any other refused token is simply wrong.
const GOOD_KEY = "tokwatch.goodToken";
// What tokwatch accepts as a token (app/security.py): the unreserved URL characters, 8 to 256.
const TOKEN_PATTERN = /^[A-Za-z0-9._~-]{8,256}$/;

// The token in a link's fragment ("…/#token=abc"), or null when there is none or it is garbled
// (a bad percent-escape would make decodeURIComponent throw).
function tokenInFragment(text) {
  const match = text.match(/(?:^|#|&)token=([^&\s]+)/);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]) || null;
  } catch {
    return null;
  }
}

function keep(token) {
  try {
    localStorage.setItem(TOKEN_KEY, token);
  } catch {
    // storage refused (private mode): the token lives for this page only
  }
}

// The token in the address bar's fragment, taken out of it (screenshots, shoulder-surfing), and kept.
export function takeFragmentToken() {
  if (!/(?:^#|&)token=/.test(location.hash)) return null;
  const token = tokenInFragment(location.hash);
  history.replaceState(null, "", location.pathname + location.search);
  if (token) keep(token);
  return token;
}

export function keptToken() {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

// What a person pasted: the whole printed link or the bare token. Returns {token} or {error}.
export function parsePasted(text) {
  const trimmed = text.trim();
  if (!trimmed) return { error: "empty" };
  const token = trimmed.includes("token=") ? tokenInFragment(trimmed) : trimmed;
  if (!token || !TOKEN_PATTERN.test(token)) return { error: "malformed" };
  keep(token);
  return { token };
}

// FNV-1a, 32 bits: enough to tell one token from another in this browser (crypto.subtle is
// missing on plain-HTTP LAN pages).
function fingerprint(token) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i += 1) {
    hash ^= token.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16);
}

// The dashboard accepted this token.
export function rememberGood(token) {
  try {
    localStorage.setItem(GOOD_KEY, fingerprint(token));
  } catch {
    // storage refused: a later refusal reads as "wrong", not "replaced"
  }
}

// Whether the dashboard accepted this token here before (so a refusal now means it was replaced).
export function wasGood(token) {
  try {
    return localStorage.getItem(GOOD_KEY) === fingerprint(token);
  } catch {
    return false;
  }
}
