// The reading pages: rules of each profile, glossary, strategy guide, keyboard help.
// Written for this project (seed 001's Rules, Glossary and Strategy pages are the model).
// Static, trusted HTML: nothing here comes from a player.

/** What an empty target field stands for, as its placeholder: "500 if left empty" (the
 * profile's own target). Before, "profile's": a word with nothing after it, which a screen
 * reader read as the field's hint ("Target, profile's"). */
export function targetHint(profile) {
  const t = PROFILES[profile] && PROFILES[profile].target;
  return t ? `${t} if left empty` : "the rules' own if left empty";
}

export const PROFILES = {
  "cardgames-club": {
    title: "Club (cardgames-club)",
    blurb: "The classic partnership game to 500, as seed 001 plays it.",
    players: [4], teams: "partners", target: 500,
  },
  cardems: {
    title: "Cardems",
    blurb: "Partnerships to 500; a failed Nil's tricks still help the contract.",
    players: [4], teams: "partners", target: 500,
  },
  race400: {
    title: "Race to 400",
    blurb: "3 to 6 players, solo or teams, bonuses for exact small and brave big contracts, optional turn timer.",
    players: [3, 4, 5, 6], teams: "solo", target: 400,
  },
  game93: {
    title: "Game № 93",
    blurb: "Partners with the CPU across the table; a 500 match or a single hand.",
    players: [4], teams: "partners", target: 500,
  },
  cards4net: {
    title: "Cards4net",
    blurb: "Partnerships with Blind Nil, bag limit settings and house variants.",
    players: [4], teams: "partners", target: 500,
  },
};

const COMMON_PLAY = `
<h3>Playing a trick</h3>
<ul>
  <li>The player left of the dealer leads the first trick with any card except a spade (unless
      they hold nothing but spades).</li>
  <li>Everyone else plays one card in turn, clockwise. <strong>You must follow the suit led if you
      can.</strong> If you cannot, play anything: a spade to trump, or any other card to discard.</li>
  <li>The highest spade wins the trick; with no spade in it, the highest card of the suit led.
      The winner leads the next trick.</li>
  <li>Aces are high, twos are low. Any spade beats any card of another suit.</li>
</ul>`;

