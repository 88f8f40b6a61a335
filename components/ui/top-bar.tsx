import Link from "next/link";
import { SignOutButton } from "@/components/auth/sign-out-button";

export function TopBar({ username, role }: { username: string; role: string }) {
  return (
    <header className="topbar">
      <Link className="brand" href="/">
        KILT Provenance Studio
      </Link>
      <span className="spacer" />
      <span className="who">
        {username} · {role}
      </span>
      <SignOutButton />
    </header>
  );
}
