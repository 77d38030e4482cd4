// Offline scoring on every page of a game (/games/<pk>/...): installs the service worker, keeps
// each hand recorded without a connection in IndexedDB (with its one-time key and expected hand
// number), shows it as "not sent yet", and sends the waiting hands in order as soon as the
// server answers. Without a connection the page scores with the browser-side rules.
//
// Online, with nothing waiting, the page works exactly as the server renders it (scoring.js and
// htmx); this module steps in only when a hand cannot be sent. A hand recorded online is one
// request: its reply says what changed of the game, and this module keeps that (in IndexedDB and
// in the copy of the page the service worker keeps) without asking the server anything more.
import { rulesetFromSpec } from "../rules/ruleset.mjs";
import { factsFromForm, fillForm, putTaps, splitCards, tapsOf, tapsWords } from "./form.mjs";
import { previewLines } from "./preview.mjs";
import { plainMessage, refusalWords, sideNames } from "./refusals.mjs";
import { InvalidFacts, cardLabel, describeHand, drawGame, effectiveHands, score, scoresBefore } from "./sheet.mjs";
import * as store from "./store.mjs";

const match = location.pathname.match(/^\/games\/(\d+)\//);
const pk = match ? Number(match[1]) : null;
let flushing = false;
let flushAgain = false;
let editing = null; // {kind: "unsent", key} | {kind: "sent", number, revision}
/** Hand forms the scorer has begun (a tap, a key or a character on them: `touched`); a form
 * cleared for the next hand is not begun any more. Showing the server's page anew never throws
 * one away. */
const begunForms = new WeakSet();
/** The server's page held back for the scorer's hand under way (`begunHand`): shown once it is
 * recorded (its send shows the page again) or left (the clock asks again). */
let serverPageWaiting = false;
let reloads = 0; // the server's page asked for again: only the last answer is shown

/** The phone kept a change (a hand, a Fix, an undo): the server's page asked for before it is
 * not shown (it is the game without the change, and showing it took away the score bar's line
 * saying what was kept); sending the change asks for the page again. */
function keptMeanwhile() {
  reloads += 1;
}

/** Remember where this game's scoring link leads, so that the link opens the kept page without
 * a connection (the phone that started the game came here straight from the start form, not
 * by the link). No request. */
async function keepLink() {
  const link = document.querySelector("[data-testid=scoring-link-url]");
  if (!link || !("caches" in window)) return;
  try {
    const links = await caches.open("allfours-links");
    await links.put(new URL(link.href).pathname, new Response(location.pathname));
  } catch {
    // No room: the link works online only.
  }
}

/** Keep this page (and where its scoring link leads) for the next time without a connection. */
async function keepThisPage() {
  if (!navigator.onLine || !("caches" in window)) return;
  try {
    await (await caches.open("allfours-pages")).add(location.pathname);
    await keepLink();
  } catch {
    // The connection went: the page kept last time stays.
  }
}

/** Keep the page as it now shows (after a reply swapped in what changed) for the next time
 * without a connection, in place of the copy kept before: no request. The kept copy's headers
 * (its content security policy) stay. The reply's notice ("Hand 1 recorded.") is not kept: it
 * said what the last tap did, and the page opened again (offline, after hands kept since) would
 * say it as if it were the latest news, as the server's page opened afresh does not. */
async function keepPageAsShown() {
  if (!("caches" in window)) return;
  try {
    const pages = await caches.open("allfours-pages");
    const kept = await pages.match(location.pathname, { ignoreVary: true });
    const headers = kept ? kept.headers : { "Content-Type": "text/html; charset=utf-8" };
    // Copied into a document of its own, which loads nothing: a copy in this one would fetch
    // its images again (the header's icon) on every hand.
    const shown = document.implementation
      .createHTMLDocument("")
      .importNode(document.documentElement, true);
    shown.querySelector("#game-notice")?.remove();
    const html = `<!DOCTYPE html>\n${shown.outerHTML}`;
    await pages.put(location.pathname, new Response(html, { headers }));
  } catch {
    // No room, or no cache in this browser: the copy kept before stays.
  }
}

/** Whether the page kept for offline use is this one as the server last sent it. */
async function keptIsCurrent() {
  if (!("caches" in window)) return true;
  const kept = await caches.match(location.pathname, { ignoreVary: true });
  if (!kept) return false;
  const node = document.getElementById("offline-state");
  if (!node) return true;
  const html = await kept.text();
  const match = html.match(/"version":\s*(\d+)/);
  return !!match && Number(match[1]) >= JSON.parse(node.textContent).version;
}

if ("serviceWorker" in navigator) {
  navigator.serviceWorker
    .register("/games/sw.js", { scope: "/games/" })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      if (!navigator.serviceWorker.controller) registration.active.postMessage("claim");
      return keptIsCurrent();
    })
    .then((current) => (current ? keepLink() : keepThisPage()))
    // Kept: the page opens without a connection from now on (tests wait for this mark).
    .then(() => caches.match(location.pathname, { ignoreVary: true }))
    .then((kept) => {
      if (kept) document.documentElement.dataset.kept = "yes";
    })
    .catch(() => {});
}

function csrfToken() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (input) return input.value;
  try {
    return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
  } catch {
    return "";
  }
}

function pageState() {
  const node = document.getElementById("offline-state");
  return node ? JSON.parse(node.textContent) : null;
}

/** The server's latest state of the game: the page's, or a newer one the phone was sent. */
async function baseState() {
  const page = pageState();
  const kept = await store.snapshotOf(pk);
  if (page && (!kept || page.version >= kept.version)) return { state: page, fromPage: true };
  return { state: kept, fromPage: false };
}

function gameOf(state) {
  const ruleset = rulesetFromSpec(state.ruleset);
  return {
    ...state,
    ruleset,
    target: ruleset.target,
    labels: state.sides.map((side) => side.label),
  };
}

/** Who deals the hand after `hands` in turn (the deal passes in order; the same dealer again
 * after a redeal), or null when the rules cannot say (no hand yet, a hand refused). */
function dealerInTurn(game, hands) {
  if (!hands.length) return null;
  try {
    return score(game, hands).next_dealer;
  } catch (error) {
    if (error instanceof InvalidFacts) return null;
    throw error;
  }
}

/** The buttons that add a kept hand (`op`) after the sheet's last hand (`hands`, as the phone
 * shows them), worded `words`. The hand goes to the dealer in turn there: its form was for an
 * earlier hand, whose dealer it only suggested. A dealer the scorer tapped otherwise is not
 * overwritten unasked: one button each. */
