// Sounds synthesized with Web Audio: nothing is fetched. One voice per event of the game:
// card, spade (its own sound, seed 002), refused, your turn, trick won, timer warning.

export class Sounds {
  constructor(settings) {
    this.settings = settings; // { volume: 0..1, muted: bool }
    this.ctx = null;
    this.played = []; // names of the sounds played (for the tests and the debug panel)
  }

  context() {
    if (!this.ctx) {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return null;
      this.ctx = new AC();
    }
    if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
    return this.ctx;
  }

  gainNode(ctx, level) {
    const g = ctx.createGain();
    g.gain.value = level * this.settings.volume;
    g.connect(ctx.destination);
    return g;
  }

  tone(ctx, out, { freq, type = "sine", start = 0, dur = 0.15, attack = 0.005, peak = 1,
    slideTo = null }) {
    const t0 = ctx.currentTime + start;
    const osc = ctx.createOscillator();
    const env = ctx.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, t0);
    if (slideTo) osc.frequency.exponentialRampToValueAtTime(slideTo, t0 + dur);
    env.gain.setValueAtTime(0.0001, t0);
    env.gain.exponentialRampToValueAtTime(peak, t0 + attack);
    env.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
    osc.connect(env).connect(out);
    osc.start(t0);
    osc.stop(t0 + dur + 0.02);
  }

  noise(ctx, out, { start = 0, dur = 0.08, freq = 2500, q = 0.8, peak = 1 }) {
    const t0 = ctx.currentTime + start;
    const len = Math.max(1, Math.floor(ctx.sampleRate * dur));
    const buf = ctx.createBuffer(1, len, ctx.sampleRate);
    const data = buf.getChannelData(0);
    for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / len) ** 2;
    const src = ctx.createBufferSource();
    src.buffer = buf;
    const filter = ctx.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.value = freq;
    filter.Q.value = q;
    const env = ctx.createGain();
    env.gain.value = peak;
    src.connect(filter).connect(env).connect(out);
    src.start(t0);
  }

  play(name) {
    this.played.push(name);
    if (this.played.length > 200) this.played.shift();
    if (this.settings.muted || this.settings.volume <= 0) return;
    const ctx = this.context();
    if (!ctx) return;
    const fn = VOICES[name];
    if (fn) fn(this, ctx);
  }
}

const VOICES = {
  // a soft snap of card on cloth
  card(s, ctx) {
    const out = s.gainNode(ctx, 0.6);
    s.noise(ctx, out, { dur: 0.07, freq: 1800, q: 0.7 });
    s.tone(ctx, out, { freq: 180, dur: 0.06, peak: 0.3, type: "triangle" });
  },
  // a spade: the snap plus a low bell, unmistakably different
  spade(s, ctx) {
    const out = s.gainNode(ctx, 0.6);
    s.noise(ctx, out, { dur: 0.06, freq: 1200, q: 0.9, peak: 0.8 });
    s.tone(ctx, out, { freq: 330, dur: 0.45, peak: 0.5, type: "sine" });
    s.tone(ctx, out, { freq: 495, dur: 0.35, peak: 0.25, type: "sine", start: 0.01 });
    s.tone(ctx, out, { freq: 165, dur: 0.5, peak: 0.35, type: "triangle" });
  },
  // refused: two short low buzzes
  refused(s, ctx) {
    const out = s.gainNode(ctx, 0.35);
    s.tone(ctx, out, { freq: 140, type: "square", dur: 0.09, peak: 0.5 });
    s.tone(ctx, out, { freq: 120, type: "square", dur: 0.12, peak: 0.5, start: 0.12 });
  },
  // your turn: a rising two-note chime
  turn(s, ctx) {
    const out = s.gainNode(ctx, 0.45);
    s.tone(ctx, out, { freq: 660, dur: 0.18, peak: 0.6 });
    s.tone(ctx, out, { freq: 880, dur: 0.3, peak: 0.6, start: 0.12 });
  },
  // trick won: a gathering swish and a soft knock
  trick(s, ctx) {
    const out = s.gainNode(ctx, 0.5);
    s.noise(ctx, out, { dur: 0.18, freq: 900, q: 0.5, peak: 0.6 });
    s.tone(ctx, out, { freq: 220, dur: 0.12, peak: 0.4, type: "triangle", start: 0.12 });
  },
  // timer warning: three quick high ticks
  timer(s, ctx) {
    const out = s.gainNode(ctx, 0.4);
    for (let i = 0; i < 3; i++) s.tone(ctx, out, { freq: 1320, dur: 0.05, peak: 0.6, start: i * 0.14 });
  },
  // bid accepted / hand over: a gentle chord
  chord(s, ctx) {
    const out = s.gainNode(ctx, 0.3);
    [523, 659, 784].forEach((f, i) => s.tone(ctx, out, { freq: f, dur: 0.5, peak: 0.35, start: i * 0.03 }));
  },
};

export const SOUND_NAMES = Object.keys(VOICES);
