// Self-voicing (issue 11, item 5): for players without a screen reader, the page speaks every
// announcement itself with the browser's speech synthesis — the same additions, in the same
// order, as the live regions receive them (it listens to the announcer's `onAnnounce`).

export class Voice {
  constructor(settings) {
    this.settings = settings;
    this.synth = typeof window !== "undefined" ? window.speechSynthesis || null : null;
  }

  get available() { return !!this.synth && typeof window.SpeechSynthesisUtterance === "function"; }

  get on() { return !!this.settings.selfVoicing && this.available; }

  /** Speak every announcement as it goes out. */
  attach(announcer) {
    announcer.onAnnounce((entry) => { if (this.on) this.speak(entry.text); });
  }

  voices() {
    try { return this.available ? this.synth.getVoices() : []; } catch { return []; }
  }

  speak(text) {
    if (!this.available) return;
    const u = new window.SpeechSynthesisUtterance(text);
    u.rate = Number(this.settings.voiceRate) || 1;
    u.volume = Math.max(0, Math.min(1, Number(this.settings.voiceVolume ?? 1)));
    const name = this.settings.voiceName;
    if (name) {
      const v = this.voices().find((x) => x.name === name);
      if (v) { u.voice = v; u.lang = v.lang; }
    }
    this.synth.speak(u); // the browser queues utterances in order
  }

  /** Stop speaking now (and drop what was waiting to be spoken). */
  stop() {
    if (this.available) this.synth.cancel();
  }
}
