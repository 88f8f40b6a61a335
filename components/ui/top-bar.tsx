import Link from "next/link";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { TopBarMenu } from "./top-bar-menu";

/** The bar above every signed-in page: the app's name, then the links (behind "Menu" on a phone). */
export function TopBar({ username, role }: { username: string; role: string }) {
  return (
    <header className="topbar">
      <Link className="brand" href="/">
        KILT Provenance Studio
      </Link>
      <TopBarMenu>
        {role === "coordinator" && (
          <nav aria-label="Main" className="topbar-nav">
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
      </TopBarMenu>
    </header>
  );
}
