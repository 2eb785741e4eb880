// @ts-check
// The game's sounds, as lichess has them: a move, a capture and the
// game's end, made by the browser's Web Audio (no sound files), off by
// the #sound switch, which the browser keeps.
import { $ } from "./dom.js";
import { loadText, saveText } from "./storage.js";

const SOUND_KEY = "pasang-sound";
let context = null;

const soundOn = () => loadText(SOUND_KEY) !== "off";

// The switch shows its state in aria-pressed.
function showSwitch() {
  $("sound").setAttribute("aria-pressed", String(soundOn()));
}

/** The #sound switch. */
export function setUpSound() {
  $("sound").onclick = () => {
    saveText(SOUND_KEY, soundOn() ? "off" : "on");
    showSwitch();
  };
  showSwitch();
}

// One short tone; a browser that has no audio, or allows none yet (no
// click on the page so far), stays silent.
function tone(frequency, seconds, type, delay = 0) {
  // Browsers start audio only after the person has used the page.
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
  try {
    context = context || new AudioContext();
    const start = context.currentTime + delay;
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = type;
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.12, start);
    gain.gain.exponentialRampToValueAtTime(0.001, start + seconds);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(start);
    oscillator.stop(start + seconds);
  } catch (_) { /* no audio here */ }
}

/** Sounds what changed from state `before` to state `after`: a move
 * played (a capture sounds lower), the game's end. */
export function soundFor(before, after) {
  if (!soundOn() || !before || before.start !== after.start) return;
  if (after.moves.length === before.moves.length + 1 && after.cursor === after.moves.length) {
    const captured = after.last && after.last.captures && after.last.captures.length;
    if (captured) tone(220, 0.18, "triangle");
    else tone(440, 0.08, "sine");
  }
  if (!before.over && after.over) {
    tone(523, 0.25, "sine", 0.1);
    tone(392, 0.35, "sine", 0.35);
  }
}