function addAfterButtons(game, hands, op, words) {
  const testid = `add-after-${op.number}`;
  const inTurn = dealerInTurn(game, hands);
  const tapped = op.facts?.dealer;
  if (!op.dealerChosen || !inTurn || tapped === inTurn) return [button(words, { addAfter: op.key, testid }, "primary")];
  const names = Object.fromEntries(game.sides.map((side) => [side.label, side.name]));
  return [
    button(`${words}, dealt by ${names[inTurn]} (in turn)`, { addAfter: op.key, testid }, "primary"),
    button(`${words}, dealt by ${names[tapped]} (as tapped)`, { addAfter: op.key, dealerAsTapped: "1", testid: `add-after-as-tapped-${op.number}` }),
  ];
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** A line at the top of the page (`role=status`) that says where the phone stands: made the
 * first time, removed when there is nothing to say. */
function statusLine(id, className, testid, shown) {
  let line = document.getElementById(id);
  if (!shown) {
    line?.remove();
    return null;
  }
  if (!line) {
    line = document.createElement("p");
    line.id = id;
    line.className = className;
    line.setAttribute("role", "status");
    line.dataset.testid = testid;
    (document.getElementById("main") || document.body).prepend(line);
  }
  return line;
}

/** The score bar's notice, where the server's replies say what the last tap did ("Hand 2
 * recorded."), saying `text`: in place of the one shown, or made when the page shows none (a
 * page freshly opened, or whose notice went with the scorer's last action). */
function sayInScoreBar(text) {
  let notice = document.getElementById("game-notice");
  const line = document.querySelector("#scoreboard .status-line");
  if (!notice && line) {
    notice = document.createElement("span");
    notice.id = "game-notice";
    notice.dataset.testid = "game-notice";
    line.prepend(notice, " ");
  }
  if (!notice) return;
  notice.className = "notice success";
  notice.setAttribute("role", "status");
  notice.textContent = text;
}

/** Writes to what the phone keeps beside the game's hands (the taps of the hand under way, the
 * score bar's notice), one after another, in the order asked. */
let keptWritten = Promise.resolve();
function writeKept(write) {
  keptWritten = keptWritten.then(write).catch(() => {});
  return keptWritten;
}

/** What the phone says in the score bar until the scorer's next action (a hand recorded or
 * kept, an undo, a Fix, a choice on a hand kept beside the other phone's), or null: the
 * server's page shown anew (which has no notice of its own) says it again, and so does the page
 * opened again while the kept hands' panel is shown (kept on the phone: store.mjs "notices").
 * {text, key: the kept hand the scorer's choice made (null: none), placed: for a hand added
 * after the sheet's last, the words once the server gives it its number}. */
let standingNotice = null;

function sayUntilNextAction(text, { key = null, placed = null } = {}) {
  standingNotice = { text, key, placed };
  sayInScoreBar(text);
  if (pk !== null) writeKept(() => store.putNotice({ game: pk, text, key }));
}

/** What the score bar said until the scorer's next action is no longer so. */
function forgetStandingNotice() {
  const notice = document.getElementById("game-notice");
  if (standingNotice === null) return;
  if (notice?.textContent === standingNotice.text) notice.remove();
  standingNotice = null;
  if (pk !== null) writeKept(() => store.deleteNotice(pk));
}

/** The page opened again: what the score bar said until the scorer's next action is said again
 * while the kept hands' panel it went with is shown, and forgotten when the panel is gone. */
async function sayAgain() {
  if (pk === null || standingNotice !== null) return;
  const kept = await store.noticeOf(pk).catch(() => null);
  if (!kept) return;
  if (view?.ops.some((op) => op.state === "conflict")) sayUntilNextAction(kept.text, { key: kept.key });
  else writeKept(() => store.deleteNotice(pk));
}

/** The scorer acted: what the phone said until then goes (a reply says what the action did),
 * in the score bar and above the sheet (the hands already recorded on the other phone). */
function forgetWhatWasSaid() {
  forgetStandingNotice();
  if (!alreadyRecorded.length) return;
  alreadyRecorded = [];
  drawAlreadyRecorded();
  keepAlreadyRecorded();
}

/** Why sending was refused when the answer does not say (a 403 that is not the server's JSON:
 * a proxy's page, a failed CSRF check), and what to do. */
const REFUSED_UNSAID =
  "Sending was refused, and the server did not say why (this page may be out of date, or this " +
  "phone signed out). Reload the page, or log in again, and the kept hands are sent.";

/** A 403 (or 410) from sync as the phone keeps it beside its hands: why (`reason`:
 * scoring.permissions Refused, or "refused" when the answer does not say) and the server's words for people, less
 * "Nothing was saved" (the server's word for the one request: it would read as if the kept
 * hands were gone). */
function refusalOf(data) {
  const said = data && typeof data.reason === "string" && typeof data.message === "string";
  const words = said ? data.message.replace(/\s*Nothing was saved\.?\s*$/, "").trim() : "";
  if (!words) return { why: "refused", words: REFUSED_UNSAID };
  return { why: data.reason, words };
}

function drawCount(ops) {
  const waiting = ops.filter((op) => op.state !== "conflict");
  const kept = ops.filter((op) => op.state === "conflict");
  const banner = statusLine("unsent-banner", "unsent-banner", "unsent-count", ops.length > 0);
  if (!banner) return;
  const hands = waiting.filter((op) => op.op === "record").length;
  const others = waiting.length - hands;
  const parts = [];
  if (hands) parts.push(plural(hands, "hand"));
  if (others) parts.push(plural(others, "change"));
  const refused = waiting.find((op) => op.refused);
  const unsent = parts.length ? `${parts.join(" and ")} not sent yet` : "";
  const moved = kept.length ? `${plural(kept.length, "hand")} kept on this phone: the game moved on` : "";
  // Refused: why and what to do, in the server's words (whole sentences).
  banner.textContent = refused
    ? `${unsent}. ${refused.refused}${moved ? ` Also ${moved}.` : ""}`
    : `${[unsent, moved].filter(Boolean).join("; ")}.`;
  banner.dataset.count = String(waiting.length + kept.length);
  if (refused) banner.dataset.refused = refused.refusedWhy || "refused";
  else delete banner.dataset.refused;
}

/** The same facts, whatever order their keys were written in. */
function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key])]));
  }
  return value;
}

function sameFacts(a, b) {
  return JSON.stringify(canonical(a ?? null)) === JSON.stringify(canonical(b ?? null));
}

/** The server's hand at the kept hand's number, when the other phone recorded one there. */
function theirsFor(op, state) {
  if (op.op !== "record" || op.append || !state) return null;
  return state.hands.find((hand) => hand.number === op.number) || null;
}

/** Hands the other phone recorded just as this one kept them: said above the sheet until the
 * scorer's next action, on the page opened again too (kept on the phone, as the score bar's
 * notice is: store.mjs "recorded"). */
let alreadyRecorded = [];

function keepAlreadyRecorded() {
  if (pk === null) return;
  const numbers = [...alreadyRecorded];
  writeKept(() => (numbers.length ? store.putRecorded(pk, numbers) : store.deleteRecorded(pk)));
}

/** The page opened again: the hands already recorded on the other phone are said again. */
async function sayRecordedAgain() {
  if (pk === null || alreadyRecorded.length) return;
  const numbers = await store.recordedOf(pk).catch(() => null);
  if (!numbers?.length || alreadyRecorded.length) return;
  alreadyRecorded = numbers;
  drawAlreadyRecorded();
}

function drawAlreadyRecorded() {
  const shown = alreadyRecorded.length > 0;
  const note = statusLine("offline-dropped", "notice success", "already-recorded", shown);
  if (!note) return;
  const numbers = alreadyRecorded.map(String);
  const which = numbers.length === 1 ? `Hand ${numbers[0]} was` : `Hands ${numbers.join(", ")} were`;
  note.textContent = `${which} already recorded on the other phone, exactly as kept here: kept once.`;
}

function button(label, data, kind = "") {
  const node = document.createElement("button");
  node.type = "button";
  if (kind) node.className = kind;
  for (const [name, value] of Object.entries(data)) node.dataset[name] = value;
  node.textContent = label;
  return node;
}

function keptRow(label, cell) {
  const row = document.createElement("tr");
  const head = document.createElement("th");
  head.scope = "row";
  head.textContent = label;
  row.append(head, cell);
  return row;
}

/**
 * The hands kept on this phone that the game moved past (another phone recorded hands
 * meanwhile), each beside the server's hand at its number in the sheet's own words, with one
 * tap each to keep theirs, replace theirs with this phone's (a correction) or add this phone's
 * after theirs (not once the game is won: no hand follows it); the kept hands waiting behind them are listed too, so that nothing kept is out
 * of sight until it is settled. Just above the score sheet.
 */
