// The card room's browser client: a hash router (#login, #lobby, #table/NAME, #account),
// the session token, one WebSocket to /ws (reconnecting by itself), the lobby and the table
// pages. The poker and blackjack tables are drawn by poker.js and blackjack.js.
//
// The server sends a strict Content-Security-Policy (script-src 'self', style-src 'self'):
// no inline scripts or event-handler attributes, no style="" in the HTML nor in strings
// given to innerHTML (classes, or element.style from here, instead), no eval.

import { escapeHtml } from "./cards.js";
import { verifyReveal } from "./fairness.js";
import * as poker from "./poker.js";
import * as blackjack from "./blackjack.js";

const $ = (id) => document.getElementById(id);

/** The WebSocket close code of a session the server ended (revoked or expired). */
const POLICY_VIOLATION = 1008;
const SESSION_ENDED = "Your session ended: log in again.";
/** A 401's detail that refuses the session token (not a password): it ended. */
const SESSION_REFUSED = /token|authorization/i;
/** How long Log out waits for the server to revoke the token (ms). */
const REVOKE_WAIT = 5000;

const state = {
  token: localStorage.getItem("croupier.token"),
  name: localStorage.getItem("croupier.name"),
  player: null, // the name the server greeted us as
  seated: [], // tables the welcome says we sit at
  socket: null,
  greeted: false,
  outbox: [],
  retry: 0,
  tables: new Map(), // name -> TableInfo
  table: null, // the table on screen
  page: null, // the page on screen: login, account, lobby or table
  view: null, // the last view message of that table
  commitments: new Map(), // `${table}/${hand}` -> digest
  lastCommitment: new Map(), // table -> {hand, digest}
  finished: new Map(), // table -> {message, verdict}
  deadline: null, // performance.now() ms when the actor's time runs out
  deadlineKey: null,
  sittingOut: new Set(), // tables where we asked to sit out
  timeBank: 30,
  logs: new Map(), // table -> {hand, events}: each table's log as the views built it up
};

/** A view carries the log's events from `events_from` on: put the whole log together
 * (into the message, as the pages read it). False when the earlier events are missing
 * here (then ask for the whole view again). */
function mergeLog(message) {
  const from = message.events_from ?? 0;
  let events = message.view.events ?? [];
  if (from > 0) {
    const known = state.logs.get(message.table);
    if (!known || known.hand !== message.hand || known.events.length < from) return false;
    events = known.events.slice(0, from).concat(events);
  }
  state.logs.set(message.table, { hand: message.hand, events });
  message.view.events = events;
  return true;
}

const context = {
  state,
  act(action) {
    if (!state.table || !state.view) return;
    clearError();
    send({ type: "act", table: state.table, action, hand: state.view.hand });
  },
  /** seat number -> player name, from the lobby (seats in order) and the last results */
  seatNames(table) {
    const names = new Map();
    const sent = state.view && state.view.table === table ? state.view.names : null;
    if (sent) for (const [seat, name] of Object.entries(sent)) names.set(Number(seat), name);
    const info = state.tables.get(table);
    if (info) {
      const free = new Set(info.free_seats);
      const taken = [];
      for (let s = 1; s <= info.seats; s += 1) if (!free.has(s)) taken.push(s);
      taken.forEach((seat, i) => {
        if (info.players[i] !== undefined && !names.has(seat)) names.set(seat, info.players[i]);
      });
    }
    const done = state.finished.get(table);
    if (done) for (const r of done.message.results) if (!names.has(r.seat)) names.set(r.seat, r.name);
    return names;
  },
  showError,
};

// ------------------------------------------------------------------ the socket
function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN && state.greeted) {
    state.socket.send(JSON.stringify(message));
  } else {
    state.outbox.push(message);
    connect();
  }
}

/** The header's connection state: empty while there is no socket (nobody logged in, not
 * watching), so "offline" is never said of a socket that was not meant to be open. */
function setStatus(text, kind) {
  const el = $("status");
  el.textContent = text;
  el.dataset.state = kind;
}

