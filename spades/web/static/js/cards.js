// Cards as the engine writes them: "QH", "TS", "2C", "LJ", "BJ" (see docs/ENGINE_API.md).
// Model helpers, the display order of seed 002, names for speech, and SVG card faces.

export const SUITS = ["C", "D", "H", "S"];
export const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const SUIT_SINGULAR = { C: "club", D: "diamond", H: "heart", S: "spade" };
export const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const RANKS = "23456789TJQKA";
const RANK_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "jack", "queen", "king", "ace"];
const RANK_SHORT = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
/** Seed 002: hearts, spades, diamonds, clubs; weakest first within a suit. */
export const DISPLAY_SUIT_ORDER = ["H", "S", "D", "C"];

export function isJoker(card) { return card === "LJ" || card === "BJ"; }

/** The suit for following and trumping (jokers count as spades). */
export function suitOf(card) { return isJoker(card) ? "S" : card.slice(-1); }

/** 0 = two .. 12 = ace; little joker 13, big joker 14. */
export function rankOf(card) {
  if (card === "LJ") return 13;
  if (card === "BJ") return 14;
  const r = card.slice(0, -1);
  return r === "10" ? 8 : RANKS.indexOf(r);
}

export function cardName(card) {
  if (card === "LJ") return "little joker";
  if (card === "BJ") return "big joker";
  return `${RANK_WORDS[rankOf(card)]} of ${SUIT_NAMES[suitOf(card)]}`;
}

export function cardShort(card) {
  if (isJoker(card)) return card === "BJ" ? "Big Joker" : "Little Joker";
  return RANK_SHORT[rankOf(card)] + SUIT_SYMBOLS[suitOf(card)];
}

/** cardShort as it is said (the accessible name of a button that shows cardShort): the
 * visible rank first, so that a voice user can say what they see ("Play 5"), then the suit in
 * words instead of its symbol, which screen readers read unevenly or not at all: "5 of
 * diamonds", "Q, queen of spades", "Big Joker". */
export function cardShortSaid(card) {
  if (isJoker(card)) return cardShort(card);
  const rank = RANK_SHORT[rankOf(card)];
  return /\d/.test(rank) ? `${rank} of ${SUIT_NAMES[suitOf(card)]}` : `${rank}, ${cardName(card)}`;
}

export function rankShort(card) {
  return isJoker(card) ? "★" : RANK_SHORT[rankOf(card)];
}

export function sortForDisplay(cards) {
  return [...cards].sort((a, b) => {
    const sa = DISPLAY_SUIT_ORDER.indexOf(suitOf(a)), sb = DISPLAY_SUIT_ORDER.indexOf(suitOf(b));
    return sa - sb || rankOf(a) - rankOf(b);
  });
}

export function isCard(text) {
  if (typeof text !== "string") return false;
  if (isJoker(text)) return true;
  const r = text.slice(0, -1);
  return SUITS.includes(text.slice(-1)) && (r === "10" || (r.length === 1 && RANKS.includes(r)));
}

/** Winner seat of a complete trick [[seat, card], ...]: highest trump, else highest of led. */
export function trickWinner(trick) {
  if (!trick.length) return null;
  const led = suitOf(trick[0][1]);
  let best = trick[0];
  for (const play of trick.slice(1)) {
    const s = suitOf(play[1]), bs = suitOf(best[1]);
    if (s === bs ? rankOf(play[1]) > rankOf(best[1]) : s === "S" && bs !== "S") best = play;
  }
  void led;
  return best[0];
}

// ---------------------------------------------------------------------------------------------
// Card faces: one inline SVG per card, drawn from the suit symbols of index.html's sprite.