function drawConflicts(root, game, ops, state, hands) {
  let panel = root.querySelector("#offline-conflict");
  const first = ops.findIndex((op) => op.state === "conflict");
  if (first < 0) {
    panel?.remove();
    return;
  }
  if (!panel) {
    panel = document.createElement("section");
    panel.id = "offline-conflict";
    panel.className = "card-panel conflict";
    panel.setAttribute("role", "alert");
    panel.dataset.testid = "offline-conflict";
    const sheet = root.querySelector("#score-sheet");
    if (sheet) sheet.before(panel);
    else root.querySelector("#scoreboard")?.after(panel);
  }
  const heading = document.createElement("h2");
  heading.textContent = "Kept on this phone: the other phone recorded hands meanwhile";
  const parts = [heading];
  const before = state ? state.hands : [];
  // No hand follows a game won: a kept hand can take the place of theirs (a correction, which
  // may change who won), or go.
  const won = state?.status === "won";
  for (const op of ops.slice(first)) {
    const item = document.createElement("article");
    item.className = "kept-hand";
    item.dataset.testid = `kept-${op.number}`;
    const title = document.createElement("h3");
    const theirs = op.state === "conflict" ? theirsFor(op, state) : null;
    if (op.op !== "record") {
      const what = op.op === "undo" ? `The undo of hand ${op.number}` : `The correction of hand ${op.number}`;
      title.textContent = `${what}, kept on this phone`;
      const message = document.createElement("p");
      message.textContent = op.message || "";
      message.dataset.testid = "conflict-message";
      const row = document.createElement("div");
      row.className = "button-row";
      row.append(button("Discard it", { offlineDiscard: op.key, testid: "conflict-discard" }, "danger"));
      item.append(title, message, row);
    } else if (theirs) {
      title.textContent = `Hand ${op.number}: both phones recorded it, differently`;
      const table = document.createElement("table");
      table.className = "sheet kept-sheet";
      const body = document.createElement("tbody");
      body.append(
        keptRow("On the sheet (the other phone)", describeHand(game, before, op.number, theirs.facts)),
        keptRow("Kept on this phone", describeHand(game, before, op.number, op.facts)),
      );
      table.append(body);
      const row = document.createElement("div");
      row.className = "button-row";
      row.append(
        button("Keep theirs", { keepTheirs: op.key, testid: `keep-theirs-${op.number}` }, won ? "primary" : ""),
        button("Replace theirs with mine (a correction)", { replaceTheirs: op.key, testid: `replace-theirs-${op.number}` }),
      );
      if (!won) row.append(...addAfterButtons(game, hands, op, "Add mine after theirs"));
      item.append(title, table, row);
    } else if (op.state === "conflict" && op.op === "record") {
      // Refused at its number with no hand of theirs there (the sheet has fewer hands now).
      title.textContent = `Hand ${op.number}, kept on this phone: the game moved on`;
      const message = document.createElement("p");
      message.textContent = op.message || "";
      message.dataset.testid = "conflict-message";
      const table = document.createElement("table");
      table.className = "sheet kept-sheet";
      const body = document.createElement("tbody");
      body.append(keptRow("Kept on this phone", describeHand(game, before, before.length + 1, op.facts)));
      table.append(body);
      const row = document.createElement("div");
      row.className = "button-row";
      if (!won) row.append(...addAfterButtons(game, hands, op, "Add it after the sheet's last hand"));
      row.append(button("Discard it", { offlineDiscard: op.key, testid: "conflict-discard" }, "danger"));
      item.append(title, message, table, row);
    } else {
      title.textContent = op.append
        ? "A hand kept on this phone, to follow the sheet's last hand"
        : `Hand ${op.number}, kept on this phone: sent once the hands above are settled`;
      const table = document.createElement("table");
      table.className = "sheet kept-sheet";
      const body = document.createElement("tbody");
      const at = op.append ? before.length + 1 : op.number;
      body.append(keptRow("Kept on this phone", describeHand(game, before, at, op.facts)));
      table.append(body);
      const row = document.createElement("div");
      row.className = "button-row";
      row.append(button("Discard it", { offlineDiscard: op.key, testid: "conflict-discard" }, "danger"));
      item.append(title, table, row);
    }
    parts.push(item);
  }
  panel.replaceChildren(...parts);
}

let view = null; // {game, hands, ops, fromPage}
/** The game on the page is the phone's drawing (hands kept on it, or a newer state than the
 * page's), not the server's page as it came: with nothing kept any more (the only kept hand
 * undone), it is drawn again from the server's state, not left showing the hand. */
let drawnOnPhone = false;

/** Draw the phone's view from what it keeps. One draw after another, each reading the store
 * once the one before has drawn: two at once (a reloaded page's and a tap's) each read the kept
 * hands and then wait, and the one that read first could draw last, putting back what a tap had
 * just taken away (a conflict kept after "Keep theirs"). */
let drawing = Promise.resolve();
function refresh() {
  drawing = drawing.then(draw, draw);
  return drawing;
}

async function draw() {
  if (pk === null) return;
  const ops = await store.opsOf(pk);
  drawCount(ops);
  const root = document.getElementById("game");
  const { state, fromPage } = await baseState();
  if (!root || !state) {
    view = null;
    return;
  }
  const game = gameOf(state);
  const { hands } = effectiveHands(state, ops);
  view = { game, hands, ops, fromPage, state };
  drawConflicts(root, game, ops, state, hands);
  drawAlreadyRecorded();
  const phoneDraws = ops.length > 0 || !fromPage;
  if (phoneDraws || drawnOnPhone) drawGame(root, game, hands, score(game, hands));
  drawnOnPhone = phoneDraws;
  drawPreview();
}

function drawPreview() {
  const form = document.getElementById("hand-form");
  if (!form || !view) return;
  let box = form.querySelector("#hand-preview");
  if (!box) {
    box = document.createElement("div");
    box.id = "hand-preview";
    box.className = "hand-preview";
    box.setAttribute("aria-live", "polite");
    box.dataset.testid = "hand-preview";
    // Where the eye is before the last tap: after the game buttons (which record the hand).
    const game = form.querySelector("#fs-game + .hint") || form.querySelector("#fs-game");
    if (game) game.after(box);
    else form.querySelector(".submit-bar")?.before(box);
  }
  const hands = editing ? view.hands.slice(0, editingNumber() - 1) : view.hands;
  let lines;
  try {
    lines = previewLines(form, view.game, hands);
  } catch {
    lines = [];
  }
  box.replaceChildren(
    ...lines.map((line) => {
      const p = document.createElement("p");
      p.textContent = line.text;
      if (line.refused) p.className = "refused";
      if (line.winner) p.className = "would-win";
      return p;
    }),
  );
}

function editingNumber() {
  if (!editing) return view.hands.length + 1;
  return editing.number;
}

function mustKeepOnPhone() {
  // The page's own form is out of date when the phone holds a newer state of the game.
  const stale = view && !view.fromPage;
  return !navigator.onLine || stale || (view && view.ops.length > 0) || editing !== null;
}

/** Why nothing was kept, beside the record button (the top of the form may be far up the page,
 * above the open "Dealer, beg, redeal"), with the cards still picked: the next card tapped would
 * join them and make the hand a run. */
function showError(form, message) {
  let box = form.querySelector("#offline-error");
  if (!box) {
    box = document.createElement("div");
    box.id = "offline-error";
    box.className = "form-errors";
    box.setAttribute("role", "alert");
    box.dataset.testid = "offline-error";
  }
  const bar = form.querySelector(".submit-bar");
  if (bar) bar.before(box);
  else form.append(box);
  const p = document.createElement("p");
  p.textContent = `Nothing was kept. ${message}`;
  const lines = [p];
  const cards = splitCards(form.elements.namedItem("turn_ups")?.value || "");
  if (cards.length) {
    const picked = document.createElement("p");
    picked.dataset.testid = "offline-error-cards";
    picked.textContent = `Turned up so far: ${cards.map(cardLabel).join(", ")} (⌫ takes the last card back).`;
    lines.push(picked);
  }
  box.replaceChildren(...lines);
  box.scrollIntoView({ block: "nearest" });
}

