// The board's words, in English and in Malay (Bahasa Melayu, the language
// of Brunei): one table for both pages (`pasang gui`'s and the static
// site's). The language is the browser's (Malay for any `ms` language),
// or the one chosen with the switch, kept in localStorage.
"use strict";

const STRINGS = {
  en: {
    connecting: "Connecting…",
    south: "South",
    north: "North",
    phase: "Phase",
    eval: "Eval",
    thinking: "engine thinking…",
    you: "(you)",
    play: "Play",
    analyse: "Analyse",
    watch: "Watch",
    review: "Review",
    rules: "Rules",
    side: "Side",
    skill: "Skill",
    movetime: "Time/move",
    clock: "Clock",
    none: "none",
    lines: "Lines",
    stop: "Stop",
    start: "Start",
    open: "Open a record",
    save: "Save record",
    saveAnnotated: "Save annotated record",
    pickerBefore: "This file holds",
    pickerAfter: "games: which one?",
    analysing: "Analysing…",
    accuracy: "Accuracy",
    takeback: "Take back",
    flip: "Flip",
    newGameSummary: "New game, set up a position",
    pattern: "Pattern",
    kaEntry: "Ka entry",
    secondColumn: "Second column",
    centre: "Centre",
    newGame: "New game",
    position: "Position",
    setUp: "Set up",
    copyPosition: "Copy position",
    noMoves: "No moves yet",
    toMove: "{side} to move",
    yourMove: "Your move",
    winsOnPoints: "{winner} wins on points: no stone is left ({points})",
    winsSuntuk: "{winner} wins: {loser} has no legal move (suntuk) ({points})",
    winsOnTime: "{winner} wins on time: {loser}'s clock ran out ({points})",
    draw: "Draw: no stone is left and the scores are level ({points})",
    points: "South {south} - North {north}",
    hintReview: "Step through the game with the move list, the graph or the arrow keys: blue is the move played, green the engine's better move.",
    hintOver: "The game is over: press Review to see where it was won and lost.",
    hintPassage: "{who}: take a column of your half as your passage (click any point of an outlined column).",
    hintEntry: "{who}: enter your ka: click a stone next to your passage, then the point it moves to. It must capture.",
    hintKa: "{who}: move your ka like a rook (click it, then where it goes); every move captures.",
    hintPassageOther: "{who}: take a column of its half as its passage (click any point of an outlined column).",
    hintEntryOther: "{who}: enter its ka: click a stone next to its passage, then the point it moves to. It must capture.",
    hintKaOther: "{who}: move its ka like a rook (click it, then where it goes); every move captures.",
    reviewProgress: "Analysing: {done} of {total} positions",
    reviewNothing: "Open a record, or play or watch a game, to review it.",
    reviewJudging: "The engine is judging every move…",
    reviewStart: "Start: {eval}",
    better: "better",
    stoppedWorker: "The engine stopped: reload the page to start again.",
    restartedWorker: "The engine stopped and was started again; the game is kept.",
    disconnected: "Disconnected from the server: reload the page to start again.",
    tooLarge: "That file is too large for a game record (1 MiB at most).",
    language: "Language",
  },
  ms: {
    connecting: "Menyambung…",
    south: "Selatan",
    north: "Utara",
    phase: "Fasa",
    eval: "Nilai",
    thinking: "enjin sedang berfikir…",
    you: "(anda)",
    play: "Main",
    analyse: "Analisis",
    watch: "Tonton",
    review: "Ulas",
    rules: "Peraturan",
    side: "Pihak",
    skill: "Kemahiran",
    movetime: "Masa/langkah",
    clock: "Jam",
    none: "tiada",
    lines: "Barisan",
    stop: "Henti",
    start: "Mula",
    open: "Buka rekod",
    save: "Simpan rekod",
    saveAnnotated: "Simpan rekod beranotasi",
    pickerBefore: "Fail ini mengandungi",
    pickerAfter: "permainan: yang mana satu?",
    analysing: "Menganalisis…",
    accuracy: "Ketepatan",
    takeback: "Ambil balik",
    flip: "Terbalikkan",
    newGameSummary: "Permainan baharu, susun kedudukan",
    pattern: "Corak",
    kaEntry: "Kemasukan ka",
    secondColumn: "Lajur kedua",
    centre: "Tengah",
    newGame: "Permainan baharu",
    position: "Kedudukan",
    setUp: "Susun",
    copyPosition: "Salin kedudukan",
    noMoves: "Belum ada langkah",
    toMove: "Giliran {side}",
    yourMove: "Giliran anda",
    winsOnPoints: "{winner} menang mata: tiada buah lagi ({points})",
    winsSuntuk: "{winner} menang: {loser} tiada langkah sah (suntuk) ({points})",
    winsOnTime: "{winner} menang masa: jam {loser} telah habis ({points})",
    draw: "Seri: tiada buah lagi dan mata sama ({points})",
    points: "Selatan {south} - Utara {north}",
    hintReview: "Lihat permainan langkah demi langkah dengan senarai langkah, graf atau kekunci anak panah: biru ialah langkah yang dimainkan, hijau langkah enjin yang lebih baik.",
    hintOver: "Permainan tamat: tekan Ulas untuk melihat di mana ia dimenangi dan dikalahkan.",
    hintPassage: "{who}: pilih satu lajur di separuh papan anda sebagai laluan (klik mana-mana titik pada lajur yang bergaris).",
    hintEntry: "{who}: masukkan ka anda: klik buah di sebelah laluan anda, kemudian titik tujuannya. Ia mesti menangkap.",
    hintKa: "{who}: gerakkan ka anda seperti tir (klik ka, kemudian ke mana ia pergi); setiap langkah menangkap.",
    hintPassageOther: "{who}: pilih satu lajur di separuh papannya sebagai laluan (klik mana-mana titik pada lajur yang bergaris).",
    hintEntryOther: "{who}: masukkan kanya: klik buah di sebelah laluannya, kemudian titik tujuannya. Ia mesti menangkap.",
    hintKaOther: "{who}: gerakkan kanya seperti tir (klik ka, kemudian ke mana ia pergi); setiap langkah menangkap.",
    reviewProgress: "Menganalisis: {done} daripada {total} kedudukan",
    reviewNothing: "Buka rekod, atau main atau tonton permainan, untuk mengulasnya.",
    reviewJudging: "Enjin sedang menilai setiap langkah…",
    reviewStart: "Mula: {eval}",
    better: "lebih baik",
    stoppedWorker: "Enjin telah berhenti: muat semula halaman untuk bermula semula.",
    restartedWorker: "Enjin telah berhenti dan dimulakan semula; permainan disimpan.",
    disconnected: "Sambungan ke pelayan terputus: muat semula halaman untuk bermula semula.",
    tooLarge: "Fail itu terlalu besar untuk rekod permainan (paling banyak 1 MiB).",
    language: "Bahasa",
  },
};

const LANGUAGES = { en: "English", ms: "Bahasa Melayu" };

function chooseLanguage() {
  let kept = null;
  try { kept = localStorage.getItem("pasang-language"); } catch (_) { /* no storage */ }
  if (kept && STRINGS[kept]) return kept;
  const asked = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  return asked.some((tag) => /^(ms|zsm)\b/i.test(tag)) ? "ms" : "en";
}

let language = chooseLanguage();

/** The words for `key` in the page's language, with `{name}` filled from `values`. */
function t(key, values = {}) {
  const text = (STRINGS[language] && STRINGS[language][key]) || STRINGS.en[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? values[name] : `{${name}}`));
}

/** Puts the words of the page's language in every element marked `data-i18n`. */
function applyLanguage() {
  document.documentElement.lang = language;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
}

function setLanguage(chosen) {
  if (!STRINGS[chosen]) return;
  language = chosen;
  try { localStorage.setItem("pasang-language", chosen); } catch (_) { /* no storage */ }
  applyLanguage();
}
