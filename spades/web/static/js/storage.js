// Everything the page keeps in this browser (localStorage), in one place.
//   spades.token           the guest/account token (returns you to your seat)
//   spades.name            display name
//   spades.settings        sound, animations, shortcuts, announcement pace
//   spades.draft.<table>   the bid being chosen and the selected card (seed 003)
//   spades.lastTable       the table last opened (offered on the home page, "Your tables")
//   spades.tableNames      the names of the last tables opened, by id ("Your tables")
//   spades.invites         invitation codes of private tables you watch, by id (a spectator
//                          needs it to join again: a reload, a reconnect), and for a rematch
//                          you follow from watching, the code of the table before (it takes it)
//   spades.held.<table>    your seat's hand, bids and phase as the game goes: opened anew
//                          (the browser closed meanwhile), the page says what was bid and
//                          played for you while you were away
// and in this tab only (sessionStorage: a reload keeps it, another tab has its own):
//   spades.sent.<table>    the last card and the last bid this tab sent at the table, with
//                          the hand (and the cards played) they were sent on and whose they
//                          were: reloaded before their answer came (the connection dropped),
//                          the page says them as your own ("You played the seven of hearts."),
//                          not as played for you while you were away

const PREFIX = "spades.";

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    if (value === undefined || value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch { /* private mode or full: the game still works, it just forgets */ }
}

function readSession(key, fallback) {
  try {
    const raw = sessionStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function writeSession(key, value) {
  try {
    if (value === undefined || value === null) sessionStorage.removeItem(PREFIX + key);
    else sessionStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch { /* private mode or full: a reload then says it as played for you */ }
}

export const DEFAULT_SETTINGS = {
  volume: 0.7,
  muted: false,
  animations: "auto", // auto (follows prefers-reduced-motion), on, off
  shortcuts: true,
  pace: 1, // announcement pacing: 1 normal, 0 immediate
  autoplay: false, // play a single legal card automatically
  fourColour: false,
  selfVoicing: false, // speak every announcement with speechSynthesis (no screen reader needed)
  voiceName: "", // a speechSynthesis voice by name ("" = the browser's default)
  voiceRate: 1,
  voiceVolume: 1,
  summarySeconds: 8, // the hand's summary goes by itself after this many seconds (0: on request)
};

export const store = {
  token: () => read("token", null),
  setToken: (t) => write("token", t),
  name: () => read("name", ""),
  setName: (n) => write("name", n),
  settings: () => ({ ...DEFAULT_SETTINGS, ...read("settings", {}) }),
  saveSettings: (s) => write("settings", s),
  draft: (table) => read(`draft.${table}`, null),
  saveDraft: (table, draft) => write(`draft.${table}`, draft),
  lastTable: () => read("lastTable", null),
  setLastTable: (t) => write("lastTable", t),
  tableName: (id) => read("tableNames", {})[id] || null,
  setTableName: (id, name) => {
    const all = read("tableNames", {});
    delete all[id];
    all[id] = name;
    for (const old of Object.keys(all).slice(0, -20)) delete all[old]; // the last 20
    write("tableNames", all);
  },
  invite: (id) => read("invites", {})[id] || null,
  setInvite: (id, code) => {
    const all = read("invites", {});
    delete all[id];
    all[id] = code;
    for (const old of Object.keys(all).slice(0, -20)) delete all[old]; // the last 20
    write("invites", all);
  },
  sent: (table) => readSession(`sent.${table}`, null),
  setSent: (table, sent) => writeSession(`sent.${table}`, sent),
  read,
  write,
};