function connect() {
  if (state.socket && state.socket.readyState <= WebSocket.OPEN) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  state.socket = socket;
  state.greeted = false;
  setStatus("connecting…", "connecting");
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ type: "hello", token: state.token || null }));
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    receive(message);
  });
  socket.addEventListener("close", (event) => {
    if (state.socket !== socket) return;
    state.greeted = false;
    if (event.code === POLICY_VIOLATION && state.token) {
      // the server revoked the token (or it expired): a new login, not a reconnect
      forgetSession(SESSION_ENDED);
      return;
    }
    setStatus("disconnected: reconnecting…", "offline");
    const wait = Math.min(5000, 250 * 2 ** state.retry);
    state.retry += 1;
    setTimeout(connect, wait);
  });
}

function receive(message) {
  switch (message.type) {
    case "welcome":
      state.greeted = true;
      state.retry = 0;
      state.player = message.player;
      state.seated = message.seated ?? [];
      if (state.token && message.player && message.player !== state.name) {
        // the server's spelling of the name (NFKC, the registered case)
        state.name = message.player;
        localStorage.setItem("croupier.name", message.player);
        renderHeader();
      }
      setStatus(message.player ? `connected as ${message.player}` : "watching", "online");
      if (state.table) state.socket.send(JSON.stringify({ type: "watch", table: state.table }));
      for (const queued of state.outbox.splice(0)) state.socket.send(JSON.stringify(queued));
      renderLobbySeated();
      break;
    case "lobby":
      setTables(message.tables);
      break;
    case "commitment":
      state.commitments.set(`${message.table}/${message.hand}`, message.digest);
      state.lastCommitment.set(message.table, { hand: message.hand, digest: message.digest });
      if (message.table === state.table) renderFairness();
      refreshTables();
      break;
    case "view":
      if (message.commitment) {
        state.commitments.set(`${message.table}/${message.hand}`, message.commitment);
        const last = state.lastCommitment.get(message.table);
        if (!last || last.hand !== message.hand || last.digest !== message.commitment) {
          state.lastCommitment.set(message.table, { hand: message.hand, digest: message.commitment });
        }
      }
      if (!mergeLog(message)) {
        send({ type: "watch", table: message.table });
        break;
      }
      if (message.table !== state.table) break;
      state.view = message;
      setDeadline(message);
      renderTable();
      break;
    case "hand_finished":
      handFinished(message);
      break;
    case "hand_voided":
      if (message.table === state.table) {
        showError(`Hand ${message.hand} was voided: ${message.reason}. Every wager went back.`);
      }
      break;
    case "error":
      if (message.code === "unauthorized" && !state.greeted && state.token) {
        // a revoked or expired token (the server closes the socket too)
        forgetSession(SESSION_ENDED);
        return;
      }
      showError(message.message, message.rule, message.allowed, message.code);
      break;
    default:
      break;
  }
}

/** The actor's deadline: the server's time_left; when it sends none for the viewer's own
 * turn (the clock starts just after the view goes out), the table's whole time bank. */
function setDeadline(message) {
  const view = message.view;
  const key = `${message.table}|${message.hand}|${view.events?.length}`;
  if (typeof message.time_left === "number") {
    state.deadline = performance.now() + message.time_left * 1000;
    state.deadlineKey = key;
  } else if (view.legal && !view.complete && myTurn(message)) {
    if (state.deadlineKey !== key) state.deadline = performance.now() + state.timeBank * 1000;
    state.deadlineKey = key;
  } else {
    state.deadline = null;
    state.deadlineKey = null;
  }
}

function myTurn(message) {
  const view = message.view;
  if (message.kind === "blackjack") return Boolean(view.actor && view.actor.player === state.player);
  return view.actor != null && view.actor === view.seat;
}

