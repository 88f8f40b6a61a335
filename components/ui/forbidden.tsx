import Link from "next/link";

export function Forbidden({ need, home }: { need: string; home: string }) {
  return (
    <main className="narrow">
      <div className="card" role="alert">
        <h1>Not allowed</h1>
        <p>This page is for {need}s only.</p>
        <p>
          <Link href={home}>Go to your home page</Link>
        </p>
      </div>
    </main>
  );
}
