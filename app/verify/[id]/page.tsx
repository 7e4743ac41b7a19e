"use client";

import { useParams } from "next/navigation";
import { VerificationFlow } from "@/components/verify/verification-flow";

/** The hosted verification page of one session; everything runs in the browser (components/verify/). */
export default function VerifyPage() {
  const { id } = useParams<{ id: string }>();
  return <VerificationFlow sessionId={decodeURIComponent(id)} />;
}
