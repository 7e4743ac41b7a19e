import type { ReactNode } from "react";

export const metadata = { title: "Example shop: verified with SVC Identity" };

const page = { fontFamily: "system-ui, sans-serif", maxWidth: "40rem", margin: "2rem auto", padding: "0 1rem", lineHeight: 1.5 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={page}>{children}</body>
    </html>
  );
}
