// Tiny DOM helpers. Text from the server (names, chat) always goes in with textContent.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k === "html") el.innerHTML = v; // trusted, static content only
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style") el.style.cssText = String(v); // through the CSSOM: allowed by the CSP
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function svgUse(id, cls = "") {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  if (cls) svg.setAttribute("class", cls);
  const u = document.createElementNS(ns, "use");
  u.setAttribute("href", `#${id}`);
  svg.append(u);
  return svg;
}

/** A score as the page shows it: a negative one with the minus sign (−80), as a hand's
 * points are written ("−37"), not the hyphen ("-80"); screen readers say both "minus". */
export function scoreText(n) {
  return n < 0 ? `−${Math.abs(n)}` : String(n);
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

export function listJoin(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** A reason the server gives (a WebSocket `error`'s `message`, an HTTP answer's
 * `detail`), worded for scripts as a clause ("this table is private: join with its invite
 * code"), ended as a sentence: "." after it unless it ends with one already (or "!", "?").
 * For after the page's own words: `Could not join: ${reasonEnd(message)}`. */
export function reasonEnd(text) {
  const s = fieldWords(String(text ?? "").trim());
  return !s || /[.!?]$/.test(s) ? s : `${s}.`;
}

/** The server's names of fields (its knobs, its messages' fields) in words, where the name
 * alone does not read ("players" is how many); others lose their underscores
 * ("first_dealer": "first dealer"). */
const FIELD_WORDS = {
  players: "number of players", teams: "sides", profile: "rules profile",
  target: "target score", turn_timer: "turn timer", one_hand: "one-hand match",
  match: "length of the match", ten_for_200: "ten for 200",
  table_id: "table", cpus: "CPUs", cpu: "CPU strength",
};

const FIELD = /^([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*): (?=\S)/;

/** A reason that puts the name of a field first, as the server writes them for scripts
 * ("record: hand 1, bid 2: …", "record: rules: players: …", "first_dealer: must be …",
 * "chat: at most 1 line a second …", a message's field as pydantic names it, "chat.text:
 * …"), with the names in words, the outermost last: "the record: hand 1, bid 2: …", "the
 * number of players of the rules of the record: …", "the first dealer: must be …", "the
 * chat: …", "the text of the chat: …". Before, the page's sentence began with the name
 * ("Record: …", "First_dealer: …"), and a screen reader read it as a word of its own. */
export function fieldWords(text) {
  const names = [];
  let rest = text;
  for (let m = FIELD.exec(rest); m; m = FIELD.exec(rest)) {
    names.push(...m[1].split("."));
    rest = rest.slice(m[0].length);
  }
  if (!names.length) return text;
  const words = names.reverse().map((n) => (/^\d+$/.test(n) ? `item ${Number(n) + 1}`
    : FIELD_WORDS[n] || n.replace(/_/g, " ")));
  // (pydantic's messages begin with a capital: "Input should be …", "String should have …")
  const said = PYDANTIC.test(rest) ? rest[0].toLowerCase() + rest.slice(1) : rest;
  return `the ${words.join(" of the ")}: ${said}`;
}

const PYDANTIC = /^(Input|String|Field|Value|List|Extra|Object|Dictionary|Tuple|Integer|Float|Boolean|Decimal)\b/;

/** What the page says of a refusal of the server's that gives no reason (an `error` whose
 * `message` is empty): after its own words, `Could not join: ${reasonEnd(message || NO_REASON)}`
 * (before, nothing after the colon). */
export const NO_REASON = "the server gave no reason";

/** A reason the server gives, shown or said on its own: a sentence, its first letter a
 * capital ("This table is private: join with its invite code."), ended as `reasonEnd`
 * ends it. The server's own words stay as they are on the wire (scripts read them). */
export function reasonSentence(text) {
  const s = reasonEnd(text);
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
