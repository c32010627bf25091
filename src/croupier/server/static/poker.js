// The poker table: seats (cards, stacks, bets, the button, whose turn), the board, the
// pots, the action buttons with an amount slider and field kept to the legal range, and
// the hand log.

import { cardHtml, cardsHtml, cardsText, escapeHtml } from "./cards.js";

const $ = (id) => document.getElementById(id);

let decision = null; // the key of the decision the controls are set up for
let current = null; // {legal, me, allIn}
let selected = new Set(); // cards chosen to discard

function nameFor(context, names, seat) {
  const view = context.state.view?.view;
  if (view && seat === view.seat && context.state.player) return context.state.player;
  return names.get(seat) ?? `seat ${seat}`;
}

function chips(n) {
  return Number(n).toLocaleString("en");
}

function hidden(what) {
  return what === "dealt" ? "dealt face down" : escapeHtml(what);
}

/** One line of the hand log. */
export function describe(event, who) {
  const w = (seat) => escapeHtml(who(seat));
  switch (event.type) {
    case "HandStarted":
      return `Hand starts: ${escapeHtml(event.game ?? "")}, the button is on ${w(event.button)}`;
    case "AntePosted":
      return `${w(event.seat)} posts an ante of ${chips(event.amount)}`;
    case "BlindPosted":
      return `${w(event.seat)} posts a blind of ${chips(event.amount)}`;
    case "CardsDealt":
      return `${w(event.seat)} is dealt ${cardsText(event.cards)}${event.up ? " face up" : ""}`;
    case "HiddenCards":
      return event.seat == null
        ? `${event.count === 1 ? "A card" : `${event.count} cards`} ${hidden(event.what)}`
        : `${w(event.seat)}: ${event.count === 1 ? "a card" : `${event.count} cards`} ${hidden(event.what)}`;
    case "CommunityDealt":
      return `Board: ${cardsText(event.cards)}`;
    case "CardBurned":
      return "A card is burned";
    case "CardBoxed":
      return `A boxed card is set aside: ${cardsText([event.card])}`;
    case "DeckCut":
      return "The deck is cut";
    case "StubRestocked":
      return "The stub is restocked";
    case "Discarded":
      return event.cards?.length
        ? `${w(event.seat)} discards ${event.cards.length}${event.cards[0] ? `: ${cardsText(event.cards)}` : ""}`
        : `${w(event.seat)} stands pat`;
    case "Conceded":
      return `${w(event.seat)} concedes`;
    case "ShowRequested":
      return `${w(event.seat)} asks to see a hand`;
    case "Folded":
      return `${w(event.seat)} folds`;
    case "Checked":
      return `${w(event.seat)} checks`;
    case "Called":
      return `${w(event.seat)} calls ${chips(event.amount)}${event.all_in ? " and is all-in" : ""}`;
    case "BringIn":
      return `${w(event.seat)} brings in for ${chips(event.to)}${event.all_in ? " (all-in)" : ""}`;
    case "RaisedTo":
      return `${w(event.seat)} raises to ${chips(event.to)}${event.all_in ? " and is all-in" : ""}`;
    case "BetReturned":
      return `${chips(event.amount)} uncalled returned to ${w(event.seat)}`;
    case "BetsCollected":
      return `Bets collected: ${chips(event.total)} in the pot`;
    case "HandShown":
      return `${w(event.seat)} shows ${cardsText(event.cards)}${event.description ? ` (${escapeHtml(event.description)})` : ""}`;
    case "HandMucked":
      return `${w(event.seat)} mucks`;
    case "RakeTaken":
      return `Rake ${chips(event.amount)}`;
    case "PotAwarded": {
      const pot = event.pot === 0 ? "the main pot" : `side pot ${event.pot}`;
      const shares = (event.shares ?? []).map(([s, a]) => `${w(s)} ${chips(a)}`).join(", ");
      return `${shares} from ${pot} (${chips(event.amount)})`;
    }
    case "DealEnded":
      return "The hand is over";
    default:
      return escapeHtml(event.type);
  }
}

