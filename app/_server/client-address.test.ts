import { describe, expect, it } from "vitest";
import { clientAddressOf, isTrusted, normalizeAddress, parseTrustProxy } from "../../server/client-address.mjs";

// The production server's address picking (server/client-address.mjs), as a pure function.
describe("clientAddressOf", () => {
  it("without KPS_TRUST_PROXY is the socket's peer; X-Forwarded-For is ignored", () => {
    for (const value of [undefined, "", "0"]) {
      expect(clientAddressOf(parseTrustProxy(value), "::ffff:198.51.100.7", "203.0.113.1")).toBe("198.51.100.7");
    }
  });

  it("with one proxy is the last X-Forwarded-For entry: entries the client wrote to the left are not believed", () => {
    const one = parseTrustProxy("1");
    expect(clientAddressOf(one, "127.0.0.1", "198.51.100.7")).toBe("198.51.100.7");
    // The client sent "X-Forwarded-For: 10.9.9.9"; the proxy appended the address it saw.
    expect(clientAddressOf(one, "127.0.0.1", "10.9.9.9, 198.51.100.7")).toBe("198.51.100.7");
    expect(clientAddressOf(one, "127.0.0.1", ["10.9.9.9", "198.51.100.7"])).toBe("198.51.100.7");
    // No header (the proxy did not add one): the proxy itself, never something the client chose.
    expect(clientAddressOf(one, "127.0.0.1", undefined)).toBe("127.0.0.1");
  });

  it("with two proxies (CDN → nginx → app) is the second entry from the right", () => {
    const two = parseTrustProxy("2");
    expect(clientAddressOf(two, "10.0.0.2", "6.6.6.6, 198.51.100.7, 192.0.2.10")).toBe("198.51.100.7");
    expect(clientAddressOf(two, "10.0.0.2", "198.51.100.7, 192.0.2.10")).toBe("198.51.100.7");
    // Shorter than the setting says: the left-most hop there is (still written by a proxy, not chosen freely).
    expect(clientAddressOf(two, "10.0.0.2", "192.0.2.10")).toBe("192.0.2.10");
  });

  it("with a list of trusted proxies is the right-most hop outside the list", () => {
    const list = parseTrustProxy("loopback, 10.0.0.0/8, 2001:db8::1");
    expect(clientAddressOf(list, "127.0.0.1", "6.6.6.6, 198.51.100.7, 10.1.2.3")).toBe("198.51.100.7");
    expect(clientAddressOf(list, "::1", "2001:db8::1, 198.51.100.7")).toBe("198.51.100.7");
    // A caller that reaches the app directly (not through a trusted proxy) is itself the client.
    expect(clientAddressOf(list, "198.51.100.9", "6.6.6.6")).toBe("198.51.100.9");
    // Every hop trusted: the left-most.
    expect(clientAddressOf(list, "127.0.0.1", "10.0.0.5")).toBe("10.0.0.5");
    expect(isTrusted(list, "::ffff:10.4.5.6")).toBe(true);
    expect(isTrusted(list, "11.0.0.1")).toBe(false);
    expect(isTrusted(parseTrustProxy("private"), "192.168.1.20")).toBe(true);
  });

  it("normalises mapped IPv4, brackets and ports", () => {
    expect(normalizeAddress("::ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(normalizeAddress("[2001:db8::5]:443")).toBe("2001:db8::5");
    expect(normalizeAddress(" 1.2.3.4:8080 ")).toBe("1.2.3.4");
    expect(clientAddressOf(parseTrustProxy("1"), "127.0.0.1", "198.51.100.7:51234")).toBe("198.51.100.7");
  });

  it("refuses a setting that is neither a count nor addresses", () => {
    expect(() => parseTrustProxy("yes")).toThrow(/KPS_TRUST_PROXY: "yes"/);
    expect(() => parseTrustProxy("10.0.0.0/40")).toThrow(/prefix length/);
  });
});
