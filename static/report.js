// "Copy report": the server's plain-text summary (/api/report.txt, written in Python), copied to
// the clipboard. A LAN page over plain http has no clipboard API: then the older copy command,
// and if that fails too, the text shown selected for the person to copy.

import { authHeaders } from "./link.js";

const $ = (id) => document.getElementById(id);

function copyWithSelection(textarea) {
  textarea.hidden = false;
  textarea.focus();
  textarea.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}

async function copy(text, textarea) {
  textarea.value = text;
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      textarea.hidden = true;
      return true;
    } catch {
      // refused (no permission, page not focused): fall through
    }
  }
  return copyWithSelection(textarea);
}

export function setupReport() {
  const button = $("copy-report");
  const result = $("report-result");
  const textarea = $("report-text");
  button.addEventListener("click", async () => {
    button.disabled = true;
    result.textContent = result.dataset.fetching;
    try {
      const response = await fetch("/api/report.txt", { headers: authHeaders(), cache: "no-store" });
      if (!response.ok) {
        result.textContent = `${result.dataset.failed} (HTTP ${response.status})`;
        return;
      }
      const copied = await copy(await response.text(), textarea);
      result.textContent = copied ? result.dataset.copied : result.dataset.select;
    } catch {
      result.textContent = result.dataset.unreachable;
    } finally {
      button.disabled = false;
    }
  });
}
