// Cards drawn with text and Unicode suit symbols (no images): "Ah" -> A♥.

const SUITS = {
  c: { symbol: "\u2663", name: "clubs", colour: "black" },
  d: { symbol: "\u2666", name: "diamonds", colour: "red" },
  h: { symbol: "\u2665", name: "hearts", colour: "red" },
  s: { symbol: "\u2660", name: "spades", colour: "black" },
};
const RANKS = {
  A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight",
  7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two",
};

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);
}

/** A card's spoken name: "Ah" -> "ace of hearts". */
export function cardName(code) {
  if (!code) return "face-down card";
  const suit = SUITS[code[1]];
  return `${RANKS[code[0]] ?? code[0]} of ${suit ? suit.name : code[1]}`;
}

/** A card's short text: "Th" -> "10♥". */
export function cardText(code) {
  if (!code) return "??";
  const suit = SUITS[code[1]];
  return `${code[0] === "T" ? "10" : code[0]}${suit ? suit.symbol : code[1]}`;
}

/** The HTML of one card (null: face down). */
export function cardHtml(code, extra = "") {
  if (!code) {
    return `<span class="card back ${extra}" role="img" aria-label="face-down card"></span>`;
  }
  const suit = SUITS[code[1]] ?? { symbol: code[1], colour: "black" };
  const rank = code[0] === "T" ? "10" : code[0];
  return (
    `<span class="card ${suit.colour} ${extra}" role="img" data-card="${escapeHtml(code)}" ` +
    `aria-label="${escapeHtml(cardName(code))}"><span class="rank">${escapeHtml(rank)}</span>` +
    `<span class="suit">${suit.symbol}</span></span>`
  );
}

/** The HTML of several cards. */
export function cardsHtml(codes, extra = "") {
  return (codes ?? []).map((c) => cardHtml(c, extra)).join("");
}

/** Several cards as text: "A♥ 10♠". */
export function cardsText(codes) {
  return (codes ?? []).map(cardText).join(" ");
}
