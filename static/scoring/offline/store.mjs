// What the phone keeps of a game between visits, in IndexedDB (it survives a reload and the
// browser being closed):
//   "ops": the hands (and undos and corrections) not sent yet, in order: {key, game, seq, op,
//          number, facts, revision, state: "unsent" | "conflict", message, refused: the
//          words shown when the server no longer let this phone score the game (a 403: why and
//          what to do) and refusedWhy: why ("closed", "reissued", "revoked", "signed_out", or
//          "refused" when the answer did not say), until it takes a hand again};
//   "games": the last state of each game the server sent: {game, version, hands, status}.
const DB_NAME = "allfours-offline";

let opening = null;

function open() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => {
        const db = request.result;
        const ops = db.createObjectStore("ops", { keyPath: "key" });
        ops.createIndex("game", "game");
        db.createObjectStore("games", { keyPath: "game" });
      };
      request.onsuccess = () => resolve(request.result);
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

/** The game's operations not yet accepted by the server, oldest first. */
export async function opsOf(game) {
  const ops = await done((await store("ops", "readonly")).index("game").getAll(game));
  return ops.sort((a, b) => a.seq - b.seq);
}

export async function putOp(op) {
  await done((await store("ops", "readwrite")).put(op));
}

export async function deleteOp(key) {
  await done((await store("ops", "readwrite")).delete(key));
}

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

export async function snapshotOf(game) {
  return (await done((await store("games", "readonly")).get(game))) || null;
}

/** Keep the server's state of the game unless the phone already holds a newer one. */
export async function putSnapshot(snapshot) {
  const current = await snapshotOf(snapshot.game);
  if (current && current.version > snapshot.version) return;
  await done((await store("games", "readwrite")).put(snapshot));
}

export function newKey() {
  return crypto.randomUUID();
}
