import type { BlockList } from "node:net";

export type TrustProxy = { kind: "none" } | { kind: "count"; hops: number } | { kind: "list"; list: BlockList; text: string };
export function parseTrustProxy(value: string | undefined): TrustProxy;
export function normalizeAddress(raw: string | undefined): string;
export function isTrusted(trust: TrustProxy, address: string | undefined): boolean;
export function clientAddressOf(trust: TrustProxy, peer: string | undefined, forwardedFor: string | string[] | undefined): string;
