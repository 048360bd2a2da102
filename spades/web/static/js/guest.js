// The guest mark: seats and chat lines carry `guest` (a guest, not an account). Next to such
// a name (the waiting room's seats, chat) a small "guest" badge is shown; screen readers hear
// it as "Ann (guest)". At the card table the seat shows a "guest" tag under the name and its
// label says "guest" (table.js).
import { h } from "./dom.js";

/** The mark for `who` (a seat or a chat line), or null if it is not a guest. */
export function guestMark(who) {
  if (!who || !who.guest) return null;
  return h("span", { class: "badge guest-mark", title: "A guest: not signed in to an account" },
    h("span", { class: "sr-only" }, " ("), "guest", h("span", { class: "sr-only" }, ")"));
}

/** For spoken and labelled text: ", guest" after a guest's name, else "". */
export function guestWords(who) {
  return who && who.guest ? ", guest" : "";
}
