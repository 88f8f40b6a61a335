import Link from "next/link";

export default function NotFound() {
  return (
    <main className="narrow">
      <div className="card">
        <h1>Not found</h1>
        <p>There is nothing at this address.</p>
        <Link href="/">Go to the start page</Link>
      </div>
    </main>
  );
}
