import Link from "next/link";
import { SignOutButton } from "@/components/auth/sign-out-button";

export function TopBar({ username, role }: { username: string; role: string }) {
  return (
    <header className="topbar">
      <Link className="brand" href="/">
        KILT Provenance Studio
      </Link>
      {role === "coordinator" && (
        <nav aria-label="Main" style={{ display: "flex", gap: "1rem" }}>
          <Link href="/campaigns">Campaigns</Link>
          <Link href="/people">People</Link>
        </nav>
      )}
      <span className="spacer" />
      <span className="who">
        {username} · {role}
      </span>
      <Link href="/account">Account</Link>
      <SignOutButton />
    </header>
  );
}
