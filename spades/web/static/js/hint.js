// A hint for the seat whose turn it is, from its own view only (never other hands):
// a bid from a plain count of likely tricks, a card from the strategy guide's principles.

import { cardName, isCard, rankOf, suitOf, SUIT_NAMES, trickWinner } from "./cards.js";

export function suggestBid(hand, handSize) {
  let tricks = 0;
  for (const suit of ["C", "D", "H", "S"]) {
    const cards = hand.filter((c) => suitOf(c) === suit);
    const n = cards.length;
    const has = (r) => cards.some((c) => rankOf(c) === r);
    if (suit === "S") {
      tricks += cards.filter((c) => rankOf(c) >= 13).length; // jokers
      const a = has(12), k = has(11) && n >= 2, q = has(10) && n >= 3;
      tricks += a + k + q;
      if (n > 4) tricks += Math.max(0, n - 4 - a - k - q) * 0.7;
    } else {
      tricks += has(12) ? 1 : 0;
      tricks += has(11) ? (n >= 2 ? 1 : 0.4) : 0;
      if (has(10) && n >= 3 && n <= 4) tricks += 0.7;
    }
  }
  return Math.max(0, Math.min(handSize, Math.round(tricks)));
}

const low = (cards) => [...cards].sort((a, b) => rankOf(a) - rankOf(b))[0];
const high = (cards) => [...cards].sort((a, b) => rankOf(b) - rankOf(a))[0];

function beats(card, best, led) {
  const s = suitOf(card), bs = suitOf(best);
  if (s === bs) return rankOf(card) > rankOf(best);
  void led;
  return s === "S" && bs !== "S";
}

/**
 * { action, why } for a play. `view` is Observation JSON; `partners` the seats of my side.
 */
export function suggestPlay(view, partners) {
  const legal = view.legal_actions.filter((a) => isCard(a));
  if (!legal.length) return null;
  if (legal.length === 1) return { action: legal[0], why: "it is the only card you may play" };
  const me = view.seat;
  const nil = view.bids[me] === "nil" || view.bids[me] === "blind-nil";
  const trick = view.trick;
  if (!trick.length) {
    if (nil) {
      const c = low(legal);
      return { action: c, why: "you bid Nil: lead low and let others win" };
    }
    const nonSpades = legal.filter((c) => suitOf(c) !== "S");
    const aces = nonSpades.filter((c) => rankOf(c) === 12);
    if (aces.length) return { action: aces[0], why: "an ace outside spades is a sure trick: take it early" };
    if (!nonSpades.length) return { action: high(legal), why: "only spades left: lead the strongest" };
    // lead low from the longest side suit
    const bySuit = {};
    for (const c of nonSpades) (bySuit[suitOf(c)] ||= []).push(c);
    const suit = Object.keys(bySuit).sort((a, b) => bySuit[b].length - bySuit[a].length)[0];
    return { action: low(bySuit[suit]), why: `lead low from your longest suit, ${SUIT_NAMES[suit]}` };
  }
  const led = suitOf(trick[0][1]);
  const winnerSeat = trickWinner(trick);
  const best = trick.find(([s]) => s === winnerSeat)[1];
  const partnerWinning = partners.includes(winnerSeat) && winnerSeat !== me;
  const winners = legal.filter((c) => beats(c, best, led));
  const losers = legal.filter((c) => !beats(c, best, led));
  const following = legal.some((c) => suitOf(c) === led);
  const lastToPlay = trick.length === view.hand_sizes.length - 1;
  if (nil) {
    if (losers.length) return { action: high(losers), why: "you bid Nil: get rid of your highest card that still loses" };
    return { action: low(legal), why: "you bid Nil but every card wins: play your lowest" };
  }
  const partnerNil = partners.some((s) => s !== me && (view.bids[s] === "nil" || view.bids[s] === "blind-nil"));
  if (partnerWinning && !partnerNil) {
    const c = following ? low(legal) : low(legal.filter((x) => suitOf(x) !== "S").length
      ? legal.filter((x) => suitOf(x) !== "S") : legal);
    return { action: c, why: "your partner is winning this trick: play low" };
  }
  if (winners.length) {
    const cheapest = low(winners.filter((c) => suitOf(c) === led).length
      ? winners.filter((c) => suitOf(c) === led) : winners);
    if (lastToPlay || suitOf(cheapest) === "S" || rankOf(cheapest) >= 11 || partnerNil) {
      return { action: cheapest, why: partnerNil ? "cover your Nil partner: win the trick"
        : `the ${cardName(cheapest)} is the cheapest card that wins the trick` };
    }
    return { action: cheapest, why: "win the trick as cheaply as you can" };
  }
  const discard = following ? low(legal) : low(legal.filter((x) => suitOf(x) !== "S").length
    ? legal.filter((x) => suitOf(x) !== "S") : legal);
  return { action: discard, why: "you cannot win this trick: keep your good cards and play low" };
}