async function handFinished(message) {
  const digest =
    message.commitment ?? state.commitments.get(`${message.table}/${message.hand}`) ?? null;
  const entry = { message, verdict: { status: "checking", detail: "" }, digest };
  state.finished.set(message.table, entry);
  if (message.table === state.table) {
    renderResults();
    if (state.view && state.view.hand === message.hand) {
      const what = message.kind === "blackjack" ? "round" : "hand";
      $("last-log-title").textContent = `The log of ${what} ${message.hand}`;
      $("last-log").innerHTML = $("hand-log").innerHTML;
      $("last-log-box").hidden = false;
      $("last-log-box").dataset.hand = String(message.hand);
    }
  }
  refreshTables();
  entry.verdict = await verifyReveal(digest, message.reveal);
  if (message.table === state.table) renderResults();
}

// ------------------------------------------------------------------ lobby
async function refreshTables() {
  try {
    const reply = await fetch("/api/tables");
    if (!reply.ok) throw new Error(`GET /api/tables: ${reply.status}`);
    setTables((await reply.json()).tables);
    $("lobby-error").textContent = "";
  } catch (error) {
    $("lobby-error").textContent = `Could not load the tables: ${error.message}`;
  }
}

function setTables(tables) {
  state.tables = new Map(tables.map((t) => [t.name, t]));
  renderLobby();
  if (state.table) renderSeatControls();
}

function isSeated(info) {
  return Boolean(state.player && info && info.players.includes(state.player));
}

function stakes(info) {
  if (info.kind === "blackjack") return `wagers ${info.blinds.join("–")}`;
  return `${info.structure} ${info.blinds.join("/")}`;
}

function renderLobby() {
  const rows = [];
  for (const info of state.tables.values()) {
    const seated = isSeated(info);
    const name = escapeHtml(info.name);
    const canSit = !seated && info.free_seats.length > 0 && state.token;
    rows.push(
      `<tr data-table="${name}"><th scope="row">${name}</th>` +
        `<td>${escapeHtml(info.kind === "blackjack" ? "blackjack" : info.game)}</td>` +
        `<td>${escapeHtml(stakes(info))}</td>` +
        `<td>${info.players.length}/${info.seats}` +
        `<span class="players"> ${escapeHtml(info.players.join(", "))}</span></td>` +
        `<td>${info.buy_in}</td><td>${info.hand}</td><td class="row">` +
        `<a class="button" href="#table/${encodeURIComponent(info.name)}">` +
        `${seated ? "Back to the table" : "Watch"}</a>` +
        (canSit ? `<button type="button" data-sit="${name}">Sit down</button>` : "") +
        `</td></tr>`,
    );
  }
  $("lobby-rows").innerHTML = rows.join("") || `<tr><td colspan="7">No tables</td></tr>`;
  renderLobbySeated();
}

function renderLobbySeated() {
  const el = $("lobby-seated");
  const seated = state.seated.filter((t) => state.tables.has(t));
  el.hidden = seated.length === 0;
  el.innerHTML = seated.length
    ? `You sit at ${seated
        .map((t) => `<a href="#table/${encodeURIComponent(t)}">${escapeHtml(t)}</a>`)
        .join(", ")}.`
    : "";
}

function sitAt(table) {
  send({ type: "sit", table, seat: null });
  if (state.table !== table) location.hash = `#table/${encodeURIComponent(table)}`;
  setTimeout(refreshTables, 300);
}

// ------------------------------------------------------------------ table
function clearError() {
  $("table-error").textContent = "";
}

function showError(message, rule, allowed, code) {
  const el = $("table-error");
  const where = state.table ? el : $("lobby-error");
  const parts = [`<span class="message">${escapeHtml(message)}</span>`];
  if (rule) parts.push(`<span class="rule">Rule ${escapeHtml(rule)}</span>`);
  if (allowed && !String(message).includes(allowed)) parts.push(`<span class="allowed">Allowed: ${escapeHtml(allowed)}</span>`);
  where.innerHTML = parts.join(" ");
  where.dataset.code = code ?? "";
}