/** The rules' refusal in the page's words. A correction that breaks a hand after it is worded
 * as the server words it (scoring/services/hands.py hand_correct). */
function refusalText(error, number) {
  if (!(error.hand > number)) return refusalWords(error, view.game);
  const detail =
    `with this correction, hand ${error.hand} is refused: ${error.detail}. ` +
    `Undo the hands after hand ${number} first if this correction is right.`;
  return plainMessage(detail, "hands", sideNames(view.game));
}

function clearForm(form) {
  form.querySelector("#offline-error")?.remove();
  for (const radio of form.querySelectorAll("input[type=radio]")) {
    radio.checked = ["stand", "played"].includes(radio.value) && radio.defaultChecked;
  }
  const fields = "input[type=text], input[type=number], select, input[name=game_kept], [data-penalties], [data-pending-rank], [data-beg-by-cards]";
  for (const field of form.querySelectorAll(fields)) field.value = "";
  form.querySelector("[data-called]")?.replaceChildren();
  const kick = form.querySelector("#kick-hint");
  if (kick) kick.textContent = "";
  delete form.dataset.touched;
  begunForms.delete(form);
  form.dispatchEvent(new Event("input", { bubbles: true }));
}

async function nextSeq() {
  const ops = await store.opsOf(pk);
  return ops.length ? ops[ops.length - 1].seq + 1 : Date.now();
}

/** A hand being kept or undone: a second tap meanwhile (a double tap on a Game button, or on
 * Yes, undo it) does nothing. */
let keeping = false;

/** Keep the form's hand on the phone (checked by the rules first); true when kept. One at a
 * time: a tap while the last is still being kept read the same form, and would have kept the
 * same hand twice, the second after the first as the next hand (online, htmx sends one). */
async function keepHand(form, options = {}) {
  if (keeping) return false;
  keeping = true;
  try {
    return await keepOneHand(form, options);
  } finally {
    keeping = false;
  }
}

async function keepOneHand(form, { key, number, submitter = null, theirs = null } = {}) {
  if (!view) await refresh();
  if (!view) return false;
  const target = editing ? editing.number : view.hands.length + 1;
  let before;
  try {
    before = scoresBefore(view.game, view.hands.slice(0, target - 1));
  } catch (error) {
    if (!(error instanceof InvalidFacts)) throw error;
    before = null; // a kept hand before it is refused: every question is asked
  }
  const { facts, errors } = factsFromForm(form, {
    ruleset: view.game.ruleset,
    labels: view.game.labels,
    submitter,
    scores: before,
  });
  if (errors.length) {
    showError(form, errors.map(([, message]) => message).join(" "));
    return false;
  }
  const trialHands = view.hands.slice();
  trialHands[target - 1] = { facts };
  try {
    score(view.game, trialHands);
  } catch (error) {
    if (error instanceof InvalidFacts) {
      showError(form, refusalText(error, target));
      return false;
    }
    throw error;
  }
  if (editing && editing.kind === "unsent") {
    if (!(await keepFixOfUnsent(editing, facts))) {
      showError(form, `Hand ${target} is no longer on the sheet: tap Cancel, or reload the page.`);
      return false;
    }
  } else if (editing && editing.kind === "sent") {
    await store.putOp({ key: store.newKey(), game: pk, seq: await nextSeq(), op: "correct", number: editing.number, revision: editing.revision, facts, state: "unsent" });
  } else {
    const expected = number || target;
    const hand = { key: key || store.newKey(), game: pk, seq: await nextSeq(), op: "record", number: expected, facts, state: "unsent" };
    // The scorer tapped a dealer other than the one the form suggested: asked, not overwritten,
    // if the hand is added after another phone's (`addAfterButtons`).
    if (facts.dealer !== suggestedDealer(form, view.hands.slice(0, target - 1))) hand.dealerChosen = true;
    await store.putOp(hand);
  }
  keptMeanwhile();
  const correcting = editing !== null;
  const kept = correcting ? `The correction of hand ${target}` : `Hand ${number || target}`;
  if (!correcting) dropTaps();
  stopEditing();
  clearForm(form);
  tapsNotPutBack(null);
  forgetWhatWasSaid();
  if (theirs) {
    // The other phone's hand reached the server first (a 409): said until the scorer settles
    // the two, unless they are the same (dropped as recorded: the line above the sheet says so).
    if (!sameFacts(theirs.facts, facts)) sayUntilNextAction(recordedFirst([number]));
  } else {
    // The server's last notice ("Hand 2 recorded.") no longer says what the phone did last;
    // a page that said nothing yet says it too.
    sayInScoreBar(`${kept} kept on this phone: ${whenSent()}.`);
  }
  await refresh();
  document.dispatchEvent(new Event("allfours:hand-done"));
  // A correction changed an earlier hand, not the one under way: the taps kept for that one
  // come back on the form at once, as after a correction online.
  if (correcting) settleTaps();
  flush();
  return true;
}

/** The dealer the hand form suggests for the hand after `hands`: the dealer in turn, or for
 * the first hand the server's (the form's own choice). */
function suggestedDealer(form, hands) {
  return dealerInTurn(view.game, hands) ?? form.querySelector("input[name=dealer][checked]")?.value ?? null;
}

/** The fix of a hand kept on the phone, made while it may be on its way (Fix tapped as the
 * connection came back): kept in the hand's place while it waits (flush, answered, makes it the
 * correction of the hand the server recorded: `sentOrCorrected`), or, the hand sent before
 * Record hand was tapped, kept as the correction of the hand the server now has at its number.
 * False when neither is there (nothing is kept). */
async function keepFixOfUnsent(fixing, facts) {
  if (await store.replaceOp(fixing.key, (op) => (op ? { ...op, facts } : undefined))) return true;
  const { state } = await baseState();
  const hand = state && state.hands.find((h) => h.number === fixing.number);
  if (!hand) return false;
  const correction = { key: store.newKey(), game: pk, seq: await nextSeq(), op: "correct", number: fixing.number, revision: hand.revision, facts, state: "unsent" };
  await store.putOp(correction);
  return true;
}

/** "hand 3", "hands 2 and 3", "hands 1, 2 and 4". */
function handsWords(numbers) {
  if (numbers.length === 1) return `hand ${numbers[0]}`;
  return `hands ${numbers.slice(0, -1).join(", ")} and ${numbers[numbers.length - 1]}`;
}

/** The score bar's words for the hands the other phone recorded first (`numbers`), each of
 * this phone's kept beside theirs until the scorer settles it. */
function recordedFirst(numbers) {
  if (numbers.length === 1) return `The other phone recorded hand ${numbers[0]} first: yours is kept on this phone beside it.`;
  return `The other phone recorded ${handsWords(numbers)} first: yours are kept on this phone beside them.`;
}

/** What the other phone changed of the hands this one showed (`before`, the server's hands
 * then; `after`, now), in the score bar's words, or "": a hand it corrected or undid changes
 * a row the scorer has seen, which the sheet alone would not say. Hands it added are not
 * said: they come at the foot of the sheet, where the next hand goes. */
function changedOnTheOtherPhone(before, after) {
  // The facts compared as the same facts, whatever the order of their keys (PostgreSQL keeps
  // a hand's facts in an order of its own: the page's state and a reply's can differ).
  const now = new Map(after.map((hand) => [hand.number, hand.facts]));
  const corrected = [];
  const undone = [];
  for (const hand of before) {
    if (!now.has(hand.number)) undone.push(hand.number);
    else if (!sameFacts(now.get(hand.number), hand.facts)) corrected.push(hand.number);
  }
  const said = [];
  if (corrected.length) said.push(`${handsWords(corrected)} ${corrected.length === 1 ? "was" : "were"} corrected`);
  if (undone.length) said.push(`${handsWords(undone)} ${undone.length === 1 ? "was" : "were"} undone`);
  if (!said.length) return "";
  const text = `${said.join(" and ")} on the other phone.`;
  return text[0].toUpperCase() + text.slice(1);
}