function renderSeats(context, message, names) {
  const view = message.view;
  const html = [];
  const players = [...view.players].sort((a, b) => a.seat - b.seat);
  for (const p of players) {
    const classes = ["seat"];
    if (p.seat === view.actor && !view.complete) classes.push("acting");
    if (p.folded) classes.push("folded");
    if (p.all_in) classes.push("all-in");
    if (p.seat === view.seat) classes.push("me");
    const status = [];
    if (p.seat === view.actor && !view.complete) status.push("to act");
    if (p.folded) status.push("folded");
    if (p.all_in) status.push("all-in");
    const name = nameFor(context, names, p.seat);
    html.push(
      `<div class="${classes.join(" ")}" data-seat="${p.seat}" data-name="${escapeHtml(name)}">` +
        `<div class="seat-head"><span class="seat-name">${escapeHtml(name)}</span>` +
        (p.seat === view.button && !String(view.game).startsWith("stud")
          ? `<span class="dealer-button" title="the button" aria-label="button">D</span>`
          : "") +
        `</div>` +
        `<div class="cards">${cardsHtml(p.up, "up")}${cardsHtml(p.down)}</div>` +
        `<div class="stack">stack <span class="chips">${chips(p.stack)}</span></div>` +
        `<div class="bet">${p.bet ? `bet <span class="chips">${chips(p.bet)}</span>` : "&nbsp;"}</div>` +
        `<div class="seat-status">${status.join(", ") || "&nbsp;"}</div></div>`,
    );
  }
  $("poker-seats").innerHTML = html.join("");
}

function renderCentre(view) {
  $("poker-street").textContent = `${view.game} · ${view.street}${view.complete ? " · over" : ""}`;
  $("poker-board").innerHTML = view.board.length
    ? cardsHtml(view.board)
    : `<span class="muted">no board cards</span>`;
  const pots = view.pots ?? [];
  const parts = pots.map((amount, i) => (i === 0 ? `main ${chips(amount)}` : `side ${i} ${chips(amount)}`));
  $("poker-pot").innerHTML =
    `Pot <strong id="pot-total">${chips(view.pot)}</strong>` +
    (pots.length > 1 || (pots.length === 1 && pots[0] !== view.pot)
      ? ` <span class="muted">(${parts.join(", ")})</span>`
      : "");
}

function setButton(id, visible, label) {
  const el = $(id);
  el.hidden = !visible;
  el.disabled = !visible;
  if (label !== undefined) el.innerHTML = label;
}

function renderActions(context, message) {
  const view = message.view;
  const legal = view.legal;
  const panel = $("poker-actions");
  if (!legal || view.complete || view.actor !== view.seat) {
    panel.hidden = true;
    panel.dataset.decision = "";
    current = null;
    decision = null;
    return;
  }
  panel.hidden = false;
  const me = view.players.find((p) => p.seat === view.seat);
  const allInTo = me ? me.stack + me.bet : null;
  let allIn = null;
  if (legal.raise_to && allInTo !== null && legal.raise_to[1] === allInTo) allIn = `raise to ${allInTo}`;
  else if (legal.call && me && legal.call >= me.stack) allIn = "call";
  current = { legal, me, allIn };
  const key = `${message.table}|${message.hand}|${view.events.length}`;
  const fresh = key !== decision;
  decision = key;
  panel.dataset.decision = key;

  setButton("act-fold", Boolean(legal.fold));
  setButton("act-check", Boolean(legal.check));
  setButton("act-call", Boolean(legal.call), `Call ${chips(legal.call ?? 0)} <kbd>c</kbd>`);
  const bring = legal.bring_in;
  setButton("act-bringin-low", Boolean(bring), bring ? `Bring in ${chips(bring[0])}` : "");
  setButton(
    "act-bringin-high",
    Boolean(bring) && bring[1] !== bring[0],
    bring ? `Complete to ${chips(bring[1])}` : "",
  );
  const raise = legal.raise_to;
  $("raise-box").hidden = !raise;
  $("act-raise").disabled = !raise;
  if (raise) {
    const [low, high] = raise;
    const betting = view.players.every((p) => p.bet === 0); // nothing bet yet: a bet
    $("raise-label").textContent = betting ? "Bet" : "Raise to";
    $("act-raise").innerHTML = `${betting ? "Bet" : "Raise"} <kbd>r</kbd>`;
    const slider = $("raise-slider");
    const field = $("raise-amount");
    slider.min = String(low);
    slider.max = String(high);
    field.min = String(low);
    field.max = String(high);
    slider.disabled = low === high;
    if (fresh) {
      slider.value = String(low);
      field.value = String(low);
    }
    $("raise-range").textContent = low === high ? `(${chips(low)})` : `(${chips(low)} to ${chips(high)})`;
  }
  setButton("act-allin", Boolean(allIn), `All-in${allInTo !== null ? ` ${chips(allInTo)}` : ""} <kbd>a</kbd>`);
  const discard = Boolean(legal.discard);
  $("discard-box").hidden = !discard;
  $("act-discard").disabled = !discard;
  if (discard && fresh) {
    selected = new Set();
    const cards = (me?.down ?? []).filter(Boolean);
    $("discard-cards").innerHTML = cards
      .map(
        (c) =>
          `<button type="button" class="card-toggle" aria-pressed="false" data-card="${escapeHtml(c)}">${cardHtml(c)}</button>`,
      )
      .join("");
    updateDiscardLabel();
  }
  if (fresh && !panel.contains(document.activeElement)) {
    // check or call first: a stray Enter never folds
    const first = ["act-check", "act-call", "act-bringin-low", "act-fold"]
      .map((id) => $(id))
      .find((el) => !el.hidden && !el.disabled);
    if (first && document.activeElement === document.body) first.focus({ preventScroll: true });
  }
}

