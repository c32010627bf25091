// The deck commitment, checked in the browser: SHA-256(order || salt) where order is the
// deck's two-character card codes top card first (ASCII) and salt is 32 bytes given in hex.

export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 || /[^0-9a-fA-F]/.test(hex)) {
    throw new Error("the salt is not hex");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The commitment digest of a reveal {order, salt}: lower-case hex. */
export async function revealDigest(reveal) {
  if (!globalThis.crypto || !crypto.subtle) {
    throw new Error("SHA-256 needs a secure context (https or localhost)");
  }
  const order = new TextEncoder().encode(reveal.order);
  const salt = hexToBytes(reveal.salt);
  const data = new Uint8Array(order.length + salt.length);
  data.set(order);
  data.set(salt, order.length);
  return bytesToHex(await crypto.subtle.digest("SHA-256", data));
}

/** Check a reveal against the digest published before the deal:
 * {status: "verified" | "MISMATCH" | "unchecked", computed, detail}. */
export async function verifyReveal(digest, reveal) {
  if (!reveal) return { status: "unchecked", computed: null, detail: "not revealed yet" };
  if (!digest) return { status: "unchecked", computed: null, detail: "no commitment was seen" };
  try {
    const computed = await revealDigest(reveal);
    const ok = computed === digest.toLowerCase();
    return { status: ok ? "verified" : "MISMATCH", computed, detail: ok ? "" : `expected ${digest}` };
  } catch (error) {
    return { status: "unchecked", computed: null, detail: String(error.message ?? error) };
  }
}
