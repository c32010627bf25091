// The blackjack table: the dealer, the boxes (several players may back one box), their
// hands with totals, splits, doubles and surrenders, the insurance offer, the bankrolls,
// the wager, play and insurance controls, and the round's log.

import { cardHtml, cardsHtml, cardsText, escapeHtml } from "./cards.js";

const $ = (id) => document.getElementById(id);

let current = null; // {view, mine, legal}
let decision = null;

function chips(n) {
  return Number(n).toLocaleString("en");
}

function signed(n) {
  return `${n >= 0 ? "+" : "−"}${chips(Math.abs(n))}`;
}

/** One line of the round's log. */
export function describe(event) {
  const p = (name) => escapeHtml(name ?? "");
  switch (event.type) {
    case "RoundStarted":
      return "The round starts: place your wagers";
    case "HiddenCard":
      return event.what === "hole card" ? "The dealer takes a hole card" : `A card is ${escapeHtml(event.what)}`;
    case "WagerPlaced":
      return `${p(event.player)} wagers ${chips(event.amount)} on box ${event.box}`;
    case "WagerWithdrawn":
      return `${p(event.player)} takes back the wager on box ${event.box}`;
    case "CardBurned":
      return "A card is burned";
    case "CardDealt":
      return `Box ${event.box} hand ${event.hand + 1} gets ${cardsText([event.card])}`;
    case "DealerCard":
      return event.hidden ? "The dealer takes a hole card" : `The dealer gets ${cardsText([event.card])}`;
    case "InsuranceDecided":
      return event.amount
        ? `${p(event.player)} insures box ${event.box} for ${chips(event.amount)}`
        : `${p(event.player)} declines insurance on box ${event.box}`;
    case "BoxAction":
      return `Box ${event.box} hand ${event.hand + 1}: ${escapeHtml(event.action)}`;
    case "InsuranceSettled":
      return `${p(event.player)}'s insurance on box ${event.box}: ${signed(event.net)}`;
    case "HandSettled":
      return (
        `Box ${event.box} hand ${event.hand + 1}, ${p(event.player)}: ${escapeHtml(event.outcome)} ` +
        `${signed(event.net)}${event.rule ? ` <span class="muted">(${escapeHtml(event.rule)})</span>` : ""}`
      );
    case "DealEnded":
      return `Round over: ${(event.bankrolls ?? []).map(([n, c]) => `${p(n)} ${chips(c)}`).join(", ")}`;
    default:
      return escapeHtml(event.type);
  }
}

function isActor(view, box, hand) {
  const a = view.actor;
  return Boolean(a && a.box === box && (a.hand === hand || a.hand == null));
}

function renderBoxes(view, me) {
  const html = [];
  for (const box of view.boxes) {
    const mine = box.wagers.some(([n]) => n === me);
    const classes = ["box"];
    if (mine) classes.push("mine");
    if (view.actor && view.actor.box === box.number) classes.push("acting");
    const hands = box.hands
      .map((hand, i) => {
        const flags = [];
        if (hand.from_split) flags.push(hand.split_aces ? "split aces" : "split");
        if (hand.doubled) flags.push("doubled");
        if (hand.surrendered) flags.push("surrendered");
        if (hand.total > 21) flags.push("bust");
        else if (hand.done) flags.push("done");
        const active = isActor(view, box.number, i) && view.actor.hand != null;
        const total = hand.cards.length
          ? `${hand.soft && hand.total <= 21 ? "soft " : ""}${hand.total}`
          : "";
        return (
          `<div class="bj-hand${active ? " acting" : ""}" data-box="${box.number}" data-hand="${i}"` +
          ` data-total="${hand.total}" data-cards="${hand.cards.length}"` +
          ` data-doubled="${hand.doubled}" data-split="${hand.from_split}">` +
          `<div class="cards">${cardsHtml(hand.cards)}</div>` +
          `<div class="total">total <strong>${escapeHtml(total)}</strong></div>` +
          `<div class="stakes">${hand.stakes.map(([n, c]) => `${escapeHtml(n)} ${chips(c)}`).join(" · ")}</div>` +
          (flags.length ? `<div class="flags">${flags.map((f) => `<span class="badge">${f}</span>`).join("")}</div>` : "") +
          `</div>`
        );
      })
      .join("");
    const insurance = box.insurance.length
      ? `<div class="muted">insurance: ${box.insurance.map(([n, c]) => `${escapeHtml(n)} ${chips(c)}`).join(", ")}</div>`
      : "";
    const even = box.even_money.length
      ? `<div class="muted">even money: ${box.even_money.map(escapeHtml).join(", ")}</div>`
      : "";
    html.push(
      `<div class="${classes.join(" ")}" data-box="${box.number}"><h3>Box ${box.number}</h3>` +
        `<div class="wagers">${box.wagers
          .map(([n, c], i) => `<span class="wager${i === 0 ? " decides" : ""}">${escapeHtml(n)} ${chips(c)}</span>`)
          .join("")}</div>` +
        `<div class="bj-hands">${hands}</div>${insurance}${even}</div>`,
    );
  }
  $("bj-boxes").innerHTML = html.join("") || `<p class="muted">No wagers yet.</p>`;
}