const RULES = {
  "cardgames-club": `
<p>Four players in two partnerships: North and South against East and West. A 52-card deck,
13 cards each, dealt one at a time from the dealer's left. The first dealer is drawn at random;
the deal then moves one seat clockwise each hand.</p>
<h3>Bidding</h3>
<p>Starting left of the dealer, everyone bids once: <strong>Nil</strong> (no tricks at all) or
1 to 13 tricks. Partners' bids add up to their <em>contract</em>. A bid is final.</p>
${COMMON_PLAY}
<p><strong>Spades are broken</strong> the first time any spade is played; only then may a spade be led.</p>
<h3>Scoring</h3>
<ul>
  <li>Contract made: 10 points per trick bid, plus 1 point and 1 <em>bag</em> per extra trick.</li>
  <li>Contract set (fewer tricks than bid): minus 10 points per trick bid.</li>
  <li>Nil: +100 if the Nil bidder takes no trick, −100 otherwise. A failed Nil's tricks do not
      count for the partner's contract; each gives 1 point and 1 bag.</li>
  <li>Every 10 bags cost 100 points; the counter keeps what is over ten.</li>
</ul>
<h3>Winning</h3>
<p>After each hand (bag penalties first), the side with the unique highest score wins if it has
reached 500. A tie at the top plays on.</p>`,

  cardems: `
<p>Four players in partnerships (North–South against East–West), 52 cards, 13 each. The dealer
moves one seat clockwise each hand; bidding and the first lead start on the dealer's left.</p>
<h3>Bidding</h3>
<p>Nil or 1 to 13 tricks. There is no Blind Nil. Partners' numbered bids make the contract.</p>
${COMMON_PLAY}
<p>Spades are broken when any spade is played.</p>
<h3>Scoring</h3>
<ul>
  <li>Contract made: 10 per bid trick, +1 point and 1 bag per overtrick. Set: −10 per bid trick.</li>
  <li>Nil: +100 or −100, on top of the contract. <strong>In Cardems a failed Nil bidder's tricks
      count toward the partnership's contract.</strong></li>
  <li>Every 10 bags: −100, and the counter keeps the remainder.</li>
</ul>
<table class="rules-table"><caption>Examples</caption>
<thead><tr><th scope="col">Hand</th><th scope="col">Result</th></tr></thead>
<tbody>
<tr><td>Bid 6, take 8</td><td>+62 points and 2 bags</td></tr>
<tr><td>Bid 6, take 5</td><td>−60 points, no bags</td></tr>
<tr><td>Nil + 5, take 5, Nil takes 0</td><td>+150: +50 contract and +100 Nil</td></tr>
<tr><td>9 bags, bid 4, take 5</td><td>+41, then −100 penalty; 0 bags left</td></tr>
</tbody></table>
<h3>Winning</h3><p>The unique highest score at or above 500 after a hand wins; a tie plays on.</p>`,

  race400: `
<p>Three to six players. By default everyone plays alone; the table owner can make teams
(two of two with four players; two of three or three of two with six). Teammates are seated so
that nobody sits next to a teammate. To share the deck evenly some twos leave it:</p>
<ul>
  <li>3 players: without the 2♣, 17 cards each.</li>
  <li>4 players: full deck, 13 each.</li>
  <li>5 players: without 2♣ and 2♦, 10 each.</li>
  <li>6 players: without all four twos, 8 each.</li>
</ul>
<h3>Bidding</h3>
<p>From 0 (Nil) up to the number of cards in your hand. No pass, no blind bids; every bid is
announced to everyone.</p>
${COMMON_PLAY}
<p>Spades are broken when any spade is played.</p>
<h3>Scoring</h3>
<ul>
  <li>Made: 10 per bid trick, +1 point and 1 bag per overtrick. Set: −10 per bid trick.</li>
  <li>Nil: +100 / −100; a failed Nil's tricks give 1 point and 1 bag each.</li>
  <li><strong>Small contract bonus</strong> (3 or 4 players): +20 for a contract of exactly 1 or 2
      made with no overtrick.</li>
  <li><strong>Hard contract bonus</strong>: +10 for every bid trick above 9 (3 players), 6 (4),
      5 (5) or 4 (6), when the contract is made.</li>
  <li>Every 10 bags: −100; the counter keeps the remainder.</li>
</ul>
<h3>Turn timer</h3>
<p>Off unless the owner switches it on. When your time runs out the game bids or plays the
weakest legal card for you, and your side takes one penalty bag, announced to the table. The
page warns you before the time is up.</p>
<h3>Winning</h3><p>First to 400 (the owner may change it) with the unique highest score.</p>`,

  game93: `
<p>Four players, partners opposite; you partner the CPU across the table. Choose the opening
seat order and CPU strength, then start.</p>
<h3>Bidding</h3>
<p>Choose 0 (Nil) to 13 and confirm. Your bid draft and a selected card are kept if you leave the
page and come back.</p>
${COMMON_PLAY}
<p><strong>Spades are broken only when a spade is played on a trick led in another suit</strong>
(trumping). A spade led from an all-spade hand does not break them.</p>
<h3>Scoring</h3>
<ul>
  <li>Made: 10 per bid trick, +1 point and 1 bag per overtrick. Set: −10 per bid trick.</li>
  <li>Nil: +100 / −100, each Nil scored on its own; a failed Nil's tricks give 1 point and 1 bag
      each and do not help the partner.</li>
  <li>Every 10 bags: −100; the remainder carries over.</li>
</ul>
<h3>Match length</h3>
<p>A 500-point match, or a <strong>one-hand match</strong>: after 13 tricks the higher team score
wins and equal scores draw.</p>`,

  cards4net: `
<p>Four players in two partnerships, 52 cards, 13 each (with the Jokers option too: the two Jokers come in and the 2♣ and 2♦ leave, so the deck stays 52).</p>
<h3>Bidding</h3>
<ul>
  <li>0 (Nil) to 13 tricks.</li>
  <li><strong>Blind Nil</strong> (±200) only as the very first bid of the hand, before you look at
      your cards: your hand stays hidden until you bid Blind Nil or choose to look.</li>
</ul>
${COMMON_PLAY}
<p><strong>Spades are broken only by trumping</strong>: a spade played on a trick led in another
suit. You may always lead spades if you hold nothing else.</p>
<h3>Scoring</h3>
<ul>
  <li>Made: 10 per bid trick, +1 and a bag per overtrick. Set: −10 per bid trick.</li>
  <li>Nil ±100, Blind Nil ±200, each on top of the partnership's result.</li>
  <li>Every 10 bags: −100 and the counter goes back to 0. The limit and the penalty are table
      options. The bag count is shown beside the score and warns you within three bags.</li>
</ul>
<h3>House variants (table options)</h3>
<ul>
  <li><strong>Mirror</strong>: every bid is the number of spades held (none = Nil).</li>
  <li><strong>Suicide</strong>: exactly one partner of each side bids Nil each hand.</li>
  <li><strong>Whiz</strong>: bid Nil or exactly the number of your spades.</li>
  <li><strong>10-for-200</strong>: a contract of exactly 10 scores ±200.</li>
  <li><strong>Jokers</strong>: Big and Little Joker are the two highest trumps (Big, Little, A♠);
      the 2♣ and 2♦ leave the deck.</li>
</ul>
<h3>Winning</h3><p>500 points (option), unique highest score after the bag penalties.</p>`,
};