/** When what the phone has just kept goes to the server: online with nothing ahead of it held
 * back, at once (flush). */
function whenSent() {
  const goesNow = navigator.onLine && !view.ops.some((op) => op.refused || op.state === "conflict");
  return goesNow ? "sending it now" : "sent when the connection is back";
}

function stopEditing() {
  editing = null;
  document.getElementById("offline-correcting")?.remove();
}

/** Undo the last hand on the phone; one at a time, as a hand is kept (a double tap on Yes,
 * undo it undoes one hand). */
async function undoLast() {
  if (keeping) return;
  keeping = true;
  try {
    await undoOne();
  } finally {
    keeping = false;
  }
}

async function undoOne() {
  if (!view) return;
  const last = view.hands[view.hands.length - 1];
  if (!last) return;
  forgetWhatWasSaid();
  if (last.state === "unsent") await store.deleteOp(last.key);
  else await store.putOp({ key: store.newKey(), game: pk, seq: await nextSeq(), op: "undo", number: last.number, state: "unsent" });
  keptMeanwhile();
  await refresh();
  // The last notice ("Hand 3 recorded.", "Hand 3 kept on this phone: …") no longer says what
  // the phone did last. A hand never sent is simply gone; a sent one's undo is sent in turn.
  const undone = last.state === "unsent" ? `Hand ${last.number} undone.` : `Hand ${last.number} undone on this phone: ${whenSent()}.`;
  sayInScoreBar(undone);
  const undo = document.getElementById("undo");
  if (undo) undo.open = false;
  document.dispatchEvent(new Event("allfours:hand-done"));
  flush();
}

function startFix(number) {
  const form = document.getElementById("hand-form");
  const hand = view && view.hands[number - 1];
  if (!form || !hand) return;
  forgetWhatWasSaid();
  editing = hand.state === "unsent" ? { kind: "unsent", key: hand.key, number } : { kind: "sent", number, revision: hand.revision };
  fillForm(form, hand.facts);
  let note = document.getElementById("offline-correcting");
  if (!note) {
    note = document.createElement("p");
    note.id = "offline-correcting";
    note.className = "notice";
    note.dataset.testid = "offline-correcting";
    form.prepend(note);
  }
  note.textContent = `Correcting hand ${number}: tap Record hand to keep the correction.`;
  form.scrollIntoView({ block: "start" });
}

// --- sending ---------------------------------------------------------------------------------

function payload(op, state) {
  // A hand to follow the sheet's last hand goes after the hands the server has now.
  const number = op.append ? state.hands.length + 1 : op.number;
  // Dealt in turn after the hands the server has now (the other phone may have added some).
  const dealer = op.dealtInTurn ? dealerInTurn(gameOf(state), state.hands) : null;
  const facts = dealer ? { ...op.facts, dealer } : op.facts ?? null;
  return { op: op.op, entry_key: op.key, number, facts, revision: op.revision ?? null };
}

/** Whether the server already has the kept hand at its number, exactly. */
function recordedAsKept(op, state) {
  const theirs = theirsFor(op, state);
  return !!theirs && sameFacts(theirs.facts, op.facts);
}

/** A kept hand the server already has at its number, exactly: dropped, said once. */
async function droppedAsRecorded(op, state) {
  if (!recordedAsKept(op, state)) return false;
  await store.deleteOp(op.key);
  if (!alreadyRecorded.includes(op.number)) alreadyRecorded.push(op.number);
  keepAlreadyRecorded();
  return true;
}

/** The game moved past a kept hand: every kept hand the server has another at is set aside
 * for the scorer to settle (the ones it has exactly are dropped). Whether any was. */
async function setAside(ops, state, message) {
  let settled = false;
  for (const op of ops) {
    if (op.op !== "record" || op.append) continue;
    if (await droppedAsRecorded(op, state)) settled = true;
    else if (theirsFor(op, state)) {
      await store.putOp({ ...op, state: "conflict", message });
      settled = true;
    }
  }
  return settled;
}

/** The server no longer lets this phone score the game (its link re-issued, revoked or closed,
 * or a refusal that does not say why): every hand waiting is kept as it is, with why and the
 * words to show (`refusalOf`), so that the banner and the list of games kept on the phone say
 * why they wait (after a reload and without a connection too); none is set aside or dropped. */
async function keepRefused(ops, { why, words }) {
  for (const op of ops) {
    if (op.state === "conflict" || (op.refused === words && op.refusedWhy === why)) continue;
    await store.putOp({ ...op, refused: words, refusedWhy: why });
  }
}

/** The server took a hand again (a new link opened on this phone): the refusal is over. */
async function forgetRefusal() {
  for (const op of await store.opsOf(pk)) {
    if (!op.refused) continue;
    const { refused: _, refusedWhy: __, ...rest } = op;
    await store.putOp(rest);
  }
}

/** Send what is waiting, oldest first; stop at the first refusal or failed connection. A call
 * while a send is under way (the connection back while the last try was failing) sends again
 * after it, rather than waiting for the next tick. The clock's call (`clock`) sends nothing
 * the server refused this phone (they wait for a page opened: a new link, a reload), and adds
 * no send after one under way (that one was to send it all), which could be refused. */
async function flush({ clock = false } = {}) {
  if (pk === null) return;
  if (flushing) {
    if (!clock) flushAgain = true;
    return;
  }
  flushing = true;
  flushAgain = false;
  let sent = 0;
  let refused = false;
  let dropped = false; // a kept hand the server had already, exactly: nothing left to send
  try {
    for (;;) {
      // The kept hands are read last, and the first sent as it is kept then, with nothing
      // awaited in between: read before the server's state (an await), a hand undone or
      // discarded meanwhile was sent all the same, and recorded.
      const { state } = await baseState();
      let waiting = await store.opsOf(pk);
      let [op] = waiting;
      if (!op || op.state === "conflict" || (clock && op.refused)) break;
      if (recordedAsKept(op, state)) {
        await droppedAsRecorded(op, state);
        dropped = true;
        continue;
      }
      let response;
      try {
        response = await fetch(`/games/${pk}/sync/`, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
          body: JSON.stringify(payload(op, state)),
        });
      } catch {
        break; // no connection: try again later
      }
      let data = null;
      try {
        data = await response.json();
      } catch {
        // Not the server's answer (a portal, a proxy): tried again later, unless refused.
      }
      if (response.status === 403 || response.status === 410) {
        // Not this phone's any more (or refused on the way, unsaid why), or the game no longer
        // kept (410: taken away before a hand of it was recorded): kept, and not sent again on
        // the clock (a page opened, the connection back or a hand kept tries once more: a new
        // link opened, a reload or a log-in gives it back). As kept now: a fix made while it
        // was on its way stays.
        await keepRefused(await store.opsOf(pk), refusalOf(data));
        // Answered: the connection back meanwhile (or a hand kept) asks no send after this one.
        flushAgain = false;
        break;
      }
      if (!data) break;
      if (data.game) await store.putSnapshot(data.game);
      if (waiting.some((kept) => kept.refused)) {
        // Answered past the permission check: this phone may score the game again.
        await forgetRefusal();
        waiting = await store.opsOf(pk);
        [op] = waiting;
      }
      if (response.ok) {
        const number = payload(op, state).number;
        await store.replaceOp(op.key, (kept) => sentOrCorrected(kept, op, number, data.game));
        // The scorer's hand added after the sheet's last: said with the number it now has.
        if (standingNotice?.key === op.key && standingNotice.placed) sayUntilNextAction(standingNotice.placed(number));
        sent += 1;
        continue;
      }
      // Refused as it was sent, and fixed on the phone meanwhile: the fix is sent in its place.
      const now = await store.opsOf(pk);
      if (now[0] && now[0].key === op.key && !sameFacts(now[0].facts, op.facts)) continue;
      const settled = response.status === 409 && op.op === "record" && !op.append && data.game
        ? await setAside(waiting, data.game, data.message)
        : false;
      if (settled) {
        const setAsideNow = (await store.opsOf(pk)).filter((kept) => kept.state === "conflict");
        if (!setAsideNow.length) {
          dropped = true;
          continue;
        }
        // Said as a hand refused online says it, until the scorer settles them.
        const numbers = setAsideNow.filter((kept) => theirsFor(kept, data.game)).map((kept) => kept.number);
        if (numbers.length) sayUntilNextAction(recordedFirst(numbers));
        refused = true;
      } else if (response.status === 409 || response.status === 422) {
        // Refused, and nothing the server has explains it (no hand of theirs at its number):
        // kept beside the server's words for the scorer to settle, not sent again and again.
        await store.putOp({ ...op, state: "conflict", message: data.message });
        refused = true;
      }
      // What the scorer's choice did is not so: the hand is back beside the server's words.
      if (standingNotice?.key === op.key) forgetStandingNotice();
      break;
    }
  } finally {
    flushing = false;
  }
  await refresh();
  // Show the server's page again once nothing waits to be sent (a kept hand stays beside it).
  if ((sent || refused || dropped) && view && !view.ops.some((op) => op.state !== "conflict")) {
    await reloadGame();
  }
  if (flushAgain) await flush();
}