function renderSeatControls() {
  const info = state.tables.get(state.table);
  const seated = isSeated(info);
  $("table-title").textContent = state.table;
  $("table-info").textContent = info
    ? `${info.kind === "blackjack" ? "blackjack" : info.game} · ${stakes(info)} · buy-in ${info.buy_in} · ` +
      `${info.players.length}/${info.seats} seated · hand ${info.hand}`
    : "";
  state.timeBank = info?.time_bank ?? state.timeBank;
  $("seat-sit").hidden = !state.token || seated || !info || info.free_seats.length === 0;
  $("seat-leave").hidden = !seated;
  const out = state.sittingOut.has(state.table);
  $("seat-sitout").hidden = !seated || out;
  $("seat-sitin").hidden = !seated || !out;
  $("rebuy-box").hidden = !seated;
  if (info && !$("rebuy-amount").value) $("rebuy-amount").value = String(info.buy_in);
}

function renderFairness() {
  const last = state.lastCommitment.get(state.table);
  const shoe = state.tables.get(state.table)?.kind === "blackjack";
  $("commit-what").textContent = shoe ? "Shoe commitment" : "Deck commitment";
  $("commit-hand").textContent = last ? ` (${shoe ? "round" : "hand"} ${last.hand})` : "";
  $("commitment").textContent = last ? last.digest : "none yet";
  $("commitment").title = last ? `SHA-256(order || salt) = ${last.digest}` : "";
}

function renderResults() {
  const entry = state.finished.get(state.table);
  const box = $("results");
  if (!entry) {
    box.hidden = true;
    $("verify-line").hidden = true;
    return;
  }
  const { message, verdict } = entry;
  box.hidden = false;
  box.dataset.handId = String(message.hand_id);
  box.dataset.hand = String(message.hand);
  const what = message.kind === "blackjack" ? "Round" : "Hand";
  box.innerHTML =
    `<strong>${what} ${message.hand} finished</strong> (record #<span id="last-hand-id">` +
    `${message.hand_id}</span>): ` +
    message.results
      .map((r) => `<span class="result">${escapeHtml(r.name)} ${r.stack}</span>`)
      .join(" · ");
  $("verify-line").hidden = false;
  $("verify-hand").textContent = ` (${what.toLowerCase()} ${message.hand})`;
  const el = $("verify");
  el.dataset.status = verdict.status;
  el.dataset.hand = String(message.hand);
  el.textContent =
    verdict.status === "verified"
      ? "verified ✓"
      : verdict.status === "MISMATCH"
        ? "MISMATCH ✗"
        : verdict.status === "checking"
          ? "checking…"
          : message.reveal === null && message.kind === "blackjack"
            ? "the shoe is still in play: it is revealed after its last round"
            : `unchecked (${verdict.detail})`;
  $("verify-detail").textContent =
    verdict.status === "verified"
      ? `SHA-256(order || salt) = ${verdict.computed}`
      : verdict.status === "MISMATCH"
        ? `computed ${verdict.computed}, ${verdict.detail}`
        : "";
}

function renderTable() {
  const message = state.view;
  const kind = message?.kind ?? state.tables.get(state.table)?.kind ?? "poker";
  $("poker").hidden = kind !== "poker" || !message;
  $("blackjack").hidden = kind !== "blackjack" || !message;
  $("table-waiting").hidden = Boolean(message);
  if (!message) {
    $("hand-log").innerHTML = "";
    return;
  }
  if (kind === "blackjack") blackjack.render(context, message);
  else poker.render(context, message);
  tick();
}

function tick() {
  const box = $("timer-box");
  const view = state.view;
  if (!view || state.deadline === null || view.view.complete) {
    box.hidden = true;
    return;
  }
  const left = Math.max(0, (state.deadline - performance.now()) / 1000);
  box.hidden = false;
  $("timer").textContent = `${Math.ceil(left)} s left`;
  const bar = $("timer-bar");
  bar.max = Math.max(state.timeBank, left);
  bar.value = left;
  box.classList.toggle("urgent", left < 5);
}