export function rulesHtml(name) { return RULES[name] || RULES["cardgames-club"]; }

export const GLOSSARY = [
  ["Trick", "One card from every player, collected by whoever played the best card."],
  ["Hand (or round)", "Dealing the cards, bidding, and playing all the tricks, then scoring."],
  ["Match", "Hands one after another until a side wins."],
  ["Lead", "The first card of a trick. Its suit is the suit everyone must follow."],
  ["Follow suit", "Playing a card of the suit led. Compulsory whenever you hold one."],
  ["Trump", "A spade played on a trick led in another suit; it beats every card of that suit."],
  ["Discard", "Playing a third suit when you cannot follow: it can never win the trick."],
  ["Spades broken", "Once a spade has been played (or, in Game № 93 and Cards4net, trumped), spades may be led."],
  ["Bid", "The number of tricks you expect to take this hand."],
  ["Contract", "The bids of a side added together. A side makes it or is set."],
  ["Set", "Taking fewer tricks than the contract: minus ten points per trick bid."],
  ["Nil", "A bid to take no trick at all: +100 if it holds, −100 if it breaks."],
  ["Blind Nil", "Nil bid before looking at your cards (Cards4net): ±200."],
  ["Bag (sandbag)", "A trick over the contract: 1 point now, and every ten cost 100 points."],
  ["Overtrick", "Another word for a bag."],
  ["Void", "Holding no card of a suit, so you may trump or discard when it is led."],
  ["Side", "A team, or a single player in a solo game."],
  ["Dealer", "Marked D at the table. The player on the dealer's left bids first and leads."],
];

