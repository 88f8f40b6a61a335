import type { ServerResponse } from "node:http";

export interface MalformedSegment {
  position: number;
  segment: string;
}
export function malformedSegment(url: string): MalformedSegment | undefined;
export function answerMalformedSegment(res: ServerResponse, url: string, bad: MalformedSegment): void;
