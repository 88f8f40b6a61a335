// The caller's address behind zero or more reverse proxies, as a pure function (unit-tested in
// app/_server/client-address.test.ts). Used by server/production-server.mjs; plain JavaScript because
// that server runs without a TypeScript loader.
import net from "node:net";

/**
 * KPS_TRUST_PROXY, parsed:
 * - unset, "" or "0": no proxy; the socket's peer is the client and X-Forwarded-For is ignored.
 * - a whole number n ≥ 1: n proxies in front (1 = one reverse proxy such as nginx or Caddy on the
 *   same host); the client is the n-th address from the right of [X-Forwarded-For…, socket peer].
 * - a comma-separated list of addresses, CIDR ranges, or the words "loopback" and "private":
 *   proxies at those addresses are trusted; the client is the right-most hop not in the list.
 * @param {string | undefined} value
 * @returns {{ kind: "none" } | { kind: "count", hops: number } | { kind: "list", list: net.BlockList, text: string }}
 */
export function parseTrustProxy(value) {
  const text = (value ?? "").trim();
  if (text === "" || text === "0") return { kind: "none" };
  if (/^\d+$/.test(text)) return { kind: "count", hops: Number(text) };
  const list = new net.BlockList();
  for (const raw of text.split(",")) {
    const entry = raw.trim();
    if (entry === "loopback") {
      list.addSubnet("127.0.0.0", 8, "ipv4");
      list.addAddress("::1", "ipv6");
    } else if (entry === "private") {
      for (const [a, p] of [
        ["10.0.0.0", 8],
        ["172.16.0.0", 12],
        ["192.168.0.0", 16],
      ])
        list.addSubnet(a, p, "ipv4");
      list.addSubnet("fc00::", 7, "ipv6");
    } else {
      const [address, prefix] = entry.split("/");
      const type = net.isIP(address ?? "") === 6 ? "ipv6" : net.isIP(address ?? "") === 4 ? "ipv4" : null;
      if (!type)
        throw new Error(`KPS_TRUST_PROXY: "${entry}" is not a number of proxies, an IP address, a CIDR range, "loopback" or "private".`);
      if (prefix === undefined) list.addAddress(address, type);
      else {
        const bits = Number(prefix);
        if (!/^\d+$/.test(prefix) || bits > (type === "ipv4" ? 32 : 128))
          throw new Error(`KPS_TRUST_PROXY: "${entry}" has an invalid prefix length.`);
        list.addSubnet(address, bits, type);
      }
    }
  }
  return { kind: "list", list, text };
}

/** "::ffff:1.2.3.4" → "1.2.3.4", "[::1]:80" → "::1", "1.2.3.4:80" → "1.2.3.4"; anything else trimmed. */
export function normalizeAddress(raw) {
  let a = String(raw ?? "").trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(":"));
  if (/^::ffff:\d{1,3}(\.\d{1,3}){3}$/i.test(a)) a = a.slice(7);
  return a;
}

/** Whether `address` is one of the trusted proxies of a list-form setting. */
export function isTrusted(trust, address) {
  if (trust.kind !== "list") return false;
  const a = normalizeAddress(address);
  const type = net.isIP(a);
  return type !== 0 && trust.list.check(a, type === 6 ? "ipv6" : "ipv4");
}

/**
 * The client's address: the right-most hop of [X-Forwarded-For entries…, socket peer] that is not a
 * trusted proxy. Entries left of it were written by the client and are never believed.
 * @param {string | undefined} peer the socket's remote address
 * @param {string | string[] | undefined} forwardedFor the X-Forwarded-For header(s)
 */
export function clientAddressOf(trust, peer, forwardedFor) {
  const socketAddress = normalizeAddress(peer) || "unknown";
  if (trust.kind === "none") return socketAddress;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? "");
  const chain = [...header.split(",").map(normalizeAddress).filter(Boolean), socketAddress];
  if (trust.kind === "count") return chain[Math.max(0, chain.length - 1 - trust.hops)];
  for (let i = chain.length - 1; i > 0; i--) if (!isTrusted(trust, chain[i])) return chain[i];
  return chain[0];
}