/** What is kept of an operation the server has just accepted (`sent`, as it was sent, at hand
 * `number`): nothing, or, when the scorer fixed it while it was on its way (the kept one's facts
 * are not the ones sent), the fix as the correction of the hand the server recorded. */
function sentOrCorrected(kept, sent, number, game) {
  if (!kept) return undefined;
  if (sent.op !== "record" || sameFacts(kept.facts, sent.facts)) return null;
  const hand = game && game.hands.find((h) => h.number === number);
  const { append: _, message: __, ...rest } = kept;
  return { ...rest, key: store.newKey(), op: "correct", number, revision: hand ? hand.revision : null, state: "unsent" };
}

/** The server's page (its HTML) as a document. */
function parsePage(html) {
  return new DOMParser().parseFromString(html, "text/html");
}

/** The game as the server's page (`page`, a parsed document) shows it, in place of the game
 * shown. A hand begun on the phone's form (`begun`) goes onto the server's page in place of its
 * fresh form, with the server's one-time key, hand number and token: every tap stays where the
 * finger left it, and the hand is sent as the server's own form would send it. */
function showServerGame(page, begun = null) {
  const fresh = page.getElementById("game");
  const current = document.getElementById("game");
  if (!fresh || !current) return;
  serverPageWaiting = false;
  // The kept hands' panel moves over as it is, so that it never leaves the scorer's sight
  // (or the place under their finger) while the server's page takes the old one's place.
  const node = document.adoptNode(fresh);
  const panel = current.querySelector("#offline-conflict");
  if (panel) node.querySelector("#score-sheet")?.before(panel);
  const freshForm = node.querySelector("#hand-form");
  if (begun && freshForm) {
    for (const name of ["csrfmiddlewaretoken", "entry_key", "expected_number"]) {
      const field = begun.elements.namedItem(name);
      const value = freshForm.elements.namedItem(name)?.value;
      if (field && value !== undefined) field.value = value;
    }
    freshForm.replaceWith(begun);
  }
  current.replaceWith(node);
  drawnOnPhone = false;
  if (standingNotice !== null) sayInScoreBar(standingNotice.text);
  if (window.htmx) window.htmx.process(node);
  // Its hand form is new (or the scorer's begun one took its place): scoring.js keeps a copy
  // of the server's fresh one to draw the next hand's from.
  document.dispatchEvent(new CustomEvent("allfours:game-shown", { detail: { freshForm } }));
}

/** Whether the scorer has something under way that the server's page, shown anew, would throw
 * away: a hand begun on the hand form, a hand being corrected on the phone, or the server's
 * correction form open. */
function handBegun() {
  const form = document.getElementById("hand-form");
  return (
    (form !== null && begunForms.has(form)) ||
    editing !== null ||
    !!document.getElementById("correction")?.childElementCount
  );
}

/** The hand the phone's view would record next is the server's next hand (`page`, its page):
 * the same number, the same dealer and the same sides and rules, so that the form begun for it
 * is the server's form for it in every other respect. */
function sameNextHand(page) {
  const node = page.getElementById("offline-state");
  const form = page.getElementById("hand-form");
  if (!node || !form || !view) return false;
  const state = JSON.parse(node.textContent);
  const number = view.hands.length + 1;
  let dealer;
  try {
    dealer = score(view.game, view.hands).next_dealer;
  } catch {
    return false;
  }
  return (
    state.hands.length + 1 === number &&
    Number(form.elements.namedItem("expected_number")?.value) === number &&
    form.querySelector("input[name=dealer][checked]")?.value === dealer &&
    sameFacts(state.sides, view.state.sides) &&
    sameFacts(state.ruleset, view.state.ruleset)
  );
}

const HOLD_BACK = "hold back";

/** What becomes of the scorer's work under way when the server's page (`page`) is shown: null
 * (nothing begun, or a hand begun where the server's page has none to record: the game is
 * over), the begun hand form (it takes the place of the server's fresh form: `sameNextHand`),
 * or HOLD_BACK: the server's page would throw it away (a hand being kept or corrected, the
 * server's correction form open, or the server's next hand not the one begun: the other phone
 * recorded it meanwhile), so the phone's view stays until the scorer is done with it. */
function begunHand(page) {
  if (keeping || editing !== null || document.getElementById("correction")?.childElementCount) return HOLD_BACK;
  const form = document.getElementById("hand-form");
  if (!form || !begunForms.has(form) || !page.getElementById("hand-form")) return null;
  return sameNextHand(page) ? form : HOLD_BACK;
}

/** Everything sent: show the server's page again, and keep it for the next time offline. A
 * hand the scorer began meanwhile stays (`begunHand`). */
async function reloadGame() {
  reloads += 1;
  const asked = reloads;
  try {
    const response = await fetch(location.pathname, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return;
    const page = parsePage(await response.text());
    // A later reload (a hand kept and sent meanwhile) shows the newer page; a change kept
    // meanwhile is sent first (`keptMeanwhile`).
    if (asked !== reloads) return;
    const begun = begunHand(page);
    if (begun === HOLD_BACK) {
      serverPageWaiting = true;
      return;
    }
    showServerGame(page, begun);
    await refresh();
    await keepThisPage();
  } catch {
    // Offline again: the phone's view stays.
  }
}

// --- a phone left showing the game -----------------------------------------------------------
// The other phone at the table records the hands; this one, left on the table or picked up
// again, shows them without a reload. While the page is in sight, the game in play, nothing
// waits to be sent and nobody has touched the phone for a while (a hand half entered stays as
// it is), it asks now and then whether the game changed: the server answers 204, with nothing
// in it, while the page shows the game as it is, and the page as it is now when it does not.
// A phone scoring asks nothing of the kind: each of its hands is one request, whose reply says
// what changed. The server says how often (`data-watch-seconds`; 0: never).
const watchEvery = Number(document.getElementById("game")?.dataset.watchSeconds || 0) * 1000;
let lastTouched = Date.now();
let lastAsked = Date.now();
let asking = false;

function touched(event) {
  lastTouched = Date.now();
  // The scorer's own, not the page's (a cleared form says so with an input event of its own).
  const form = event.isTrusted && event.target.closest && event.target.closest("#hand-form");
  if (form) begunForms.add(form);
}
for (const kind of ["pointerdown", "keydown", "input"]) document.addEventListener(kind, touched, true);
for (const kind of ["htmx:beforeRequest", "htmx:afterSettle"]) {
  document.addEventListener(kind, () => {
    lastTouched = Date.now();
  });
}

/** Whether the page may be shown anew: nothing of the scorer's on it would be lost. */
function leftAlone() {
  return (
    document.visibilityState === "visible" &&
    navigator.onLine &&
    Date.now() - lastTouched >= watchEvery &&
    !flushing &&
    !keeping &&
    !following &&
    !document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling") &&
    view !== null &&
    view.fromPage &&
    view.ops.length === 0 &&
    !handBegun()
  );
}

async function askWhetherChanged() {
  const state = pageState();
  if (!watchEvery || asking || !state || state.status !== "in_progress") return;
  if (Date.now() - lastAsked < watchEvery || !leftAlone()) return;
  asking = true;
  lastAsked = Date.now();
  try {
    const response = await fetch(location.pathname, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { "X-Game-Version": String(state.version) },
    });
    if (response.status !== 200) return; // 204: as shown
    const html = await response.text();
    if (!leftAlone()) return; // touched meanwhile: what the scorer began stays
    showServerGame(parsePage(html));
    const changed = changedOnTheOtherPhone(state.hands, pageState()?.hands || []);
    await refresh();
    await keepPageAsShown();
    // Said until the scorer's next action: a row they saw is not as it was.
    if (changed) sayUntilNextAction(changed);
  } catch {
    // No connection: asked again later.
  } finally {
    asking = false;
  }
}
if (watchEvery) {
  setInterval(askWhetherChanged, 1000);
  // Picked up again after a while in a pocket: asked at once.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    lastAsked = 0;
    askWhetherChanged();
  });
}

