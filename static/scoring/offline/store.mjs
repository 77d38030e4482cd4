// What the phone keeps of a game between visits, in IndexedDB (it survives a reload and the
// browser being closed):
//   "ops": the hands (and undos and corrections) not sent yet, in order: {key, game, seq, op,
//          number, facts, revision, state: "unsent" | "conflict", message, refused: the
//          words shown when the server no longer let this phone score the game (a 403: why and
//          what to do) and refusedWhy: why ("closed", "reissued", "revoked", "signed_out", or
//          "refused" when the answer did not say), until it takes a hand again; dealerChosen:
//          the scorer tapped a dealer other than the one the form suggested; append: a hand to
//          follow the sheet's last, and dealtInTurn: dealt by the dealer in turn there};
//   "games": the last state of each game the server sent: {game, version, hands, status};
//   "drafts": what the scorer has tapped of the hand under way, not sent yet, by game: {game,
//          number (the hand it is for), taps (form.mjs tapsOf)}, put back on the page opened
//          again at that hand (a phone reloads a tab after its screen locks);
//   "notices": what the score bar says until the scorer's next action, by game: {game, text,
//          key (the kept hand the scorer's choice made, or null)}, said again on the page
//          opened again while the hands kept beside the other phone's are shown;
//   "recorded": the kept hands the other phone had already recorded exactly alike, said above
//          the sheet until the scorer's next action, by game: {game, numbers}, said again on
//          the page opened again.
const DB_NAME = "allfours-offline";

let opening = null;

function open() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, 4);
      request.onupgradeneeded = (event) => {
        const db = request.result;
        if (event.oldVersion < 1) {
          const ops = db.createObjectStore("ops", { keyPath: "key" });
          ops.createIndex("game", "game");
          db.createObjectStore("games", { keyPath: "game" });
        }
        if (event.oldVersion < 2) db.createObjectStore("drafts", { keyPath: "game" });
        if (event.oldVersion < 3) db.createObjectStore("notices", { keyPath: "game" });
        if (event.oldVersion < 4) db.createObjectStore("recorded", { keyPath: "game" });
      };
      request.onsuccess = () => {
        const db = request.result;
        // A newer page's store asks for a newer version: this one lets go, and opens again.
        db.onversionchange = () => {
          db.close();
          opening = null;
        };
        resolve(db);
      };
      request.onerror = () => reject(request.error);
    });
  }
  return opening;
}

function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function store(name, mode) {
  const db = await open();
  return db.transaction(name, mode).objectStore(name);
}

/** The record kept in `name` under `key`, or null. */
async function read(name, key) {
  return (await done((await store(name, "readonly")).get(key))) || null;
}

async function write(name, record) {
  await done((await store(name, "readwrite")).put(record));
}

async function remove(name, key) {
  await done((await store(name, "readwrite")).delete(key));
}

/** The game's operations not yet accepted by the server, oldest first. */
export async function opsOf(game) {
  const ops = await done((await store("ops", "readonly")).index("game").getAll(game));
  return ops.sort((a, b) => a.seq - b.seq);
}

export const putOp = (op) => write("ops", op);
export const deleteOp = (key) => remove("ops", key);

/** Change a kept operation as it is kept now, in one transaction: `choose(op)` (op undefined
 * when it is gone) gives undefined (nothing changes), null (it goes) or what is kept in its
 * place. Whether anything changed. */
export async function replaceOp(key, choose) {
  const ops = await store("ops", "readwrite");
  return new Promise((resolve, reject) => {
    const { transaction } = ops;
    let changed = false;
    transaction.oncomplete = () => resolve(changed);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
    const request = ops.get(key);
    request.onsuccess = () => {
      const replacement = choose(request.result);
      if (replacement === undefined) return;
      ops.delete(key);
      if (replacement) ops.put(replacement);
      changed = true;
    };
  });
}

/** Settle a kept hand set aside for the scorer (state "conflict") as they chose: it goes, and
 * `choose(op)` gives what is kept in its place (a correction, a hand to follow the sheet's last
 * one) or null. False when it is no longer set aside (the choice was already made: a second
 * tap on a slow phone): nothing changes. */
export async function settleConflict(key, choose) {
  return replaceOp(key, (op) => (op && op.state === "conflict" ? choose(op) : undefined));
}

export const snapshotOf = (game) => read("games", game);

/** Keep the server's state of the game unless the phone already holds a newer one. */
export async function putSnapshot(snapshot) {
  const current = await snapshotOf(snapshot.game);
  if (current && current.version > snapshot.version) return;
  await write("games", snapshot);
}

/** The taps kept of the game's hand under way, or null. */
export const draftOf = (game) => read("drafts", game);
export const putDraft = (draft) => write("drafts", draft);
export const deleteDraft = (game) => remove("drafts", game);

/** What the score bar says of the game until the scorer's next action, or null. */
export const noticeOf = (game) => read("notices", game);
export const putNotice = (notice) => write("notices", notice);
export const deleteNotice = (game) => remove("notices", game);

/** The game's kept hands the other phone had already recorded alike, said until the scorer's
 * next action: their numbers, or null. */
export const recordedOf = async (game) => (await read("recorded", game))?.numbers ?? null;
export const putRecorded = (game, numbers) => write("recorded", { game, numbers });
export const deleteRecorded = (game) => remove("recorded", game);

export function newKey() {
  return crypto.randomUUID();
}
