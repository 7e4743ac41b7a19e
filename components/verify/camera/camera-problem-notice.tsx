"use client";

import { useTranslations } from "next-intl";
import { Notice } from "../ui/notice";
import { buttonClass } from "../ui/button";
import { isEmbedded, suggestsHandoff, type CameraProblem } from "./camera-problems";

/** The browsers the phone help names, in order (messages `camera.phone.browsers.<n>`). */
const PHONE_BROWSERS = ["0", "1"] as const;

/**
 * The plain-words explanation of a camera problem, with the way out that
 * fits it: inside an iframe that blocks the camera, a link that opens the
 * same session in its own tab; on a phone (`phone`), how to allow the camera
 * in Chrome on Android and Safari on iPhone or iPad, and, where the step
 * takes a picture (`cameraApp`), a note that the camera app can be used instead;
 * on a desktop page that offers the QR hand-off (`handoff`), a pointer to it.
 */
export function CameraProblemNotice({
  problem,
  newTabUrl,
  phone = false,
  cameraApp = false,
  handoff = false,
}: {
  problem: CameraProblem;
  newTabUrl?: string | null;
  phone?: boolean;
  cameraApp?: boolean;
  handoff?: boolean;
}) {
  const t = useTranslations("verify");
  const phoneHelp = phone && problem === "permission_denied" && !isEmbedded();
  return (
    <Notice tone="error" title={t(`camera.problems.${problem}.title`)}>
      {phoneHelp ? (
        <div data-testid="phone-camera-help">
          <p>{t("camera.phone.permissionIntro")}</p>
          <ul className="mt-2 list-disc space-y-2 ps-5">
            {PHONE_BROWSERS.map((b) => (
              <li key={b}>
                <strong>{t(`camera.phone.browsers.${b}.name`)}:</strong> {t(`camera.phone.browsers.${b}.steps`)}
              </li>
            ))}
          </ul>
          <p className="mt-2">{t("camera.phone.otherBrowsers")}</p>
        </div>
      ) : (
        <p>{phone && problem === "not_found" ? t("camera.phone.noCamera") : t(`camera.problems.${problem}.body`)}</p>
      )}
      {phone && cameraApp && <p className="mt-2">{t("camera.phone.cameraApp")}</p>}
      {suggestsHandoff(problem, { phone, handoff }) && <p className="mt-2">{t("camera.orContinueOnPhone")}</p>}
      {newTabUrl && (problem === "blocked_by_embedding" || (problem === "permission_denied" && isEmbedded())) && (
        <a href={newTabUrl} target="_blank" rel="noopener noreferrer" className={buttonClass("primary", "mt-3")}>
          {t("camera.openInNewTab")}
        </a>
      )}
    </Notice>
  );
}