export const STRATEGY = `
<h3>Bidding</h3>
<ol>
  <li><strong>Count sure tricks first.</strong> Every ace is a trick. A king is a trick when you
      hold at least one more card of its suit to protect it.</li>
  <li><strong>Queens need company.</strong> Count a queen as a trick only with two or three other
      cards of the same suit; with five or more someone will trump it.</li>
  <li><strong>Spades are your engine.</strong> Count spades above the ten, and one trick for
      every spade beyond the fourth: they will win by trumping.</li>
  <li><strong>Short suits are tricks in disguise.</strong> A void or a singleton with three spades
      or more will usually trump a trick.</li>
  <li><strong>Listen to the bids before yours.</strong> If the table already bids more tricks than
      there are, somebody will be set: bid exactly, not generously.</li>
  <li><strong>Nil</strong> wants no aces or kings, few spades and all of them small, and no long
      suit headed by a high card. It is worth more when your side is behind.</li>
</ol>
<h3>Playing</h3>
<ol>
  <li><strong>Count the spades.</strong> Press <kbd>T</kbd> to hear the open trick and whether
      spades are broken; the round status (<kbd>R</kbd>) keeps everyone's tricks.</li>
  <li><strong>Second seat plays low</strong>: the player after the leader rarely needs to win;
      your partner or the last seat is better placed.</li>
  <li><strong>Keep the ace of spades</strong> for late in the hand, when it wins a trick that
      matters, unless you are protecting a Nil partner.</li>
  <li><strong>Protect a Nil partner</strong>: lead high cards in the suits they are weak in, and
      win tricks they are about to be forced to take.</li>
  <li><strong>Made your contract? Stop winning.</strong> Every extra trick is a bag; the bag count
      and its warning (within three of a penalty) sit beside each score.</li>
  <li><strong>Feed bags to opponents</strong> who are close to ten, and set them when they
      overbid: a set costs ten points per trick bid.</li>
  <li><strong>Lead your long suit</strong> to make opponents trump early and spend their spades;
      <strong>lead low spades</strong> when you hold five or more and spades are broken.</li>
</ol>
<h3>At this table</h3>
<p>The <strong>Hint</strong> button (key <kbd>I</kbd>) suggests a bid from a plain count of likely
tricks, and a card from the same principles as this guide. It never sees other hands.</p>
<p>The <strong>Hard</strong> and <strong>Expert</strong> CPUs adapt to the players at the table:
during a match they learn each seat's habits from what has been played in the open (whether its
bids run over or under what its hands turned out to be worth, how boldly it bids Nil, whether it
covers a Nil partner, whether it plays its highest card when following) and play with them: they
bid around a partner who overbids, count on more from one who underbids, and cover or give up a
shaky Nil. They never see hidden cards, and they treat you as they would any player.</p>`;

export const SHORTCUTS = [
  ["Whose turn", "W"],
  ["The open trick and whether spades are broken", "T"],
  ["Round status: bids and tricks of everyone", "R"],
  ["Scores and bags", "P"],
  ["Score sheet", "O"],
  ["Repeat the last announcement", "L"],
  ["Stop the voice (self-voicing)", "X"],
  ["Hint", "I"],
  ["Time left on the turn timer", "Y"],
  ["Move focus to your hand", "J"],
  ["Move focus to the bidding panel", "B"],
  ["Bid Blind Nil (asks you to confirm; Cancel is the default)", "Shift+B"],
  ["Put the hand's summary away (the next deal)", "Escape"],
  ["In the chat box: back to your hand (what you typed stays)", "Escape"],
  ["This help", "?"],
];

/** The shortcut keys before the match starts (the waiting room). */
export const WAITING_KEYS = [
  ["Whether the match has started, and who starts it", "W"],
  ["Who sits where", "R"],
  ["Watching: go to the Sit down at the table button (or hear why you may not sit down)", "J"],
  ["Repeat the last announcement (a chat line, say)", "L"],
  ["Stop the voice (self-voicing)", "X"],
  ["In the chat box: back to the Seats heading", "Escape"],
  ["This help", "?"],
];

export const HAND_KEYS = [
  ["Next / previous card", "→ / ←  (also ↓ / ↑)"],
  ["First / last card", "Home / End"],
  ["First card of a suit (again: next card of that suit)", "H  S  D  C"],
  ["Play the card (on your turn); otherwise select it", "Enter"],
  ["Select the card without playing it", "Space"],
];
