import { InlineCode } from "@/components/ui/inline-code";

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Identity Verification</h1>
      <p className="mt-4 text-slate-600">
        Hosted verification sessions, an OpenID Connect provider and an organization API, self-hosted.
      </p>
      <p className="mt-6">
        <a className="font-semibold text-blue-700 underline" href="/sign-in">
          Developer portal: sign in
        </a>
      </p>
      <p className="mt-3">
        <a className="font-semibold text-blue-700 underline" href="/docs">
          API reference
        </a>
      </p>
      <ul className="mt-8 space-y-2 text-sm">
        <li>
          Verification API: <InlineCode>/api/v2</InlineCode>
        </li>
        <li>
          Organization API: <InlineCode>/api/sdk</InlineCode>
        </li>
        <li>
          Health:{" "}
          <a className="text-blue-700 underline" href="/api/health">
            /api/health
          </a>
        </li>
      </ul>
    </main>
  );
}