const SVG_NS = "http://www.w3.org/2000/svg";
const L = 70, C = 125, R = 180;
const PIPS = {
  // [x, y, flipped] in a 250 x 350 face
  1: [],
  2: [[C, 78], [C, 272, 1]],
  3: [[C, 78], [C, 175], [C, 272, 1]],
  4: [[L, 78], [R, 78], [L, 272, 1], [R, 272, 1]],
  5: [[L, 78], [R, 78], [C, 175], [L, 272, 1], [R, 272, 1]],
  6: [[L, 78], [R, 78], [L, 175], [R, 175], [L, 272, 1], [R, 272, 1]],
  7: [[L, 78], [R, 78], [C, 126], [L, 175], [R, 175], [L, 272, 1], [R, 272, 1]],
  8: [[L, 78], [R, 78], [C, 126], [L, 175], [R, 175], [C, 224, 1], [L, 272, 1], [R, 272, 1]],
  9: [[L, 78], [R, 78], [L, 143], [R, 143], [C, 175], [L, 207, 1], [R, 207, 1], [L, 272, 1],
    [R, 272, 1]],
  10: [[L, 78], [R, 78], [C, 110], [L, 143], [R, 143], [L, 207, 1], [R, 207, 1], [C, 240, 1],
    [L, 272, 1], [R, 272, 1]],
};

function use(symbol, x, y, size, flip = false) {
  const u = document.createElementNS(SVG_NS, "use");
  u.setAttribute("href", `#suit-${symbol}`);
  u.setAttribute("width", size);
  u.setAttribute("height", size);
  u.setAttribute("x", -size / 2);
  u.setAttribute("y", -size / 2);
  u.setAttribute("transform", `translate(${x} ${y})${flip ? " rotate(180)" : ""}`);
  return u;
}

function text(content, x, y, cls, flip = false) {
  const t = document.createElementNS(SVG_NS, "text");
  t.textContent = content;
  t.setAttribute("x", 0);
  t.setAttribute("y", 0);
  t.setAttribute("class", cls);
  t.setAttribute("transform", `translate(${x} ${y})${flip ? " rotate(180)" : ""}`);
  return t;
}

/** An <svg> card face (aria-hidden: the element that holds it carries the name). */
export function cardFace(card) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 250 350");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const suit = suitOf(card);
  const red = card === "BJ" || suit === "H" || suit === "D";
  svg.setAttribute("class", `face ${red ? "red" : "black"} suit-${suit}`);
  const bg = document.createElementNS(SVG_NS, "rect");
  Object.entries({ x: 2, y: 2, width: 246, height: 346, rx: 18, class: "paper" })
    .forEach(([k, v]) => bg.setAttribute(k, v));
  svg.append(bg);
  if (isJoker(card)) {
    svg.append(text("JOKER", 125, 70, "joker-word"));
    svg.append(use("star", 125, 185, 130));
    svg.append(text(card === "BJ" ? "BIG" : "LITTLE", 125, 305, "joker-word"));
    svg.append(text("★", 28, 52, "index"), text("★", 222, 298, "index", true));
    return svg;
  }
  const r = rankOf(card);
  const label = RANK_SHORT[r];
  // corner indexes: rank over a small suit, both corners
  svg.append(text(label, 30, 56, label === "10" ? "index ten" : "index"));
  svg.append(use(suit, 30, 84, 30));
  svg.append(text(label, 220, 294, label === "10" ? "index ten" : "index", true));
  svg.append(use(suit, 220, 266, 30, true));
  if (r === 12) {
    svg.append(use(suit, 125, 175, suit === "S" ? 130 : 96));
  } else if (r >= 9) {
    // court card: a framed panel with the letter and the suit
    const frame = document.createElementNS(SVG_NS, "rect");
    Object.entries({ x: 58, y: 56, width: 134, height: 238, rx: 10, class: "court-frame" })
      .forEach(([k, v]) => frame.setAttribute(k, v));
    svg.append(frame);
    svg.append(use("crown", 125, 104, 56));
    svg.append(text(label, 125, 196, "court-letter"));
    svg.append(use(suit, 125, 252, 52));
  } else {
    for (const [x, y, flip] of PIPS[r + 2]) svg.append(use(suit, x, y, 58, !!flip));
  }
  return svg;
}

/** The back of a card (for other players' hands). */
export function cardBack() {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 250 350");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", "back");
  const u = document.createElementNS(SVG_NS, "use");
  u.setAttribute("href", "#card-back");
  svg.append(u);
  return svg;
}
