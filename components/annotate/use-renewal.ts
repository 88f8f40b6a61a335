"use client";

import { useEffect, useRef } from "react";
import { renewClaim } from "@/components/api/annotate";
import { ApiError } from "@/components/api/client";

/**
 * Renews a claim every lease/3 while it is mounted (the passage is on screen or prefetched), so it
 * never lapses mid-read; stops on 410 (expired, or ended because its batch was paused or closed).
 */
export function useRenewal(claim: string | null, leaseMs: number | null, onGone: (claim: string) => void): void {
  const onGoneRef = useRef(onGone);
  useEffect(() => {
    onGoneRef.current = onGone;
  });
  useEffect(() => {
    if (claim === null || leaseMs === null) return;
    const every = Math.min(Math.max(leaseMs / 3, 5_000), 30 * 60_000);
    let stopped = false;
    const timer = setInterval(() => {
      renewClaim(claim).catch((error: unknown) => {
        if (stopped) return;
        if (error instanceof ApiError && (error.status === 410 || error.status === 404 || error.status === 403)) {
          stopped = true;
          clearInterval(timer);
          onGoneRef.current(claim);
        }
        // Network trouble: the next tick tries again.
      });
    }, every);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [claim, leaseMs]);
}
