// Ages as app/text.py writes them, for the dashboard and the hub's pages alike: the page's one age
// formatter. An age ticks between two reports, so the page writes it again every second.

// As app/text.py's duration() writes it (45 s, 12 min, 3 h 05 min, 2 d 4 h).
export function ago(seconds) {
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) {
    const hours = Math.floor(seconds / 3600);
    return `${hours} h ${String(Math.floor((seconds % 3600) / 60)).padStart(2, "0")} min`;
  }
  return `${Math.floor(seconds / 86400)} d ${Math.floor((seconds % 86400) / 3600)} h`;
}

// An age as the hub writes it ("just now", "40 s ago", "2 h 05 min ago"), kept moving between pushes.
export function agoText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return s < 5 ? "just now" : `${ago(s)} ago`;
}

// As app/text.py's ago() writes an age: its largest unit only (45 s, 12 min, 2 h, 78 d).
function agoLargest(seconds) {
  for (const [below, size, unit] of [[60, 1, "s"], [3600, 60, "min"], [86400, 3600, "h"]]) {
    if (seconds < below) return `${Math.floor(seconds / size)} ${unit}`;
  }
  return `${Math.floor(seconds / 86400)} d`;
}

// One of the server's ticking ages (snapshot.ticking) written at `now` on the server's clock.
export function tickingWords(tick, now) {
  const since = Math.max(0, now - tick.at);
  return tick.template.replace("{}", tick.style === "ago" ? agoLargest(since) : ago(since));
}

// The details line a ticking age names, when it still reads as the age's template (its words
// around the age unchanged); null otherwise.
export function tickingLine(list, tick) {
  const li = list.querySelector(`li[data-line="${tick.line}"]`);
  const [head, tail] = tick.template.split("{}");
  const same = li && !li.firstElementChild && li.textContent.startsWith(head) && li.textContent.endsWith(tail);
  return same ? li : null;
}