function renderDealer(view) {
  let html = cardsHtml(view.dealer);
  if (view.hole_card) html += cardHtml(null);
  $("bj-dealer").innerHTML = html || `<span class="muted">no cards yet</span>`;
  $("bj-dealer-total").innerHTML = view.dealer.length
    ? `total <strong id="bj-dealer-value">${view.dealer_total}</strong>${view.hole_card ? " showing" : ""}`
    : "";
}

function show(id, visible) {
  const el = $(id);
  el.hidden = !visible;
  el.disabled = !visible;
}

function renderControls(message, me) {
  const view = message.view;
  const legal = view.legal;
  current = { view, legal, me };
  const key = `${message.table}|${message.hand}|${view.events.length}`;
  const fresh = key !== decision;
  decision = key;

  const wagers = legal?.wagers ?? [];
  $("bj-wager-box").hidden = wagers.length === 0;
  if (wagers.length) {
    const select = $("bj-wager-target");
    const previous = select.value;
    const boxes = [...new Set(wagers.map((w) => w.box))];
    select.innerHTML =
      `<option value="">my box</option>` +
      boxes.map((b) => `<option value="${b}">box ${b}</option>`).join("");
    if ([...select.options].some((o) => o.value === previous)) select.value = previous;
    const limit = wagers.find((w) => String(w.box) === select.value) ?? wagers[0];
    const field = $("bj-wager-amount");
    field.min = String(limit.low);
    field.max = String(limit.high);
    field.step = String(limit.unit ?? legal.unit ?? 1);
    if (fresh && !field.value) field.value = String(limit.low);
    $("bj-wager-range").textContent = `(${chips(limit.low)} to ${chips(limit.high)})`;
  }
  show("bj-deal", Boolean(legal?.deal));

  const mine = Boolean(legal?.actor && legal.actor.player === me);
  const playing = mine && legal.actor.hand != null && !legal.decline_insurance;
  $("bj-play-box").hidden = !playing;
  for (const [id, ok] of [
    ["bj-hit", legal?.hit],
    ["bj-stand", legal?.stand],
    ["bj-double", legal?.double],
    ["bj-split", legal?.split],
    ["bj-surrender", legal?.surrender],
  ]) {
    const el = $(id);
    el.disabled = !playing || !ok;
    el.hidden = !playing || !ok;
  }
  const insuring = mine && Boolean(legal.decline_insurance);
  $("bj-insure-box").hidden = !insuring;
  const insure = legal?.insure;
  $("bj-insure").disabled = !insuring || !insure;
  $("bj-insure").hidden = !insuring || !insure;
  $("bj-insure-amount").hidden = !insuring || !insure;
  if (insuring && insure) {
    const field = $("bj-insure-amount");
    field.min = String(insure[0]);
    field.max = String(insure[1]);
    if (fresh) field.value = String(insure[1]);
  }
  show("bj-decline", insuring);
  show("bj-even", insuring && Boolean(legal.even_money));

  const todo = insuring ? "insure" : playing ? "play" : wagers.length ? "wager" : "";
  $("bj-actions").dataset.decision = todo ? `${key}|${todo}` : "";
  $("blackjack").dataset.hand = String(message.hand);

  const offer = view.insurance_offer;
  $("bj-insurance").hidden = !offer;
  $("bj-insurance").textContent = offer
    ? `Insurance is offered to ${offer.player} on box ${offer.box} (up to ${chips(offer.cap)})` +
      (offer.even_money ? ", or even money." : ".")
    : "";
}