// --- the hand under way, kept through a reload ----------------------------------------------
// A phone reloads a tab after its screen locks, and a scorer may close the page mid-hand: what
// has been tapped of the hand under way is kept on the phone with the game (store.mjs
// "drafts"), for that hand's number, at every tap, and put back on the page opened again at
// that number. It goes once the hand is recorded (sent, or kept to be sent) or the game moved
// past it: a hand recorded meanwhile (on the other phone) is not given taps meant for the one
// before; the page says so instead.

/** Keep the hand form's taps as they stand, for the phone's next hand (not a correction's). */
function keepTaps() {
  const form = document.getElementById("hand-form");
  if (pk === null || !view || !form || editing !== null || !begunForms.has(form)) return;
  const draft = { game: pk, number: view.hands.length + 1, taps: tapsOf(form) };
  writeKept(() => store.putDraft(draft));
}

function dropTaps() {
  if (pk !== null) writeKept(() => store.deleteDraft(pk));
}

/** The kept taps go when they are no longer for the hand the page would record next (it was
 * recorded, or undone to an earlier one); a hand form begun is kept as it stands. While a hand
 * is corrected online (scoring.js keeps the hand form aside, off the page) they stay, and the
 * fresh hand form the correction's answer brings gets them back: the correction changed an
 * earlier hand, not the one under way. */
function settleTaps() {
  const form = document.getElementById("hand-form");
  if (form && begunForms.has(form)) {
    keepTaps();
    return;
  }
  if (!form && document.querySelector("#correction form")) return;
  writeKept(async () => {
    const draft = await store.draftOf(pk);
    if (!draft) return;
    if (!form || !view || draft.number !== view.hands.length + 1) {
      await store.deleteDraft(pk);
    } else if (form.isConnected && !begunForms.has(form) && editing === null) {
      putTaps(form, draft.taps);
      begunForms.add(form);
    }
  });
}

/** Says, above the game, what the taps kept for a hand (`draft`) were and why they were not
 * put back on `form`, the hand form (null: nothing to say any more). */
function tapsNotPutBack(draft, form) {
  const line = statusLine("taps-not-put-back", "notice", "taps-not-put-back", draft !== null);
  if (!line) return;
  const { number } = draft;
  const next = view.hands.length + 1;
  const what = tapsWords(form, draft.taps);
  const why = number < next ? `hand ${number} was recorded meanwhile` : `hands were undone meanwhile`;
  line.textContent = `Your taps for hand ${number}${what ? ` (${what})` : ""} were not put back: ${why}. The form is for hand ${next}.`;
}

/** The page opened again: the taps kept for its game's next hand go back on its hand form. */
async function putTapsBack() {
  if (pk === null) return;
  const draft = await store.draftOf(pk).catch(() => null);
  const form = document.getElementById("hand-form");
  if (!draft || !view || editing !== null) return;
  if (form && draft.number === view.hands.length + 1) {
    if (begunForms.has(form)) return; // tapped already: those taps are kept from now on
    putTaps(form, draft.taps);
    begunForms.add(form);
    return;
  }
  dropTaps();
  if (form) tapsNotPutBack(draft, form);
}

for (const kind of ["input", "click"]) {
  document.addEventListener(kind, (event) => {
    const form = event.isTrusted && event.target.closest && event.target.closest("#hand-form");
    // A field tells of its change by "input" (a choice, a select and a box alike: its "change"
    // follows, and would keep the same taps again); a button (a card, a penalty) by its click.
    if (!form || (kind === "click" && !event.target.closest("button"))) return;
    begunForms.add(form);
    keepTaps();
  });
}

// --- wiring ----------------------------------------------------------------------------------

document.addEventListener(
  "submit",
  (event) => {
    const form = event.target;
    const submitter = event.submitter;
    if (form.id === "hand-form" && document.getElementById("game")) {
      if (submitter && submitter.name && submitter.name !== "game") {
        if (!navigator.onLine) event.preventDefault(); // the picker works by script offline
        return;
      }
      if (!mustKeepOnPhone()) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      keepHand(form, { submitter });
    } else if (form.id === "undo-form" && mustKeepOnPhone()) {
      event.preventDefault();
      event.stopImmediatePropagation();
      undoLast();
    }
  },
  true,
);

// A hand sent while the connection dropped: keep it with the same one-time key, send it again.
let lastSubmitter = null;
document.addEventListener(
  "click",
  (event) => {
    const button = event.target.closest && event.target.closest("#hand-form button[type=submit]");
    if (button) lastSubmitter = button;
  },
  true,
);
function keepFailed(event) {
  const form = event.detail && event.detail.elt;
  if (!form || form.id !== "hand-form") return;
  const key = form.querySelector("input[name=entry_key]")?.value;
  const number = Number(form.querySelector("input[name=expected_number]")?.value);
  keepHand(form, { key, number, submitter: lastSubmitter });
}
document.addEventListener("htmx:sendError", keepFailed);
document.addEventListener("htmx:timeout", keepFailed);

// Two phones online at one table: the other phone's hand reached the server first, and this
// phone's form for the same hand is refused (409: the game moved on). The taps are not lost:
// the hand is kept on the phone with its one-time key and number, and settled as a hand kept
// offline is (dropped if theirs is the same, else shown beside theirs: keep theirs, replace
// theirs or add mine after theirs). So when their hand won the game: keep theirs, or replace
// theirs with mine (a correction, which may change who won). Refused for anything else (no
// hand of theirs at its number: one was undone; the game abandoned), or a correction's form,
// the server's page is shown as it came.
document.addEventListener("htmx:beforeSwap", (event) => {
  const form = event.detail.requestConfig && event.detail.requestConfig.elt;
  if (event.detail.xhr.status !== 409 || !form || form.id !== "hand-form" || !view || editing) return;
  if (form.querySelector("input[name=expected_revision]")) return;
  const key = form.querySelector("input[name=entry_key]")?.value;
  const number = Number(form.querySelector("input[name=expected_number]")?.value);
  const node = parsePage(event.detail.xhr.responseText).getElementById("offline-state");
  const server = node ? JSON.parse(node.textContent) : null;
  if (!key || !number || !server || server.hands.length < number) return;
  if (server.status !== "in_progress" && server.status !== "won") return;
  event.detail.shouldSwap = false;
  const theirs = server.hands.find((hand) => hand.number === number);
  keepHand(form, { key, number, submitter: lastSubmitter, theirs });
});

