import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CrowdApp } from "@/components/crowd/crowd-app";
import { entryParamsOf } from "@/components/crowd/crowd-params";

type Props = { params: Promise<{ key: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export const metadata: Metadata = { title: "Annotation study" };

/** An entry key is 128 random bits in base64url (22 characters); anything else is no entry. */
const ENTRY_KEY = /^[A-Za-z0-9_-]{16,64}$/;

// GET /crowd/{entryKey}?PROLIFIC_PID=… | ?workerId=…&assignmentId=… | ?worker=… — the crowd worker's page.
export default async function CrowdEntryPage({ params, searchParams }: Props) {
  const { key } = await params;
  if (!ENTRY_KEY.test(key)) notFound();
  return <CrowdApp entryKey={key} params={entryParamsOf(await searchParams)} />;
}
