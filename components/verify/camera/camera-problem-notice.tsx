"use client";

import { useMessages } from "../i18n";
import { Notice } from "../ui/notice";
import { buttonClass } from "../ui/button";
import { isEmbedded, type CameraProblem } from "./camera-problems";

/**
 * The plain-words explanation of a camera problem, with the way out that
 * fits it: inside an iframe that blocks the camera, a link that opens the
 * same session in its own tab.
 */
export function CameraProblemNotice({ problem, newTabUrl }: { problem: CameraProblem; newTabUrl?: string | null }) {
  const t = useMessages();
  const text = t.camera.problems[problem];
  return (
    <Notice tone="error" title={text.title}>
      <p>{text.body}</p>
      {newTabUrl && (problem === "blocked_by_embedding" || (problem === "permission_denied" && isEmbedded())) && (
        <a href={newTabUrl} target="_blank" rel="noopener noreferrer" className={buttonClass("primary", "mt-3")}>
          {t.camera.openInNewTab}
        </a>
      )}
    </Notice>
  );
}