function updateDiscardLabel() {
  $("act-discard").textContent = selected.size ? `Discard ${selected.size}` : "Stand pat";
}

function renderLog(context, message, names) {
  const who = (seat) => nameFor(context, names, seat);
  const lines = message.view.events.map(
    (e) => `<li data-event="${escapeHtml(e.type)}">${describe(e, who)}</li>`,
  );
  const log = $("hand-log");
  log.innerHTML = lines.join("");
  log.scrollTop = log.scrollHeight;
}

function renderTurn(context, message, names) {
  const view = message.view;
  let text;
  if (view.complete) text = "The hand is over.";
  else if (view.actor == null) text = "Dealing…";
  else if (view.actor === view.seat) text = "Your turn.";
  else text = `${nameFor(context, names, view.actor)} to act.`;
  $("turn").textContent = text;
  $("turn").dataset.mine = String(view.actor === view.seat && !view.complete);
}

export function render(context, message) {
  $("poker").dataset.hand = String(message.hand);
  const names = context.seatNames(message.table);
  renderSeats(context, message, names);
  renderCentre(message.view);
  renderTurn(context, message, names);
  renderActions(context, message);
  renderLog(context, message, names);
}

function raise(context) {
  if (!current?.legal?.raise_to) return false;
  const text = $("raise-amount").value.trim();
  // sent as typed: the server names the rule an illegal amount breaks
  context.act(`raise to ${text === "" ? "0" : text}`);
  return true;
}

function click(id) {
  const el = $(id);
  if (el.hidden || el.disabled || $("poker-actions").hidden) return false;
  el.click();
  return true;
}

export function setup(context) {
  $("act-fold").addEventListener("click", () => context.act("fold"));
  $("act-check").addEventListener("click", () => context.act("check"));
  $("act-call").addEventListener("click", () => context.act("call"));
  $("act-bringin-low").addEventListener("click", () => {
    if (current?.legal?.bring_in) context.act(`bring in ${current.legal.bring_in[0]}`);
  });
  $("act-bringin-high").addEventListener("click", () => {
    if (current?.legal?.bring_in) context.act(`bring in ${current.legal.bring_in[1]}`);
  });
  $("act-raise").addEventListener("click", () => raise(context));
  $("act-allin").addEventListener("click", () => {
    if (current?.allIn) context.act(current.allIn);
  });
  $("raise-slider").addEventListener("input", () => {
    $("raise-amount").value = $("raise-slider").value;
  });
  $("raise-amount").addEventListener("input", () => {
    const value = Number($("raise-amount").value);
    if (Number.isFinite(value)) $("raise-slider").value = String(value);
  });
  $("discard-cards").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-card]");
    if (!button) return;
    const card = button.dataset.card;
    if (selected.has(card)) selected.delete(card);
    else selected.add(card);
    button.setAttribute("aria-pressed", String(selected.has(card)));
    updateDiscardLabel();
  });
  $("act-discard").addEventListener("click", () => {
    context.act(selected.size ? `discard ${[...selected].join(" ")}` : "stand pat");
  });
}

/** A keyboard shortcut outside the text fields; true when handled. */
export function shortcut(context, key) {
  switch (key.toLowerCase()) {
    case "f":
      return click("act-fold");
    case "c":
      return click("act-check") || click("act-call");
    case "r":
      return !$("raise-box").hidden && click("act-raise");
    case "a":
      return click("act-allin");
    case "b":
      return click("act-bringin-low");
    default:
      return false;
  }
}

/** Enter in a field: raise to the amount typed. */
export function enter(context, target) {
  if (target.id === "raise-amount" && !$("poker-actions").hidden) return raise(context);
  return false;
}