// ------------------------------------------------------------------ pages
function show(page) {
  state.page = page;
  for (const el of document.querySelectorAll(".page")) el.hidden = el.id !== `page-${page}`;
  renderHeader();
}

/** The header: logged in, the name, Account and Log out; not, a link to the login page
 * ("Log in" there, "Log in / Register" while watching), and the lobby's "Log in to sit
 * down". */
function renderHeader() {
  const loggedIn = Boolean(state.token);
  $("whoami").textContent = loggedIn && state.name ? state.name : "";
  $("account-link").hidden = !loggedIn;
  $("logout").hidden = !loggedIn;
  $("logout").disabled = false;
  const link = $("login-link");
  link.hidden = loggedIn;
  link.textContent = state.page === "login" ? "Log in" : "Log in / Register";
  $("lobby-login").hidden = loggedIn;
}

function route() {
  const hash = decodeURIComponent(location.hash.slice(1));
  const [page, ...rest] = hash.split("/");
  const table = rest.join("/");
  if (page === "login" || (!state.token && page !== "lobby" && page !== "table")) {
    state.table = null;
    state.view = null;
    if (!state.token) closeSocket(); // a spectator's socket: nothing to watch here
    show("login");
    $("login-name").focus();
    return;
  }
  connect();
  if (page === "account") {
    state.table = null;
    state.view = null;
    showAccount();
    return;
  }
  if (page === "table" && table) {
    if (state.table !== table) {
      state.table = table;
      state.view = null;
      $("last-log-box").hidden = true;
      $("last-log").innerHTML = "";
      state.deadline = null;
      clearError();
      send({ type: "watch", table });
    }
    show("table");
    renderSeatControls();
    renderFairness();
    renderResults();
    renderTable();
    refreshTables();
    return;
  }
  state.table = null;
  state.view = null;
  show("lobby");
  refreshTables();
  if (location.hash !== "#lobby") history.replaceState(null, "", "#lobby");
}

// ------------------------------------------------------------------ login
const NAME_RULES = "a name is 1 to 40 letters and digits, with _ . - only between them";

/** A request the server refused: `message` is for the person (its `detail`, in words). */
class Refused extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** A wait in words: "in 15 minutes" from 120 s on (rounded up), else "in 90 seconds". */
function waitWords(seconds) {
  if (seconds >= 120) return `in ${Math.ceil(seconds / 60)} minutes`;
  return `in ${seconds} second${seconds === 1 ? "" : "s"}`;
}

/** The seconds a Retry-After header asks to wait (seconds, or an HTTP date); null: none. */
function retryAfter(value) {
  const text = (value ?? "").trim();
  if (/^\d+$/.test(text)) return Math.max(1, Number(text));
  const when = Date.parse(text);
  return Number.isNaN(when) ? null : Math.max(1, Math.ceil((when - Date.now()) / 1000));
}

/** One complaint of a validation error (422) in words (the limits are the server's). */
function fieldProblem(problem) {
  const field = problem.loc?.[problem.loc.length - 1];
  const message = String(problem.msg ?? "").replace(/^Value error, /, "");
  if (String(field).endsWith("password")) {
    const which = field === "new_password" ? "the new password" : "the password";
    const { min_length: least, max_length: most } = problem.ctx ?? {};
    if (problem.type === "string_too_short" && least) {
      return `${which} needs ${least} characters or more`;
    }
    if (problem.type === "string_too_long" && most) return `${which} has ${most} characters at most`;
  }
  if (field === "name" && problem.type === "string_pattern_mismatch") return NAME_RULES;
  return message;
}

/** The Refused error of a reply that is not ok: the server's `detail`, or for 429 the wait
 * that Retry-After asks. */
