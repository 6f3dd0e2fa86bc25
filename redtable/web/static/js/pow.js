// The proof of work a log-in carries after failures at its username (server: loginguard.py):
// the first decimal nonce such that SHA-256(challenge + ":" + nonce) starts with `bits` zero
// bits. WebCrypto's digest is asynchronous, so the page asks for a batch at a time and stays
// responsive; 16-20 bits take about a second to a few on a phone. WebCrypto exists only on
// https pages (and localhost): elsewhere the page says so instead of computing.
const BATCH = 512;

function zeroBits(bytes) {
  let n = 0;
  for (const b of bytes) {
    if (b === 0) { n += 8; continue; }
    return n + Math.clz32(b) - 24;
  }
  return n;
}

export function canProve() { return !!(globalThis.crypto && globalThis.crypto.subtle); }

export async function solveChallenge(challenge, bits, maxTries = 2 ** 26) {
  const enc = new TextEncoder();
  const digest = (n) => crypto.subtle.digest("SHA-256", enc.encode(`${challenge}:${n}`));
  for (let start = 0; start < maxTries; start += BATCH) {
    const batch = [];
    for (let n = start; n < start + BATCH; n++) batch.push(digest(n));
    const done = await Promise.all(batch);
    for (let i = 0; i < done.length; i++) {
      if (zeroBits(new Uint8Array(done[i])) >= bits) return String(start + i);
    }
  }
  return null;
}