// Before scoring.js, which opens the server's correction form in place: a fix made while hands
// wait to be sent (or without a connection) is kept on the phone instead.
document.addEventListener(
  "click",
  (event) => {
    const fix = event.target.closest && event.target.closest("[data-offline-fix], a.fix");
    if (!fix || !view) return;
    if (fix.matches("a.fix") && !mustKeepOnPhone()) return;
    event.preventDefault();
    const number = Number(fix.dataset.offlineFix || fix.closest("tr")?.id.replace("hand-", ""));
    startFix(number);
  },
  true,
);

document.addEventListener("click", async (event) => {
  if (event.target.closest("[data-offline-undo]")) {
    undoLast();
    return;
  }
  const discard = event.target.closest("[data-offline-discard]");
  if (discard) {
    forgetWhatWasSaid();
    await store.deleteOp(discard.dataset.offlineDiscard);
    await refresh();
    flush();
    return;
  }
  const decision = event.target.closest("[data-keep-theirs], [data-replace-theirs], [data-add-after]");
  if (decision && view) {
    const key = decision.dataset.keepTheirs || decision.dataset.replaceTheirs || decision.dataset.addAfter;
    const shown = view.state; // the server's hands as the panel showed them
    // Settled as the phone keeps it now, not as the panel was drawn: a second tap on a slow
    // phone (before the panel is drawn again) finds the choice made and changes nothing, where it
    // kept a second correction (refused, and shown as a conflict again) or the hand twice after
    // the sheet's last.
    // What became of the scorer's hand, said until their next action (nothing else says it but
    // the sheet changing): the kept hand the choice made (`made`), and the words (`said`).
    let made = null;
    let said = null;
    const settled = await store.settleConflict(key, (op) => {
      const mine = op.number;
      const theirs = theirsFor(op, shown);
      if (decision.dataset.addAfter) {
        // Dealt by the dealer in turn after the sheet's last hand (sent: after the server's,
        // `payload`), unless the scorer keeps the dealer they tapped.
        const inTurn = !decision.dataset.dealerAsTapped;
        const dealer = (inTurn && dealerInTurn(view.game, view.hands)) || op.facts.dealer;
        const facts = { ...op.facts, dealer };
        made = { ...op, facts, key: store.newKey(), append: true, dealtInTurn: inTurn, state: "unsent", message: undefined };
        said = (at) => {
          if (at === null) return `Your hand ${mine} goes after the sheet's last hand once the hands above it are settled.`;
          return theirs ? `Your hand ${mine} was added after theirs, as hand ${at}.` : `Your hand ${mine} was added as hand ${at}.`;
        };
        return made;
      }
      if (decision.dataset.keepTheirs) {
        said = () => `Your hand ${mine} was not saved: the other phone's hand ${mine} stands.`;
        return null;
      }
      // A correction of the server's hand, made against the revision this phone was shown.
      if (!theirs) return op;
      made = { ...op, key: store.newKey(), op: "correct", revision: theirs.revision, state: "unsent", message: undefined };
      said = () => `Your hand ${mine} replaced the other phone's.`;
      return made;
    });
    if (!settled) return;
    forgetWhatWasSaid();
    await refresh();
    if (said) {
      // A hand added after the sheet's last is placed by the phone's view (nowhere while a kept
      // hand above it waits to be settled), and numbered by the server once sent.
      const placed = made?.append ? said : null;
      const at = placed ? view.hands.findIndex((hand) => hand.key === made.key) + 1 || null : null;
      sayUntilNextAction(said(at), { key: made?.key ?? null, placed });
    }
    flush();
  }
});

document.addEventListener("input", (event) => {
  const form = event.target.closest && event.target.closest("#hand-form");
  if (!form) return;
  if (event.isTrusted) form.dataset.touched = "1";
  drawPreview();
});
document.addEventListener("change", (event) => {
  if (event.target.closest && event.target.closest("#hand-form")) drawPreview();
});
document.addEventListener("click", (event) => {
  if (event.target.closest && event.target.closest("#hand-form button, #hand-form label")) {
    setTimeout(drawPreview, 0);
  }
});

/** The kept state of the game with a reply's changes (scoring/offline.py state_change): hands
 * after its count are gone, the hands it brings replace theirs. */
function withChanges(state, update) {
  const brought = new Set(update.hands.map((hand) => hand.number));
  const hands = state.hands.filter((hand) => hand.number <= update.count && !brought.has(hand.number));
  hands.push(...update.hands);
  hands.sort((a, b) => a.number - b.number);
  return { ...state, version: update.version, status: update.status, hands };
}

/** JSON as the page carries it in a script element: nothing in it can end the element. */
function scriptJson(value) {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}

/** After a reply from the server: the game's state as the reply says it now is, kept for the
 * next time offline (the page's state, IndexedDB and the kept page), with no request. A light
 * reply brings what changed (#offline-update); a whole game (a refused or stale form) brings
 * its whole state (#offline-state). */
async function followServer(drawn = []) {
  stopEditing();
  const node = document.getElementById("offline-state");
  const scripts = document.querySelectorAll("script#offline-update");
  const updates = [...[...scripts].map((script) => JSON.parse(script.textContent)), ...drawn];
  if (node) {
    let state = JSON.parse(node.textContent);
    for (const change of updates) {
      if (change.game === state.game && change.version >= state.version) state = withChanges(state, change);
    }
    if (updates.length) node.textContent = scriptJson(state);
    const { can_score: _, ...snapshot } = state;
    await store.putSnapshot(snapshot);
  }
  for (const script of scripts) script.remove();
  await refresh();
  if (updates.length) tapsNotPutBack(null);
  settleTaps();
  await keepPageAsShown();
}
// A reply swaps several parts of the page (the form, the scores, the sheet's row, the message)
// and htmx says each has settled: the game's state and page are kept once a reply, after
// scoring.js has put the sheet's rows in place, not once a part.
let following = false;
document.addEventListener("htmx:afterSettle", () => {
  if (pk === null || following) return;
  following = true;
  setTimeout(() => {
    following = false;
    followServer();
  }, 0);
});
// The scorer's next action asks the server (a hand, an undo, a Fix opened or saved): what the
// phone said until then goes.
document.addEventListener("htmx:beforeRequest", () => forgetWhatWasSaid());
// A hand or an undo says which version of the game the page shows: one that missed another
// phone's change (a correction) is answered with the whole game, not only what it changed.
document.addEventListener("htmx:configRequest", (event) => {
  const elt = event.detail.elt;
  const state = pageState();
  if (state && elt && (elt.id === "hand-form" || elt.id === "undo-form")) {
    event.detail.headers["X-Game-Version"] = String(state.version);
  }
});
// A reply drawn from its data (scoring.js) says what changed of the game with it.
document.addEventListener("allfours:reply-drawn", (event) => {
  if (pk !== null) followServer([event.detail.update]);
});
window.addEventListener("online", () => flush());
setInterval(() => {
  // Refused hands wait for a page opened, not the clock (as the view shows them: flush reads
  // what is kept, which a refusal may have changed since).
  const waiting = view ? view.ops.filter((op) => op.state !== "conflict") : [];
  if (waiting.length && !waiting[0].refused) flush({ clock: true });
  // The server's page held back for a hand under way, and the scorer done with it otherwise
  // than by recording it (a correction cancelled): shown now.
  else if (serverPageWaiting && !waiting.length && !flushing && !keeping && !handBegun()) reloadGame();
}, 5000);

// What the score bar said goes with the kept hands' panel once the kept hands have been sent
// as far as they go (a hand kept beside the other phone's is set aside only by its answer).
refresh()
  .then(sayRecordedAgain)
  .then(putTapsBack)
  .then(() => flush())
  .then(sayAgain);