async function refusal(reply) {
  if (reply.status === 429) {
    const wait = retryAfter(reply.headers.get("Retry-After"));
    const when = wait === null ? "later" : waitWords(wait);
    return new Refused(`Too many attempts: try again ${when}.`, 429);
  }
  let body = {};
  try {
    body = await reply.json();
  } catch {
    body = {};
  }
  let detail = body.detail ?? (reply.statusText || `HTTP ${reply.status}`);
  if (Array.isArray(detail)) detail = detail.map(fieldProblem).join("; ");
  return new Refused(String(detail), reply.status);
}

/** POST `body` as JSON (with the session token when given): the reply's JSON body. Throws
 * Refused when the server says no. */
async function post(path, body, token = null, signal = undefined) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const reply = await fetch(path, {
    method: "POST",
    headers,
    body: body === null ? undefined : JSON.stringify(body),
    signal,
  });
  if (!reply.ok) throw await refusal(reply);
  try {
    return await reply.json();
  } catch {
    return {};
  }
}

function setNotice(text) {
  $("login-notice").textContent = text;
  $("login-notice").hidden = !text;
}

/** Close the socket on purpose (its close is no news: no reconnect, no "offline"). */
function closeSocket() {
  if (state.socket) {
    const old = state.socket;
    state.socket = null;
    state.greeted = false;
    old.close();
  }
  setStatus("", "idle");
}

const ACCOUNT_PASSWORDS = ["password-old", "password-new", "password-again"];

/** Empty every password field (the login page's and the account page's). */
function clearPasswords() {
  $("login-password").value = "";
  for (const id of ACCOUNT_PASSWORDS) $(id).value = "";
}

async function login(register) {
  const error = $("login-error");
  error.textContent = "";
  setNotice("");
  const name = $("login-name").value.trim();
  const password = $("login-password").value;
  try {
    if (register) await post("/api/register", { name, password });
    const body = await post("/api/login", { name, password });
    state.token = body.token;
    state.name = name;
    localStorage.setItem("croupier.token", body.token);
    localStorage.setItem("croupier.name", name);
    localStorage.setItem("croupier.expires", body.expires_at);
    $("login-password").value = ""; // in: the page keeps no password
    closeSocket();
    location.hash = "#lobby";
    route();
  } catch (problem) {
    error.textContent =
      problem.status === 429
        ? problem.message
        : `${register ? "Registration" : "Login"} failed: ${problem.message}`;
  }
}

/** Forget the session here (the token, the name, the socket, every typed password: the
 * login form keeps the name only), then the login page with `notice`. The server is not
 * asked: see logout(). */
function forgetSession(notice = "") {
  state.token = null;
  state.name = null;
  state.player = null;
  state.seated = [];
  localStorage.removeItem("croupier.token");
  localStorage.removeItem("croupier.name");
  localStorage.removeItem("croupier.expires");
  closeSocket();
  clearPasswords();
  location.hash = "#login";
  route();
  setNotice(notice);
}

/** Log out: the server revokes the token (a failure changes nothing), then forget it. */
async function logout() {
  const token = state.token;
  $("logout").disabled = true;
  closeSocket(); // first: the revocation's close (1008) is not news to this page
  if (token) {
    try {
      await post("/api/logout", null, token, AbortSignal.timeout(REVOKE_WAIT));
    } catch {
      // offline, or the token was dead already: forgotten all the same
    }
  }
  forgetSession();
}

// ------------------------------------------------------------------ account
function showAccount() {
  show("account");
  $("password-name").value = state.name ?? "";
  $("password-error").textContent = "";
  $("password-done").textContent = "";
  $("logout-all-error").textContent = "";
}