function renderTurn(view, me) {
  let text;
  const a = view.actor;
  if (view.complete) text = "The round is settled.";
  else if (view.phase === "wagers") text = "Place your wagers.";
  else if (!a) text = "The dealer plays.";
  else if (a.player === me)
    text = a.hand == null ? `Your insurance decision on box ${a.box}.` : `Your turn: box ${a.box}, hand ${a.hand + 1}.`;
  else text = `${a.player} to act on box ${a.box}.`;
  $("bj-turn").textContent = text;
  $("bj-turn").dataset.mine = String(Boolean(a && a.player === me && !view.complete));
  $("turn").textContent = text;
}

export function render(context, message) {
  const view = message.view;
  const me = context.state.player;
  $("bj-phase").textContent = `round ${message.hand} · ${view.phase}`;
  renderDealer(view);
  renderBoxes(view, me);
  $("bj-bankrolls").innerHTML =
    "Bankrolls: " +
    view.bankrolls
      .map(([n, c]) => `<span class="bankroll${n === me ? " mine" : ""}" data-player="${escapeHtml(n)}">${escapeHtml(n)} ${chips(c)}</span>`)
      .join(" · ");
  renderTurn(view, me);
  renderControls(message, me);
  $("hand-log").innerHTML = view.events
    .map((e) => `<li data-event="${escapeHtml(e.type)}">${describe(e)}</li>`)
    .join("");
}

function wager(context) {
  const amount = $("bj-wager-amount").value.trim() || "0";
  const box = $("bj-wager-target").value;
  context.act(box ? `wager ${box} ${amount}` : `wager ${amount}`);
  return true;
}

function insure(context) {
  const amount = $("bj-insure-amount").value.trim() || "0";
  context.act(`insure ${amount}`);
  return true;
}

export function setup(context) {
  $("bj-wager").addEventListener("click", () => wager(context));
  $("bj-deal").addEventListener("click", () => context.act("deal"));
  for (const [id, action] of [
    ["bj-hit", "hit"],
    ["bj-stand", "stand"],
    ["bj-double", "double"],
    ["bj-split", "split"],
    ["bj-surrender", "surrender"],
    ["bj-decline", "decline"],
    ["bj-even", "even money"],
  ]) {
    $(id).addEventListener("click", () => context.act(action));
  }
  $("bj-insure").addEventListener("click", () => insure(context));
  $("bj-wager-target").addEventListener("change", () => {
    const wagers = current?.legal?.wagers ?? [];
    const limit = wagers.find((w) => String(w.box) === $("bj-wager-target").value) ?? wagers[0];
    if (limit) $("bj-wager-range").textContent = `(${chips(limit.low)} to ${chips(limit.high)})`;
  });
}

function click(id) {
  const el = $(id);
  if (el.hidden || el.disabled || el.closest("[hidden]")) return false;
  el.click();
  return true;
}

/** A keyboard shortcut outside the text fields; true when handled. */
export function shortcut(context, key) {
  const ids = { w: "bj-wager", h: "bj-hit", s: "bj-stand", d: "bj-double", p: "bj-split",
    u: "bj-surrender", i: "bj-insure", n: "bj-decline", e: "bj-even" };
  const id = ids[key.toLowerCase()];
  return id ? click(id) : false;
}

/** Enter in a field: wager or insure the amount typed. */
export function enter(context, target) {
  if (target.id === "bj-wager-amount" && !$("bj-wager-box").hidden) return wager(context);
  if (target.id === "bj-insure-amount" && !$("bj-insure-box").hidden) return insure(context);
  return false;
}
