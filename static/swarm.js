// A collaborator's (SN38, hivemind) averaging rounds under the chart — each round a marker at its
// start (ok, failed, under way), its group's size a line — and its peer table. The words are the
// server's (each round's text, the template's captions); this file only draws and places them.

import { ago } from "./ages.js";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
const HEIGHT = 84;
const PAD = { left: 26, right: 10, top: 10, bottom: 26 };

function svg(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

function when(round) {
  return round.started_at ?? round.ended_at;
}

function drawRounds(plot, rounds, now, words) {
  const placed = rounds.filter((r) => when(r) != null).sort((a, b) => when(a) - when(b));
  const width = Math.max(plot.clientWidth || 0, 240);
  plot.setAttribute("viewBox", `0 0 ${width} ${HEIGHT}`);
  plot.setAttribute("height", String(HEIGHT));
  const from = placed.length ? when(placed[0]) : now - 3600;
  const to = Math.max(now, from + 60);
  const most = Math.max(2, ...placed.map((r) => r.peers ?? 0));
  const x = (t) => PAD.left + ((t - from) / (to - from)) * (width - PAD.left - PAD.right);
  const y = (peers) => HEIGHT - PAD.bottom - (peers / most) * (HEIGHT - PAD.top - PAD.bottom);
  const parts = [
    svg("line", { x1: PAD.left, x2: width - PAD.right, y1: y(0), y2: y(0), class: "rounds-axis" }),
    Object.assign(svg("text", { x: PAD.left - 6, y: y(most) + 4, class: "rounds-tick", "text-anchor": "end" }),
                  { textContent: String(most) }),
    Object.assign(svg("text", { x: PAD.left - 6, y: y(0) + 4, class: "rounds-tick", "text-anchor": "end" }),
                  { textContent: "0" }),
  ];
  // The time it spans: from its first round to now.
  const edge = (at, anchor, text) => Object.assign(svg("text", { x: at, y: HEIGHT - 1, class: "rounds-edge", "text-anchor": anchor }), { textContent: text });
  parts.push(edge(PAD.left, "start", `${ago(Math.max(0, now - from))} ${words.ago}`), edge(width - PAD.right, "end", words.now));
  const sized = placed.filter((r) => r.peers != null);
  if (sized.length > 1) {
    const points = sized.map((r) => `${x(when(r)).toFixed(1)},${y(r.peers).toFixed(1)}`).join(" ");
    parts.push(svg("polyline", { points, class: "rounds-group" }));
  }
  for (const r of placed) {
    const mark = svg("circle", { cx: x(when(r)), cy: y(r.peers ?? 0), r: 5, class: `round round-${r.outcome}` });
    const title = svg("title", {});
    title.textContent = r.text || r.outcome;
    mark.append(title);
    parts.push(mark);
  }
  plot.replaceChildren(...parts);
}

function peerRow(peer, now, agoWord) {
  const row = document.createElement("tr");
  row.dataset.failing = peer.failures > 0 || peer.banned ? "true" : "false";
  const cells = [
    peer.uid ?? "–",
    peer.peer,
    peer.rounds,
    peer.failures,
    peer.banned ? "banned" : "",
    peer.last_seen == null ? "–" : `${ago(Math.max(0, now - peer.last_seen))} ${agoWord}`,
  ];
  const [first, , ...rest] = cells;
  const head = document.createElement("th");
  head.scope = "row";
  head.textContent = String(first);
  // On a phone the id's end only, as the miner's own per-peer lines shorten it (``PeerID:k2P``).
  const id = document.createElement("td");
  const cut = peer.peer.lastIndexOf("...");
  id.append(Object.assign(document.createElement("span"), { className: "peer-long", textContent: peer.peer }),
            Object.assign(document.createElement("span"), { className: "peer-short", textContent: cut >= 0 ? peer.peer.slice(cut) : peer.peer }));
  id.title = peer.peer;
  row.append(head, id, ...rest.map((value) => Object.assign(document.createElement("td"), { textContent: String(value) })));
  return row;
}

let peersOpened = false;

export function renderSwarm(snapshot) {
  const swarm = snapshot.training ? snapshot.training.swarm : null;
  const box = $("rounds");
  const table = $("peers");
  if (!box || !table) return;
  const rounds = swarm ? swarm.rounds || [] : [];
  box.hidden = rounds.length === 0;
  if (!box.hidden) drawRounds($("rounds-plot"), rounds, snapshot.as_of, box.dataset);
  const peers = swarm ? swarm.peers || [] : [];
  table.hidden = peers.length === 0;
  if (table.hidden) return;
  $("peers-count").textContent = String(swarm.peers_known);
  $("peer-rows").replaceChildren(...peers.map((peer) => peerRow(peer, snapshot.as_of, box.dataset.ago)));
  // Open on a wide screen, collapsed on a phone; once shown, the reader's choice holds.
  if (!peersOpened) {
    peersOpened = true;
    table.open = window.matchMedia("(min-width: 700px)").matches;
  }
}