async function changePassword() {
  const error = $("password-error");
  const done = $("password-done");
  error.textContent = "";
  done.textContent = "";
  const oldPassword = $("password-old").value;
  const newPassword = $("password-new").value;
  if (!oldPassword || !newPassword) {
    error.textContent = "Type the current password and the new one (twice).";
    return;
  }
  if (newPassword !== $("password-again").value) {
    error.textContent = "The two new passwords differ.";
    return;
  }
  $("password-submit").disabled = true;
  try {
    const body = await post(
      "/api/password",
      { old_password: oldPassword, new_password: newPassword },
      state.token,
    );
    if (typeof body.token === "string") {
      // a server that hands out a fresh token with the new password
      state.token = body.token;
      localStorage.setItem("croupier.token", body.token);
      if (body.expires_at) localStorage.setItem("croupier.expires", body.expires_at);
    }
    for (const id of ACCOUNT_PASSWORDS) $(id).value = "";
    done.textContent = "Password changed. Your other sessions have ended.";
  } catch (problem) {
    if (problem.status === 401 && SESSION_REFUSED.test(problem.message)) {
      forgetSession(SESSION_ENDED); // the token, not the password, was refused
      return;
    }
    if (problem.status === 401) {
      // the server's words ("wrong name or password") name a field this form has not
      error.textContent = "The current password is wrong.";
      $("password-old").value = "";
      $("password-old").focus();
    } else {
      error.textContent =
        problem.status === 429 ? problem.message : `The password is unchanged: ${problem.message}`;
    }
  } finally {
    $("password-submit").disabled = false;
  }
}

async function logoutEverywhere() {
  const token = state.token;
  if (!token) return;
  const error = $("logout-all-error");
  error.textContent = "";
  $("logout-all").disabled = true;
  closeSocket(); // first: the revocation's close (1008) is not news to this page
  try {
    await post("/api/logout/all", null, token);
  } catch (problem) {
    if (problem instanceof Refused && problem.status === 401) {
      forgetSession(SESSION_ENDED); // this session had ended already
    } else {
      error.textContent = `Could not log out everywhere: ${problem.message}`;
      connect();
    }
    return;
  } finally {
    $("logout-all").disabled = false;
  }
  forgetSession("You are logged out everywhere.");
}

// ------------------------------------------------------------------ start
function keydown(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || !state.table || !state.view) return;
  const target = event.target;
  const typing =
    target instanceof HTMLInputElement && target.type !== "range" && target.type !== "checkbox";
  if (typing || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) {
    if (event.key === "Enter") {
      const handled =
        state.view.kind === "blackjack"
          ? blackjack.enter(context, target)
          : poker.enter(context, target);
      if (handled) event.preventDefault();
    }
    return;
  }
  const handled =
    state.view.kind === "blackjack"
      ? blackjack.shortcut(context, event.key)
      : poker.shortcut(context, event.key);
  if (handled) event.preventDefault();
}

function start() {
  $("login-form").addEventListener("submit", (event) => {
    event.preventDefault();
    login(false);
  });
  $("register-submit").addEventListener("click", () => login(true));
  $("logout").addEventListener("click", () => logout());
  $("password-form").addEventListener("submit", (event) => {
    event.preventDefault();
    changePassword();
  });
  $("logout-all").addEventListener("click", () => logoutEverywhere());
  $("lobby-rows").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-sit]");
    if (button) sitAt(button.dataset.sit);
  });
  $("seat-sit").addEventListener("click", () => sitAt(state.table));
  $("seat-leave").addEventListener("click", () => {
    send({ type: "leave", table: state.table });
    setTimeout(refreshTables, 300);
  });
  $("seat-sitout").addEventListener("click", () => {
    send({ type: "sit_out", table: state.table });
    state.sittingOut.add(state.table);
    renderSeatControls();
    $("seat-sitin").focus();
  });
  $("seat-sitin").addEventListener("click", () => {
    send({ type: "sit_in", table: state.table });
    state.sittingOut.delete(state.table);
    renderSeatControls();
    $("seat-sitout").focus();
  });
  $("seat-rebuy").addEventListener("click", () => {
    const amount = Number($("rebuy-amount").value);
    send({ type: "rebuy", table: state.table, amount });
  });
  poker.setup(context);
  blackjack.setup(context);
  document.addEventListener("keydown", keydown);
  window.addEventListener("hashchange", route);
  setInterval(tick, 250);
  setInterval(() => {
    if (!document.hidden && (state.table || location.hash === "#lobby")) refreshTables();
  }, 3000);
  route();
}

start();
